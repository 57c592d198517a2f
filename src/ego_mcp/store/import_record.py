"""What ``ego-mcp migrate`` has imported into an agent, for good: ids only, in a Chroma
collection (``ego-{agent}-imported``) beside the memories, so that a later run never brings
back a memory forgotten or merged away since, even after its deletion-log entry is purged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ego_mcp.store.chroma import WRITE_BATCH, open_id_collection, present_ids

KIND = "imported"
PLACEHOLDER = [1.0]  # found by id only: no embedding, no text


class ImportRecord:
    """The ids one agent was given by ``migrate``."""

    def __init__(self, collection: Any) -> None:
        self._collection = collection

    @classmethod
    def open(cls, client: Any, agent: str) -> ImportRecord:
        return cls(open_id_collection(client, agent, KIND))

    def known(self, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` imported before."""
        return present_ids(self._collection, ids)

    def note(self, ids: Sequence[str]) -> None:
        for start in range(0, len(ids), WRITE_BATCH):
            batch = list(ids[start : start + WRITE_BATCH])
            self._collection.upsert(ids=batch, embeddings=[PLACEHOLDER] * len(batch))

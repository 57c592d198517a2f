"""What ``ego-mcp migrate`` has imported into an agent, for good: ids only, in a Chroma
collection (``ego-{agent}-imported``) beside the memories, so that a later run never brings
back a memory forgotten or merged away since, even after its deletion-log entry is purged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ego_mcp.store.chroma import (
    READ_BATCH,
    WRITE_BATCH,
    ReachableCollection,
    collection_name,
    hnsw_configuration,
    tune_writes,
)

KIND = "imported"
PLACEHOLDER = [1.0]  # found by id only: no embedding, no text


class ImportRecord:
    """The ids one agent was given by ``migrate``."""

    def __init__(self, collection: Any) -> None:
        self._collection = collection

    @classmethod
    def open(cls, client: Any, agent: str) -> ImportRecord:
        collection = client.get_or_create_collection(
            collection_name(agent, KIND),
            embedding_function=None,
            configuration={"hnsw": hnsw_configuration("l2")},
            metadata={"kind": KIND},
        )
        return cls(ReachableCollection(tune_writes(collection)))

    def known(self, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` imported before."""
        found: set[str] = set()
        for start in range(0, len(ids), READ_BATCH):
            page = self._collection.get(ids=list(ids[start : start + READ_BATCH]), include=[])
            found.update(page["ids"])
        return found

    def note(self, ids: Sequence[str]) -> None:
        for start in range(0, len(ids), WRITE_BATCH):
            batch = list(ids[start : start + WRITE_BATCH])
            self._collection.upsert(ids=batch, embeddings=[PLACEHOLDER] * len(batch))

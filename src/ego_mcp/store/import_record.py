"""What ``ego-mcp migrate`` has imported into an agent, for good: ids only, in a Chroma
collection (``ego-{agent}-imported``) beside the memories, so that a later run never brings
back a memory forgotten or merged away since, even after its deletion-log entry is purged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ego_mcp.store.chroma import note_ids, open_id_collection, present_ids

KIND = "imported"


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
        note_ids(self._collection, ids)

"""What ``ego-mcp migrate`` has imported into an agent, for good: ids only, in a Chroma
collection (``ego-{agent}-imported``) beside the memories, so that a later run never brings
back a memory forgotten or merged away since, even after its deletion-log entry is purged.
"""

from __future__ import annotations

from collections.abc import Sequence

from ego_mcp.store.chroma import IdRecord, note_ids


class ImportRecord(IdRecord):
    """The ids one agent was given by ``migrate``."""

    KIND = "imported"

    def note(self, ids: Sequence[str]) -> None:
        note_ids(self._collection, ids)

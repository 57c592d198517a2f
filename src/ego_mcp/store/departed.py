"""What left an agent's store, for good: the id of every memory forgotten or merged away,
with a SHA-256 of its text and never the text, in a Chroma collection
(``ego-{agent}-departed``) beside the memories. The deletion log keeps a memory's text for
its undo window only; the purge that ends the window notes the memory here, and this
record outlives the entry, so that ``import`` of an older backup and
``migrate`` never bring back what was forgotten (a resumed ``reembed`` mirrors the live
store instead). A memory ``restore_memory`` or ``import --include-forgotten`` brings back
leaves it."""

from __future__ import annotations

from collections.abc import Sequence

from ego_mcp.memory.model import content_hash
from ego_mcp.store.chroma import IdRecord, delete_ids, note_ids


class ChromaDepartedRecord(IdRecord):
    """The ``DepartedRecord`` of one agent."""

    KIND = "departed"

    def note(self, departed: Sequence[tuple[str, str]]) -> None:
        note_ids(
            self._collection,
            [memory_id for memory_id, _ in departed],
            [{"sha256": content_hash(text)} for _, text in departed],
        )

    def returned(self, memory_ids: Sequence[str]) -> None:
        delete_ids(self._collection, memory_ids)

"""The deletion log over a Chroma collection (``ego-{agent}-forgotten``), beside the
agent's memories: in embedded mode in the same data dir, with a Chroma server on it.

Entries are found by id and by deletion time, never by meaning, so each carries a
constant one-dimensional vector rather than an embedding: the log does not depend on
the embedding model, and a restored memory is embedded again by the current one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ego_mcp.memory.model import DeletedMemory
from ego_mcp.store.chroma import delete_ids, open_id_collection, pages, present_ids, records
from ego_mcp.store.codec import deleted_from_record, deleted_to_metadata

KIND = "forgotten"
PLACEHOLDER_VECTOR = [[1.0]]
_RECORD = ["documents", "metadatas"]


def open_deletion_log(client: Any, agent: str) -> ChromaDeletionLog:
    return ChromaDeletionLog(open_id_collection(client, agent, KIND))


class ChromaDeletionLog:
    """The ``DeletionLog`` of one agent."""

    def __init__(self, collection: Any) -> None:
        self._collection = collection

    def put(self, entry: DeletedMemory) -> None:
        self._collection.upsert(
            ids=[entry.memory.id],
            embeddings=PLACEHOLDER_VECTOR,
            documents=[entry.memory.content],
            metadatas=[deleted_to_metadata(entry)],
        )

    def get(self, memory_id: str) -> DeletedMemory | None:
        found = _entries(self._collection.get(ids=[memory_id], include=_RECORD))
        return found[0] if found else None

    def logged_ids(self, memory_ids: Sequence[str]) -> set[str]:
        return present_ids(self._collection, memory_ids)

    def remove(self, memory_id: str) -> None:
        self._collection.delete(ids=[memory_id])

    def entries(self) -> list[DeletedMemory]:
        found = [e for page in pages(self._collection, _RECORD) for e in _entries(page)]
        return sorted(found, key=lambda entry: entry.deleted_at)

    def merges_into(self, keep_id: str) -> list[DeletedMemory]:
        found = _entries(self._collection.get(where={"merged_into": keep_id}, include=_RECORD))
        return sorted(found, key=lambda entry: entry.deleted_at)

    def purge(self, memory_ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(memory_ids))
        delete_ids(self._collection, ids)
        return len(ids)


def _entries(result: dict[str, Any]) -> list[DeletedMemory]:
    return [deleted_from_record(*record) for record in records(result)]

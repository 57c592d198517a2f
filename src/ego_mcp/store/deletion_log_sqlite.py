"""The deletion log of the embedded store: a SQLite file per agent beside Chroma
(``forgotten/{agent}.sqlite3`` in the data dir).

A ``forget`` writes its entry before the memory leaves the store. In a Chroma collection
(``store/deletion_log.py``, what a Chroma server keeps) that write cost 8-9 ms, as any
embedded Chroma write does; here it is one SQLite commit, synced to disk (a power cut
after the memory's deletion loses no entry), about 0.35 ms.

Each row holds what a Chroma record of the log would: the memory's text and the entry's
metadata (``codec.deleted_to_metadata``), with the two fields the log is read by
(deletion time, the memory merged into) in columns of their own. Removed and purged rows
are overwritten on disk (``secure_delete``) and the write-ahead log emptied, so a purged
memory's text does not stay in the file. Entries a Chroma collection of the agent holds
(written by an older ego-mcp) move here when the log opens (``adopt_chroma_entries``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ego_mcp.file_modes import private_file
from ego_mcp.memory.model import DeletedMemory
from ego_mcp.store.chroma import collection_name, collection_names, pages, records
from ego_mcp.store.codec import deleted_from_record, deleted_to_metadata
from ego_mcp.store.deletion_log import KIND
from ego_mcp.store.sqlite_files import chunks, transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    memory_id TEXT PRIMARY KEY,
    deleted_at REAL NOT NULL,
    merged_into TEXT NOT NULL,
    content TEXT NOT NULL,
    metadata TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_merged_into ON entries (merged_into);
"""
COLUMNS = "memory_id, content, metadata"

Row = tuple[str, str | None, dict[str, Any]]  # id, text, metadata: a Chroma record's parts


def deletion_log_path(data_dir: Path, agent: str) -> Path:
    return data_dir / "forgotten" / f"{agent}.sqlite3"


class SqliteDeletionLog:
    """The ``DeletionLog`` of one agent in the embedded store (thread-safe)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        private_file(path)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode = WAL")
            # The entry is the only copy of a memory once it is deleted: each commit is
            # synced, not only a checkpoint.
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA secure_delete = ON")
            self._db.execute("PRAGMA busy_timeout = 5000")
            self._db.executescript(SCHEMA)
            # A process stopped between a purge's commit and its checkpoint left the
            # purged text in the write-ahead log: emptied now.
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def put(self, entry: DeletedMemory) -> None:
        self.keep([(entry.memory.id, entry.memory.content, deleted_to_metadata(entry))])

    def keep(self, rows: Iterable[Row], newer_only: bool = False) -> int:
        """Write entries as a Chroma record of the log holds them, replacing an entry of
        the same memory; with ``newer_only``, only one deleted earlier. How many were
        written."""
        values = [
            (
                memory_id,
                float(meta["deleted_at"]),
                str(meta.get("merged_into") or ""),
                document or "",
                json.dumps(meta),
            )
            for memory_id, document, meta in rows
        ]
        condition = "WHERE excluded.deleted_at > entries.deleted_at" if newer_only else ""
        with self._lock, transaction(self._db):
            before = self._db.total_changes
            self._db.executemany(
                "INSERT INTO entries (memory_id, deleted_at, merged_into, content, metadata) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (memory_id) DO UPDATE SET "
                "deleted_at = excluded.deleted_at, merged_into = excluded.merged_into, "
                f"content = excluded.content, metadata = excluded.metadata {condition}",
                values,
            )
            return self._db.total_changes - before

    def get(self, memory_id: str) -> DeletedMemory | None:
        found = self._read(f"SELECT {COLUMNS} FROM entries WHERE memory_id = ?", (memory_id,))
        return found[0] if found else None

    def logged_ids(self, memory_ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        unique = list(dict.fromkeys(memory_ids))
        with self._lock:
            for batch in chunks(unique):
                marks = ",".join("?" * len(batch))
                query = f"SELECT memory_id FROM entries WHERE memory_id IN ({marks})"
                found.update(row[0] for row in self._db.execute(query, batch))
        return found

    def remove(self, memory_id: str) -> None:
        self._delete([memory_id])

    def entries(self) -> list[DeletedMemory]:
        return self._read(f"SELECT {COLUMNS} FROM entries ORDER BY deleted_at, memory_id", ())

    def merges_into(self, keep_id: str) -> list[DeletedMemory]:
        return self._read(
            f"SELECT {COLUMNS} FROM entries WHERE merged_into = ? ORDER BY deleted_at, memory_id",
            (keep_id,),
        )

    def purge(self, memory_ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(memory_ids))
        self._delete(ids)
        return len(ids)

    def _delete(self, memory_ids: list[str]) -> None:
        """Delete the entries, leaving none of their text in the file or its log."""
        with self._lock, transaction(self._db):
            for batch in chunks(memory_ids):
                marks = ",".join("?" * len(batch))
                self._db.execute(f"DELETE FROM entries WHERE memory_id IN ({marks})", batch)
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _read(self, query: str, parameters: tuple[str, ...]) -> list[DeletedMemory]:
        with self._lock:
            rows = self._db.execute(query, parameters).fetchall()
        return [
            deleted_from_record(memory_id, text, json.loads(meta)) for memory_id, text, meta in rows
        ]


def adopt_chroma_entries(client: Any, agent: str, log: SqliteDeletionLog) -> tuple[int, int]:
    """Move the entries of the agent's Chroma collection of the log (an older ego-mcp
    kept it there) into ``log``, then drop the collection: how many were written, and
    how many records were unreadable (no deletion time) and left out. Copied before the
    drop, so a run stopped between the two copies again at the next open; an entry the
    file holds from a later deletion of the same memory (an older version run again
    after this one) is kept."""
    name = collection_name(agent, KIND)
    if name not in collection_names(client):
        return 0, 0
    collection = client.get_collection(name, embedding_function=None)
    moved = unreadable = 0
    for page in pages(collection, ["documents", "metadatas"]):
        rows = list(records(page))
        readable = [row for row in rows if _deletion_time(row[2]) is not None]
        unreadable += len(rows) - len(readable)
        moved += log.keep(readable, newer_only=True)
    client.delete_collection(name)
    return moved, unreadable


def _deletion_time(meta: dict[str, Any]) -> float | None:
    try:
        return float(meta["deleted_at"])
    except (KeyError, TypeError, ValueError):
        return None

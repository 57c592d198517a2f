"""The deletion log of the embedded store: a SQLite file per agent beside Chroma
(``forgotten/{agent}.sqlite3`` in the data dir).

A ``forget`` writes its entry before the memory leaves the store. In a Chroma collection
(``store/deletion_log.py``, what a Chroma server keeps) that write cost 8-9 ms, as any
embedded Chroma write does; here it is one SQLite commit, synced to disk (a power cut
after the memory's deletion loses no entry), about 0.4 ms.

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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ego_mcp.file_modes import private_file
from ego_mcp.memory.model import DeletedMemory
from ego_mcp.store.chroma import collection_name, collection_names, pages, records
from ego_mcp.store.codec import deleted_from_record, deleted_to_metadata
from ego_mcp.store.deletion_log import KIND

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    memory_id TEXT PRIMARY KEY,
    deleted_at REAL NOT NULL,
    merged_into TEXT NOT NULL,
    content TEXT NOT NULL,
    metadata TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_merged_into ON entries (merged_into) WHERE merged_into != '';
"""
COLUMNS = "memory_id, content, metadata"
SQL_VARIABLES = 500  # ids per IN (...) list

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

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def put(self, entry: DeletedMemory) -> None:
        self.keep([(entry.memory.id, entry.memory.content, deleted_to_metadata(entry))])

    def keep(self, rows: Iterable[Row], replace: bool = True) -> int:
        """Write entries as a Chroma record of the log holds them; with ``replace`` False,
        an entry already here stays as it is. How many rows were given."""
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
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
        with self._transaction():
            self._db.executemany(
                f"{verb} INTO entries (memory_id, deleted_at, merged_into, content, metadata) "
                "VALUES (?, ?, ?, ?, ?)",
                values,
            )
        return len(values)

    def get(self, memory_id: str) -> DeletedMemory | None:
        found = self._read(f"SELECT {COLUMNS} FROM entries WHERE memory_id = ?", (memory_id,))
        return found[0] if found else None

    def logged_ids(self, memory_ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        unique = list(dict.fromkeys(memory_ids))
        with self._lock:
            for batch in _batches(unique):
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
        with self._transaction():
            for batch in _batches(memory_ids):
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

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")


def adopt_chroma_entries(client: Any, agent: str, log: SqliteDeletionLog) -> int:
    """Move the entries of the agent's Chroma collection of the log (an older ego-mcp
    kept it there) into ``log``, then drop the collection; how many moved. Copied before
    the drop and never over an entry ``log`` has, so a run stopped between the two moves
    the same entries again at the next open and loses none."""
    name = collection_name(agent, KIND)
    if name not in collection_names(client):
        return 0
    collection = client.get_collection(name, embedding_function=None)
    moved = 0
    for page in pages(collection, ["documents", "metadatas"]):
        moved += log.keep(records(page), replace=False)
    client.delete_collection(name)
    return moved


def _batches(ids: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(ids), SQL_VARIABLES):
        yield ids[start : start + SQL_VARIABLES]

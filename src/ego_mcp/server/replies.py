"""The reply journal: the first answer of every state-changing call a shared stdio server
ran for a client session, so that a call sent again after a hand-over of the store is
answered with it instead of being done twice.

Keyed by the session's id (the relay's own) and the JSON-RPC request id. A call is noted
as begun before it runs and as answered before its answer goes out, in a SQLite file
beside the store (mode 0600) that the next holder opens; entries older than
``KEEP_SECONDS`` go, since a replay comes within seconds of a hand-over: when a call
starts, when the journal opens and when it closes. Deleted rows are overwritten
(``secure_delete``) and the write-ahead log emptied, so an answer that quoted a memory
does not stay on disk after its entry goes; a purge of the deletion log also removes the
answers that name the purged memories (``forget_about``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ego_mcp.file_modes import private_file

FILE_NAME = "replies.sqlite3"
KEEP_SECONDS = 600.0
PRUNE_EVERY_SECONDS = 60.0
SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    at REAL NOT NULL,
    answer TEXT,
    is_error INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS replies_at ON replies (at);
"""


@dataclass(frozen=True)
class Earlier:
    """What the journal knows of a call's first try: begun only, or answered."""

    answer: str | None  # the answer as sent (a CallToolResult's JSON, or an error's text)
    is_error: bool

    @property
    def answered(self) -> bool:
        return self.answer is not None


class ReplyJournal:
    """The journal file of one data dir (thread-safe; blocking calls)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._guard = threading.Lock()
        self._pruned = 0.0

    @classmethod
    def open(cls, data_dir: Path) -> ReplyJournal:
        path = data_dir / FILE_NAME
        private_file(path)
        connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute("PRAGMA secure_delete=ON")
        connection.executescript(SCHEMA)
        journal = cls(connection)
        try:
            journal.prune()
        except sqlite3.Error:
            connection.close()
            raise
        return journal

    def prune(self) -> None:
        """Drop the entries past ``KEEP_SECONDS``, leaving none of their text on disk."""
        with self._guard:
            self._prune_held()

    def _prune_held(self) -> None:
        now = time.time()
        self._connection.execute("DELETE FROM replies WHERE at < ?", (now - KEEP_SECONDS,))
        self._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._pruned = now

    def forget_about(self, memory_ids: list[str]) -> int:
        """Drop the answers that name any of ``memory_ids`` (purged memories); how many."""
        dropped = 0
        with self._guard:
            for memory_id in memory_ids:
                cursor = self._connection.execute(
                    "DELETE FROM replies WHERE instr(answer, ?) > 0", (memory_id,)
                )
                dropped += cursor.rowcount
            self._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return dropped

    def begin(self, key: str) -> None:
        """Note that the call ``key`` starts (a replay of it will know it may be done)."""
        now = time.time()
        with self._guard:
            if now - self._pruned > PRUNE_EVERY_SECONDS:
                self._prune_held()
            self._connection.execute(
                "INSERT OR REPLACE INTO replies (key, at) VALUES (?, ?)", (key, now)
            )

    def finish(self, key: str, answer: str, is_error: bool) -> None:
        """Keep the answer the call ``key`` gave."""
        with self._guard:
            self._connection.execute(
                "UPDATE replies SET answer = ?, is_error = ? WHERE key = ?",
                (answer, int(is_error), key),
            )

    def lookup(self, key: str) -> Earlier | None:
        """The first try of ``key``, if it got under way."""
        with self._guard:
            row = self._connection.execute(
                "SELECT answer, is_error FROM replies WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else Earlier(row[0], bool(row[1]))

    def close(self) -> None:
        try:
            self.prune()
        finally:
            with self._guard:
                self._connection.close()

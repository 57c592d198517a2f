"""The lexical index of the embedded store: SQLite FTS5 beside Chroma, a file per agent.

Each memory's terms (``memory/terms.py``) are stored space-separated in an FTS5 table,
so FTS5's own tokenizer only splits at the spaces; ``fts5vocab`` gives each term's
document frequency without reading a posting. A lookup walks the postings of the rarest
query terms first and stops at ``POSTING_BUDGET``: a term in most memories (the, の)
would cost tens of milliseconds at 100,000 memories and adds almost nothing to BM25.
Only this process writes the file (the embedded store's directory lock), so the
statistics are counted once at open and kept up to date in memory.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ego_mcp.memory.bm25 import CorpusStats, scripts_of
from ego_mcp.memory.store import LexicalLookup

POSTING_BUDGET = 20_000
SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    memory_id TEXT NOT NULL UNIQUE,
    japanese INTEGER NOT NULL,
    latin INTEGER NOT NULL,
    length INTEGER NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS terms
    USING fts5(text, tokenize = 'unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE IF NOT EXISTS vocabulary USING fts5vocab(terms, 'row');
"""
SQL_VARIABLES = 500  # ids per IN (...) list


def lexical_path(data_dir: Path, agent: str) -> Path:
    return data_dir / "lexical" / f"{agent}.sqlite3"


class SqliteLexicalIndex:
    """The ``LexicalIndex`` of one agent in the embedded store."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode = WAL")
            # A killed process loses nothing committed; a power cut may lose the last
            # commits, which the next open's reconcile puts back from Chroma. No fsync a save.
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(SCHEMA)
        self._stats = CorpusStats()
        self.recount()

    def recount(self) -> None:
        with self._lock:
            row = self._db.execute(
                "SELECT count(*), total(japanese), total(latin), total(length) FROM documents"
            ).fetchone()
            self._stats = CorpusStats(*(int(value) for value in row))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def put(self, documents: Mapping[str, Sequence[str]]) -> None:
        with self._lock, self._transaction():
            self._delete(list(documents))
            for memory_id, document in documents.items():
                japanese, latin = scripts_of(document)
                cursor = self._db.execute(
                    "INSERT INTO documents (memory_id, japanese, latin, length) "
                    "VALUES (?, ?, ?, ?)",
                    (memory_id, japanese, latin, len(document)),
                )
                self._db.execute(
                    "INSERT INTO terms (rowid, text) VALUES (?, ?)",
                    (cursor.lastrowid, " ".join(document)),
                )
            self._stats = self._stats.with_documents(documents.values())

    def remove(self, memory_ids: Sequence[str]) -> None:
        with self._lock, self._transaction():
            self._delete(memory_ids)

    def _delete(self, memory_ids: Sequence[str]) -> None:
        """Under the lock, in a transaction: drop these memories' rows and their share of
        the statistics."""
        for chunk in _chunks(list(memory_ids)):
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT id, japanese, latin, length FROM documents WHERE memory_id IN ({marks})",
                chunk,
            ).fetchall()
            if not rows:
                continue
            ids = [row[0] for row in rows]
            id_marks = ",".join("?" * len(ids))
            self._db.execute(f"DELETE FROM terms WHERE rowid IN ({id_marks})", ids)
            self._db.execute(f"DELETE FROM documents WHERE id IN ({id_marks})", ids)
            gone = CorpusStats(
                len(rows),
                sum(row[1] for row in rows),
                sum(row[2] for row in rows),
                sum(row[3] for row in rows),
            )
            self._stats = self._stats.minus(gone)

    def lookup(self, query: Sequence[str], limit: int, also: Sequence[str]) -> LexicalLookup:
        distinct = sorted(set(query))
        with self._lock:
            frequencies = self._frequencies(distinct)
            rowids = self._best_matches(frequencies, limit)
            rowids.extend(self._rowids_of(also))
            documents = self._documents(rowids)
            stats = self._stats
        return LexicalLookup(frequencies, stats, documents)

    def _frequencies(self, distinct: list[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for term in distinct:
            row = self._db.execute("SELECT doc FROM vocabulary WHERE term = ?", (term,)).fetchone()
            found[term] = int(row[0]) if row else 0
        return found

    def _best_matches(self, frequencies: Mapping[str, int], limit: int) -> list[int]:
        """Rowids of the memories FTS5 ranks best for the rarest query terms."""
        chosen: list[str] = []
        walked = 0
        for term in sorted((t for t, f in frequencies.items() if f), key=frequencies.__getitem__):
            if chosen and walked + frequencies[term] > POSTING_BUDGET:
                break
            chosen.append(term)
            walked += frequencies[term]
        if not chosen:
            return []
        match = " OR ".join('"' + term.replace('"', '""') + '"' for term in chosen)
        rows = self._db.execute(
            "SELECT rowid FROM terms WHERE terms MATCH ? ORDER BY bm25(terms) LIMIT ?",
            (match, limit),
        ).fetchall()
        return [row[0] for row in rows]

    def _rowids_of(self, memory_ids: Sequence[str]) -> list[int]:
        found: list[int] = []
        for chunk in _chunks(list(memory_ids)):
            marks = ",".join("?" * len(chunk))
            found.extend(
                row[0]
                for row in self._db.execute(
                    f"SELECT id FROM documents WHERE memory_id IN ({marks})", chunk
                )
            )
        return found

    def _documents(self, rowids: list[int]) -> dict[str, tuple[str, ...]]:
        found: dict[str, tuple[str, ...]] = {}
        for chunk in _chunks(list(dict.fromkeys(rowids))):
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                "SELECT documents.memory_id, terms.text FROM documents "
                f"JOIN terms ON terms.rowid = documents.id WHERE documents.id IN ({marks})",
                chunk,
            )
            found.update((memory_id, tuple(text.split())) for memory_id, text in rows)
        return found

    def ids(self) -> set[str]:
        with self._lock:
            return {row[0] for row in self._db.execute("SELECT memory_id FROM documents")}

    def count(self) -> int:
        with self._lock:
            return self._stats.documents

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")


def _chunks(values: list[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(values), SQL_VARIABLES):
        yield values[start : start + SQL_VARIABLES]

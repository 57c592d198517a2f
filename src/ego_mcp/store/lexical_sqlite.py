"""The lexical index of the embedded store: SQLite FTS5 beside Chroma, a file per agent.

Each memory's terms (``memory/recall/terms.py``) are stored space-separated in an FTS5 table,
so FTS5's own tokenizer only splits at the spaces. Each term's document frequency is
kept in a table of its own, written in the same transaction (FTS5's ``fts5vocab`` scans
the whole vocabulary for each term: 0.9 ms a term at 100,000 memories). A lookup walks
the postings of the rarest query terms, up to ``POSTING_BUDGET`` in all (FTS5 ranks about
1.3 µs a posting): a term in more memories than that (the, の) says little about which
memory is meant, and it still counts in every candidate's score. Only this process
writes the file (the embedded store's directory lock), so the statistics are counted
once at open and kept up to date in memory.

A row keeps the hash of the text it was read from and whether the vector store's write
it goes with is known to be done (``settled``); the unsettled rows, a handful at most, are
what a partial index lists and what the check at open reads.

A row also keeps the memory its memory follows in its sitting (``Memory.follows``), so
recall finds a hit's neighbours here: two Chroma reads fewer a recall (a read by id of the
hits' records and a metadata filter, 4-5 ms of 20 at 1,000 memories). Rows written before
it was kept hold NULL (``unplaced``) until the store fills them from the records at the
next open; until then ``sitting`` answers None and the store asks Chroma. Whether the
memory's text ends by asking (``asks``) is kept the same way: NULL in a row written before,
filled at the next open, and counted as not asking meanwhile.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path

from ego_mcp.memory.recall.bm25 import CorpusStats, scripts_of, walked_terms
from ego_mcp.memory.store import IndexedText, LexicalLookup, Sitting
from ego_mcp.store.sqlite_files import chunks, transaction

POSTING_BUDGET = 5_000
SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    memory_id TEXT NOT NULL UNIQUE,
    japanese INTEGER NOT NULL,
    latin INTEGER NOT NULL,
    length INTEGER NOT NULL,
    digest TEXT,
    settled INTEGER NOT NULL DEFAULT 1,
    follows TEXT,
    asks INTEGER
);
CREATE VIRTUAL TABLE IF NOT EXISTS terms
    USING fts5(text, tokenize = 'unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE IF NOT EXISTS vocabulary USING fts5vocab(terms, 'row');
CREATE TABLE IF NOT EXISTS frequencies (
    term TEXT PRIMARY KEY,
    documents INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS facts (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
"""
JAPANESE_READER = "japanese_reader"
# Files written before rows kept their text's hash gain the two columns (their rows
# settled), and those written before rows kept their sitting or whether their text asks
# the last two (NULL: unplaced).
ADDED_COLUMNS = (
    "digest TEXT",
    "settled INTEGER NOT NULL DEFAULT 1",
    "follows TEXT",
    "asks INTEGER",
)
INDEXES = (
    "CREATE INDEX IF NOT EXISTS unsettled_rows ON documents (memory_id) WHERE settled = 0",
    "CREATE INDEX IF NOT EXISTS followers ON documents (follows)",
    # What ``unplaced`` asks at every check that the index is in step: no table scan.
    "CREATE INDEX IF NOT EXISTS unplaced_rows ON documents (memory_id) "
    "WHERE follows IS NULL OR asks IS NULL",
)
COUNT_IN = (
    "INSERT INTO frequencies (term, documents) VALUES (?, 1) "
    "ON CONFLICT (term) DO UPDATE SET documents = documents + 1"
)
COUNT_OUT = "UPDATE frequencies SET documents = documents - 1 WHERE term = ?"


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
            # commits: a lost row differs in count and is put back at the next open, a lost
            # rewrite only by ``ego-mcp reindex``. No fsync a save.
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(SCHEMA)
            self._add_columns()
            for index in INDEXES:
                self._db.execute(index)
        self._stats = CorpusStats()
        self._placed = False  # until a lookup finds no row unplaced (``_all_placed``)
        self.recount()

    def recount(self) -> None:
        """The statistics counted again, and the term frequencies if the file has none (an
        index written before they were kept); they change in the same transactions as the
        terms, so they never drift."""
        with self._lock:
            row = self._db.execute(
                "SELECT count(*), total(japanese), total(latin), total(length) FROM documents"
            ).fetchone()
            self._stats = CorpusStats(*(int(value) for value in row))
            counted = self._db.execute("SELECT 1 FROM frequencies LIMIT 1").fetchone()
            if self._stats.documents and counted is None:
                with transaction(self._db):
                    self._db.execute("DELETE FROM frequencies")
                    self._db.execute(
                        "INSERT INTO frequencies (term, documents) SELECT term, doc FROM vocabulary"
                    )

    def _add_columns(self) -> None:
        present = {row[1] for row in self._db.execute("PRAGMA table_info(documents)")}
        for column in ADDED_COLUMNS:
            if column.split()[0] not in present:
                self._db.execute(f"ALTER TABLE documents ADD COLUMN {column}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def put(self, documents: Mapping[str, IndexedText], new: bool = False) -> None:
        with self._lock, transaction(self._db):
            if not new:
                self._delete(list(documents))
            for memory_id, document in documents.items():
                japanese, latin = scripts_of(document.terms)
                cursor = self._db.execute(
                    "INSERT INTO documents "
                    "(memory_id, japanese, latin, length, digest, settled, follows, asks) "
                    "VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
                    (
                        memory_id,
                        japanese,
                        latin,
                        len(document.terms),
                        document.digest,
                        document.follows,
                        int(document.asks),
                    ),
                )
                self._db.execute(
                    "INSERT INTO terms (rowid, text) VALUES (?, ?)",
                    (cursor.lastrowid, " ".join(document.terms)),
                )
                self._db.executemany(COUNT_IN, [(term,) for term in set(document.terms)])
            self._stats = self._stats.with_documents(d.terms for d in documents.values())

    def settle(self, memory_ids: Sequence[str]) -> None:
        self._mark(memory_ids, settled=True)

    def unsettle(self, memory_ids: Sequence[str]) -> None:
        self._mark(memory_ids, settled=False)

    def _mark(self, memory_ids: Sequence[str], settled: bool) -> None:
        with self._lock, transaction(self._db):
            for chunk in chunks(list(memory_ids)):
                marks = ",".join("?" * len(chunk))
                self._db.execute(
                    f"UPDATE documents SET settled = ? WHERE memory_id IN ({marks})",
                    (int(settled), *chunk),
                )

    def unsettled(self) -> dict[str, str | None]:
        with self._lock:
            rows = self._db.execute("SELECT memory_id, digest FROM documents WHERE settled = 0")
            return dict(rows.fetchall())

    def remove(self, memory_ids: Sequence[str]) -> None:
        with self._lock, transaction(self._db):
            self._delete(memory_ids)

    def _delete(self, memory_ids: Sequence[str]) -> None:
        """Under the lock, in a transaction: drop these memories' rows and their share of
        the statistics."""
        for chunk in chunks(list(memory_ids)):
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT id, japanese, latin, length FROM documents WHERE memory_id IN ({marks})",
                chunk,
            ).fetchall()
            if not rows:
                continue
            ids = [row[0] for row in rows]
            id_marks = ",".join("?" * len(ids))
            texts = self._db.execute(f"SELECT text FROM terms WHERE rowid IN ({id_marks})", ids)
            counted_out = [(term,) for (text,) in texts for term in set(text.split())]
            self._db.executemany(COUNT_OUT, counted_out)
            self._db.execute("DELETE FROM frequencies WHERE documents <= 0")
            self._db.execute(f"DELETE FROM terms WHERE rowid IN ({id_marks})", ids)
            self._db.execute(f"DELETE FROM documents WHERE id IN ({id_marks})", ids)
            gone = CorpusStats(
                len(rows),
                sum(row[1] for row in rows),
                sum(row[2] for row in rows),
                sum(row[3] for row in rows),
            )
            self._stats = self._stats.minus(gone)

    def lookup(
        self, query: Sequence[str], limit: int, counted: Sequence[str] = ()
    ) -> LexicalLookup:
        distinct = sorted(set(query))
        with self._lock:
            frequencies = self._frequencies(sorted(set(distinct).union(counted)))
            documents = self._documents(
                self._best_matches({t: frequencies[t] for t in distinct}, limit)
            )
            stats = self._stats
        return LexicalLookup(frequencies, stats, documents)

    def documents(self, memory_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        with self._lock:
            return self._documents(self._rowids_of(memory_ids))

    def sitting(self, memory_ids: Sequence[str]) -> Sitting | None:
        follows: dict[str, str] = {}
        followers: dict[str, str] = {}
        with self._lock:
            if not self._all_placed():
                return None
            for chunk in chunks(list(memory_ids)):
                marks = ",".join("?" * len(chunk))
                follows.update(
                    self._db.execute(
                        "SELECT memory_id, follows FROM documents "
                        f"WHERE memory_id IN ({marks}) AND follows != ''",
                        chunk,
                    )
                )
                followers.update(
                    self._db.execute(
                        f"SELECT memory_id, follows FROM documents WHERE follows IN ({marks})",
                        chunk,
                    )
                )
        return Sitting(follows, followers)

    def asking(self, memory_ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        with self._lock:
            for chunk in chunks(list(memory_ids)):
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT memory_id FROM documents WHERE memory_id IN ({marks}) AND asks = 1",
                    chunk,
                )
                found.update(row[0] for row in rows)
        return found

    def unplaced(self) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT memory_id FROM documents WHERE follows IS NULL OR asks IS NULL"
            )
            return [row[0] for row in rows]

    def place(self, follows: Mapping[str, str], asking: AbstractSet[str]) -> None:
        with self._lock, transaction(self._db):
            self._db.executemany(
                "UPDATE documents SET follows = ?, asks = ? WHERE memory_id = ?",
                [
                    (followed, int(memory_id in asking), memory_id)
                    for memory_id, followed in follows.items()
                ],
            )

    def _all_placed(self) -> bool:
        """Under the lock: no row lacks its sitting (looked up until it is so; a row is
        placed, written anew or removed, never unplaced again)."""
        if not self._placed:
            unplaced = self._db.execute("SELECT 1 FROM documents WHERE follows IS NULL LIMIT 1")
            self._placed = unplaced.fetchone() is None
        return self._placed

    def _frequencies(self, distinct: list[str]) -> dict[str, int]:
        found = dict.fromkeys(distinct, 0)
        for chunk in chunks(distinct):
            marks = ",".join("?" * len(chunk))
            found.update(
                self._db.execute(
                    f"SELECT term, documents FROM frequencies WHERE term IN ({marks})", chunk
                )
            )
        return found

    def _best_matches(self, frequencies: Mapping[str, int], limit: int) -> list[int]:
        """Rowids of the memories FTS5 ranks best for the rarest query terms."""
        chosen = walked_terms(frequencies, self._stats, POSTING_BUDGET, limit)
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
        for chunk in chunks(list(memory_ids)):
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
        for chunk in chunks(list(dict.fromkeys(rowids))):
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

    def japanese_ids(self) -> set[str]:
        with self._lock:
            rows = self._db.execute("SELECT memory_id FROM documents WHERE japanese > 0")
            return {row[0] for row in rows}

    def japanese_reader(self) -> str | None:
        with self._lock:
            row = self._db.execute(
                "SELECT value FROM facts WHERE name = ?", (JAPANESE_READER,)
            ).fetchone()
        return str(row[0]) if row is not None else None

    def note_japanese_reader(self, reader: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO facts (name, value) VALUES (?, ?)",
                (JAPANESE_READER, reader),
            )

    def count(self) -> int:
        with self._lock:
            return self._stats.documents

    def stats(self) -> CorpusStats:
        with self._lock:
            return self._stats

"""The lexical index on a Chroma server, which every front end and worker shares.

Chroma's own sparse-vector (BM25) index is refused by single-node Chroma 1.5 ("Sparse
vector indexing is not enabled in local"), and Redis must never hold memory text, so the
index is two Chroma collections beside the memories:

- ``ego-{agent}-lexical``: a record per memory, its terms space-separated as the
  document and its distinct terms as a list in its metadata, which Chroma's metadata
  index finds with ``$contains``, with the hash of the text they were read from and
  whether the memory's own write is known to be done (``settled``);
- ``ego-{agent}-lexical-terms``: a record per term (its id) with the number of memories
  that hold it and, while they are at most ``POSTING_BUDGET``, their ids (``holders``),
  and one record of the statistics (``TOTALS``, which no term can spell: terms have no
  hyphen), so one ``get`` gives a query's frequencies, statistics and rare postings.

A lookup reads the postings of the rarest query terms only: at most ``POSTING_TERMS``
terms, ``POSTING_BUDGET`` postings in all. Their ids come with the frequencies; their
terms are one ``get`` by id. A term whose record has no ids though few memories hold it
(it was common once, or the record predates the ids) is found by ``$contains`` instead,
which scans: about 15-25 ms at 100,000 memories, whatever the term. Chroma cannot rank
postings as FTS5 does, so each one found is scored here: the budget is what one lookup
can afford to read, and a word in more memories still counts in the score of every
memory the vectors bring. The writers keep the counts and ids under the agent's lock;
``recount`` counts them again from the records.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import numpy as np

from ego_mcp.memory.recall.bm25 import CorpusStats, scripts_of, walked_terms
from ego_mcp.memory.store import IndexedText, LexicalLookup, Sitting
from ego_mcp.store.chroma import (
    WRITE_BATCH,
    delete_ids,
    id_pages,
    open_id_collection,
    pages,
    present_ids,
)

POSTING_BUDGET = 200
POSTING_TERMS = 3
# Records read in one get: a query's terms with their translations are a few hundred.
GET_BATCH = 1_000
TOTALS = "lexical-totals"


def open_chroma_lexical(client: Any, agent: str) -> ChromaLexicalIndex:
    return ChromaLexicalIndex(
        open_id_collection(client, agent, "lexical"),
        open_id_collection(client, agent, "lexical-terms"),
    )


@dataclass(frozen=True)
class TermRecord:
    """How many memories hold a term, and which, when there are few enough to list
    (None: more than ``POSTING_BUDGET``, or not listed since)."""

    documents: int
    holders: frozenset[str] | None = frozenset()

    def changed(self, gained: set[str], lost: set[str]) -> TermRecord:
        documents = self.documents + len(gained) - len(lost)
        if self.holders is None:
            return TermRecord(documents, None)
        holders = (self.holders | gained) - lost
        return TermRecord(documents, holders if len(holders) <= POSTING_BUDGET else None)


class ChromaLexicalIndex:
    """The ``LexicalIndex`` of one agent on a Chroma server."""

    def __init__(self, collection: Any, frequencies: Any) -> None:
        self._collection = collection
        self._frequencies = frequencies

    def put(self, documents: Mapping[str, IndexedText], new: bool = False) -> None:
        ids = list(documents)
        replaced = {} if new else self.documents(ids)  # a round trip fewer for a new memory
        for start in range(0, len(ids), WRITE_BATCH):
            batch = ids[start : start + WRITE_BATCH]
            self._collection.upsert(
                ids=batch,
                embeddings=_constant(len(batch)),
                documents=[" ".join(documents[i].terms) for i in batch],
                metadatas=[_metadata(documents[i]) for i in batch],
            )
        self._count(replaced, {i: document.terms for i, document in documents.items()})

    def settle(self, memory_ids: Sequence[str]) -> None:
        self._mark(memory_ids, settled=True)

    def unsettle(self, memory_ids: Sequence[str]) -> None:
        # Only rows that exist: Chroma logs a warning for each unknown id it is asked to update.
        self._mark(present_ids(self._collection, memory_ids), settled=False)

    def _mark(self, memory_ids: Iterable[str], settled: bool) -> None:
        ids = list(memory_ids)
        for start in range(0, len(ids), WRITE_BATCH):
            batch = ids[start : start + WRITE_BATCH]
            self._collection.update(ids=batch, metadatas=[{"settled": settled}] * len(batch))

    def unsettled(self) -> dict[str, str | None]:
        found = self._collection.get(where={"settled": False}, include=["metadatas"])
        return {
            i: (meta or {}).get("digest")
            for i, meta in zip(found["ids"], found["metadatas"], strict=True)
        }

    def remove(self, memory_ids: Sequence[str]) -> None:
        gone = self.documents(memory_ids)
        if gone:
            self._collection.delete(ids=list(gone))
            self._count(gone, {})

    def _count(self, out: Mapping[str, Sequence[str]], into: Mapping[str, Sequence[str]]) -> None:
        """Take the memories ``out`` from the statistics and the term records, and add
        the memories ``into`` (a memory in both: its old terms, then its new ones)."""
        old = {(term, i) for i, document in out.items() for term in set(document)}
        new = {(term, i) for i, document in into.items() for term in set(document)}
        gained: defaultdict[str, set[str]] = defaultdict(set)
        lost: defaultdict[str, set[str]] = defaultdict(set)
        for term, memory_id in new - old:
            gained[term].add(memory_id)
        for term, memory_id in old - new:
            lost[term].add(memory_id)
        touched = sorted({*gained, *lost})
        known, stats = self._records(touched)
        records = {term: known[term].changed(gained[term], lost[term]) for term in touched}
        dropped = [term for term, record in records.items() if record.documents <= 0]
        if dropped:
            self._frequencies.delete(ids=dropped)
        self._write_terms(
            {term: r for term, r in records.items() if r.documents > 0},
            stats.minus(CorpusStats().with_documents(out.values())).with_documents(into.values()),
        )

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """How many memories hold each of ``terms`` (0 for a term none holds)."""
        return {term: record.documents for term, record in self._records(terms)[0].items()}

    def stats(self) -> CorpusStats:
        return self._records([])[1]

    def records(self, terms: Sequence[str]) -> dict[str, TermRecord]:
        """The record of each of ``terms`` (an empty one for a term none holds)."""
        return self._records(terms)[0]

    def _records(self, terms: Sequence[str]) -> tuple[dict[str, TermRecord], CorpusStats]:
        """The records of ``terms`` and the statistics, read together."""
        found = dict.fromkeys(terms, TermRecord(0))
        stats = CorpusStats()
        for page in _pages_by_id(self._frequencies, [*found, TOTALS], ["metadatas"]):
            for key, meta in zip(page["ids"], page["metadatas"], strict=True):
                if meta is None:
                    continue
                if key == TOTALS:
                    stats = CorpusStats(
                        int(meta["documents"]),
                        int(meta["japanese"]),
                        int(meta["latin"]),
                        int(meta["total_terms"]),
                    )
                else:
                    holders = meta.get("holders")
                    found[key] = TermRecord(
                        int(meta["documents"]), None if holders is None else frozenset(holders)
                    )
        return found, stats

    def lookup(
        self, query: Sequence[str], limit: int, counted: Sequence[str] = ()
    ) -> LexicalLookup:
        """Every posting the budget allows, not ``limit``: Chroma cannot rank them, so the
        caller scores them all and keeps its best."""
        distinct = sorted(set(query))
        records, stats = self._records(sorted(set(distinct).union(counted)))
        frequencies = {term: record.documents for term, record in records.items()}
        asked = {term: frequencies[term] for term in distinct}
        chosen = walked_terms(asked, stats, POSTING_BUDGET, limit, POSTING_TERMS)
        walked = sum(frequencies[term] for term in chosen)
        listed = {i for term in chosen for i in records[term].holders or ()}
        unlisted = [term for term in chosen if records[term].holders is None]
        documents = self.documents(sorted(listed))
        documents.update(self._scan(unlisted, walked))
        return LexicalLookup(frequencies, stats, documents)

    def _scan(self, terms: list[str], count: int) -> dict[str, tuple[str, ...]]:
        """The memories holding any of ``terms`` (``count`` at most) with their terms, in
        one ``$contains`` read."""
        if not terms:
            return {}
        clauses = [{"terms": {"$contains": term}} for term in terms]
        where = clauses[0] if len(clauses) == 1 else {"$or": clauses}
        found = self._collection.get(where=where, include=["documents"], limit=count)
        return _terms_of(found)

    def documents(self, memory_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        found: dict[str, tuple[str, ...]] = {}
        for page in _pages_by_id(self._collection, memory_ids, ["documents"]):
            found.update(_terms_of(page))
        return found

    def sitting(self, memory_ids: Sequence[str]) -> Sitting | None:
        """None: on a server the chain is read from the memories' own records, where the
        first save that follows another front end's finds it (``MemoryParts``)."""
        return None

    def asking(self, memory_ids: Sequence[str]) -> set[str]:
        """One read of the rows' metadata (a record written before it was kept counts as
        not asking until ``ego-mcp reindex`` writes it again)."""
        found: set[str] = set()
        for page in _pages_by_id(self._collection, memory_ids, ["metadatas"]):
            found.update(
                i
                for i, meta in zip(page["ids"], page["metadatas"], strict=True)
                if meta is not None and meta.get("asks")
            )
        return found

    def unplaced(self) -> list[str]:
        return []

    def place(self, follows: Mapping[str, str], asking: AbstractSet[str]) -> None:
        """Nothing to record: this index does not hold the chain, and its rows say
        whether their text asks from their first write."""

    def recount(self) -> None:
        """Count the statistics and every term's record again from the memories' records
        (after a crash between two writes, or writers that raced without the lock)."""
        stats = CorpusStats()
        counts: Counter[str] = Counter()
        holders: defaultdict[str, set[str]] = defaultdict(set)
        for page in pages(self._collection, ["documents"]):
            documents = _terms_of(page)
            stats = stats.with_documents(documents.values())
            for memory_id, document in documents.items():
                for term in set(document):
                    counts[term] += 1
                    if counts[term] <= POSTING_BUDGET:
                        holders[term].add(memory_id)
        kept = {*counts, TOTALS}
        stale = sorted({i for page in id_pages(self._frequencies) for i in page} - kept)
        delete_ids(self._frequencies, stale)
        self._write_terms(
            {
                term: TermRecord(n, frozenset(holders[term]) if n <= POSTING_BUDGET else None)
                for term, n in counts.items()
            },
            stats,
        )

    def _write_terms(self, records: Mapping[str, TermRecord], stats: CorpusStats) -> None:
        """Each term's record and the statistics, ``WRITE_BATCH`` records an upsert (the
        statistics with the last batch: one round trip for a memory's few terms)."""
        rows = [(term, _term_metadata(records[term])) for term in sorted(records)]
        rows.append((TOTALS, _stats_metadata(stats)))
        for start in range(0, len(rows), WRITE_BATCH):
            batch = rows[start : start + WRITE_BATCH]
            self._frequencies.upsert(
                ids=[key for key, _ in batch],
                embeddings=_constant(len(batch)),
                metadatas=[metadata for _, metadata in batch],
            )

    def ids(self) -> set[str]:
        return {i for page in id_pages(self._collection) for i in page}

    def japanese_ids(self) -> set[str]:
        where = {"japanese": True}
        return {i for page in id_pages(self._collection, where) for i in page}

    def japanese_reader(self) -> str | None:
        found = self._frequencies.get(ids=[TOTALS], include=["metadatas"])
        metadata = found["metadatas"][0] if found["ids"] else None
        reader = (metadata or {}).get("japanese_reader")
        return str(reader) if reader is not None else None

    def note_japanese_reader(self, reader: str) -> None:
        # Written with the statistics, so that the record is whole even in a new index
        # (the writers hold the agent's lock; an upsert keeps the keys it does not name).
        metadata = {**_stats_metadata(self.stats()), "japanese_reader": reader}
        self._frequencies.upsert(ids=[TOTALS], embeddings=_constant(1), metadatas=[metadata])

    def count(self) -> int:
        return self.stats().documents


def _pages_by_id(
    collection: Any, ids: Sequence[str], include: list[str]
) -> Iterator[dict[str, Any]]:
    """The records of ``ids`` (each once), ``GET_BATCH`` to a read."""
    unique = list(dict.fromkeys(ids))
    for start in range(0, len(unique), GET_BATCH):
        yield collection.get(ids=unique[start : start + GET_BATCH], include=include)


def _terms_of(result: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    return {
        i: tuple((doc or "").split())
        for i, doc in zip(result["ids"], result["documents"], strict=True)
    }


def _constant(rows: int) -> Any:
    return np.zeros((rows, 1), dtype=np.float32)


def _stats_metadata(stats: CorpusStats) -> dict[str, Any]:
    return {
        "documents": stats.documents,
        "japanese": stats.japanese,
        "latin": stats.latin,
        "total_terms": stats.total_terms,
    }


def _term_metadata(record: TermRecord) -> dict[str, Any]:
    """A term record's metadata; an upsert merges metadata, so a list no longer kept is
    written as None, which removes it."""
    holders = sorted(record.holders) if record.holders else None  # Chroma refuses []
    return {"documents": record.documents, "holders": holders}


def _metadata(document: IndexedText) -> dict[str, Any]:
    japanese, latin = scripts_of(document.terms)
    meta: dict[str, Any] = {
        "japanese": japanese,
        "latin": latin,
        "length": len(document.terms),
        "digest": document.digest,
        "settled": False,
        "asks": document.asks,
    }
    if document.terms:  # Chroma refuses an empty list
        meta["terms"] = sorted(set(document.terms))
    return meta

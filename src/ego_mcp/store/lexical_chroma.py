"""The lexical index on a Chroma server, which every front end and worker shares.

Chroma's own sparse-vector (BM25) index is refused by single-node Chroma 1.5 ("Sparse
vector indexing is not enabled in local"), and Redis must never hold memory text, so the
index is two Chroma collections beside the memories:

- ``ego-{agent}-lexical``: a record per memory, its terms space-separated as the
  document and its distinct terms as a list in its metadata, which Chroma's metadata
  index finds with ``$contains``;
- ``ego-{agent}-lexical-terms``: a record per term (its id) with the number of memories
  that hold it, and one record of the statistics (``TOTALS``, which no term can spell:
  terms have no hyphen), so one ``get`` gives a query's frequencies and statistics.

A lookup reads the postings of the rarest query terms only: at most ``POSTING_TERMS``
terms, ``POSTING_BUDGET`` postings in all, in one read (a ``$contains`` read costs about
14 ms at 100,000 memories, whatever the term: a read per term took a sentence to 100 ms).
Chroma cannot rank postings as FTS5 does, so each one found is scored here, from its
terms read back a hundred a time: the budget is what one lookup can afford to read, and
a word in more memories still counts in the score of every memory the vectors bring.
The writers keep the counts under the agent's lock; ``recount`` counts them again from
the records.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ego_mcp.memory.bm25 import CorpusStats, scripts_of
from ego_mcp.memory.store import LexicalLookup
from ego_mcp.store.chroma import (
    READ_BATCH,
    WRITE_BATCH,
    id_pages,
    open_id_collection,
    pages,
)

POSTING_BUDGET = 200
POSTING_TERMS = 3
# Frequencies read in one get: a query's terms with their translations are a few hundred.
COUNTS_BATCH = 1_000
TOTALS = "lexical-totals"


def open_chroma_lexical(client: Any, agent: str) -> ChromaLexicalIndex:
    return ChromaLexicalIndex(
        open_id_collection(client, agent, "lexical"),
        open_id_collection(client, agent, "lexical-terms"),
    )


class ChromaLexicalIndex:
    """The ``LexicalIndex`` of one agent on a Chroma server."""

    def __init__(self, collection: Any, frequencies: Any) -> None:
        self._collection = collection
        self._frequencies = frequencies

    def put(self, documents: Mapping[str, Sequence[str]]) -> None:
        ids = list(documents)
        replaced = self.documents(ids)
        for start in range(0, len(ids), WRITE_BATCH):
            batch = ids[start : start + WRITE_BATCH]
            self._collection.upsert(
                ids=batch,
                embeddings=_constant(len(batch)),
                documents=[" ".join(documents[i]) for i in batch],
                metadatas=[_metadata(documents[i]) for i in batch],
            )
        self._count(replaced.values(), documents.values())

    def remove(self, memory_ids: Sequence[str]) -> None:
        gone = self.documents(memory_ids)
        if gone:
            self._collection.delete(ids=list(gone))
            self._count(gone.values(), ())

    def _count(self, out: Iterable[Sequence[str]], into: Iterable[Sequence[str]]) -> None:
        """Take ``out`` from the statistics and the term counts, and add ``into``."""
        out, into = list(out), list(into)
        change: Counter[str] = Counter(t for document in into for t in set(document))
        change.subtract(t for document in out for t in set(document))
        touched = sorted(term for term, delta in change.items() if delta)
        known, stats = self._counts(touched)
        counts = {term: known[term] + change[term] for term in touched}
        self._write_counts({term: n for term, n in counts.items() if n > 0})
        dropped = [term for term in touched if counts[term] <= 0]
        if dropped:
            self._frequencies.delete(ids=dropped)
        self._write_stats(stats.minus(CorpusStats().with_documents(out)).with_documents(into))

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """How many memories hold each of ``terms`` (0 for a term none holds)."""
        return self._counts(terms)[0]

    def stats(self) -> CorpusStats:
        return self._counts([])[1]

    def _counts(self, terms: Sequence[str]) -> tuple[dict[str, int], CorpusStats]:
        """The frequencies of ``terms`` and the statistics, read together."""
        found = dict.fromkeys(terms, 0)
        stats = CorpusStats()
        wanted = [*found, TOTALS]
        for start in range(0, len(wanted), COUNTS_BATCH):
            page = self._frequencies.get(
                ids=wanted[start : start + COUNTS_BATCH], include=["metadatas"]
            )
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
                    found[key] = int(meta["documents"])
        return found, stats

    def lookup(
        self, query: Sequence[str], limit: int, counted: Sequence[str] = ()
    ) -> LexicalLookup:
        """Every posting the budget allows, not ``limit``: Chroma cannot rank them, so the
        caller scores them all and keeps its best."""
        distinct = sorted(set(query))
        frequencies, stats = self._counts(sorted(set(distinct).union(counted)))
        chosen: list[str] = []
        walked = 0
        rarest = sorted((t for t in distinct if frequencies[t]), key=frequencies.__getitem__)
        for term in rarest[:POSTING_TERMS]:
            if walked + frequencies[term] > POSTING_BUDGET:
                break
            chosen.append(term)
            walked += frequencies[term]
        return LexicalLookup(frequencies, stats, self._postings(chosen, walked))

    def _postings(self, terms: list[str], count: int) -> dict[str, tuple[str, ...]]:
        """The memories holding any of ``terms`` (``count`` at most) with their terms, in
        one read."""
        if not terms:
            return {}
        clauses = [{"terms": {"$contains": term}} for term in terms]
        where = clauses[0] if len(clauses) == 1 else {"$or": clauses}
        found = self._collection.get(where=where, include=["documents"], limit=count)
        return _terms_of(found)

    def documents(self, memory_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        unique = list(dict.fromkeys(memory_ids))
        found: dict[str, tuple[str, ...]] = {}
        for start in range(0, len(unique), READ_BATCH):
            page = self._collection.get(
                ids=unique[start : start + READ_BATCH], include=["documents"]
            )
            found.update(_terms_of(page))
        return found

    def _write_stats(self, stats: CorpusStats) -> None:
        self._frequencies.upsert(
            ids=[TOTALS],
            embeddings=_constant(1),
            metadatas=[
                {
                    "documents": stats.documents,
                    "japanese": stats.japanese,
                    "latin": stats.latin,
                    "total_terms": stats.total_terms,
                }
            ],
        )

    def recount(self) -> None:
        """Count the statistics and every term's frequency again from the records (after
        a crash between two writes, or writers that raced without the lock)."""
        stats = CorpusStats()
        counts: Counter[str] = Counter()
        for page in pages(self._collection, ["documents"]):
            documents = list(_terms_of(page).values())
            stats = stats.with_documents(documents)
            counts.update(t for document in documents for t in set(document))
        kept = {*counts, TOTALS}
        stale = sorted({i for page in id_pages(self._frequencies) for i in page} - kept)
        for start in range(0, len(stale), WRITE_BATCH):
            self._frequencies.delete(ids=stale[start : start + WRITE_BATCH])
        self._write_counts(counts)
        self._write_stats(stats)

    def _write_counts(self, counts: Mapping[str, int]) -> None:
        """Each term's number of memories, ``WRITE_BATCH`` terms an upsert."""
        terms = sorted(counts)
        for start in range(0, len(terms), WRITE_BATCH):
            batch = terms[start : start + WRITE_BATCH]
            self._frequencies.upsert(
                ids=batch,
                embeddings=_constant(len(batch)),
                metadatas=[{"documents": counts[term]} for term in batch],
            )

    def ids(self) -> set[str]:
        return {i for page in id_pages(self._collection) for i in page}

    def count(self) -> int:
        return self.stats().documents


def _terms_of(result: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    return {
        i: tuple((doc or "").split())
        for i, doc in zip(result["ids"], result["documents"], strict=True)
    }


def _constant(rows: int) -> Any:
    return np.zeros((rows, 1), dtype=np.float32)


def _metadata(document: Sequence[str]) -> dict[str, Any]:
    japanese, latin = scripts_of(document)
    meta: dict[str, Any] = {"japanese": japanese, "latin": latin, "length": len(document)}
    if document:  # Chroma refuses an empty list
        meta["terms"] = sorted(set(document))
    return meta

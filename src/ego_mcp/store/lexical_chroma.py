"""The lexical index on a Chroma server, which every front end and worker shares.

Chroma's own sparse-vector (BM25) index is refused by single-node Chroma 1.5 ("Sparse
vector indexing is not enabled in local"), and Redis must never hold memory text, so the
index is two Chroma collections beside the memories:

- ``ego-{agent}-lexical``: a record per memory, its terms space-separated as the
  document and its distinct terms as a list in its metadata, which Chroma's metadata
  index finds with ``$contains``; one more record holds the statistics;
- ``ego-{agent}-lexical-terms``: a record per term (its id) with the number of memories
  that hold it, so one ``get`` gives every query term's frequency.

A lookup reads the postings of the rarest query terms only: at most ``POSTING_READS``
terms, ``POSTING_BUDGET`` postings in all (each ``$contains`` read costs about 14 ms at
100,000 memories, whatever the term). Chroma cannot rank postings as FTS5 does, so each
one found is scored here, from its terms read back a hundred a time: the budget is what
one lookup can afford to read, and a word in more memories still counts in the score of
every memory the vectors bring. The writers keep the counts under the agent's lock;
``recount`` counts them again from the records.
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
POSTING_READS = 3
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
        replaced = self._documents(ids)
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
        gone = self._documents(memory_ids)
        if gone:
            self._collection.delete(ids=list(gone))
            self._count(gone.values(), ())

    def _count(self, out: Iterable[Sequence[str]], into: Iterable[Sequence[str]]) -> None:
        """Take ``out`` from the statistics and the term counts, and add ``into``."""
        out, into = list(out), list(into)
        change: Counter[str] = Counter(t for document in into for t in set(document))
        change.subtract(t for document in out for t in set(document))
        touched = sorted(term for term, delta in change.items() if delta)
        known = self.frequencies(touched)
        counts = {term: known[term] + change[term] for term in touched}
        self._write_counts({term: n for term, n in counts.items() if n > 0})
        dropped = [term for term in touched if counts[term] <= 0]
        if dropped:
            self._frequencies.delete(ids=dropped)
        stats = self.stats().minus(CorpusStats().with_documents(out)).with_documents(into)
        self._write_stats(stats)

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """How many memories hold each of ``terms`` (0 for a term none holds)."""
        found = dict.fromkeys(terms, 0)
        unique = list(found)
        for start in range(0, len(unique), READ_BATCH):
            page = self._frequencies.get(
                ids=unique[start : start + READ_BATCH], include=["metadatas"]
            )
            found.update(
                (term, int(meta["documents"]))
                for term, meta in zip(page["ids"], page["metadatas"], strict=True)
                if meta is not None
            )
        return found

    def lookup(self, query: Sequence[str], limit: int, also: Sequence[str]) -> LexicalLookup:
        frequencies = self.frequencies(sorted(set(query)))
        candidates: list[str] = []
        walked = 0
        rarest = sorted((t for t, f in frequencies.items() if f), key=frequencies.__getitem__)
        for term in rarest[:POSTING_READS]:
            if walked + frequencies[term] > POSTING_BUDGET or len(candidates) >= limit:
                break
            walked += frequencies[term]
            candidates.extend(self._postings(term, frequencies[term]))
        documents = self._documents([*dict.fromkeys(candidates), *also])
        return LexicalLookup(frequencies, self.stats(), documents)

    def _postings(self, term: str, count: int) -> list[str]:
        found = self._collection.get(where={"terms": {"$contains": term}}, include=[], limit=count)
        return [i for i in found["ids"] if i != TOTALS]

    def _documents(self, memory_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        unique = [i for i in dict.fromkeys(memory_ids) if i != TOTALS]
        found: dict[str, tuple[str, ...]] = {}
        for start in range(0, len(unique), READ_BATCH):
            page = self._collection.get(
                ids=unique[start : start + READ_BATCH], include=["documents"]
            )
            found.update(
                (i, tuple((doc or "").split()))
                for i, doc in zip(page["ids"], page["documents"], strict=True)
            )
        return found

    def stats(self) -> CorpusStats:
        found = self._collection.get(ids=[TOTALS], include=["metadatas"])
        if not found["ids"] or found["metadatas"][0] is None:
            return CorpusStats()
        meta = found["metadatas"][0]
        return CorpusStats(
            int(meta["documents"]),
            int(meta["japanese"]),
            int(meta["latin"]),
            int(meta["total_terms"]),
        )

    def _write_stats(self, stats: CorpusStats) -> None:
        self._collection.upsert(
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
            documents = [
                tuple((doc or "").split())
                for i, doc in zip(page["ids"], page["documents"], strict=True)
                if i != TOTALS
            ]
            stats = stats.with_documents(documents)
            counts.update(t for document in documents for t in set(document))
        stale = sorted({i for page in id_pages(self._frequencies) for i in page} - set(counts))
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
        return {i for page in id_pages(self._collection) for i in page if i != TOTALS}

    def count(self) -> int:
        return self.stats().documents


def _constant(rows: int) -> Any:
    return np.zeros((rows, 1), dtype=np.float32)


def _metadata(document: Sequence[str]) -> dict[str, Any]:
    japanese, latin = scripts_of(document)
    meta: dict[str, Any] = {"japanese": japanese, "latin": latin, "length": len(document)}
    if document:  # Chroma refuses an empty list
        meta["terms"] = sorted(set(document))
    return meta

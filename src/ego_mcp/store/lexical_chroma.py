"""The lexical index on a Chroma server, which every front end and worker shares.

Chroma's own sparse-vector (BM25) index is refused by single-node Chroma 1.5 ("Sparse
vector indexing is not enabled in local"), and Redis must never hold memory text, so the
index is a Chroma collection beside the memories, ``ego-{agent}-lexical``: a record per
memory whose document is its terms, space-separated, and whose metadata lists its
distinct terms, which Chroma's metadata index finds with ``$contains``. A term's postings
are read up to ``FREQUENCY_CAP``; a term in more memories is too common to be worth
reading, and its frequency is taken as the cap. One more record holds the statistics,
kept up to date by the writers (under the agent's lock) and recounted by ``reconcile``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ego_mcp.memory.bm25 import CorpusStats, scripts_of
from ego_mcp.memory.store import LexicalLookup
from ego_mcp.store.chroma import READ_BATCH, WRITE_BATCH, id_pages, open_id_collection

FREQUENCY_CAP = 1_000
CANDIDATES = 200  # memories whose terms one lookup reads, rarest terms' postings first
TOTALS = "lexical-totals"


def open_chroma_lexical(client: Any, agent: str) -> ChromaLexicalIndex:
    return ChromaLexicalIndex(open_id_collection(client, agent, "lexical"))


class ChromaLexicalIndex:
    """The ``LexicalIndex`` of one agent on a Chroma server."""

    def __init__(self, collection: Any) -> None:
        self._collection = collection

    def put(self, documents: Mapping[str, Sequence[str]]) -> None:
        ids = list(documents)
        replaced = self._stats_of(ids)
        for start in range(0, len(ids), WRITE_BATCH):
            batch = ids[start : start + WRITE_BATCH]
            self._collection.upsert(
                ids=batch,
                embeddings=np.zeros((len(batch), 1), dtype=np.float32),
                documents=[" ".join(documents[i]) for i in batch],
                metadatas=[_metadata(documents[i]) for i in batch],
            )
        self._write_stats(self.stats().minus(replaced).with_documents(documents.values()))

    def remove(self, memory_ids: Sequence[str]) -> None:
        ids = [i for i in dict.fromkeys(memory_ids) if i != TOTALS]
        gone = self._stats_of(ids)
        if gone.documents:
            self._collection.delete(ids=ids)
            self._write_stats(self.stats().minus(gone))

    def lookup(self, query: Sequence[str], limit: int, also: Sequence[str]) -> LexicalLookup:
        postings = {term: self._postings(term) for term in sorted(set(query))}
        frequencies = {term: len(ids) for term, ids in postings.items()}
        candidates: list[str] = []
        for term in sorted(postings, key=frequencies.__getitem__):
            if frequencies[term] < FREQUENCY_CAP and len(candidates) < CANDIDATES:
                candidates.extend(postings[term][: CANDIDATES - len(candidates)])
        documents = self._documents([*dict.fromkeys(candidates), *also])
        return LexicalLookup(frequencies, self.stats(), documents)

    def _postings(self, term: str) -> list[str]:
        found = self._collection.get(
            where={"terms": {"$contains": term}}, include=[], limit=FREQUENCY_CAP
        )
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

    def _stats_of(self, memory_ids: Sequence[str]) -> CorpusStats:
        """The statistics of those of ``memory_ids`` that are indexed."""
        return CorpusStats().with_documents(self._documents(memory_ids).values())

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
            embeddings=np.zeros((1, 1), dtype=np.float32),
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
        """Count the statistics again from every record (after a crash or a race)."""
        stats = CorpusStats()
        ids = sorted(self.ids())
        for start in range(0, len(ids), READ_BATCH):
            stats = stats.with_documents(self._documents(ids[start : start + READ_BATCH]).values())
        self._write_stats(stats)

    def ids(self) -> set[str]:
        return {i for page in id_pages(self._collection) for i in page if i != TOTALS}

    def count(self) -> int:
        return int(self._collection.count()) - (1 if self._has_totals() else 0)

    def _has_totals(self) -> bool:
        return bool(self._collection.get(ids=[TOTALS], include=[])["ids"])


def _metadata(document: Sequence[str]) -> dict[str, Any]:
    japanese, latin = scripts_of(document)
    meta: dict[str, Any] = {"japanese": japanese, "latin": latin, "length": len(document)}
    if document:  # Chroma refuses an empty list
        meta["terms"] = sorted(set(document))
    return meta

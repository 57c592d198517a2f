"""How recall ranks: meaning and words, summed, with a floor below which nothing is shown.

A memory's score is its cosine similarity to the query plus its BM25 coverage (its score
over the query's mass, ``memory/bm25.py``), each in [0, 1] and weighted alike. The sum
was chosen over reciprocal rank fusion on the dev data (bench/locomo_bench.py,
bench/quality.py): ranks throw away how strong the evidence is, so a weak word match
would push out a memory that the vectors found in the other language, and where the
vectors are weak (long English conversation) fusion of ranks did not beat BM25 alone.

A memory scoring under ``RELEVANCE_FLOOR`` matches the query neither in meaning nor in
words; recall answers fewer memories rather than show it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ego_mcp.memory.model import Memory, SearchHit

LEXICAL_WEIGHT = 1.0
# Unrelated memories sit at similarity 0.00-0.09 with no word in common; every relevant
# memory of the dev sets scored 0.11 or more.
RELEVANCE_FLOOR = 0.1


@dataclass(frozen=True)
class Ranked:
    """A recalled memory with what ranked it: the vector's hit and the share of the
    query's words it holds (BM25 coverage, 0 when it shares none)."""

    hit: SearchHit
    coverage: float = 0.0

    @property
    def memory(self) -> Memory:
        return self.hit.memory

    @property
    def similarity(self) -> float:
        return self.hit.similarity

    @property
    def score(self) -> float:
        return self.hit.similarity + LEXICAL_WEIGHT * self.coverage


def rank(
    hits: Sequence[SearchHit],
    coverage: Mapping[str, float],
    n_results: int,
    matched: AbstractSet[str] | None = None,
) -> list[Ranked]:
    """The best ``n_results`` of ``hits`` by fused score, those above the floor only. A
    memory not in ``matched`` (it shares only function words with the query) has its
    words counted in its rank but not toward the floor: they make no match alone."""
    ranked = [Ranked(hit, coverage.get(hit.memory.id, 0.0)) for hit in hits]
    ranked = [
        item
        for item in ranked
        if (item.score if matched is None or item.memory.id in matched else item.similarity)
        >= RELEVANCE_FLOOR
    ]
    ranked.sort(key=lambda item: -item.score)
    return ranked[:n_results]

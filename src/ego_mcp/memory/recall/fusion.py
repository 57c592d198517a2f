"""How recall ranks: meaning and words, summed, with a floor below which nothing is shown.

A memory's score is its cosine similarity to the query plus its BM25 coverage (its score
over the query's mass, ``memory/recall/bm25.py``), each in [0, 1] and weighted alike. The sum
was chosen over reciprocal rank fusion on the dev data (bench/locomo_bench.py,
bench/quality.py): ranks throw away how strong the evidence is, so a weak word match
would push out a memory that the vectors found in the other language, and where the
vectors are weak (long English conversation) fusion of ranks did not beat BM25 alone.

A memory scoring under ``RELEVANCE_FLOOR`` on its own matches the query neither in meaning
nor in words; recall answers fewer memories rather than show it, whatever a memory saved
beside it lends it (``memory/recall/context.py``).

Asked a question, recall ranks a memory that itself ends by asking (``terms.asks``) by
``ASKING_WEIGHT`` of what it scores on its own: a question shares the words and the form
of another question, but what it asks is answered beside it, in the memory saved after
it (to which it still lends its full score), not in it. The floor is not weighed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import datetime

from ego_mcp.memory.fading import Fade
from ego_mcp.memory.model import LinkType, Memory, SearchHit, similarity_of
from ego_mcp.memory.recall.context import Lent

LEXICAL_WEIGHT = 1.0
# Unrelated memories sit at similarity 0.00-0.09 with no word in common; every relevant
# memory of the dev sets scored 0.11 or more.
RELEVANCE_FLOOR = 0.1
# Chosen on LoCoMo conversations 1 and 2 (0.7-0.85 scored alike there), checked on the
# third: R@10 0.684 -> 0.740 over 383 questions (bench/README.md).
ASKING_WEIGHT = 0.8


@dataclass(frozen=True)
class Ranked:
    """A recalled memory with what ranked it: the vector's hit, the share of the query's
    words it holds (BM25 coverage, 0 when it shares none) and what a hit it was saved
    beside lent it (``memory/recall/context.py``)."""

    hit: SearchHit
    coverage: float = 0.0
    lent: Lent | None = None
    asking: bool = False  # the memory ends by asking, and so does the query

    @property
    def memory(self) -> Memory:
        return self.hit.memory

    @property
    def similarity(self) -> float:
        return self.hit.similarity

    @property
    def context(self) -> float:
        return self.lent.score if self.lent is not None else 0.0

    @property
    def score(self) -> float:
        return fused(self.hit.similarity, self.coverage, self.lent, self.asking)

    def evidence(self, matched: AbstractSet[str] | None) -> float:
        return own_evidence(self.memory.id, self.hit.similarity, self.coverage, matched)


def fused(similarity: float, coverage: float, lent: Lent | None, asking: bool = False) -> float:
    """A memory's rank: meaning and words (less for a question asked of a question), and
    what a hit beside it lends it."""
    own = similarity + LEXICAL_WEIGHT * coverage
    return (ASKING_WEIGHT * own if asking else own) + (lent.score if lent is not None else 0.0)


def own_evidence(
    memory_id: str, similarity: float, coverage: float, matched: AbstractSet[str] | None
) -> float:
    """What a memory scores on its own, which the floor is held to: what a neighbour lends
    it only reorders, and words count only if one of them is a content word of the query
    (``matched``; None: all count)."""
    if matched is None or memory_id in matched:
        return similarity + LEXICAL_WEIGHT * coverage
    return similarity


def best_ids(
    distance: Mapping[str, float],
    coverage: Mapping[str, float],
    n_results: int,
    matched: AbstractSet[str] | None = None,
    lent: Mapping[str, Lent] | None = None,
    asking: AbstractSet[str] = frozenset(),
) -> list[str]:
    """The ids ``rank`` puts first, from the cosine distances by id alone (read as
    ``SearchHit`` reads them), so that recall reads only the records it shows (ties keep
    the order of ``distance``). ``asking``: the memories that end by asking, when the
    query does."""
    lent = lent or {}
    similarity = {i: similarity_of(d) for i, d in distance.items()}
    kept = [
        i
        for i, value in similarity.items()
        if own_evidence(i, value, coverage.get(i, 0.0), matched) >= RELEVANCE_FLOOR
    ]
    kept.sort(key=lambda i: -fused(similarity[i], coverage.get(i, 0.0), lent.get(i), i in asking))
    return kept[:n_results]


def contenders(
    ceiling: float,
    distance: Mapping[str, float],
    coverage: Mapping[str, float],
    candidates: Sequence[str],
    places: int,
    matched: AbstractSet[str] | None = None,
    lent: Mapping[str, Lent] | None = None,
    asking: AbstractSet[str] = frozenset(),
) -> list[str]:
    """Those of ``candidates`` (memories the vector search did not bring, whose vectors
    are not read yet) that could rank among the first ``places`` beside the memories
    ``distance`` holds. None of them is more similar to the query than the least similar
    memory a full pool of the search brought (``ceiling``), or the search would have
    brought it (unless its approximate index missed it); so each scores at most that
    similarity plus its coverage and what ``lent`` lends it, and one that cannot reach the
    score of the ``places``-th memory already scored ranks below it."""
    lent = lent or {}
    first = best_ids(distance, coverage, places, matched, lent, asking)
    if len(first) < places:
        return list(candidates)
    last = first[-1]
    bar = fused(
        similarity_of(distance[last]), coverage.get(last, 0.0), lent.get(last), last in asking
    )
    return [
        i
        for i in candidates
        if own_evidence(i, ceiling, coverage.get(i, 0.0), matched) >= RELEVANCE_FLOOR
        and fused(ceiling, coverage.get(i, 0.0), lent.get(i), i in asking) >= bar
    ]


def rank(
    hits: Sequence[SearchHit],
    coverage: Mapping[str, float],
    n_results: int,
    matched: AbstractSet[str] | None = None,
    lent: Mapping[str, Lent] | None = None,
    fading: tuple[Fade, datetime] | None = None,
    asking: AbstractSet[str] = frozenset(),
) -> list[Ranked]:
    """The best ``n_results`` of ``hits`` by fused score, those whose own evidence
    reaches the floor only. A memory not in ``matched`` (it shares only function words
    with the query) has its words counted in its rank but not toward the floor: they make
    no match alone; nor does what ``lent`` lends it. With ``fading`` (the fade and the
    moment), each score is weighed by how well its memory holds (``memory/fading.py``);
    the floor is not."""
    lent = lent or {}
    ranked = [
        Ranked(
            hit,
            coverage.get(hit.memory.id, 0.0),
            lent.get(hit.memory.id),
            hit.memory.id in asking,
        )
        for hit in hits
    ]
    ranked = [item for item in ranked if item.evidence(matched) >= RELEVANCE_FLOOR]
    if fading is None:
        ranked.sort(key=lambda item: -item.score)
    else:
        fade, now = fading
        ranked.sort(
            key=lambda item: (
                -item.score * fade.factor(item.memory, now, item.coverage, item.similarity)
            )
        )
    return ranked[:n_results]


def newer_first(ranked: list[Ranked]) -> list[Ranked]:
    """``ranked`` with each memory that supersedes one above it (a correction) moved just
    above the memory it corrects, until none is below one it corrects (a chain of
    corrections comes newest first; a cycle, which no save makes, stops at a bound)."""
    order = list(ranked)
    for _ in range(len(order) ** 2 + 1):
        at = {entry.memory.id: i for i, entry in enumerate(order)}
        moves = [
            (at[link.target_id], newer)
            for newer, item in enumerate(order)
            for link in item.memory.linked_ids
            if link.link_type is LinkType.SUPERSEDES
            and link.target_id in at
            and at[link.target_id] < newer
        ]
        if not moves:
            break
        older, newer = moves[0]
        order.insert(older, order.pop(newer))
    return order

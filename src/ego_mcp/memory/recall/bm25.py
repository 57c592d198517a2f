"""BM25 (Okapi, k1 = 1.2, b = 0.75) over a memory store, and how much of a query it covers.

Two departures from the textbook, both for stores that mix English and Japanese:

- A term's rarity (IDF) is counted among the memories of its own script. A Japanese
  particle such as の is in nearly every Japanese memory; counted against the whole
  store, where the English half lacks it, it would look rare and outweigh real words.
- ``coverage`` is a memory's score over the most any memory could score: the summed IDF
  of every query term, those no memory contains included. A query whose rare words are
  in no memory (one asked in the other language, say) is barely explained by a match on
  its common words, and its coverage says so.

A query term is a ``Concept``: one term, or the set of terms that translate it, scored as
one (``memory/recall/crosslingual.py`` reads a query in the other language this way).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ego_mcp.memory.recall.terms import is_japanese_term

K1 = 1.2
B = 0.75


@dataclass(frozen=True)
class CorpusStats:
    """What IDF and length normalisation need: how many memories, how many of them have
    Japanese or Latin-script terms, and how many terms they hold in all."""

    documents: int = 0
    japanese: int = 0
    latin: int = 0
    total_terms: int = 0

    @property
    def average_length(self) -> float:
        return self.total_terms / self.documents if self.documents else 0.0

    def with_documents(self, documents: Iterable[Sequence[str]], sign: int = 1) -> CorpusStats:
        """These stats with ``documents`` (term lists) added, or taken away if ``sign`` is -1."""
        counts = [self.documents, self.japanese, self.latin, self.total_terms]
        for document in documents:
            japanese, latin = scripts_of(document)
            for index, value in enumerate((1, int(japanese), int(latin), len(document))):
                counts[index] += sign * value
        return CorpusStats(*(max(0, count) for count in counts))

    def minus(self, other: CorpusStats) -> CorpusStats:
        """These stats less ``other`` (memories taken out), never below zero."""
        return CorpusStats(
            max(0, self.documents - other.documents),
            max(0, self.japanese - other.japanese),
            max(0, self.latin - other.latin),
            max(0, self.total_terms - other.total_terms),
        )


def scripts_of(document: Sequence[str]) -> tuple[bool, bool]:
    """Whether a memory's terms include Japanese ones, and Latin-script ones."""
    japanese = sum(1 for term in document if is_japanese_term(term))
    return japanese > 0, japanese < len(document)


@dataclass(frozen=True)
class Concept:
    """What a query asks for once: one of its terms, or the terms that translate it into
    the other script (``memory/recall/crosslingual.py``), counted as one term the way Pirkola's
    synonym operator counts them: a memory holds it as often as it holds any of them, and
    as many memories hold it as hold each, summed (the union's size, at most). Its rarity
    is counted among the memories of the script it is read in."""

    terms: frozenset[str]
    japanese: bool

    @classmethod
    def of(cls, term: str) -> Concept:
        return cls(frozenset([term]), is_japanese_term(term))


def concepts_of(query: Sequence[str]) -> list[Concept]:
    """Each distinct term of ``query`` as a concept of its own."""
    return [Concept.of(term) for term in sorted(set(query))]


def idf(term: str, document_frequency: int, stats: CorpusStats) -> float:
    """The rarity of ``term`` among the memories of its script, in Lucene's form, which
    stays positive: Robertson's goes to zero or below for a term in half the memories,
    and in a store of two memories that is any term."""
    return _idf(document_frequency, _population(is_japanese_term(term), stats))


def _population(japanese: bool, stats: CorpusStats) -> int:
    return stats.japanese if japanese else stats.latin


def _idf(document_frequency: int, population: int) -> float:
    population = max(population, document_frequency)
    ratio = (population - document_frequency + 0.5) / (document_frequency + 0.5)
    return math.log(1.0 + ratio)


def _concept_idf(concept: Concept, frequencies: Mapping[str, int], stats: CorpusStats) -> float:
    population = _population(concept.japanese, stats)
    held_by = min(population, sum(frequencies.get(term, 0) for term in concept.terms))
    return _idf(held_by, population)


def walked_terms(
    frequencies: Mapping[str, int],
    stats: CorpusStats,
    budget: int,
    limit: int,
    most: int | None = None,
) -> list[str]:
    """The terms whose postings a lookup walks for the ``limit`` memories a query's words
    bring, rarest first: those some memory holds, ``budget`` postings in all (``most``
    terms at most). A term held by more than half the memories of its script, and by
    more than ``limit``, is passed over when a rarer term of the query is walked: its IDF
    is under ln 2 where the rarer term's is higher, so what it alone brings ranks below
    what the rarer one brings, and it still counts in the score of every memory the
    other terms or the vectors bring. A query of such terms alone walks them, as a
    query's only words are all its coverage has."""
    held = sorted((t for t, f in frequencies.items() if f), key=frequencies.__getitem__)[:most]

    def common(term: str) -> bool:
        count = frequencies[term]
        return count > limit and 2 * count > _population(is_japanese_term(term), stats)

    walkable = [term for term in held if not common(term)] or held
    chosen: list[str] = []
    walked = 0
    for term in walkable:
        if walked + frequencies[term] > budget:
            break
        chosen.append(term)
        walked += frequencies[term]
    return chosen


def query_mass(query: Sequence[str], frequencies: Mapping[str, int], stats: CorpusStats) -> float:
    """The summed IDF of the query's distinct terms: a memory's score at best, near enough."""
    return concept_mass(concepts_of(query), frequencies, stats)


def concept_mass(
    concepts: Sequence[Concept], frequencies: Mapping[str, int], stats: CorpusStats
) -> float:
    """The summed IDF of ``concepts``; one that no memory holds (or that has no terms: a
    word the dictionary cannot translate) counts as rare as a term can be."""
    return sum(_concept_idf(concept, frequencies, stats) for concept in concepts)


def scores(
    query: Sequence[str],
    documents: Mapping[str, Sequence[str]],
    frequencies: Mapping[str, int],
    stats: CorpusStats,
) -> dict[str, float]:
    """Each document's BM25 score for ``query`` (documents matching no term: 0)."""
    return concept_scores(concepts_of(query), documents, frequencies, stats)


def concept_scores(
    concepts: Sequence[Concept],
    documents: Mapping[str, Sequence[str]],
    frequencies: Mapping[str, int],
    stats: CorpusStats,
) -> dict[str, float]:
    """Each document's BM25 score for ``concepts`` (documents matching none: 0)."""
    held = [c for c in concepts if c.terms]
    weights = [_concept_idf(c, frequencies, stats) for c in held]
    # Which concepts each term counts for (a term may be in two): each document's terms
    # are walked once, not once per concept.
    counted_for: dict[str, list[int]] = {}
    for number, concept in enumerate(held):
        for term in concept.terms:
            counted_for.setdefault(term, []).append(number)
    average = stats.average_length or 1.0
    result: dict[str, float] = {}
    for memory_id, document in documents.items():
        counts = [0] * len(weights)
        for term in document:
            for number in counted_for.get(term, ()):
                counts[number] += 1
        norm = K1 * (1 - B + B * len(document) / average)
        score = 0.0
        for weight, count in zip(weights, counts, strict=True):
            if count:
                score += weight * count * (K1 + 1) / (count + norm)
        result[memory_id] = score
    return result


def coverage(
    query: Sequence[str],
    documents: Mapping[str, Sequence[str]],
    frequencies: Mapping[str, int],
    stats: CorpusStats,
) -> dict[str, float]:
    """Each document's BM25 score over the query's mass (0 for a query of no terms)."""
    return concept_coverage(concepts_of(query), documents, frequencies, stats)


def concept_coverage(
    concepts: Sequence[Concept],
    documents: Mapping[str, Sequence[str]],
    frequencies: Mapping[str, int],
    stats: CorpusStats,
) -> dict[str, float]:
    """Each document's BM25 score for ``concepts`` over their mass (0 if there are none)."""
    mass = concept_mass(concepts, frequencies, stats)
    if mass <= 0:
        return dict.fromkeys(documents, 0.0)
    return {
        memory_id: score / mass
        for memory_id, score in concept_scores(concepts, documents, frequencies, stats).items()
    }

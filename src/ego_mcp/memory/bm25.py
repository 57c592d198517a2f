"""BM25 (Okapi, k1 = 1.2, b = 0.75) over a memory store, and how much of a query it covers.

Two departures from the textbook, both for stores that mix English and Japanese:

- A term's rarity (IDF) is counted among the memories of its own script. A Japanese
  particle such as の is in nearly every Japanese memory; counted against the whole
  store, where the English half lacks it, it would look rare and outweigh real words.
- ``coverage`` is a memory's score over the most any memory could score: the summed IDF
  of every query term, those no memory contains included. A query whose rare words are
  in no memory (one asked in the other language, say) is barely explained by a match on
  its common words, and its coverage says so.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ego_mcp.memory.terms import is_japanese_term

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


def idf(term: str, document_frequency: int, stats: CorpusStats) -> float:
    """The rarity of ``term`` among the memories of its script, in Lucene's form, which
    stays positive: Robertson's goes to zero or below for a term in half the memories,
    and in a store of two memories that is any term."""
    population = stats.japanese if is_japanese_term(term) else stats.latin
    population = max(population, document_frequency)
    ratio = (population - document_frequency + 0.5) / (document_frequency + 0.5)
    return math.log(1.0 + ratio)


def query_mass(query: Sequence[str], frequencies: Mapping[str, int], stats: CorpusStats) -> float:
    """The summed IDF of the query's distinct terms: a memory's score at best, near enough."""
    return sum(idf(term, frequencies.get(term, 0), stats) for term in set(query))


def scores(
    query: Sequence[str],
    documents: Mapping[str, Sequence[str]],
    frequencies: Mapping[str, int],
    stats: CorpusStats,
) -> dict[str, float]:
    """Each document's BM25 score for ``query`` (documents matching no term: 0)."""
    weights = {term: idf(term, frequencies.get(term, 0), stats) for term in set(query)}
    average = stats.average_length or 1.0
    result: dict[str, float] = {}
    for memory_id, document in documents.items():
        counts = Counter(document)
        norm = K1 * (1 - B + B * len(document) / average)
        result[memory_id] = sum(
            weight * counts[term] * (K1 + 1) / (counts[term] + norm)
            for term, weight in weights.items()
            if counts[term]
        )
    return result


def coverage(
    query: Sequence[str],
    documents: Mapping[str, Sequence[str]],
    frequencies: Mapping[str, int],
    stats: CorpusStats,
) -> dict[str, float]:
    """Each document's BM25 score over the query's mass (0 for a query of no terms)."""
    mass = query_mass(query, frequencies, stats)
    if mass <= 0:
        return dict.fromkeys(documents, 0.0)
    return {
        memory_id: score / mass
        for memory_id, score in scores(query, documents, frequencies, stats).items()
    }

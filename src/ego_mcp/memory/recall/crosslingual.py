"""Words across languages: a query read in the language of each memory it is scored on.

A memory written in Japanese cannot share an English question's words, so by words alone
it would lose to any English memory that shares one rare word with the question, however
much better the vectors say it answers. Instead each memory is also scored on the query
as it would read in the memory's own script: a term of that script is kept, any other is
replaced by its dictionary translations (``Dictionary``), which count together as one
concept (``memory/recall/bm25.py``). A word the dictionary cannot translate keeps its place in
the query's mass, so a memory that matches only the common half of a question still
covers only part of it. A memory's coverage is the better of the query as written and
the query so read.

This is dictionary-based query translation (Ballesteros and Croft, 1997) with Pirkola's
structured queries (1998): noisy translations of a common word are many, so together
they are common and weigh little.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from ego_mcp.memory.recall.bm25 import Concept, CorpusStats, concept_coverage, coverage
from ego_mcp.memory.recall.terms import is_japanese_term


class Dictionary(Protocol):
    """Translations between English and Japanese, as terms (``memory/recall/terms.py``)."""

    def translations(self, term: str) -> frozenset[str]:
        """The terms of the other script that translate ``term`` (none if unknown)."""
        ...


def is_japanese_document(document: Sequence[str]) -> bool:
    """Whether most of a memory's terms are Japanese: the script it is written in."""
    return sum(1 for term in document if is_japanese_term(term)) * 2 > len(document)


def readings(
    query: Sequence[str],
    dictionary: Dictionary | None,
    scripts: Collection[bool] = (False, True),
) -> dict[bool, list[Concept]]:
    """The query as read in each script it has terms outside of, keyed by whether that
    script is Japanese: terms of the script kept, the others replaced by translations.
    Only the ``scripts`` memories are written in are read (an English query needs no
    Japanese reading, nor the Japanese analyser it takes, where no memory is Japanese)."""
    if dictionary is None:
        return {}
    distinct = sorted(set(query))
    found: dict[bool, list[Concept]] = {}
    for japanese in (False, True):
        if japanese not in scripts:
            continue  # no memory is written in it
        if all(is_japanese_term(term) == japanese for term in distinct):
            continue  # the query already reads in this script as written
        found[japanese] = [
            Concept.of(term)
            if is_japanese_term(term) == japanese
            else Concept(dictionary.translations(term), japanese)
            for term in distinct
        ]
    return found


def translated_terms(read: Mapping[bool, Sequence[Concept]]) -> set[str]:
    """Every term the readings hold: those whose frequencies scoring them needs."""
    return {term for concepts in read.values() for concept in concepts for term in concept.terms}


def coverage_across(
    query: Sequence[str],
    read: Mapping[bool, Sequence[Concept]],
    documents: Mapping[str, Sequence[str]],
    frequencies: Mapping[str, int],
    stats: CorpusStats,
) -> dict[str, float]:
    """Each document's coverage: the better of the query as written and as read in the
    document's script (``readings``)."""
    covered = coverage(query, documents, frequencies, stats)
    for japanese, concepts in read.items():
        in_script = {i: d for i, d in documents.items() if is_japanese_document(d) == japanese}
        for memory_id, value in concept_coverage(concepts, in_script, frequencies, stats).items():
            covered[memory_id] = max(covered[memory_id], value)
    return covered

"""People's other names in recall: a query that names a person by one name ("Ken") also
finds what was said of them by another ("Kenji", "健二"), the names counted as one term
of the query, as a word and its translations are (``bm25.Concept``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ego_mcp.memory.recall.bm25 import Concept
from ego_mcp.memory.recall.terms import content_terms, is_japanese_term, terms


def name_groups(people: Sequence[Sequence[str]]) -> list[frozenset[str]]:
    """Each person's names (name and aliases) as the terms the index holds for them: the
    content words only ("The Boss" is "boss"), and none two people share (a surname)."""
    groups = [frozenset(content_terms([t for n in names for t in terms(n)])) for names in people]
    counts = Counter(term for group in groups for term in group)
    return [frozenset(t for t in group if counts[t] == 1) for group in groups]


def named_reading(query: Sequence[str], groups: Sequence[frozenset[str]]) -> list[Concept]:
    """The query with every term that is one of a person's names read as all of them;
    empty when no term is."""
    distinct = sorted(set(query))
    concepts: dict[frozenset[str], Concept] = {}
    named = False
    for term in distinct:
        group = next((g for g in groups if term in g), None)
        named = named or group is not None
        held = group or frozenset([term])
        concepts.setdefault(held, Concept(held, is_japanese_term(term)))
    return list(concepts.values()) if named else []

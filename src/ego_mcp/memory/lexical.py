"""The lexical half of hybrid recall: exact words an embedding blurs, gated by rarity.

An embedding finds "the dog chewed a cable" from "Biscuit destroyed the headphone cord",
but not ``LOG-131``, ``OOMKilled`` or 佐藤さん, a term it has never seen. So recall also
looks up the query's exact terms in the stored texts (Chroma's document index, in both
embedded and server mode). Fusion is gated, not an equal-weight rank sum: a term counts
only when few memories contain it (a rare term is evidence; a common one is noise), and
it adds a bonus to a memory's similarity rather than replacing it, so a crosslingual or
paraphrased query, whose words match nothing or everything, ranks as before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ego_mcp.memory.model import SearchHit

SHORT_QUERY_CHARS = 24  # a query this short is itself a term ("Raspberry Pi", 豆乳鍋)
IDENTIFIER = re.compile(r"[A-Za-z0-9][\w.-]*(?:[-_.]\w+|\d)[\w.-]*|[a-z]+[A-Z]\w*|[A-Z]{2,}\w*")
RARE = 3  # a term found in at most this many memories is evidence
BONUS = 0.3
MAX_TERMS = 3


def lexical_terms(query: str) -> list[str]:
    """The exact strings worth looking up: a short query whole, and identifier-like words."""
    text = query.strip()
    terms: list[str] = []
    if len(text) <= SHORT_QUERY_CHARS:
        terms.append(text)
    terms.extend(m.group(0).strip(".-_") for m in IDENTIFIER.finditer(text))
    unique = list(dict.fromkeys(t for t in terms if len(t) >= 2))
    return unique[:MAX_TERMS]


def spellings(term: str) -> list[str]:
    """The term as written, lower-cased and capitalised (the index is case-sensitive)."""
    return list(dict.fromkeys([term, term.lower(), term[:1].upper() + term[1:]]))


def rare_matches(matches: Mapping[str, Sequence[str]]) -> dict[str, float]:
    """Memory id -> bonus, from the terms that few memories contain."""
    bonus: dict[str, float] = {}
    for ids in matches.values():
        if 0 < len(ids) <= RARE:
            for memory_id in ids:
                bonus[memory_id] = max(bonus.get(memory_id, 0.0), BONUS)
    return bonus


def fuse(hits: Sequence[SearchHit], bonus: Mapping[str, float], n_results: int) -> list[SearchHit]:
    """The hits ranked by similarity plus lexical bonus; their distances stay the vector's."""
    ranked = sorted(hits, key=lambda h: -(h.similarity + bonus.get(h.memory.id, 0.0)))
    return ranked[:n_results]

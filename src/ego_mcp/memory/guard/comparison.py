"""The standard of a comparison: what "than" (English) or より (Japanese) measures the
other side against, as a stretch of the text.

"This year's plum wine is sweeter than last year's" and "Last year's plum wine is
sweeter than this year's" hold the same words and the same two times: only which time
stands with the standard tells them apart. The standard is the phrase after "than" up to
the end of its clause, or the noun phrase before より back to the particle or comma that
opens it (今年漬けた梅酒は、去年のものより甘い: 去年のもの). Pure, apart from the
Japanese analyser's dictionary.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.dates import shown
from ego_mcp.memory.guard.japanese.analyser import morphemes
from ego_mcp.memory.guard.reading import Reading

if TYPE_CHECKING:
    from sudachipy import Morpheme

THAN = re.compile(r"\bthan\b", re.IGNORECASE)
CLAUSE_END = re.compile(r"[.,;:!?]")
# What a Japanese standard's noun phrase holds: its nouns and their の, and a relative
# clause's verbs, adjectives and auxiliaries (去年漬けた梅酒より).
PHRASE = frozenset({"名詞", "代名詞", "接頭辞", "接尾辞", "動詞", "形容詞", "形状詞", "助動詞"})


def standard_span(text: str, japanese: bool) -> tuple[int, int] | None:
    """Where the standard of the text's first comparison stands, by character; None if
    the text compares nothing."""
    return _japanese_standard(text) if japanese else _english_standard(text)


def _english_standard(text: str) -> tuple[int, int] | None:
    than = THAN.search(text)
    if than is None:
        return None
    end = CLAUSE_END.search(text, than.end())
    return than.end(), end.start() if end is not None else len(text)


def _japanese_standard(text: str) -> tuple[int, int] | None:
    found = morphemes(text)
    offsets: list[int] = []
    at = 0
    for morpheme in found:
        at = text.find(morpheme.surface(), at)
        offsets.append(at)
        at += len(morpheme.surface())
    for index, morpheme in enumerate(found):
        if morpheme.surface() != "より" or morpheme.part_of_speech()[:2] != ("助詞", "格助詞"):
            continue
        start = index
        while start > 0 and _in_phrase(found[start - 1]):
            start -= 1
        if start < index:
            return offsets[start], offsets[index]
    return None


def _in_phrase(morpheme: Morpheme) -> bool:
    kind = morpheme.part_of_speech()[0]
    return kind in PHRASE or (kind == "助詞" and morpheme.surface() == "の")


def standards_traded(old: Reading, new: Reading) -> list[str]:
    """The same numbers and times in both texts, told with the standard of the comparison
    in one and with the other side in the other (this year's is sweeter than last year's /
    last year's is sweeter than this year's): each standard holds a value the other text
    tells of the other side. A value in one standard only may be the other's phrasing
    (more than Aya, who ran 3 km / more than the 3 km Aya ran)."""
    if old.standard is None or new.standard is None:
        return []
    if not (old.standard - new.standard and new.standard - old.standard):
        return []
    values = {s.value for s in (*old.numbers, *old.when)}
    if values != {s.value for s in (*new.numbers, *new.when)}:
        return []  # another value: the numbers or times tell it
    before = ", ".join(shown(v) for v in sorted(old.standard - new.standard))
    after = ", ".join(shown(v) for v in sorted(new.standard - old.standard))
    return [f"comparison: against {before} → against {after}"]

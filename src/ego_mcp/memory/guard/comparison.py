"""The standard of a comparison: what "than" (English) or より (Japanese) measures the
other side against, as a stretch of the text.

"This year's plum wine is sweeter than last year's" and "Last year's plum wine is
sweeter than this year's" hold the same words and the same two times: only which time
stands with the standard tells them apart. The standard is the phrase after "than" up to
the end of its clause (not a number: "more than 30" is a limit), or the noun phrase
before より back to the particle or comma that opens it, where an adjective ends the
clause (今年漬けた梅酒は、去年のものより甘い: 去年のもの; not 2時より会議がある, "from"). A
text with more than one comparison is left to the other checks. Pure, apart from the
Japanese analyser's dictionary.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.dates import shown
from ego_mcp.memory.guard.japanese.analyser import morphemes
from ego_mcp.memory.guard.reading import Reading

if TYPE_CHECKING:
    from sudachipy import Morpheme

THAN = re.compile(r"\b(?<!other )than\b", re.IGNORECASE)
# A number after "than" is a limit, no standard (more than 30 people, no later than 5); a
# year is a standard (sales were higher in 2021 than 2019).
LIMIT = re.compile(r"\s*(?!(?:19|20)\d\d\b)\d")
CLAUSE_END = re.compile(r"[.,;:!?]")
# What a Japanese standard's noun phrase holds: its nouns and their の, and a relative
# clause's verbs, adjectives and auxiliaries (去年漬けた梅酒より).
PHRASE = frozenset({"名詞", "代名詞", "接頭辞", "接尾辞", "動詞", "形容詞", "形状詞", "助動詞"})


def standard_span(text: str, japanese: bool) -> tuple[int, int] | None:
    """Where the standard of the text's comparison stands, by character; None if the
    text compares nothing, or more than one thing (which standard a value is told with
    is then the parse's to say)."""
    spans = _japanese_standards(text) if japanese else _english_standards(text)
    return spans[0] if len(spans) == 1 else None


def _english_standards(text: str) -> list[tuple[int, int]]:
    spans = []
    for than in THAN.finditer(text):
        if LIMIT.match(text, than.end()):
            return []
        end = CLAUSE_END.search(text, than.end())
        spans.append((than.end(), end.start() if end is not None else len(text)))
    return spans


def _japanese_standards(text: str) -> list[tuple[int, int]]:
    """Each より whose clause ends in an adjective (去年のものより甘い), with the noun phrase
    before it; not the より of a start (2時より会議がある, 10時より勤務する)."""
    found = morphemes(text)
    spans = []
    for index, morpheme in enumerate(found):
        if morpheme.surface() != "より" or morpheme.part_of_speech()[:2] != ("助詞", "格助詞"):
            continue
        start = index
        while start > 0 and (
            _in_phrase(found[start - 1]) or _in_relative_clause(found[start - 1], found[start])
        ):
            start -= 1
        if start < index and _graded_clause(found[index + 1 :]):
            spans.append((found[start].begin(), morpheme.begin()))
    return spans


def _graded_clause(rest: Sequence[Morpheme]) -> bool:
    """Whether the clause that follows says how much: an adjective before its end."""
    for morpheme in rest:
        kind = morpheme.part_of_speech()[0]
        if kind in ("形容詞", "形状詞"):
            return True
        if kind == "補助記号":
            return False
    return False


def _in_relative_clause(particle: Morpheme, following: Morpheme) -> bool:
    """A case particle whose next word is a verb stands inside a clause that describes the
    phrase's noun (2023年に買った車より: に goes with 買った), not before the phrase."""
    return (
        particle.part_of_speech()[:2] == ("助詞", "格助詞")
        and particle.surface() in ("に", "で", "を", "と", "から")
        and following.part_of_speech()[0] == "動詞"
    )


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
    if _describing(old) != _describing(new):
        return []  # bigger / smaller: the other side's word, or other words, may turn it
    values = {s.value for s in (*old.numbers, *old.when)}
    if values != {s.value for s in (*new.numbers, *new.when)}:
        return []  # another value: the numbers or times tell it
    before = ", ".join(shown(v) for v in sorted(old.standard - new.standard))
    after = ", ".join(shown(v) for v in sorted(new.standard - old.standard))
    return [f"comparison: against {before} → against {after}"]


def _describing(reading: Reading) -> frozenset[str]:
    """The adjectives and adverbs of a text: what its comparison is made with."""
    return frozenset(w.key for w in reading.words if w.pos in ("a", "r"))

"""The words that mark a sentence as a correction, which say nothing of the fact itself.

A correction is often marked: a discourse marker before it ("actually", "it turns out",
"after all", 実は, やっぱり) or the old value denied beside the new one ("at the café,
not the library", "新宿ではなく池袋で"). Both belong to grammar's closed classes; the
guard's reading of what a correction replaces (``guard.corrects``) reads both texts
without them, so that a marker is not taken for a fact of its own. A denial is read past
only when what it denies is in the other text (", not the library" beside a memory of
the library), never a denial of its own (", not unless Aya asks").
"""

from __future__ import annotations

import re

from ego_mcp.memory.guard.japanese import surfaces
from ego_mcp.memory.guard.japanese.analyser import morphemes
from ego_mcp.memory.guard.japanese.sequence import additive

_JAPANESE_LETTER = "一-龥々ァ-ヶー"
# Discourse markers of a correction: "actually" and "in fact" anywhere, the others at the
# start of the sentence or of a clause; a Japanese one only where no kanji or katakana
# run goes on before it (果実は is no 実は).
MARKERS = re.compile(
    r"(?i)\b(?:actually|in fact)\b,?\s*"
    r"|(?:^|(?<=[.;!?]\s))(?:(?:as )?it turns out(?: that)?|"
    r"turns out(?: that)?|after all|as it happens|correction\s*:|"
    r"I was wrong(?: about [^,.:;!?]+?)?(?:\s*[,:;]|\s+[—–](?=\s))"
    r"|I had it wrong(?:\s*[,:;]|\s+[—–](?=\s)))[,\s]*"
    r"|,?\s+after all(?=[.;!?]|$)"
    # The one who set it right, named as the sentence opens or closes (Ken corrected me:
    # …; …, Ken admitted.)
    r"|^(?:[A-Z][a-z]+|[Hh]e|[Ss]he|I) corrected (?:that\s+|(?:(?:me|himself|herself)\s*)?:\s*)"
    r"|,\s*(?:[A-Z][a-z]+|he|she) (?:corrected|admitted)(?: me)?(?=[.!?]|$)"
    rf"|(?<![{_JAPANESE_LETTER}])(?:実は|実際は|本当は|やっぱり|やはり|結局)、?"
    r"|^訂正\s*[:：]\s*"
)
# The old value denied beside the new one: ", not the library." / "新宿ではなく、",
# "会社じゃなくて".
DENIED_ENGLISH = re.compile(r",\s*not\s+(?P<denied>[^,.;!?]+)(?:,(?=\s)|(?=[.;!?]|$))")
DENIED_JAPANESE = re.compile(
    rf"(?P<prefix>(?<![ぁ-ゖ])[おご](?=[一-龥]))?(?P<run>[0-9.,{_JAPANESE_LETTER}]{{1,12}})(?:さん)?"
    r"(?:ではなく|じゃなく)て?、?"
)


# Adverbs of addition and sequence: a text that has one the other lacks tells of another
# time or another person besides, not of the same fact corrected.
ANOTHER_TIME = re.compile(
    r"(?i)\b(?:too|also|again|later|then|as well|once more|another time|afterwards)\b"
    r"|再び|もう一度|また|後で|今度は|その後"
    r"|(?<=[日朝夜方週月年])(?:に)?も(?![うっの])"  # 今日の夕方も, 土曜日にも: that time too
)


def tells_of_another_time(text: str, other: str) -> bool:
    """``text`` has an adverb of addition or sequence that ``other`` lacks, or more of
    the Japanese particle of addition (アヤも来た beside ケンが来た: Aya came too)."""
    theirs = {match.lower() for match in ANOTHER_TIME.findall(other)}
    if any(match.lower() not in theirs for match in ANOTHER_TIME.findall(text)):
        return True
    return _additions(text) > _additions(other)


def _additions(text: str) -> int:
    if not re.search(f"[{_JAPANESE_LETTER}ぁ-ゖ]", text):
        return 0
    found = morphemes(text)
    return sum(additive(found, at) for at in range(len(found)))


def marked_as_correction(text: str, other: str) -> bool:
    """``text`` says it corrects: a discourse marker of correction, or the value of
    ``other`` denied beside its own (", not the library", 会社じゃなくて)."""
    return without_correction_marks(text, other) != text.strip()


def without_correction_marks(text: str, other: str) -> str:
    """``text`` without the marks of a correction of ``other`` (or by ``other``)."""
    unmarked = MARKERS.sub("", text)

    def english(match: re.Match[str]) -> str:
        return "" if match["denied"].strip().lower() in other.lower() else match[0]

    def japanese(match: re.Match[str]) -> str:
        words = surfaces(match["run"])
        for count in range(1, len(words) + 1):  # the fewest last words the other holds
            if count < len(words) and _number(words[-count - 1]):
                continue  # a unit goes with its number (68キロではなく: 68キロ)
            if _held("".join(words[-count:]), other):
                kept = "".join(words[:-count])  # an honorific お or ご goes with its word
                return (match["prefix"] or "") + kept if kept else ""
        return match[0]

    return DENIED_JAPANESE.sub(japanese, DENIED_ENGLISH.sub(english, unmarked)).strip()


def _number(word: str) -> bool:
    return word[:1].isdigit()


def _held(words: str, other: str) -> bool:
    """``other`` has ``words``, a number whole (8キロ is not in 68キロ)."""
    if not _number(words):
        return words in other
    return re.search(rf"(?<![0-9.,]){re.escape(words)}", other) is not None

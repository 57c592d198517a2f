"""Numbers in every way a memory writes them, read as values: digits (full-width too,
after NFKC), English number words and ordinals ("twenty-one", "a dozen", "the first"),
and kanji numerals (三十, 二十四, 千九百), so "ninety-one" and 91, 十二月 and 12月 are one
number. Pure; the word tables are closed classes of the language, not pair lists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ego_mcp.memory.guard.wordnet import WordNet

UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
    "sixtieth": 60, "seventieth": 70, "eightieth": 80, "ninetieth": 90, "hundredth": 100,
    "thousandth": 1000,
}  # fmt: skip
GROUPS = {"dozen": 12, "pair": 2, "couple": 2}  # "a dozen", "a pair of"
KANJI_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
                "七": 7, "八": 8, "九": 9, "两": 2, "両": 2}  # fmt: skip
KANJI_SMALL = {"十": 10, "百": 100, "千": 1000}
KANJI_LARGE = {"万": 10_000, "億": 100_000_000}

ADDED = {**UNITS, **TENS, **ORDINALS}
NUMBER_WORD = "|".join(sorted([*UNITS, *TENS, *SCALES, *ORDINALS, *GROUPS], key=len, reverse=True))
ENGLISH = re.compile(
    rf"\b(?:(?:a|an|half\s+a)\s+)?(?:(?:{NUMBER_WORD})(?:[\s-]+(?:and\s+)?)?)+\b"
    r"(?:\s*(?:and\s+)?a\s+half\b)?",
    re.IGNORECASE,
)
DIGITS = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th)?")
KANJI = re.compile(r"[〇零一二三四五六七八九十百千万億両]+")
CALENDAR = re.compile(r"[年月日時分秒]")
# What follows a word said as one (十分だった, 十分な, 十分に: "enough"): the copula, its
# adnominal form and the adverbial に.
SAID_AS_A_WORD = frozenset({"だ", "だっ", "です", "でし", "な", "に", "では", "じゃ"})
# Digits with kanji units, as Japanese writes prices and counts (3万2千, 2千万, 1,200万,
# 3万五千, 1億2千万, 1.5万): one number, read as kanji_value reads an all-kanji one.
MIXED = re.compile(
    r"\d[\d,.〇一二三四五六七八九十百千万億]*[十百千万億][\d,.〇一二三四五六七八九]*"
)


@dataclass(frozen=True)
class Found:
    """A number in a text: its value as a canonical string, and where it stands."""

    value: str
    start: int
    end: int


def canonical(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def english_value(phrase: str) -> float | None:
    """The value of an English number phrase ("twenty-one", "a dozen", "one hundred and
    five", "third"); None if it is not one."""
    words = [w for w in re.split(r"[\s-]+", phrase.lower()) if w and w != "and"]
    extra = 0.0
    if len(words) > 2 and words[-2:] == ["a", "half"]:
        extra, words = 0.5, words[:-2]
    factor = 1.0
    if words[:2] == ["half", "a"]:
        factor, words = 0.5, words[2:]
    elif words and words[0] in ("a", "an"):
        words = words[1:]
        if words and words[0] in SCALES | GROUPS:
            words = ["one", *words]
    if not words:
        return None
    total = _sum_words(words)
    return None if total is None else total * factor + extra


def _sum_words(words: list[str]) -> float | None:
    """ "one hundred five" = 105, "twenty first" = 21, "two thousand" = 2000."""
    total, current = 0.0, 0.0
    for word in words:
        if word in SCALES and SCALES[word] >= 1000:
            total += (current or 1) * SCALES[word]
            current = 0
        elif word in SCALES or word in GROUPS:
            current = (current or 1) * {**SCALES, **GROUPS}[word]
        elif word in ADDED:
            current += ADDED[word]
        else:
            return None
    return total + current


def kanji_value(text: str) -> int | None:
    """The value of a kanji numeral (三十 = 30, 二十四 = 24, 千九百 = 1900, 二〇二五 = 2025)."""
    if all(ch in KANJI_DIGITS for ch in text):  # digit by digit: 二〇二五
        return int("".join(str(KANJI_DIGITS[ch]) for ch in text))
    if any(
        ch not in KANJI_DIGITS and ch not in KANJI_SMALL and ch not in KANJI_LARGE for ch in text
    ):
        return None
    value = _units_value([float(KANJI_DIGITS[ch]) if ch in KANJI_DIGITS else ch for ch in text])
    return None if value is None else int(value)


def mixed_value(text: str) -> float | None:
    """The value of digits with kanji units (3万2千 = 32000, 2千万 = 20000000, 1,200万 =
    12000000, 3万五千 = 35000); None where two numbers stand in a row."""
    pieces = re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?|[〇一二三四五六七八九]|[十百千万億]", text)
    return _units_value(
        [
            piece
            if piece in KANJI_SMALL or piece in KANJI_LARGE
            else float(KANJI_DIGITS[piece])
            if piece in KANJI_DIGITS
            else float(piece.replace(",", ""))
            for piece in pieces
        ],
        digits_in_a_row=False,
    )


def _units_value(pieces: list[float | str], digits_in_a_row: bool = True) -> float | None:
    """The value of a numeral read as numbers and kanji units (十百千 within a section, 万
    億 closing one); ``digits_in_a_row``: a number after a number replaces it (the kanji
    reader's way), else the two are no numeral (None)."""
    total, section, digit = 0.0, 0.0, None
    for piece in pieces:
        if isinstance(piece, float):
            if digit is not None and not digits_in_a_row:
                return None  # two numbers in a row: no numeral
            digit = piece
        elif piece in KANJI_SMALL:
            section += (1 if digit is None else digit) * KANJI_SMALL[piece]
            digit = None
        else:
            total += (section + (digit or 0) or 1) * KANJI_LARGE[piece]
            section, digit = 0, None
    return total + section + (digit or 0)


def _spoken_numbers(written: str, start: int) -> list[tuple[int, str]]:
    """The numbers of a run of number words, each with where it starts. "and" joins the
    parts of one number before "a half" (two and a half) and after a scale word when a
    smaller number follows (one hundred and five, two thousand and twenty); else it joins
    two numbers (eight and five, one thousand and two thousand) or ends the run (nine and
    Ken's, two hundred and Aya's)."""
    words = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", written)]
    pieces: list[tuple[int, int]] = []  # (first word, last word) of each number
    first = 0
    for at, (_, word) in enumerate(words):
        if word.lower() != "and" or at == first:
            continue
        if not _joins(words[first:at], words[at + 1 :]):
            pieces.append((first, at - 1))
            first = at + 1
    if first < len(words) and words[-1][1].lower() != "and":
        pieces.append((first, len(words) - 1))
    return [
        (start + words[i][0], written[words[i][0] : words[j][0] + len(words[j][1])])
        for i, j in pieces
    ]


def _joins(before: list[tuple[int, str]], after: list[tuple[int, str]]) -> bool:
    """Whether "and" between ``before`` and ``after`` (words of a run) joins one number."""
    following = [word.lower() for _, word in after]
    if following[:2] == ["a", "half"]:
        return True
    last = before[-1][1].lower().split("-")[-1] if before else ""
    if last not in SCALES or not following or following[0].split("-")[0] not in ADDED:
        return False
    rest = [w.split("-")[-1] for w in following]
    scales = [SCALES[w] for w in rest if w in SCALES]
    return all(scale < SCALES[last] for scale in scales)


# Determiners (a closed class) after which "one" may be a pronoun, no number: no one
# came, each one, the one I bought, his personal one, that one (but "gave her one apple",
# "heard that one student failed": a noun follows, ``substitute_one``).
DETERMINERS = frozenset(
    {"a", "an", "no", "each", "every", "any", "some", "the", "this", "that", "which",
     "another", "my", "your", "his", "her", "its", "our", "their", "whose"}
)  # fmt: skip
WORDS_BEFORE = re.compile(r"((?:[A-Za-z]+\s+){1,3})$")
WORDS_AFTER = re.compile(r"((?:\s+[A-Za-z0-9]+){1,3})")
# Words WordNet also files as nouns that follow the pronoun "one" (closed classes:
# conjunctions, prepositions but "of", pronouns, auxiliaries): the one I bought.
AFTER_THE_PRONOUN = frozenset(
    {"and", "or", "but", "so", "because", "that", "which", "who", "whom", "when", "where",
     "while", "if", "than", "as", "at", "in", "on", "for", "to", "from", "with", "by",
     "near", "is", "was", "are", "were", "has", "had", "have", "will", "would", "can",
     "could", "should", "might", "may", "must", "does", "did", "i", "you", "he", "she",
     "it", "we", "they", "me", "him", "her", "us", "them", "too", "instead"}
)  # fmt: skip


def substitute_one(text: str, start: int) -> bool:
    """Whether the "one" at ``start`` stands for a noun told before it, English's
    substitute "one": after a determiner, with at most two adjectives between (the big
    one, his personal one, the big red one, no one), and before no noun it would count
    (his one son, one of them: numbers). A number stands before the adjectives (one big
    cat)."""
    from ego_mcp.memory.guard.wordnet import wordnet

    net = wordnet()
    if net is None:
        return False
    if _counts_after(text, start + len("one"), net):
        return False  # his one son, one big apple, one of them, one or two: a number
    before = WORDS_BEFORE.search(text[:start])
    words = before.group(1).lower().split() if before else []
    for at in range(len(words) - 1, -1, -1):
        if words[at] in DETERMINERS:
            return True
        if not net.offsets(words[at], "a"):
            return False  # a noun between (fed the cat one treat): a number
    return False


def _counts_after(text: str, end: int, net: WordNet) -> bool:
    """Whether what follows the "one" ending at ``end`` is what it counts: a noun
    (WordNet's), after at most two adjectives (one son, one big apple, one remaining
    friend), "of" (one of them), or "or" or "in" before a number (one or two, one in
    ten); not a name (the one Ken called, whatever WordNet files "ken" as)."""
    following = WORDS_AFTER.match(text, end)
    written = following.group(1).split() if following else []
    if written[:1] and written[0][:1].isupper():
        return False  # a name opens the clause on it (the one Ken called), counted by none
    words = [word.lower() for word in written]
    if words[:1] == ["of"] or (words[:1] in (["or"], ["in"]) and _numeral(words[1:2])):
        return True
    for word in words[:3]:
        if word in AFTER_THE_PRONOUN:
            return False
        if net.base_forms(word, "n"):
            return True
        if not net.offsets(word, "a"):
            return False
    return False


def _numeral(words: list[str]) -> bool:
    return bool(words) and (words[0].isdigit() or words[0] in ADDED)


def find_numbers(text: str) -> list[Found]:
    """Every number of ``text`` (NFKC-normalised), left to right, without overlaps."""
    found: list[Found] = []
    mixed: set[int] = set()
    for match in MIXED.finditer(text):
        numeral = match.group(0).rstrip(",.")
        value = mixed_value(numeral)
        if value is not None:
            found.append(Found(canonical(value), match.start(), match.start() + len(numeral)))
            mixed.update(range(match.start(), match.start() + len(numeral)))
    for match in DIGITS.finditer(text):
        if match.start() in mixed:
            continue
        raw = re.sub(r"(st|nd|rd|th)$", "", match.group(0)).replace(",", "")
        try:
            digits = canonical(float(raw))
        except ValueError:
            continue
        found.append(Found(digits, match.start(), match.end()))
    found += _english_numbers(text)
    numerals, words = numeral_offsets(text) if KANJI.search(text) else (set(), set())
    for match in KANJI.finditer(text):
        if match.start() in mixed:
            continue
        # 十二月, 三日: always dates, unless the dictionary reads the kanji with the unit as
        # a word that says how (十分: "enough", not ten minutes).
        calendar = CALENDAR.match(text, match.end()) is not None and match.end() not in words
        run = [i for i in range(match.start(), match.end()) if calendar or i in numerals]
        if not run:
            continue  # 一緒, 一番, 統一: the dictionary reads no numeral there
        # A number's kanji are read together from where the dictionary reads a numeral:
        # it may cut 三十分 as 三 and 十分 ("enough").
        start, end = run[0], match.end()
        written = kanji_value(text[start:end])
        if written is not None:
            found.append(Found(canonical(float(written)), start, end))
    return sorted(found, key=lambda f: f.start)


def _english_numbers(text: str) -> list[Found]:
    """The numbers ``text`` says in English words (not the article, nor the substitute
    "one")."""
    found = []
    for match in ENGLISH.finditer(text):
        for start, phrase in _spoken_numbers(match.group(0), match.start()):
            spoken = english_value(phrase)
            if phrase.lower() == "one" and substitute_one(text, start):
                continue
            if spoken is not None and phrase.lower() not in ("a", "an"):
                found.append(Found(canonical(spoken), start, start + len(phrase)))
    return found


def numeral_offsets(text: str) -> tuple[set[int], set[int]]:
    """Where the dictionary (Sudachi, its shortest units) reads a numeral (名詞,数詞) in
    ``text``, and the numeral a word it lists whole begins with when the rest of the word
    is a counter (二十歳: 二十 and 歳); and where it reads a word that says how much, told
    as one (十分だった, 十分な, 十分に: "enough"; not 十分かかった, 3時十分に, 徒歩十分だ: ten
    minutes). A word listed whole whose rest may count (一人, 一杯, 一度: "alone", "full",
    "once" as often as a count) is a count only where the text counts the same thing
    elsewhere too (子供が一人と大人が二人, コーヒーを二杯、紅茶を一杯; not 一方 or 一番 in a
    text with a 3個)."""
    from ego_mcp.memory.japanese import SHORT, counter_suffix, may_count, tokens

    offsets: set[int] = set()
    counted: list[str] = []  # what each numeral read counts (二杯: 杯)
    counts_if_counting: list[tuple[str, range]] = []
    words: set[int] = set()
    cursor = 0
    found = tokens(text, SHORT)
    for index, token in enumerate(found):
        start = text.find(token.surface, cursor)
        if start < 0:
            continue
        cursor = start + len(token.surface)
        after = found[index + 1].surface if index + 1 < len(found) else ""
        before = found[index - 1] if index else None
        if (
            token.pos[0] in ("副詞", "形状詞")
            and after in SAID_AS_A_WORD
            # Not after a calendar word (3時十分に) or a noun (徒歩十分だ): ten minutes.
            and (
                before is None
                or not (CALENDAR.fullmatch(before.surface[-1:]) or before.pos[0] == "名詞")
            )
        ):
            words.update(range(start, cursor))
        if token.pos[:2] == ("名詞", "数詞"):
            offsets.update(range(start, cursor))
            counted.append(after)
            continue
        numeral = KANJI.match(token.surface)
        rest = token.surface[numeral.end() :] if numeral is not None else ""
        if numeral is not None and counter_suffix(rest):
            offsets.update(range(start, start + numeral.end()))
        elif numeral is not None and rest and may_count(rest):
            counts_if_counting.append((rest, range(start, start + numeral.end())))
    counters = counted + [rest for rest, _ in counts_if_counting]
    for rest, numeral_at in counts_if_counting:
        if counters.count(rest) > 1:
            offsets.update(numeral_at)
    return offsets, words

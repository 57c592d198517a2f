"""A text read for the guard: numbers and dates first (as values), then the words of its
language by that language's analyser. Pure, apart from the analysers' data."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from ego_mcp.memory.guard import english, japanese
from ego_mcp.memory.guard.comparison import standard_span
from ego_mcp.memory.guard.dates import find_when
from ego_mcp.memory.guard.durations import DURATION
from ego_mcp.memory.guard.measures import MEASURE
from ego_mcp.memory.guard.numbers import DIGITS, GROUPS, SCALES, canonical, find_numbers
from ego_mcp.memory.guard.reading import Reading, Slotted
from ego_mcp.memory.japanese import is_japanese

# より after a value is the side a comparison is measured against (夏より冬のほうが), as
# the Japanese reader gives it for a noun; the formal "from" (3時より) is rarer in a diary.
JA_SLOT_PARTICLES = {
    "から": "from", "まで": "until", "前": "before", "後": "after", "より": "than",
}  # fmt: skip
# The particles that make a date or time the time of what its clause goes on to say
# (月曜に歯医者、水曜に美容院の予約: Monday is the dentist's).
JA_TIME_PARTICLES = ("に", "は")


THOUSANDS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[kK](?![\w])")
CURRENCY = {"$": "dollars", "€": "euros", "£": "pounds", "¥": "yen"}
CURRENCY_AMOUNT = re.compile(r"([$€£¥])\s?(\d[\d,]*(?:\.\d+)?)")


# An English "not" contracted, spelled out so that two spellings of one sentence parse
# alike (the small model reads "can't eat gluten" otherwise than "cannot eat gluten").
# The other contractions parse as their words do ('m, 're: be; 'd: had or would).
IRREGULAR_NOT = {"can": "can", "won": "will", "shan": "shall"}
CONTRACTED_NOT = re.compile(r"\b([a-z]+?)(n)['’]t\b", re.IGNORECASE)
CANNOT = re.compile(r"\b(c)annot\b", re.IGNORECASE)
# Spoken contractions of a verb and "to" (closed: English has these two in writing).
SPOKEN_TO = {"gonna": "going to", "wanna": "want to"}
SPOKEN = re.compile(rf"\b({'|'.join(SPOKEN_TO)})\b", re.IGNORECASE)


def normalise(text: str) -> str:
    """NFKC, thousands written with k as digits (85k: 85000), a currency sign written as
    its word ($50 = 50 dollars), and an English "not" contracted spelled out (can't,
    cannot: can not; didn't: did not), as are gonna and wanna (going to, want to)."""
    text = unicodedata.normalize("NFKC", text)
    text = SPOKEN.sub(lambda m: SPOKEN_TO[m.group(1).lower()], text)
    text = THOUSANDS.sub(lambda m: canonical(float(m.group(1)) * 1000), text)
    text = CURRENCY_AMOUNT.sub(lambda m: f"{m.group(2)} {CURRENCY[m.group(1)]}", text)
    return _uncontracted(text) if "'" in text or "’" in text or "annot" in text.lower() else text


def _uncontracted(text: str) -> str:
    def not_spelled(match: re.Match[str]) -> str:
        whole = match.group(1) + match.group(2)  # can't, won't: the n is the verb's
        stem = whole if whole.lower() in IRREGULAR_NOT else match.group(1)
        verb = IRREGULAR_NOT.get(stem.lower(), stem)
        return (verb.capitalize() if stem[:1].isupper() else verb) + " not"

    return CONTRACTED_NOT.sub(not_spelled, CANNOT.sub(lambda m: f"{m.group(1)}an not", text))


PLAIN_DIGITS = re.compile(r"\d+(?:\.\d+)?")
ARTICLE = re.compile(
    rf"an?\s+(?!(?:{'|'.join([*SCALES, *GROUPS, 'half', 'quarter'])})\b)", re.IGNORECASE
)


def digitised(text: str) -> str:
    """``text`` with every number written as digits (English words padded with spaces)."""
    pieces, cursor = [], 0
    for found in find_numbers(text):
        raw = text[found.start : found.end]
        if found.start < cursor or PLAIN_DIGITS.fullmatch(raw):
            continue  # digits stay as written: 19:00 is a time, not 19 and 0; 123.4567
        pad = " " if raw[:1].isascii() and raw[:1].isalpha() else ""
        after = "-" if raw.endswith("-") else pad  # twenty-seven-inch: 27-inch
        article = ARTICLE.match(raw)  # a ten-day course: the "a" is no part of the number
        kept = article.group(0) if article else ""
        pieces += [text[cursor : found.start], f"{kept}{pad}{found.value}{after}"]
        cursor = found.end
    return "".join([*pieces, text[cursor:]])


# A half after a counter of duration is half of one (2時間半 = 2.5時間, 1年半); 3時半 is
# a time of day, read with the dates.
DURATION_HALF = re.compile(r"(\d+)(時間|年|か月|ヶ月|カ月|週間|日|分|秒)半")


SPACES = re.compile(r"(?<=\S) {2,}(?=\S)")


def halves(text: str) -> str:
    """``text`` with each Japanese "and a half" of a duration written as a decimal."""
    return DURATION_HALF.sub(lambda m: f"{m.group(1)}.5{m.group(2)}", text)


def _value(digits: str) -> str:
    try:
        return canonical(float(re.sub(r"(st|nd|rd|th)$", "", digits).replace(",", "")))
    except ValueError:
        return digits


def read_ahead(texts: Sequence[str]) -> None:
    """Parse the English of ``texts`` in one batch, ahead of ``read`` (which then finds
    the parses kept): cheaper than one by one."""
    digits = (_with_digits(text) for text in texts)
    english.parse_all([text for text in digits if not is_japanese(text)])


def _with_digits(text: str) -> str:
    """``text`` as the analysers read it: normalised, its numbers as digits (a number
    word's padding taken back where a space stood already: half past two is half past 2,
    no run of spaces the parser would read as a word)."""
    return SPACES.sub(" ", halves(digitised(normalise(text))))


@lru_cache(maxsize=512)
def read(text: str) -> Reading:
    """What ``text`` says, as the guard compares it (kept for recent texts: a save
    compares its text with up to five memories, consolidation each pair it shows)."""
    digits = _with_digits(text)
    written_in = False
    if not is_japanese(digits):
        unsaid, digits = digits, english.with_the_diarist(digits)  # Reminded Master to…
        written_in = digits != unsaid
    when = find_when(digits)
    covered = {i for start, end in when.spans for i in range(start, end)}
    # A length of time or a measure is an amount (1.5 hours, 90分, 1.5 km), compared and
    # bound as numbers are.
    numbers = [(start, unit) for start, units in when.pieces for unit in units if _amount(unit)]
    pieces = tuple(
        (start, units) for start, units in when.pieces if not any(_amount(u) for u in units)
    )
    ends = dict(when.spans)
    dates = {start: ends[start] for start, _ in pieces}  # not the lengths and measures
    for match in DIGITS.finditer(digits):
        if match.start() in covered:
            continue
        numbers.append((match.start(), _value(match.group(0))))
        ends[match.start()] = match.end()
        covered.update(range(match.start(), match.end()))
    skip = frozenset(covered)
    japanese_text = is_japanese(digits)
    if japanese_text:
        found = _japanese(digits, sorted(numbers), pieces, ends, dates, skip)
    else:
        found = english.read(digits, tuple(sorted(numbers)), pieces, skip)
    if written_in:
        found = replace(found, diarist_written_in=True)
    span = standard_span(digits, japanese_text)
    if span is None:
        return found
    values = [*numbers, *((start, unit) for start, units in pieces for unit in units)]
    standard = frozenset(value for start, value in values if span[0] <= start < span[1])
    return replace(found, standard=standard)


def _japanese(
    digits: str,
    numbers: list[tuple[int, str]],
    pieces: tuple[tuple[int, frozenset[str]], ...],
    ends: dict[int, int],
    dates: dict[int, int],
    skip: frozenset[int],
) -> Reading:
    """The Japanese reading of ``digits``, its amounts and dates in their slots: each
    ``ends`` where it ends, a date with the dates written with it (``dates``)."""
    words = japanese.read(digits, skip)
    amounts = tuple(
        Slotted(
            value,
            _ja_slot(digits, ends[start]),
            _ja_anchor(words, digits, start) or _ja_time_before(pieces, digits, start),
            _ja_part(words.part_breaks, start),
        )
        for start, value in numbers
    )
    when = []
    for start, units in pieces:
        end = _date_end(digits, start, dates)
        anchor = _ja_time_anchor(words, digits, end) or _ja_anchor(words, digits, start)
        part = _ja_part(words.part_breaks, start)
        when += [Slotted(unit, _ja_slot(digits, end), anchor, part) for unit in sorted(units)]
    return replace(words, numbers=amounts, when=tuple(when))


def _amount(unit: str) -> bool:
    return unit.startswith((DURATION, MEASURE))


def _ja_anchor(reading: Reading, text: str, start: int) -> str:
    """What a Japanese number or date is of: the last noun before it in its clause (本を3
    冊, 平日は6時), with its owner and the adjectives before it in the clause (ケンのコート
    は3万円で、アヤのコートは5万円: two coats; 大きいケーキは500円)."""
    before = text[_clause_start(text, start) + 1 : start]
    found = [w for w in reading.words if w.pos == "n" and w.surface and w.surface in before]
    if not found:
        return ""
    noun = found[-1]
    at = before.rfind(noun.surface)
    described = [
        w.key
        for w in reading.words
        if w is not noun
        and w.surface
        and 0 <= before.find(w.surface) < at
        and ((w.role == "owner" and w.owns == noun.key) or w.pos == "a")
    ]
    return " ".join([*dict.fromkeys(described), noun.key])


def _ja_time_before(pieces: tuple[tuple[int, frozenset[str]], ...], text: str, start: int) -> str:
    """The time a Japanese amount is told of where no noun stands before it in its clause
    (月曜日に3キロ、水曜日に8キロ: Monday's 3 km): the last time in the clause before it."""
    clause_start = _clause_start(text, start)
    times = [units for at, units in pieces if clause_start < at < start]
    return " ".join(sorted(times[-1])) if times else ""


def _clause_start(text: str, start: int) -> int:
    """Where the clause of the character at ``start`` opens: its last mark before it
    (、 。 ,), or -1."""
    return max(text.rfind(mark, 0, start) for mark in "、。,")


def _ja_part(breaks: tuple[int, ...], start: int) -> int:
    """The part of its sentence the value at ``start`` stands in, as the Japanese reader
    counts its words' (``Word.part``): one more for each place it cut before it."""
    return 1 + sum(1 for at in breaks if at < start)


def _date_end(text: str, start: int, dates: dict[int, int]) -> int:
    """Where the date that starts at ``start`` ends, with the dates it owns after の or
    right after it (去年の夏に: last year's summer; 令和7年4月に: one time)."""
    end = dates[start]
    while end in dates or (text.startswith("の", end) and end + 1 in dates):
        end = dates[end] if end in dates else dates[end + 1]
    return end


def _ja_time_anchor(reading: Reading, text: str, end: int) -> str:
    """What a Japanese date or time marked with に or は is the time of: the first noun
    after it in its clause (月曜に歯医者、水曜に美容院の予約を入れた: Monday's is the
    dentist, Wednesday's the hair salon), with its owner and adjectives; "" where its
    clause names none after it (会議は3時に始まる: the noun before, as for a number)."""
    if not text.startswith(JA_TIME_PARTICLES, end):
        return ""
    ends = [text.find(mark, end) for mark in "、。,"]
    clause_end = min([at for at in ends if at >= 0], default=len(text))
    after = text[end + 1 : clause_end]
    found = [w for w in reading.words if w.pos == "n" and w.surface and w.surface in after]
    if not found:
        return ""
    noun = min(found, key=lambda w: after.find(w.surface))
    return _ja_anchor(reading, text, end + 1 + after.find(noun.surface) + len(noun.surface))


def _ja_slot(text: str, end: int) -> str:
    """The particle after the number or date that ends at ``end`` (3時から, 5日まで, one
    counter allowed: 200円から)."""
    for at in (end, end + 1):
        for particle, role in JA_SLOT_PARTICLES.items():
            if text.startswith(particle, at):
                return role
    return ""

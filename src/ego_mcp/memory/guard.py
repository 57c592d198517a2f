"""The duplicate guard's second look: what differs between two texts that embed alike.

Embeddings score "Envelope #14" and "#15", "liked" and "didn't like", Monday and
Tuesday as near-identical, while a real rephrasing scores lower. So the nearest memory is
only a candidate; it is a duplicate when it is close enough *and* the two texts agree on
the facts an embedding blurs: numbers, dates, weekdays and times, negation, and names.
Pure functions over both texts, English and Japanese alike (NFKC-normalised, so
full-width digits and half-width kana count as the same); people and opposites come from
closed word lists (``lexicon.py``), Japanese nouns from a dictionary (``japanese.py``).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

from ego_mcp.memory import japanese
from ego_mcp.memory.lexicon import flipped, people

KANJI_DIGITS = str.maketrans("〇一二三四五六七八九", "0123456789")
COUNTERS = "個回人匹枚本冊日時分年月歳度つ円"
NUMBER = re.compile(rf"\d+(?:[.,:]\d+)*|[〇一二三四五六七八九十百千万両]+(?=[{COUNTERS}])")
NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20",
    "once": "x1", "twice": "x2", "first": "#1", "second": "#2", "third": "#3",
}  # fmt: skip
TIME_WORDS = {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "yesterday", "today", "tomorrow", "tonight",
    "morning", "afternoon", "evening", "night", "noon", "midnight", "weekend", "am", "pm",
    "月曜", "火曜", "水曜", "木曜", "金曜", "土曜", "日曜", "昨日", "今日", "明日", "今朝",
    "今夜", "朝", "昼", "夕方", "夜", "週末", "午前", "午後", "先週", "来週", "去年", "来年",
}  # fmt: skip
NEGATIONS_EN = re.compile(r"\b(?:not|no|never|nothing|nobody|none|neither|nor|cannot)\b|n't\b")
NEGATIONS_JA = re.compile(r"ない|なかった|ません|ず[にの]?|ぬ|無かった|なく")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d+")
KATAKANA_NAME = re.compile(r"[ァ-ヴー]{2,}")
HONORIFIC_NAME = re.compile(r"([一-龯ぁ-んァ-ヴA-Za-z]{1,6})(?:さん|くん|君|ちゃん|様|先生)")
ADDED_LENGTH_RATIO = 1.25
ADDED_WORDS = 2
SENTENCE_START = re.compile(r"(?:^|[.!?。！？]\s*)([A-Z][a-z]+)")


@dataclass(frozen=True)
class Comparison:
    """How a new text stands to its nearest memory."""

    duplicate: bool
    differences: tuple[str, ...] = ()


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def numbers(text: str) -> set[str]:
    found = {n.translate(KANJI_DIGITS).replace(",", "") for n in NUMBER.findall(text)}
    found |= {NUMBER_WORDS[w] for w in (w.lower() for w in WORD.findall(text)) if w in NUMBER_WORDS}
    return found


def time_words(text: str) -> set[str]:
    lowered = text.lower()
    english = {w for w in WORD.findall(lowered) if w in TIME_WORDS}
    japanese = {w for w in TIME_WORDS if not w.isascii() and w in text}
    return english | japanese


def negated(text: str) -> int:
    """How many negations the text carries (a count, so "not ... not" is not "not")."""
    return len(NEGATIONS_EN.findall(text.lower())) + len(NEGATIONS_JA.findall(text))


def names(text: str) -> set[str]:
    """Capitalised words not opening a sentence, katakana words, and names before さん etc."""
    openers = {m.group(1) for m in SENTENCE_START.finditer(text)}
    english = {
        w for w in WORD.findall(text) if w[0].isupper() and w not in openers and w.lower() != "i"
    }
    return english | set(KATAKANA_NAME.findall(text)) | set(HONORIFIC_NAME.findall(text))


def _mentioned(name: str, text: str, words: set[str]) -> bool:
    """``name`` is in ``text``: as a substring, or (English) a word a typo away."""
    if name in text or name.lower() in text.lower():
        return True
    stem = re.sub(r"['’]s$|s$", "", name.lower())
    return any(difflib.SequenceMatcher(None, stem, w).ratio() >= 0.8 for w in words)


def new_names(existing: str, new: str) -> set[str]:
    words = {re.sub(r"['’]s$|s$", "", w.lower()) for w in WORD.findall(existing)}
    return {name for name in names(new) if not _mentioned(name, existing, words)}


def lower_words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def new_people(existing: str, new: str) -> tuple[set[str], set[str]]:
    """(people only ``existing`` names, people only ``new`` names), by kind of person."""
    old, fresh = people(lower_words(existing)), people(lower_words(new))
    gone = {w for kind, found in old.items() if kind not in fresh for w in found}
    added = {w for kind, found in fresh.items() if kind not in old for w in found}
    return gone, added


def opposite(existing: str, new: str) -> tuple[str, str] | None:
    """A word of ``existing`` turned into its opposite in ``new`` (remembered → forgot)."""
    old = lower_words(existing) | japanese.base_forms(existing)
    fresh = lower_words(new) | japanese.base_forms(new)
    return flipped(old, fresh)


def content_words(text: str) -> set[str]:
    return {w for w in lower_words(text) if len(w) > 3}


def adds_a_clause(existing: str, new: str) -> bool:
    """``new`` is a good deal longer and brings words of its own: a fact was added."""
    longer = len(new) > ADDED_LENGTH_RATIO * len(existing)
    return longer and len(content_words(new) - content_words(existing)) >= ADDED_WORDS


def differences(existing: str, new: str) -> tuple[str, ...]:
    """The facts on which ``new`` departs from ``existing``, as ``what: old → new`` lines.

    ``new`` may leave a detail out (a shorter retelling); it may not change or add one.
    """
    a, b = normalise(existing), normalise(new)
    found = []
    for label, extract in (("numbers", numbers), ("time", time_words)):
        old, fresh = extract(a), extract(b)
        if fresh - old:
            shown_old = ", ".join(sorted(old - fresh)) or "—"
            found.append(f"{label}: {shown_old} → {', '.join(sorted(fresh - old))}")
    added = new_names(a, b)
    if added:
        found.append(f"names: {', '.join(sorted(added))}")
    things = japanese.new_things(a, b) - added
    if things:
        gone = japanese.things(a) - japanese.things(b)
        found.append(f"things: {', '.join(sorted(gone)) or '—'} → {', '.join(sorted(things))}")
    gone_people, people_added = new_people(a, b)
    if people_added:
        shown = ", ".join(sorted(gone_people)) or "—"
        found.append(f"people: {shown} → {', '.join(sorted(people_added))}")
    flip = opposite(a, b)
    if flip:
        found.append(f"opposite: {flip[0]} → {flip[1]}")
    if negated(a) % 2 != negated(b) % 2:
        found.append("negation")
    if adds_a_clause(a, b):
        found.append("an added clause")
    return tuple(found)


def compare(existing: str, new: str, similarity: float, threshold: float) -> Comparison:
    """A duplicate when at least ``threshold`` similar and no fact differs."""
    if similarity < threshold:
        return Comparison(duplicate=False)
    found = differences(existing, new)
    return Comparison(duplicate=not found, differences=found)

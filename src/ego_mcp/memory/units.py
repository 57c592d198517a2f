"""The content units of a memory's text: what the guard matches between two texts.

A text becomes numbers (``numbers``), temporal units (``dates``), a count of negations,
and words: English ones lemmatised (simplemma's tables, so "waited" is "wait"), less a
closed class of function words; Japanese ones from Janome's dictionary (IPADIC, in its
wheel), by base form and reading, so 林檎 and りんご, 猫 and ネコ are one word, and a
katakana word's final long vowel is not a difference (コンピューター, コンピュータ). A noun
that a role word binds (from/to/by/with..., から/まで/へ/が/を) keeps that role, so
"from Tokyo to Paris" and "from Paris to Tokyo" differ. Pure, apart from loading the two
dictionaries on first use.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache

from ego_mcp.memory import japanese
from ego_mcp.memory.dates import find_when
from ego_mcp.memory.numbers import DIGITS, canonical, find_numbers


# Closed classes of English: what carries no fact of its own (articles, the auxiliaries
# that mark tense or voice, fillers of grammar), and the role words bound to their noun.
def closed(words: str) -> frozenset[str]:
    return frozenset(words.split())


FUNCTION_WORDS = closed(
    "a an the be am is are was were been being have has had having do does did will would "
    "shall and that which who whom whose it its there here of in on at as but though "
    "although even yet so because if whether while also too then just still really very "
    "quite rather"
)
CONTRACTIONS = re.compile(r"'(?:d|ll|m|re|ve|s)$")
ROLE_WORDS = {
    word: word for word in closed("from to into onto toward by with without for after before")
} | {"until": "until", "till": "until", "since": "since", "than": "than", "towards": "toward"}
NEGATIONS_EN = closed("not never no nobody nothing none neither nor nowhere cannot")
NEGATIONS_JA = frozenset({"ない", "ぬ", "ん"})  # base forms of 助動詞 (and 形容詞 ない)
JA_ROLES = {"から": "from", "まで": "until", "へ": "to", "より": "than", "が": "subject",
            "は": "subject", "を": "object"}  # fmt: skip
JA_SKIP_NOUNS = {"数", "非自立", "接尾", "特殊"}
JA_HONORIFICS = {"お", "ご", "御"}
JA_LIGHT_VERBS = {"する", "いる", "ある"}  # carry tense or aspect, no fact of their own
JA_CONTENT = {"名詞", "動詞", "形容詞", "副詞"}
TYPO_RATIO = 0.8
KANJI = re.compile(r"[\u4e00-\u9fff]")
HYPHENATED = re.compile(r"(?<=[A-Za-zÀ-ɏ])-(?=[A-Za-zÀ-ɏ])")
LATIN = "A-Za-zÀ-ÖØ-öø-ɏ"  # English and the accented letters of names (Émile)
WORD = re.compile(rf"[{LATIN}][{LATIN}'’]*")
SENTENCE_END = re.compile(r"[.!?。！？]\s*$")


@dataclass(frozen=True)
class Unit:
    """One content word: its key (a lemma or base form), its reading (Japanese, long
    vowel dropped), whether it is written in kana, is a name, and the role bound to it."""

    key: str
    reading: str = ""
    kana: bool = False
    name: bool = False
    role: str = ""
    known: bool = True  # in the lemmatiser's dictionary (English); a misspelling is not
    surface: str = ""  # as written, lower case (English)

    def same_word(self, other: Unit) -> bool:
        if self.key == other.key:
            return True
        if self.reading and self.reading == other.reading and self.kanji_agree(other):
            return True
        return self.misspells(other) or other.misspells(self)

    def kanji_agree(self, other: Unit) -> bool:
        """Two spellings of one reading are one word when the kanji of one are among the
        other's (林檎 / りんご, 友だち / 友達); never two different kanji (橋 / 箸)."""
        mine, theirs = set(KANJI.findall(self.key)), set(KANJI.findall(other.key))
        return mine <= theirs or theirs <= mine

    def misspells(self, other: Unit) -> bool:
        """This word is no word of the dictionary, and one letter or two off ``other``
        (reccomended / recommended); two real words never are (county / country)."""
        if self.known or not other.known or len(self.surface) < 4:
            return False
        written = other.surface or other.key
        if self.surface[0] != written[0]:
            return False
        return SequenceMatcher(None, self.surface, written).ratio() >= TYPO_RATIO


@dataclass(frozen=True)
class Units:
    """Everything a text says that another must say too for the two to be one memory."""

    words: tuple[Unit, ...]
    numbers: frozenset[str]
    when: frozenset[str]
    negations: int
    capitalised_in_order: tuple[str, ...]


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _digitised(text: str) -> str:
    """``text`` with every number written as digits (English words padded with spaces)."""
    pieces, cursor = [], 0
    for found in find_numbers(text):
        raw = text[found.start : found.end]
        if found.start < cursor or raw.isdigit():
            continue  # digits stay as written: 19:00 is a time, not 19 and 0
        pad = " " if raw[:1].isascii() and raw[:1].isalpha() else ""
        pieces += [text[cursor : found.start], f"{pad}{found.value}{pad}"]
        cursor = found.end
    return "".join([*pieces, text[cursor:]])


def _value(digits: str) -> str:
    try:
        return canonical(float(re.sub(r"(st|nd|rd|th)$", "", digits).replace(",", "")))
    except ValueError:
        return digits


def _blank(text: str, spans: tuple[tuple[int, int], ...]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


@lru_cache(maxsize=512)
def units_of(text: str) -> Units:
    """The content units of ``text`` (kept for recent texts: a save compares its text
    with up to five memories, and consolidation each pair it shows)."""
    digits = _digitised(normalise(text))
    when = find_when(digits)
    rest = _blank(digits, when.spans)
    numbers = frozenset(_value(m.group(0)) for m in DIGITS.finditer(rest))
    rest = DIGITS.sub(" ", rest)
    english, negations_en, names = _english(HYPHENATED.sub("", rest))
    nihongo, negations_ja = _japanese(rest)
    return Units(
        words=(*english, *nihongo),
        numbers=numbers,
        when=when.units,
        negations=negations_en + negations_ja,
        capitalised_in_order=names,
    )


def _english(text: str) -> tuple[list[Unit], int, tuple[str, ...]]:
    from simplemma import is_known, lemmatize  # its tables load on first use

    found: list[Unit] = []
    names: list[str] = []
    negations = 0
    role = ""
    for match in WORD.finditer(text):
        raw = match.group(0).replace("’", "'")
        lowered = raw.lower()
        if lowered.endswith("n't"):
            negations += 1
            lowered = lowered[:-3]
        lowered = CONTRACTIONS.sub("", lowered).rstrip("'")
        if lowered in NEGATIONS_EN:
            negations += 1
            continue
        if lowered in ROLE_WORDS:
            role = ROLE_WORDS[lowered]
            continue
        if (len(lowered) < 2 and lowered != "i") or lowered in FUNCTION_WORDS:
            continue
        opens = not text[: match.start()].strip() or bool(
            SENTENCE_END.search(text[: match.start()])
        )
        capitalised = raw[0].isupper() and lowered != "i"
        name = capitalised and (not opens or not is_known(lowered, "en"))
        key = lowered if name else lemmatize(lowered, lang="en").lower()
        if capitalised:
            names.append(lowered)  # every capitalised word, in order: who did what to whom
        known = name or is_known(lowered, lang="en")
        found.append(Unit(key=key, name=name, role=role, known=known, surface=lowered))
        role = ""
    return found, negations, tuple(names)


def _reading(token_reading: str, surface: str) -> str:
    reading = token_reading if token_reading not in ("", "*") else surface
    return reading.rstrip("ー")


def _is_kana(text: str) -> bool:
    return all("\u3040" <= ch <= "\u30ff" for ch in text)


def _japanese(text: str) -> tuple[list[Unit], int]:
    found: list[Unit] = []
    negations = 0
    prefix = ""  # 不, 未, 非 stay with their word (合格 / 不合格); honorific お, ご do not
    for word in japanese.tokens(text):
        kind, detail = word.pos[0], word.pos[1]
        if word.base in NEGATIONS_JA and kind in ("助動詞", "形容詞"):
            negations += 1
            continue
        if kind == "接頭詞":
            prefix = "" if word.surface in JA_HONORIFICS else word.surface
            continue
        if kind == "助詞" and word.surface in JA_ROLES and found:
            if not found[-1].role:
                found[-1] = replace(found[-1], role=JA_ROLES[word.surface])
            continue
        if kind not in JA_CONTENT or detail in JA_SKIP_NOUNS:
            continue
        key = word.base if word.base != "*" else word.surface
        if key in JA_LIGHT_VERBS:
            continue
        reading = (
            _reading(word.reading, word.surface) if kind == "名詞" else japanese.reading_of(key)
        )
        found.append(
            Unit(
                key=prefix + (key.rstrip("ー") if _is_kana(key) else key),
                reading=japanese.reading_of(prefix) + reading if prefix else reading,
                kana=_is_kana(key),
                name=detail == "固有名詞",
            )
        )
        prefix = ""
    return found, negations

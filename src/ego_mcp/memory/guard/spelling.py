"""Misspellings read as the word the other text spells right (frist / first, afternon /
afternoon), and acronyms as the words the other text spells out (TV / television, PR /
public relations), before either text is read: a reader does the same, and a
misspelt number or date word is then read as one.

A word is misspelt when it is written in lower case (names are not corrected), WordNet
knows it in no inflection and it is no function word of English (spaCy's list), and the
other text has a word that is one edit from it (two for a long word), starts with the
same letter and is far more common (``frequency.py``: texted is no misspelling of
tested). Two real words are never taken for each other (county / country).

An acronym (two to five capitals) is read as a run of the other text's content words
whose initials spell it, with "and", "of", "for", "the" or "&" allowed between them, when
WordNet files the two in one synonym set (PR / public relations, IT / information
technology, TV / television), or as the words WordNet defines it as, whose initials,
function words and all, spell it (ASAP: "as soon as possible"): initials alone prove
nothing (LA / Los Altos, PR / product research), so a pair that is one only when read by
initials (of words WordNet knows, so never a name) is a possible duplicate.

A mathematical symbol or a punctuation sign standing alone (+, =, %, #, &) is read as
the word the other text writes for it, where Unicode names it so (PLUS SIGN, PERCENT
SIGN): "a + sign" / "a plus sign". Not a currency sign (¥ is the yen and the yuan, £ a
pound of money, never of weight) nor a pictograph (🔫 is named PISTOL and drawn as a
water gun): those name a thing, and what they stand for is the writer's.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ego_mcp.memory.guard.frequency import likelier_misspelt
from ego_mcp.memory.guard.reading import Word, edits
from ego_mcp.memory.guard.spacy_library import import_spacy
from ego_mcp.memory.guard.wordnet import WordNet, wordnet

WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")  # a contraction is one word (doesn't)
SHORTEST = 4  # shorter words are too near too many others (cat / car / cut)
ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")
JOINERS = frozenset({"and", "of", "for", "the", "&"})
NAMED_CATEGORIES = frozenset({"Sm", "Po"})  # math symbols, other punctuation (%, #, &)
LONE_SYMBOL = re.compile(r"(?<!\S)[^\w\s](?!\S)")  # between spaces (not C++, not +1)


@cache
def _function_words() -> frozenset[str]:
    import_spacy()  # not by importing a module of spaCy's first, which loads its CLI
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def _known(net: WordNet, word: str) -> bool:
    return word in _function_words() or net.knows(word)


def respelled(text: str, other: str) -> str:
    """``text`` with each misspelt word written as the word of ``other`` it misspells."""
    net = wordnet()
    if net is None or not WORD.search(text):
        return text
    vocabulary = {word.lower() for word in WORD.findall(other) if len(word) >= SHORTEST - 1}

    def corrected(match: re.Match[str]) -> str:
        word = match.group(0)
        if (
            len(word) < SHORTEST
            or not word.isalpha()
            or not word.islower()
            or word in vocabulary
            or _known(net, word)
        ):
            return word
        limit = 1 if len(word) < 8 else 2
        near: list[tuple[int, str]] = sorted(
            (edits(word, right), right)
            for right in vocabulary
            if right[:1] == word[:1] and _known(net, right)
        )
        if not near or near[0][0] > limit or not likelier_misspelt(word, near[0][1]):
            return word
        return near[0][1]

    return WORD.sub(corrected, text)


def symbols_named(text: str, other: str) -> str:
    """``text`` with each symbol that stands alone written as the word ``other`` has for
    it: its Unicode name without "sign" (and a full-width form's "fullwidth")."""
    words = {word.lower() for word in WORD.findall(other)}
    if not words:
        return text

    def named(match: re.Match[str]) -> str:
        symbol = match.group(0)
        if unicodedata.category(symbol) not in NAMED_CATEGORIES:
            return symbol
        name = _spoken_name(symbol)
        return name if name in words else symbol

    return LONE_SYMBOL.sub(named, text)


def _spoken_name(symbol: str) -> str:
    parts = unicodedata.name(symbol, "").lower().split()
    return " ".join(p for p in parts if p not in ("sign", "fullwidth"))


def spelled_out(text: str, other: str, vouched: bool = True) -> str:
    """``text`` with each acronym written as the words of ``other`` it abbreviates: only
    those WordNet vouches for, or with ``vouched`` false, any whose initials agree (HR /
    human resources, which WordNet knows as "hour"): a reading the guard offers as a
    possible duplicate, never as proof."""
    runs = expansions(text, other)
    if not runs:
        return text

    def expanded(match: re.Match[str]) -> str:
        run, sure = runs.get(match.group(0), ("", False))
        return run if run and (sure or not vouched) else match.group(0)

    return ACRONYM.sub(expanded, text)


def read_by_initials(text: str, other: str) -> list[str]:
    """The acronyms of ``text`` only their initials tie to words of ``other``, shown as
    ``HR → human resources``."""
    return [f"{a} → {run}" for a, (run, sure) in expansions(text, other).items() if not sure]


def expansions(text: str, other: str) -> dict[str, tuple[str, bool]]:
    """Each acronym of ``text`` that ``other`` spells out (and does not write too): the
    run of words, and whether WordNet vouches for it (files the two in one synonym set, or
    defines the acronym as those words, ``_defined_run``). A run WordNet does not vouch
    for counts only when each of its words is one WordNet knows (human resources, not the
    name Los Altos)."""
    if not ACRONYM.search(text):
        return {}
    net = wordnet()
    if net is None:
        return {}
    runs = _initials(other)
    written = set(ACRONYM.findall(other))
    found = {}
    for acronym in dict.fromkeys(ACRONYM.findall(text)):
        if acronym in written:
            continue
        defined = _defined_run(net, acronym, other)
        if defined:
            found[acronym] = (defined, True)
            continue
        run = runs.get(acronym)
        if run is None:
            continue
        words = re.findall(r"[A-Za-z'-]+|&", run)
        same = set(net.offsets(acronym.lower(), "n")) & set(net.offsets("_".join(words), "n"))
        if same or all(w.lower() in JOINERS or net.knows(w.lower()) for w in words):
            found[acronym] = (run, bool(same))
    return found


def _defined_run(net: WordNet, acronym: str, other: str) -> str:
    """The words of ``other`` that a sense of ``acronym`` is defined as in WordNet, when
    their initials, function words and all, spell it (ASAP: "as soon as possible"); ""
    where none is."""
    for pos in ("n", "r"):  # not the adjective "old", defined "of long duration"
        for offset in net.offsets(acronym.lower(), pos):
            definition = net.gloss(offset, pos).split(";")[0].strip()
            words = re.findall(r"[A-Za-z]+", definition)
            if "".join(w[0] for w in words).upper() != acronym:
                continue
            spelled = r"[\s-]+".join(words)  # not across punctuation: "as soon as. Possible"
            written = re.search(rf"(?i)\b{spelled}\b", other)
            if written:
                return written.group(0)
    return ""


def _initials(text: str) -> dict[str, str]:
    """Each run of content words of ``text`` (joiners allowed between) by its initials."""
    words = list(re.finditer(r"[A-Za-z][A-Za-z'-]*|&", text))
    function_words = _function_words()
    found: dict[str, str] = {}
    for start, first in enumerate(words):
        if first.group(0).lower() in function_words:
            continue
        initials = ""
        for word in words[start:]:
            written = word.group(0)
            if written.lower() in JOINERS and initials:
                continue
            if written.lower() in function_words or len(initials) == 5:
                break
            initials += written[0].upper()
            if len(initials) >= 2:
                found.setdefault(initials, text[first.start() : word.end()])
    return found


def near_spelling(first: Word, second: Word) -> bool:
    """Whether two words may be one written wrong, though both are words (puled / pulled,
    handel / handle): never proof enough to refuse. In English, one edit apart (a letter
    dropped, added, changed or two swapped), the same first letter, four letters or more,
    and one as much commoner as a misspelling's word is (``frequency.ODDS``: not texted /
    tested, leek / leak); in Japanese, the same reading
    written with other kanji (行った / 言った, a slip of the input method), or a reading
    one sound off in a long word (プロジェクト / プロジュクト)."""
    if first.reading and second.reading:
        if first.reading == second.reading:
            return True
        shorter = min(len(first.reading), len(second.reading))
        return shorter >= 4 and edits(first.reading, second.reading) == 1
    a, b = first.surface.lower(), second.surface.lower()
    if min(len(a), len(b)) < SHORTEST or a[:1] != b[:1] or not (a.isalpha() and b.isalpha()):
        return False
    if edits(a, b) != 1:
        return False
    return likelier_misspelt(a, b) or likelier_misspelt(b, a)

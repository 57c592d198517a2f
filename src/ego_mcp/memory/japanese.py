"""Japanese words for the guard, from Janome's dictionary (IPADIC, inside the wheel).

Japanese has no spaces and no capitals, so "北海道" → "長野" or "玄関" → "車" cannot be
seen the way an English name can. A morphological analyser splits the text into words
with their parts of speech: the nouns say what a memory is about, the base forms let
"負けた" and "勝った" be compared as 負ける and 勝つ. Imported and loaded on first use
(about 0.2 s).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from janome.tokenizer import Tokenizer

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
KANJI = re.compile(r"[\u4e00-\u9fff]")
THING_KINDS = {"一般", "固有名詞"}  # not サ変 verbs-as-nouns, pronouns, numbers or suffixes


@dataclass(frozen=True)
class Word:
    surface: str
    base: str
    noun: bool


_lock = threading.Lock()


@cache
def _tokenizer() -> Tokenizer:
    from janome.tokenizer import Tokenizer  # importing it takes 65 ms: only when needed

    return Tokenizer()


@lru_cache(maxsize=256)
def words(text: str) -> tuple[Word, ...]:
    """The words of ``text``; none when it has no Japanese in it. Kept for recent texts:
    one save compares its text with up to five memories, each rule asking for words."""
    if not JAPANESE.search(text):
        return ()
    with _lock:
        tokens = list(_tokenizer().tokenize(text))
    found = []
    for token in tokens:
        if isinstance(token, str):  # surface-only tokens come with wakati=True, never asked for
            continue
        kind = token.part_of_speech.split(",")
        noun = kind[0] == "名詞" and kind[1] in THING_KINDS
        found.append(Word(token.surface, token.base_form, noun))
    return tuple(found)


def things(text: str) -> set[str]:
    """The nouns that name a thing, place or person."""
    return {w.surface for w in words(text) if w.noun}


def new_things(existing: str, new: str) -> set[str]:
    """Nouns of ``new`` that ``existing`` does not mention, even in part.

    A compound that shares a kanji with the existing text (雪 → 降雪, 電車 → 列車) is taken
    for a rewording of it, not a new thing.
    """
    old_kanji = set(KANJI.findall(existing))
    return {
        noun
        for noun in things(new)
        if noun not in existing and not (set(KANJI.findall(noun)) & old_kanji)
    }


def base_forms(text: str) -> set[str]:
    return {w.base for w in words(text)}

"""Japanese words, from SudachiPy with SudachiDict core: one dictionary per process,
memory-mapped on first use, which the lexical index and the guard share.

Japanese has no spaces and no capitals, so a morphological analyser splits the text into
words with their part of speech, base form and reading: base forms let 負けた be read as
負ける, the normalised form lets りんご and 林檎 be one word, and the parts of speech tell a
numeral (名詞,数詞) from a kanji inside a word (一緒). Sudachi cuts a text in three sizes:
the guard reads the longest units (``LONG``: 選挙管理委員会), the index the middle ones
(``MIDDLE``: 選挙, 管理, 委員会), so that a part of a long name still matches, and numerals
are read in the shortest (``SHORT``: 一回 is 一 and 回).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sudachipy import Dictionary, Morpheme, Tokenizer

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
KANJI = re.compile(r"[\u4e00-\u9fff]")
HIRAGANA_TO_KATAKANA = str.maketrans(
    {chr(code): chr(code + 0x60) for code in range(ord("ぁ"), ord("ゖ") + 1)}
)
KATAKANA_TO_HIRAGANA = str.maketrans({v: k for k, v in HIRAGANA_TO_KATAKANA.items()})
SHORT = "A"
MIDDLE = "B"
LONG = "C"


@dataclass(frozen=True)
class Token:
    """A word as the dictionary reads it: surface, normalised base form, part of speech
    (Sudachi's six fields), and for a middle-sized word the shortest words it is made of,
    if more than one (研究会: 研究 and 会)."""

    surface: str
    base: str
    pos: tuple[str, ...]
    parts: tuple[Token, ...] = ()


# Sudachi's tokenizers are not thread-safe, nor its lookups alongside them.
lock = threading.Lock()


@cache
def dictionary() -> Dictionary:
    from sudachipy import Dictionary  # loaded only when a text has Japanese in it

    return Dictionary(dict="core")


@cache
def tokenizer(mode: str) -> Tokenizer:
    """The tokenizer that cuts units of ``mode`` (``SHORT``, ``MIDDLE`` or ``LONG``); hold
    ``lock``."""
    from sudachipy import SplitMode

    return dictionary().tokenizer(getattr(SplitMode, mode))


def analyse(text: str, mode: str) -> tuple[Morpheme, ...]:
    """``text`` cut into units of ``mode``, as Sudachi's morphemes."""
    with lock:
        return tuple(tokenizer(mode).tokenize(text))


@lru_cache(maxsize=4096)
def listed_as(surface: str) -> tuple[tuple[str, ...], ...]:
    """The parts of speech of the dictionary's entries for ``surface`` written whole."""
    if not surface:
        return ()
    with lock:
        return tuple(tuple(m.part_of_speech()) for m in dictionary().lookup(surface))


def counter_suffix(surface: str) -> bool:
    """Whether the dictionary lists ``surface`` as a counter suffix (歳, つ)."""
    return any(pos[:3] == ("接尾辞", "名詞的", "助数詞") for pos in listed_as(surface))


def may_count(surface: str) -> bool:
    """Whether the dictionary lists ``surface`` as a noun that may be a counter (杯, 度) or
    a suffix of nouns (人 of 一人): after a numeral, what it counts."""
    return any(
        pos[2] == "助数詞可能" or pos[:2] == ("接尾辞", "名詞的") for pos in listed_as(surface)
    )


def is_japanese(text: str) -> bool:
    """Whether ``text`` is written in Japanese (it has kana or kanji)."""
    return JAPANESE.search(text) is not None


@lru_cache(maxsize=256)
def tokens(text: str, mode: str = MIDDLE) -> tuple[Token, ...]:
    """Every word of ``text`` (units of ``mode``) with its base form and part of speech;
    none without Japanese."""
    if not JAPANESE.search(text):
        return ()
    from sudachipy import SplitMode

    with lock:
        analysed = tokenizer(mode).tokenize(text)
        return tuple(
            _token(m, tuple(map(_token, m.split(SplitMode.A))) if mode == MIDDLE else ())
            for m in analysed
        )


def _token(morpheme: Morpheme, parts: tuple[Token, ...] = ()) -> Token:
    return Token(
        morpheme.surface(),
        morpheme.normalized_form(),
        tuple(morpheme.part_of_speech()),
        parts if len(parts) > 1 else (),
    )

"""Japanese words for the guard, from Janome's dictionary (IPADIC, inside the wheel).

Japanese has no spaces and no capitals, so a morphological analyser splits the text into
words with their part of speech, base form and reading: base forms let 負けた be read as
負ける, readings let 林檎 and りんご be one word, and the parts of speech tell a numeral
(名詞,数) from a kanji inside a word (一緒). Imported and loaded on first use (about
0.2 s).
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
HIRAGANA_TO_KATAKANA = str.maketrans(
    {chr(code): chr(code + 0x60) for code in range(ord("ぁ"), ord("ゖ") + 1)}
)
KATAKANA_TO_HIRAGANA = str.maketrans({v: k for k, v in HIRAGANA_TO_KATAKANA.items()})


@dataclass(frozen=True)
class Token:
    """A word as the dictionary reads it: surface, base form, reading, part of speech."""

    surface: str
    base: str
    reading: str
    pos: tuple[str, ...]


_lock = threading.Lock()


@cache
def _tokenizer() -> Tokenizer:
    from janome.tokenizer import Tokenizer  # importing it takes 65 ms: only when needed

    return Tokenizer()


def is_japanese(text: str) -> bool:
    """Whether ``text`` is written in Japanese (it has kana or kanji)."""
    return JAPANESE.search(text) is not None


@lru_cache(maxsize=256)
def tokens(text: str) -> tuple[Token, ...]:
    """Every token of ``text`` with its reading and part of speech; none without Japanese."""
    if not JAPANESE.search(text):
        return ()
    with _lock:
        analysed = list(_tokenizer().tokenize(text))
    return tuple(
        Token(t.surface, t.base_form, t.reading, tuple(t.part_of_speech.split(",")))
        for t in analysed
        if not isinstance(t, str)
    )


@lru_cache(maxsize=2048)
def reading_of(word: str) -> str:
    """The reading of a dictionary form (終わる → オワル; おわる → オワル), in katakana."""
    readings = []
    for token in tokens(word):
        readings.append(token.reading if token.reading not in ("", "*") else token.surface)
    return "".join(readings).translate(HIRAGANA_TO_KATAKANA).rstrip("ー")

"""SudachiPy with SudachiDict (core): the dictionary, memory-mapped on first use, and the
text cut into morphemes, one analysis at a time."""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sudachipy import Dictionary, Morpheme, Tokenizer

_lock = threading.Lock()


@cache
def _dictionary() -> Dictionary:
    from sudachipy import Dictionary

    return Dictionary(dict="core")


@cache
def _tokenizer() -> Tokenizer:
    from sudachipy import SplitMode

    return _dictionary().tokenizer(SplitMode.C)


@lru_cache(maxsize=1024)
def katakana_given_name(surface: str) -> bool:
    """Whether a word in katakana that the analyser took for a common noun is also a
    given name in the dictionary (アヤ: 綾 "twill", and a name)."""
    if not all("ァ" <= c <= "ヶ" or c == "ー" for c in surface):
        return False
    with _lock:
        entries = [m.part_of_speech() for m in _dictionary().lookup(surface)]
    return any(pos[1:3] == ("固有名詞", "人名") for pos in entries)


@lru_cache(maxsize=1024)
def listed_noun(surface: str) -> bool:
    """Whether the dictionary lists ``surface`` as one common noun (飲み会, 読み物)."""
    with _lock:
        entries = [m.part_of_speech() for m in _dictionary().lookup(surface)]
    return any(pos[:2] == ("名詞", "普通名詞") for pos in entries)


@lru_cache(maxsize=512)
def morphemes(text: str) -> tuple[Morpheme, ...]:
    with _lock:
        return tuple(_tokenizer().tokenize(text))


def surfaces(text: str) -> tuple[str, ...]:
    """``text`` cut into its words, as written."""
    return tuple(m.surface() for m in morphemes(text))

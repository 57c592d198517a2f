"""The guard's reading of Japanese: the longest units of the process's one Sudachi
dictionary (``memory/japanese.py``), and lookups of single words in it."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

from ego_mcp.memory.japanese import LONG, analyse, listed_as

if TYPE_CHECKING:
    from sudachipy import Morpheme


def katakana_given_name(surface: str) -> bool:
    """Whether a word in katakana that the analyser took for a common noun is also a
    given name in the dictionary (アヤ: 綾 "twill", and a name)."""
    if not all("ァ" <= c <= "ヶ" or c == "ー" for c in surface):
        return False
    return any(pos[1:3] == ("固有名詞", "人名") for pos in listed_as(surface))


def listed_noun(surface: str) -> bool:
    """Whether the dictionary lists ``surface`` as one common noun (飲み会, 読み物)."""
    return any(pos[:2] == ("名詞", "普通名詞") for pos in listed_as(surface))


@lru_cache(maxsize=512)
def morphemes(text: str) -> tuple[Morpheme, ...]:
    return analyse(text, LONG)


def spoken(text: str) -> str:
    """``text`` as it is read aloud, in katakana, without its punctuation but a question
    mark (a question is no statement): two texts written apart that read alike (中身 /
    中見, 会議 / 会義, 昨日 / 機能) say one thing, or are two homophones (科学 / 化学)."""
    return "".join(
        "?" if _asks(m.surface()) else m.reading_form()
        for m in morphemes(text)
        if m.part_of_speech()[0] not in UNSPOKEN or _asks(m.surface())
    )


UNSPOKEN = frozenset({"補助記号", "空白"})  # punctuation and spaces


def _asks(surface: str) -> bool:
    """A mark Unicode names a question mark (?, ？, ⁉, ⁈, ‽)."""
    return any("QUESTION" in unicodedata.name(c, "") or c == "‽" for c in surface)


def proper_nouns(text: str) -> frozenset[str]:
    """The words of ``text`` the dictionary lists as proper nouns (people, places,
    organisations)."""
    return frozenset(m.surface() for m in morphemes(text) if m.part_of_speech()[1] == "固有名詞")


def surfaces(text: str) -> tuple[str, ...]:
    """``text`` cut into its words, as written."""
    return tuple(m.surface() for m in morphemes(text))


# Each kana of the a-row with the u-row kana of its column: a godan verb's causative in
# す is its stem, that column's a-kana and す (走る: 走らす, 泳ぐ: 泳がす).
A_TO_U = dict(zip("かがさざただなばまらわ", "くぐすずつづぬぶむるう", strict=True))


def lexical_causative(verb: str) -> bool:
    """Whether the dictionary form ``verb`` is the causative in す of a verb the dictionary
    lists (走らす: 走る, 驚かす: 驚く; not 渡す, 話す, 任す)."""
    if len(verb) < 3 or not verb.endswith("す") or verb[-2] not in A_TO_U:
        return False
    base = verb[:-2] + A_TO_U[verb[-2]]
    return any(pos[0] == "動詞" for pos in listed_as(base))

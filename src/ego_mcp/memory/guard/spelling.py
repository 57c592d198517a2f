"""Misspellings read as the word the other text spells right (frist / first, afternon /
afternoon), before either text is read: a reader does the same, and a misspelt number or
date word is then read as one.

A word is misspelt when it is written in lower case (names are not corrected), WordNet
knows it in no inflection and it is no function word of English (spaCy's list), and the
other text has a word that is one edit from it (two for a long word) and starts with the
same letter. Two real words are never taken for each other (county / country).
"""

from __future__ import annotations

import re
from functools import cache

from ego_mcp.memory.guard.reading import edits
from ego_mcp.memory.guard.wordnet import WordNet, wordnet

WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")  # a contraction is one word (doesn't)
SHORTEST = 4  # shorter words are too near too many others (cat / car / cut)


@cache
def _function_words() -> frozenset[str]:
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
        near = sorted(
            (edits(word, right), right)
            for right in vocabulary
            if right[:1] == word[:1] and _known(net, right)
        )
        return near[0][1] if near and near[0][0] <= limit else word

    return WORD.sub(corrected, text)

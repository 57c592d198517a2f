"""How common an English word is, to tell a misspelling from a rare word of its own.

A word WordNet does not know may be a misspelling (frist) or a word WordNet never
filed (texted, mochi, vlogged). A reader who sees "frist" beside "first" takes it for
"first" because "first" is far more common; "texted" beside "tested" they read as
written, since people write "texted" often enough. This is the noisy-channel view of
spelling correction: a correction must be much likelier than the word as written. The
frequencies are wordfreq's (Speer et al.; Apache 2.0 code, CC BY-SA 4.0 data), on its
Zipf scale (log10 of occurrences per billion words), read the first time a candidate
misspelling is met (about 45 MiB).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

# The right word at least 10 ** 1.5 (about 30) times as common as the word as written.
# Misspellings met in the evaluation sets and in common typo lists sit 1.8 to 4.6 apart
# from their words (occured / occurred 1.8, frist / first 3.7); rare real words beside a
# common near-spelling 0.0 to 1.0 (emailed / mailed, mochi / mocha, texted / tested).
ODDS = 1.5


@cache
def _zipf() -> Callable[[str, str], float]:
    from wordfreq import zipf_frequency

    return zipf_frequency


def likelier_misspelt(written: str, right: str) -> bool:
    """Whether ``written`` is likelier a misspelling of ``right`` than a word of its own."""
    zipf = _zipf()
    return zipf(right.lower(), "en") - zipf(written.lower(), "en") >= ODDS


# A comparative or superlative is common where it is met about once in a million words
# or more: hotter 3.6, cheaper 4.2, safer 4.1, fullest 3.5, warmest 3.2; truest 2.9, deadest
# 1.5 and maturer 1.2 fall short, and adjectives of two values (present, married, valid)
# have none at all.
COMMON_DEGREE = 3.0


def graded(adjective: str) -> bool:
    """Whether English grades ``adjective``: one of its degrees is common in writing, an
    irregular one WordNet lists (better, worse, best), a superlative (hottest, fullest) or
    a regular comparative that is no noun of WordNet's (opener, presenter, warmer are
    things). A graded adjective's antonym is a contrary, with room between: not hot is not
    cold. Polysyllables grade with "more" and "most" and show none (expensive), so a pair
    is graded if either word is (cheap: cheaper)."""
    from ego_mcp.memory.guard.wordnet import wordnet

    word = adjective.lower()
    net = wordnet()
    if not word.isalpha() or net is None:
        return False
    zipf = _zipf()
    regular = [f for f in _inflected(word, "er") if not net.offsets(f, "n")]
    degrees = (*net.irregular_forms(word, "a"), *_inflected(word, "est"), *regular)
    return any(zipf(form, "en") >= COMMON_DEGREE for form in degrees)


def _inflected(adjective: str, ending: str) -> frozenset[str]:
    """The forms English spelling allows ``adjective`` with ``ending`` (-er or -est): hot:
    hotter, safe: safer, heavy: heavier, cheap: cheaper."""
    forms = {adjective + ending}
    if adjective.endswith("e"):
        forms.add(adjective + ending[1:])
    if adjective.endswith("y"):
        forms.add(adjective[:-1] + "i" + ending)
    vowels = "aeiou"
    if (
        len(adjective) > 2
        and adjective[-1] not in vowels + "wy"
        and adjective[-2] in vowels
        and adjective[-3] not in vowels
    ):
        forms.add(adjective + adjective[-1] + ending)  # one vowel before one consonant: hotter
    return frozenset(forms)

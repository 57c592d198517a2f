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

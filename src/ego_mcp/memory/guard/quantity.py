"""A denial of every case and its opposite affirmed of every case: one fact.

"None of the guests were happy" and "all of the guests were unhappy" say the same, as
do "Master never forgets to feed the cat" and "Master always remembers to", or
一度も約束を忘れなかった and いつも約束を覚えていた: to deny a predicate of every case is to affirm its
negation of every case (De Morgan's laws for quantifiers), and a predicate denied is its
antonym affirmed where the two leave no middle (``evidence.negations`` decides that).
So the universal quantifier of the affirming text (all, every, always; 全部, いつも) and
the denying text's "any" are told by the denial itself, no qualifier of their own.

Only where one text denies every case (none, never, nobody, not one; any, 一度も, 誰も)
and has no universal, and the other affirms with a universal and denies nothing: "not
all of them survived" is no denial of every case, and "all of them didn't come" is read
two ways.
"""

from __future__ import annotations

from ego_mcp.memory.guard.japanese.words import universal
from ego_mcp.memory.guard.reading import NEGATIVE_POLARITY, Reading, Word

# The universal quantifiers the readers keep as qualifiers (all, every, each of them).
UNIVERSAL_QUALIFIERS = frozenset({"all", "every", "each"})


def denial_of_every_case(
    old: Reading, new: Reading, gone: list[Word], added: list[Word]
) -> tuple[frozenset[str], frozenset[int]]:
    """The qualifiers (as read) and the qualifying words (by ``id``, among ``gone`` and
    ``added``) that a denial of every case and a universal affirmation each carry, where
    the two texts are so told; nothing elsewhere."""
    for denier, affirmer, affirming_words, denying_words in (
        (old, new, added, gone),
        (new, old, gone, added),
    ):
        if not _denies_every(denier) or affirmer.denies():
            continue
        if denier.qualifiers & UNIVERSAL_QUALIFIERS or any(map(universal, denying_words)):
            continue
        words = frozenset(id(w) for w in affirming_words if universal(w))
        told = affirmer.qualifiers & UNIVERSAL_QUALIFIERS
        if words or told:
            return told | (denier.qualifiers & {NEGATIVE_POLARITY}), words
    return frozenset(), frozenset()


def _denies_every(reading: Reading) -> bool:
    """The text denies, and of every case: none, never; any, 一度も."""
    every = reading.denies_every or NEGATIVE_POLARITY in reading.qualifiers
    return every and reading.denies()

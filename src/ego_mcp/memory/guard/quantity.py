"""A denial of every case and its opposite affirmed of every case: one fact.

"None of the guests were happy" and "all of the guests were unhappy" say the same, as
do "Master never forgets to feed the cat" and "Master always remembers to", or
一度も約束を忘れなかった and いつも約束を覚えていた: to deny a predicate of every case is
to affirm its negation of every case (De Morgan's laws for quantifiers), and a predicate
denied is its antonym affirmed where the two leave no middle (``evidence.negations``
decides that).
So the universal quantifier of the affirming text (all, every, always; 全部, いつも) and
the denying text's "any" are told by the denial itself, no qualifier of their own.

Only where one text denies every case (none, never, nobody, not one; any, 一度も, 誰も)
and has no universal, and the other affirms with a universal and denies nothing: "not
all of them survived" is no denial of every case, and "all of them didn't come" is read
two ways. And only where the predicates leave no middle by their grammar and are told
of one time: an implicative verb and its opposite (never forgets / always remembers:
Karttunen's signatures say that not forgetting to is remembering to; never forgot /
always remembers are a deed then and a habit now), or an adjective and its negating
prefix (none were happy / all were unhappy). Antonyms with a middle WordNet does not
mark stay apart across a universal (never wins / always loses: a draw; none were
positive / all were negative), though a single denial of them is read as a restatement.
A perfect is read as the past (``english.tense``), so "has never forgotten" / "always
remembers" stays apart too: the safe side.
"""

from __future__ import annotations

from ego_mcp.memory.guard.english.lexicon import IMPLICATIVES
from ego_mcp.memory.guard.japanese.words import universal
from ego_mcp.memory.guard.placement import told_alike
from ego_mcp.memory.guard.reading import NEGATIVE_POLARITY, Reading, Word

# The universal quantifiers the readers keep as qualifiers (all, every, each of them).
UNIVERSAL_QUALIFIERS = frozenset({"all", "every", "each"})


def denial_of_every_case(
    old: Reading,
    new: Reading,
    gone: list[Word],
    added: list[Word],
    opposites: list[tuple[Word, Word]],
) -> tuple[frozenset[str], frozenset[int]]:
    """The qualifiers (as read) and the qualifying words (by ``id``, among ``gone`` and
    ``added``) that a denial of every case and a universal affirmation each carry, where
    the two texts are so told and their ``opposites`` (old, new) leave no middle;
    nothing elsewhere."""
    if not opposites or not all(
        _no_middle(first, second) and _one_time(old, new, first, second)
        for first, second in opposites
    ):
        return frozenset(), frozenset()
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


def _one_time(old: Reading, new: Reading, first: Word, second: Word) -> bool:
    """The two opposites are told in tenses that may tell one time, where both are told
    in one (never forgot / always remembers: a deed then, a habit now)."""
    told_old = {verb for verb, _ in old.tenses}
    told_new = {verb for verb, _ in new.tenses}
    if first.key not in told_old or second.key not in told_new:
        return True  # an adjective's opposite, or a verb no tense was read for
    return told_alike(old, new, first.key, second.key)


def _no_middle(first: Word, second: Word) -> bool:
    """Two opposites one of which is the other's denial by grammar: implicative verbs
    (forget / remember, fail / manage; 忘れる / 覚える by their glosses) or an adjective
    and its negating prefix (happy / unhappy)."""
    implicative = any(word in IMPLICATIVES for word in (*first.english, *second.english))
    return implicative or first.prefix_negates(second) or second.prefix_negates(first)

"""Where and when a fact is placed, as the guard weighs it beside the roles and words
of ``evidence``: the tense each text tells it in, the word a focusing word stands at,
and the direction a preposition or particle gives (pure)."""

from __future__ import annotations

from ego_mcp.memory.guard.adverbs import OPPOSED_PREPOSITIONS
from ego_mcp.memory.guard.reading import NOW, STATE_NOW, Focus, Reading, Word
from ego_mcp.memory.guard.wordnet import ANTONYM, wordnet


def particles_opposed(old: Reading, new: Reading) -> list[str]:
    """A preposition or particle one text hangs from a word where the other hangs its
    antonym in WordNet (as an adverb or an adjective) from the same word, and neither
    has both (went up / went down, inside / outside the car, above / below the bakery),
    or its opposite of the closed class WordNet lacks (on / under the table, into / out
    of, for / against). Others that differ (in / at the park) are wording."""
    net = wordnet()
    if net is None:
        return []
    gone, added = old.particles - new.particles, new.particles - old.particles
    turned = []
    for head, before in sorted(gone):
        opposite = net.related(before, "r", ANTONYM) | net.related(before, "a", ANTONYM)
        opposite |= {b if a == before else a for a, b in OPPOSED_PREPOSITIONS if before in (a, b)}
        turned += [
            (before, after) for on, after in sorted(added) if on == head and after in opposite
        ]
    return [f"direction: {before} → {after} (opposite)" for before, after in turned]


def focus_moved(old: Reading, new: Reading) -> list[str]:
    """A focusing word both texts have, standing at another part in each, both of which
    both texts hold (only Ken went / Ken went only to the party; ケンだけが会議に出た /
    ケンは会議にだけ出た). Where the word it stands at is replaced (only Ken / only Aya),
    the replacement is the difference, told as such."""
    # Both ways: the new text may stand one more (ケンだけが…ケーキだけを).
    moved = _unfit_stands(old, new) + [(b, a) for a, b in _unfit_stands(new, old)]
    found: list[str] = []
    for before, after in moved:
        line = f"qualifier: {_focus_shown(before)} → {_focus_shown(after)}"
        found += [] if line in found else [line]
    return found


def _unfit_stands(mine: Reading, theirs: Reading) -> list[tuple[Focus, Focus]]:
    """Each stand of ``mine`` that fits no stand of the same word in ``theirs``, with
    the first of those (``_focus_fits`` reads the same either way round)."""
    unfit = []
    for stand in sorted(mine.focus, key=str):
        others = sorted((f for f in theirs.focus if f.word == stand.word), key=str)
        if others and not any(_focus_fits(stand, mine, other, theirs) for other in others):
            unfit.append((stand, others[0]))
    return unfit


def _focus_fits(before: Focus, old: Reading, after: Focus, new: Reading) -> bool:
    """Whether two stands of one focusing word may say one thing: at words that match
    (only the kids / only the children; only Ken saw it / it was seen only by Ken), at a
    word only one text holds, or at the predicate in one text and at anything but its
    subject in the other (I only had one beer / I had only one beer)."""
    if not before.of or not after.of:
        return not (before.subject or after.subject)
    mine = next((w for w in old.words if w.key == before.of), None)
    theirs = next((w for w in new.words if w.key == after.of), None)
    if mine is None or theirs is None:  # a time or a number: no word, its key alone
        return before.of == after.of
    if mine.same_word(theirs):
        return True
    return not (_held(mine, new) and _held(theirs, old))


def _focus_shown(focus: Focus) -> str:
    return f"{focus.word} {focus.of or '(the predicate)'}"


def _tenses_agree(first: str, second: str) -> bool:
    """Whether two tenses may tell one time: both past (住んでいた / 住んだ; 書き終えている /
    書き終えた) or both now, but a state now and the bare present, which tells what is to
    come (結婚している / 結婚する); never one now and one past (住んでいる / 住んでいた)."""
    if {first, second} == {NOW, STATE_NOW}:
        return False
    return first.split(" ", maxsplit=1)[0] == second.split(" ", maxsplit=1)[0]


def told_alike(old: Reading, new: Reading, old_verb: str, new_verb: str) -> bool:
    """Whether ``old_verb`` in ``old`` and ``new_verb`` in ``new`` are told in tenses that
    may tell one time (``_tenses_agree``); False where either is told in none."""
    return any(
        _tenses_agree(mine, theirs)
        for verb, mine in old.tenses
        if verb == old_verb
        for other, theirs in new.tenses
        if other == new_verb
    )


def tense_changed(old: Reading, new: Reading) -> list[str]:
    """A main verb both texts tell, in the past in one and not in the other (Ken's son
    turns 7 / turned 7; is reading / has read), and in no tense both share."""
    told: dict[str, set[str]] = {}
    for verb, tense in old.tenses:
        told.setdefault(verb, set()).add(tense)
    changed = sorted(
        {
            (verb, sorted(told[verb])[0], tense)
            for verb, tense in new.tenses
            if verb in told and not told_alike(old, new, verb, verb)
        }
    )
    return [f"tense: {verb} ({before} → {after})" for verb, before, after in changed]


def _held(word: Word, reading: Reading) -> bool:
    """Whether ``reading`` holds ``word``, or a word the guard takes for it."""
    return any(word.same_word(other) for other in reading.words)

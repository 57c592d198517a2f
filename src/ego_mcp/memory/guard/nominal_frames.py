"""A verb that frames a deed, told in the other text as its noun: Master decided to quit
/ Master's decision to quit, made the decision to quit; intended to call / Master's
intention of calling.

The noun is the verb's derivationally related form in WordNet (decide: decision, intend:
intention, refuse: refusal), no person (planner, lover), affirmed, the subject or the
object of its clause (not "without intention", "by agreement"), framing the same verb the
verb frames (decided to leave / the decision to stay are two frames), and the same doer's:
its owner, or the subject of the support verb that carries it, is the verb's subject (Ken's
agreement to borrow the ladder is Ken's). A support verb (made the decision, took the
decision, reached a decision: of NomBank's support verbs, a closed class) says nothing of
its own and goes with the noun, unless it is denied (made no decision); any other verb
around the noun stays a word (his decision surprised his friends: "surprised" is matched
or not as any word is). A doer only a pronoun names (she decided / he made the decision)
is none the guard can compare: no frame is paired.
"""

from __future__ import annotations

from ego_mcp.memory.guard.reading import Reading, Word
from ego_mcp.memory.guard.wordnet import wordnet

# Not "have": had a proposal, had a trial, had Ken's agreement are as often received or
# held as made, and "had the intention" stays a word (a possible duplicate at most).
SUPPORT_VERBS = frozenset({"make", "take", "reach"})
SENSES = 3  # a verb's most frequent senses, whose nouns count
NOUN_ROLES = frozenset({"subject", "object"})


def framed_as_nouns(
    verbs: tuple[Reading, list[Word]], nouns: tuple[Reading, list[Word]]
) -> set[int]:
    """The ``id`` of each framing verb among the first text's unmatched qualifier words
    (``verbs``: the text, those words) that the other text tells as its noun among the
    words it has and the first lacks (``nouns``: the text, those words), of that noun, and
    of the support verb carrying it."""
    net = wordnet()
    if net is None:
        return set()
    (verb_text, qualifying), (noun_text, others) = verbs, nouns
    told: set[int] = set()
    for verb in qualifying:
        if verb.pos != "v" or verb.reading or verb.negated or not verb.frames:
            continue
        derived = net.related(verb.key, "v", "+", senses=SENSES)
        doers = [w for w in verb_text.words if w.role == "subject" and w.head == verb.key]
        for noun in others:
            if id(noun) in told or not _frame_noun(noun, derived, verb.frames):
                continue
            support = [
                w for w in others if w.pos == "v" and w.key == noun.head and w.key in SUPPORT_VERBS
            ]
            if any(w.negated for w in support):
                continue  # made no decision to go: the denial is the support verb's
            if not _same_doer(doers, _doers_of(noun, support, noun_text)):
                continue
            told |= {id(verb), id(noun), *(id(w) for w in support)}
            break
    return told


def _frame_noun(noun: Word, derived: frozenset[str], frames: str) -> bool:
    return (
        noun.pos == "n"
        and noun.key in derived
        and noun.frames == frames
        and not (noun.negated or noun.animate or noun.preposition)
        and noun.role in NOUN_ROLES
    )


def _doers_of(noun: Word, support: list[Word], text: Reading) -> list[Word]:
    """Whose the noun is: its owner (Master's decision), else the subject of the support
    verb carrying it (Master made the decision)."""
    owners = [w for w in text.words if w.role == "owner" and w.owns == noun.key]
    if owners:
        return owners
    carriers = {w.key for w in support}
    return [w for w in text.words if w.role == "subject" and w.head in carriers]


def _same_doer(first: list[Word], second: list[Word]) -> bool:
    return bool(first and second) and all(any(a.same_word(b) for b in first) for a in second)

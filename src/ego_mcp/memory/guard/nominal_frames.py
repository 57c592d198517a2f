"""A verb that frames a deed, told in the other text as its noun: Master decided to quit
/ Master made the decision to quit / Master's decision to quit was made.

The noun is the verb's derivationally related form in WordNet (decide: decision, intend:
intention, refuse: refusal), no person (planner, lover), affirmed, the subject or the
object of its clause (not "without intention", "by agreement"), framing the same verb the
verb frames (decided to leave / the decision to stay are two frames), and the same doer's:
its named owner and the subject of the support verb that carries it are the verb's subject
(Ken's agreement to borrow the ladder is Ken's; I made Master's decision to quit is the
diarist's doing). A support verb (made the decision, reached a decision: of NomBank's
support verbs, a closed class) says nothing of its own and goes with the noun, unless it
is denied (made no decision) or told in another tense (makes the decision). A verb told
twice in its text (made the decision and made a cake) is none the readings can pair, nor
is a doer only a pronoun names (she decided / he made the decision). Any other verb around
the noun stays a word (his decision surprised his friends: "surprised" is matched or not
as any word is).
"""

from __future__ import annotations

from ego_mcp.memory.guard.placement import told_alike
from ego_mcp.memory.guard.reading import Reading, Word
from ego_mcp.memory.guard.wordnet import wordnet

# Not "have" nor "take": had a proposal, had Ken's agreement, took the proposal, took the
# suggestion are as often received or accepted as made; "took the decision" and "had the
# intention" keep their verb as a word.
SUPPORT_VERBS = frozenset({"make", "reach"})
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
        if not _told_once(verb.key, verb_text):
            continue  # decided to quit, and Ken decides to stay: whose tense, whose doer?
        derived = net.related(verb.key, "v", "+", senses=SENSES)
        doers = [w for w in verb_text.words if w.role == "subject" and w.head == verb.key]
        for noun in others:
            if id(noun) in told or not _frame_noun(noun, derived, verb.frames):
                continue
            support = _support_of(noun, noun_text, others)
            if support is None or any(w.negated for w in support):
                continue  # made no decision to go: the denial is the support verb's
            if not _same_doer(doers, _doers_of(noun, support, noun_text)):
                continue
            if support and not _told_alike(verb, verb_text, support, noun_text):
                continue  # decided to quit / makes the decision to quit: its tense is "make"'s
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


def _told_once(key: str, text: Reading) -> bool:
    return sum(1 for w in text.words if w.pos == "v" and w.key == key) == 1


def _support_of(noun: Word, text: Reading, others: list[Word]) -> list[Word] | None:
    """The support verb the noun hangs from, as a list of one, or none where it hangs
    from another verb; None where that support verb is told more than once in its text
    (made the decision and made a cake: which one carries the noun, the readings do not
    say) or the other text has it too."""
    if noun.head not in SUPPORT_VERBS:
        return []
    if not _told_once(noun.head, text):
        return None
    carrying = [w for w in others if w.pos == "v" and w.key == noun.head]
    return carrying or None


def _doers_of(noun: Word, support: list[Word], text: Reading) -> list[Word]:
    """Whose the noun is: its owner (Master's decision) and the subject of the support
    verb carrying it (Master made the decision), each of which must be the verb's subject
    (I made Master's decision to quit: the diarist made it)."""
    owners = [w for w in text.words if w.role == "owner" and w.owns == noun.key]
    carriers = {w.key for w in support}
    return owners + [w for w in text.words if w.role == "subject" and w.head in carriers]


def _told_alike(verb: Word, verb_text: Reading, support: list[Word], noun_text: Reading) -> bool:
    """The framing verb and the support verb are told in tenses that may tell one time
    (``placement.told_alike``), or either has none read (``Reading.tenses`` holds main
    verbs only)."""
    carrier = support[0].key
    if all(key != verb.key for key, _ in verb_text.tenses):
        return True
    if all(key != carrier for key, _ in noun_text.tenses):
        return True
    return told_alike(verb_text, noun_text, verb.key, carrier)


def _same_doer(first: list[Word], second: list[Word]) -> bool:
    return bool(first and second) and all(any(a.same_word(b) for b in first) for a in second)

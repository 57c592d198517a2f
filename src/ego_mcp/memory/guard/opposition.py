"""Two verbs set against each other, by WordNet's pointers: a converse by cause one event
told from its two sides (taught / learned from), and antonyms that are only deeds, of
which neither may be done (didn't give / took). Read over the words and tenses the
analysers give (``reading``); WordNet through ``wordnet``."""

from __future__ import annotations

from functools import lru_cache

from ego_mcp.memory.guard.placement import told_alike
from ego_mcp.memory.guard.reading import STATE_NOW, STATE_PAST, Reading, Word
from ego_mcp.memory.guard.wordnet import (
    ANTONYM,
    WordNet,
    antonym_files,
    caused_senses,
    wordnet,
)

# The roles of the two parties of a converse by cause, in the causing telling and in the
# caused one: the causer, the subject of the one, is the source of the other (learned
# from Ken; ケンに教わった, ケンから習った), and the one it was done to is the other's
# subject (taught Master / taught chess to Master / Master learned; マスターに教えた /
# マスターは教わった). A "to" or a "by" the causer takes in English is where an event lands
# (happened to Ken, sat by Ken); a Japanese を is no party given to (保険金を下ろした /
# 保険金が下りた).
SOURCES = {"en": frozenset({"from"}), "ja": frozenset({"from", "to"})}
RECEIVERS = {"en": frozenset({"object", "recipient", "to"}), "ja": frozenset({"to"})}


# How many of a verb's most frequent senses an antonym must join for the two verbs to be
# one event told from its two parties (as ``lexicon.VERB_SENSES`` stand for a verb).
CONVERSE_SENSES = 3


def converse_antonyms(first: Word, second: Word) -> bool:
    """Whether two verbs WordNet opposes are antonyms in senses each is mostly used in, as
    a converse's two sides are (sell / buy, the first senses of both; lend / borrow,
    the second and the first). give and take are antonyms only in take's
    eighth sense, "take into one's possession": Ken took the keys from Master is no
    telling of Master gave Ken the keys (he may have seized them), nor is took a photo."""
    net = wordnet()
    if net is None:
        return False
    return any(
        _antonyms_among_frequent(net, mine, theirs)
        for mine in first.english
        for theirs in second.english
    )


@lru_cache(maxsize=4096)
def _antonyms_among_frequent(net: WordNet, first: str, second: str) -> bool:
    theirs = set(net.offsets(second, "v")[:CONVERSE_SENSES])
    return any(
        target.offset in theirs
        for _, target, _ in net.pointed(first, "v", ANTONYM, CONVERSE_SENSES)
    )


def caused_converse(
    old: Reading,
    new: Reading,
    turned: list[tuple[Word, Word]],
    conflicts: list[tuple[Word, Word]],
) -> bool:
    """Whether a converse read from WordNet's pointers (``evidence.converse``) is one a
    reader vouches for: one verb's first sense causes the other's first sense by
    WordNet's cause pointer or a definition of possession ("cause to have",
    ``wordnet.caused_senses``): taught / learned, 教えた / 教わった, gave / received; not
    killed / went, whose sense "die" is not go's first. The two are told in one tense,
    and the parties trade places as the two verbs have them and in no other way
    (``SOURCES``, ``RECEIVERS``).
    ``turned``: the verb pairs, older text's first; ``conflicts``: the words whose roles
    differ, each pair older text's first. An entailment's antonym (beat / lost), a causer
    told where the event lands (reminded Ken of his promise / remembered his promise to
    Ken) and a trade of subject and object alone stay a possible duplicate."""
    if len(turned) != 1:
        return False
    before, after = turned[0]
    if _causes(before, after):
        moves = conflicts  # (the causing telling's word, the caused telling's)
    elif _causes(after, before):
        moves = [(a, b) for b, a in conflicts]
    else:
        return False
    language = "ja" if before.reading else "en"
    causer = [a.role for b, a in moves if b.role == "subject" and a.role != "subject"]
    receiver = [b.role for b, a in moves if a.role == "subject" and b.role != "subject"]
    return (
        bool(causer and receiver)
        and len(causer) + len(receiver) == len(moves)
        and all(role in SOURCES[language] for role in causer)
        and all(role in RECEIVERS[language] for role in receiver)
        and told_alike(old, new, before.key, after.key)
    )


def _causes(first: Word, second: Word) -> bool:
    """``first``'s first sense causes ``second``'s, by their English (an English word's
    is its key; a Japanese word's, its glosses)."""
    net = wordnet()
    if net is None:
        return False
    return bool(_caused_by(first.english) & _first_senses(net, second.english))


@lru_cache(maxsize=4096)
def _caused_by(english: tuple[str, ...]) -> frozenset[int]:
    """The senses the first senses of ``english``'s verbs cause."""
    net = wordnet()
    if net is None:
        return frozenset()
    return frozenset(target for gloss in english for target in caused_senses(net, gloss))


def _first_senses(net: WordNet, lemmas: tuple[str, ...]) -> frozenset[int]:
    """Each verb's most frequent sense."""
    return frozenset(net.offsets(lemma, "v")[0] for lemma in lemmas if net.offsets(lemma, "v"))


# WordNet's files of verbs of deeds: of the body, change, contact, motion and possession
# (laugh / cry, rise / fall, push / pull, come / go, give / take); of them, contact and
# motion leave a state one of two (open or closed, moving or stopped).
DEED_FILES = frozenset({29, 30, 35, 38, 40})
FIRST_DEED_FILES = DEED_FILES - {40}  # possession first is no proof: accept an offer
TWO_STATE_FILES = frozenset({35, 38})


def deeds_contrary(old: Reading, new: Reading, before: Word, after: Word) -> bool:
    """Two verbs, one denied and one affirmed, that are opposites as deeds: every antonym
    pointer between them is filed among verbs of the body, change, contact, motion or
    possession, or both act on a thing and the most frequent senses so opposed are all of
    the body, change, contact or motion (open / close: contact first, a shop's business
    after; the bank didn't open / closed is a thing's own state, one or the other).
    Neither may be done, so denying one is not doing the other (didn't give / took,
    didn't open the window / closed it, 財布を落とさなかった / 拾った, didn't rise / fell,
    didn't laugh / cried). Outcomes and attitudes are other files: not passing is failing, not
    remembering is forgetting (social, cognition; win / lose is competition too; accept /
    decline an offer, possession first and communication after). Told as states with
    ている in both texts, deeds first of contact and motion leave one state or the other
    (動いていない / 止まっている, 閉まっていた / 開いていなかった); those of the body, change
    and possession do not (売上は増えていない / 減っている: flat, perhaps)."""
    if not before.pos == after.pos == "v":
        return False
    every, first = _antonym_files(_lemmas(before), _lemmas(after))
    if not every:
        return False
    if not every <= DEED_FILES and not (
        first <= FIRST_DEED_FILES and _acts_on_a_thing(old, before) and _acts_on_a_thing(new, after)
    ):
        return False
    return not (_told_as_states(old, new, before, after) and first <= TWO_STATE_FILES)


@lru_cache(maxsize=4096)
def _antonym_files(
    mine: frozenset[str], theirs: frozenset[str]
) -> tuple[frozenset[int], frozenset[int]]:
    """The files of every antonym pointer between two verbs' lemmas, either way, and of
    each lemma's most frequent sense so opposed."""
    net = wordnet()
    if net is None:
        return frozenset(), frozenset()
    found = [
        antonym_files(net, lemma, "v", other)
        for lemmas, other in ((mine, theirs), (theirs, mine))
        for lemma in lemmas
    ]
    return frozenset(f for files in found for f in files), frozenset(f[0] for f in found if f)


def _acts_on_a_thing(reading: Reading, verb: Word) -> bool:
    """The verb has an object in its text: a doer's deed on a thing (opened the window),
    not a thing's own opening (the bank didn't open / closed: a day it was shut)."""
    return any(word.role == "object" and word.head == verb.key for word in reading.words)


def _lemmas(verb: Word) -> frozenset[str]:
    """A verb as WordNet lists it: its key and English, and an English phrasal verb's
    own verb too, whose antonyms it was given (woke up: wake)."""
    found = {verb.key, *verb.english}
    if not verb.reading and "_" in verb.key:
        found.add(verb.key.split("_", 1)[0])
    return frozenset(found)


def _told_as_states(old: Reading, new: Reading, before: Word, after: Word) -> bool:
    """Both verbs told as states with ている (動いていない / 止まっている, 開いていた)."""
    states = (STATE_NOW, STATE_PAST)
    return any((before.key, s) in old.tenses for s in states) and any(
        (after.key, s) in new.tenses for s in states
    )

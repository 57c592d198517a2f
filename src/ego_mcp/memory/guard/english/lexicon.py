"""What WordNet says of an English word: its senses and antonyms, converse verbs, the
kind of name it is, the verbs and nouns it lists as several words, and the lemma where
the small model's is wrong."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.reading import APPROXIMATELY
from ego_mcp.memory.guard.wordnet import ANTONYM, converses, name_kind, wordnet

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# Implicative verbs: what a verb with a to-infinitive tells of its complement's event when
# affirmed and when denied, "+" that it happened, "-" that it did not, "" nothing (Karttunen
# 1971, "Implicative verbs"; the signatures of Nairn, Condoravdi and Karttunen 2006): Ken
# managed to come, came; forgot to lock the door, did not lock it; didn't forget to, did;
# refused to eat, did not eat; didn't refuse to eat, may have or not. Verbs that say
# nothing of it either way (want, try, plan, hope) are the framing verbs of the reader.
IMPLICATIVES = {
    "manage": ("+", "-"), "remember": ("+", "-"), "bother": ("+", "-"), "dare": ("+", "-"),
    "happen": ("+", "-"), "fail": ("-", "+"), "forget": ("-", "+"), "neglect": ("-", "+"),
    "refuse": ("-", ""), "decline": ("-", ""),
}  # fmt: skip
# How many of a word's most frequent WordNet senses stand for it (``senses``).
VERB_SENSES = 3
NOUN_SENSES = 2
OTHER_SENSES = 3  # an adjective's or adverb's


@lru_cache(maxsize=16384)
def senses_of(lemma: str, pos: str) -> tuple[frozenset[str], frozenset[str]]:
    """A word's synonym sets and antonyms. A word's rarer senses join it to words it
    seldom means (friend / acquaintance, friend's third sense; get / go, take / bring):
    a verb's or an adjective's or adverb's three most frequent senses stand for it (WordNet
    ranks "secondhand" third among the senses of "used"; sick / disgusted is the
    fourth), a noun's two. A noun, an adjective or an adverb has the senses of all three parts of
    speech, since the tagger may call "flat" an adjective where it is the noun
    (apartment)."""
    net = wordnet()
    if net is None or not pos:
        return frozenset(), frozenset()
    if pos == "v":
        senses = frozenset(f"v{offset}" for offset in net.offsets(lemma, "v")[:VERB_SENSES])
    else:
        senses = frozenset(
            f"{p}{o}"
            for p in "nar"
            for o in net.offsets(lemma, p)[: NOUN_SENSES if p == "n" else OTHER_SENSES]
        )
    # A verb's antonym is its whole sense (accept / refuse, decline); an adjective's
    # stays the word WordNet points to (big / little, not "small" of another cluster), and
    # comes from the senses that stand for it (friendly / hostile are antonyms only of
    # troops: "isn't friendly" is not "hostile").
    opposites = net.related(
        lemma, pos, ANTONYM, whole_synsets=pos == "v", senses=OTHER_SENSES if pos == "a" else None
    )
    return senses, opposites


@lru_cache(maxsize=16384)
def converses_of(verb: str) -> frozenset[str]:
    net = wordnet()
    return converses(net, verb) if net is not None else frozenset()


def abbreviated(word: str) -> str:
    """The noun an abbreviation written with or without its period stands for, where
    WordNet lists it one way (Mrs and Mrs., Dr. for doctor, prof for professor): the
    first word of its first sense; "" for any other word."""
    net = wordnet()
    bare = word.removesuffix(".")
    if net is None or not bare.isalpha() or (bare == word and not net.offsets(f"{word}.", "n")):
        return ""
    for form in (f"{bare}.", bare):
        senses = net.offsets(form, "n")
        if senses:
            return net.synset(senses[0], "n").words[0]
    return ""


@lru_cache(maxsize=4096)
def name_kind_of(name: str) -> str:
    net = wordnet()
    return name_kind(net, name) if net is not None else "name"


@lru_cache(maxsize=16384)
def in_wordnet(word: str) -> bool:
    return any(in_wordnet_as(word, pos) for pos in "nvar")


def in_wordnet_as(word: str, pos: str) -> bool:
    """Whether WordNet lists ``word`` as it is written as a ``pos`` (n, v, a, r)."""
    net = wordnet()
    return net is not None and bool(net.offsets(word, pos))


def phrasal_verbs(doc: Doc) -> dict[int, tuple[str, int]]:
    """Verbs that WordNet lists with their particle or complement as one verb (gave up =
    give_up = quit, dozed off = doze_off = fell asleep): the verb's index to the key and
    the index of the word it absorbs (a particle, or an adjective complement; never an
    adverb or an object: looked back, did it are no idioms here)."""
    net = wordnet()
    found: dict[int, tuple[str, int]] = {}
    for token in doc:
        if token.pos_ != "VERB" or net is None:
            continue
        for child in token.children:
            key = f"{token.lemma_.lower()}_{child.lower_}"
            complement = child.dep_ in ("advmod", "oprd") and child.tag_ in ("JJ", "RP")
            if (child.dep_ in ("prt", "acomp") or complement) and net.offsets(key, "v"):
                found[token.i] = (key, child.i)
                break
    return found


def compound_nouns(doc: Doc) -> dict[int, str]:
    """Nouns that WordNet lists with the noun before them as one noun (shop assistant:
    shop_assistant, a clerk): the head's index to the compound. The head keeps its own
    senses and its modifier stays a word (store clerk / shop assistant: store is shop);
    the compound's senses join the head's. A name is no part of one."""
    net = wordnet()
    found: dict[int, str] = {}
    for token in doc:
        if net is None or token.pos_ != "NOUN" or token.i == 0:
            continue
        before = doc[token.i - 1]
        if before.dep_ == "compound" and before.head.i == token.i and before.pos_ == "NOUN":
            key = f"{before.lower_}_{token.lemma_.lower()}"
            if net.offsets(key, "n"):
                found[token.i] = key
    return found


# WordNet's lexicographer files of verbs whose passive names the state of whom it befell
VOWELS = frozenset("aeiou")


@lru_cache(maxsize=16384)
def past_of_e_verb(word: str) -> str:
    """The verb a past form in -ed is of when its stem ends in e (scraped: scrape, which
    the small model lemmatises "scrap"): one vowel and one consonant before the -ed,
    which a stem of that shape would double (scrap: scrapped, hop: hopped), and the form
    without its d a verb WordNet has. "" where that does not hold."""
    if len(word) < 5 or not word.endswith("ed"):
        return ""
    vowel, consonant = word[-4], word[-3]
    if vowel not in VOWELS or consonant in VOWELS or consonant in "wxy" or word[-5] in VOWELS:
        return ""
    net = wordnet()
    stem = word[:-1]
    return stem if net is not None and net.offsets(stem, "v") else ""


@lru_cache(maxsize=16384)
def listed(word: str, lemma: str, pos: str) -> tuple[str, str]:
    """The lemma and part of speech WordNet lists a word under: the tagger's, or where
    WordNet has no such word as that part of speech (the small model tags "spicy" a verb,
    "glacier" an adjective of lemma "glaci"), the first part of speech WordNet has the
    written word as (noun, verb, adjective, adverb)."""
    net = wordnet()
    if net is None or not pos or net.offsets(lemma, pos):
        return lemma, pos
    for other in "nvar":
        forms = net.base_forms(word, other)
        if forms:
            return forms[0], other
    return lemma, pos


def lemma_of(word: str) -> str:
    from simplemma import lemmatize

    return str(lemmatize(word, lang="en", low_memory=True)).lower()  # as recall/terms.py


def approximates(token: Token) -> bool:
    """Whether ``token`` makes the number after it approximate: a word one of whose
    WordNet adverb senses is the first sense of "approximately" (about, around, roughly,
    some, more or less), written just before a number."""
    following = [t for t in token.doc[token.i + 1 : token.i + 3] if not t.is_space]
    if not following or not following[0].like_num:
        return False
    return _approximating(token.lemma_.lower())


@lru_cache(maxsize=4096)
def _approximating(lemma: str) -> bool:
    net = wordnet()
    if net is None:
        return False
    sense = net.offsets(APPROXIMATELY, "r")[:1]
    return bool(sense) and sense[0] in net.offsets(lemma, "r")


def closed(words: str) -> frozenset[str]:
    """A closed class of words, written space-separated."""
    return frozenset(words.split())

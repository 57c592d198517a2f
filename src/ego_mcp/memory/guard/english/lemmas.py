"""Lemmas by WordNet's own morphology, read from the guard's WordNet reader.

spaCy's English rule lemmatizer makes a lemma from three tables drawn from WordNet: the
words of its index, its lists of irregular forms, and the endings an inflected form drops
(morphy(7WN)); held in memory they are 8 MiB of the server's resident set. This module
makes the same lemma by the same steps, asking the WordNet files the guard already reads
(``wordnet.py``) instead of a copy of them: the pipeline runs without its lemmatizer and
``lemmatise`` fills in what the attribute ruler left unset (it gives the lemmas of
pronouns and auxiliaries: me / I, 'd / would, was / be).

The steps, as spaCy takes them: a word the tagger marks as a base form by its morphology
(a singular noun, an infinitive, a positive adjective) is its own lemma, in lower case; a
word of a part of speech WordNet has no files for is itself (a name as written, anything
else in lower case); otherwise the endings are dropped in their order and a form WordNet
lists is taken, the last such first, with an irregular base before any; failing both,
the first form an ending gave, or the word itself.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.wordnet import DETACHMENTS, WordNet, wordnet

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

WORDNET_POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
# An adverb drops no ending: it is its own lemma unless WordNet lists it as irregular
# (better: well). spaCy's table adds the comparatives of a few adverbs that WordNet lists
# as adverbs of their own (closer, sooner, longer: close, soon, long); here they stay
# themselves, with their own senses (closer: nearer).
ENDINGS = {**DETACHMENTS, "r": (("", ""),)}
# Typographic quotes, which spaCy's table turns into plain ones.
PLAIN_QUOTES = {"“": '"', "”": '"', "‘": "'", "’": "'"}


def lemmatise(doc: Doc) -> Doc:
    """``doc`` with a lemma for each word the attribute ruler gave none."""
    for token in doc:
        if not token.lemma:
            token.lemma_ = lemma_of_token(token)
    return doc


def lemma_of_token(token: Token) -> str:
    written, part = token.text, token.pos_
    if part in ("", "SPACE") or _base_form(part, token.morph.to_dict()):
        return written.lower()
    if part == "PUNCT":
        return _punctuation(written)
    pos = WORDNET_POS.get(part.lower())
    if pos is None:
        return written if part == "PROPN" else written.lower()
    net = wordnet()
    if net is None:
        return written.lower()
    return _lemma(net, written, pos)


def _base_form(part: str, morphology: dict[str, str]) -> bool:
    """The tagger's morphology says the word is uninflected (spaCy's English rule)."""
    if part == "NOUN" and morphology.get("Number") == "Sing":
        return True
    present_without_person = (  # VBP: walk, as in "they walk"
        morphology.get("VerbForm") == "Fin"
        and morphology.get("Tense") == "Pres"
        and morphology.get("Number") is None
    )
    if part == "VERB" and present_without_person:
        return True
    return morphology.get("VerbForm") in ("Inf", "None") or morphology.get("Degree") == "Pos"


def _punctuation(written: str) -> str:
    """Punctuation as written, with a typographic quote made plain."""
    for typographic, plain in PLAIN_QUOTES.items():
        if written.endswith(typographic):
            return written[: -len(typographic)] + plain
    return written


@lru_cache(maxsize=16384)
def _lemma(net: WordNet, written: str, pos: str) -> str:
    word = written.lower()
    listed: list[str] = []
    unlisted: list[str] = []
    for ending, base in ENDINGS[pos]:
        if not word.endswith(ending):
            continue
        form = word[: len(word) - len(ending)] + base
        if not form:
            continue
        if net.lists(form, pos):
            listed.insert(0, form)
        elif not form.isalpha():
            listed.append(form)
        else:
            unlisted.append(form)
    forms = list(dict.fromkeys(listed))
    for irregular in net.irregular_bases(word, pos):
        if irregular not in forms:
            forms.insert(0, irregular)
    return (forms or unlisted or [written])[0]

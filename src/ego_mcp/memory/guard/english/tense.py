"""When an English verb tells its event: in the past (went, has gone, had gone, was
going, did go, was a teacher) or not (goes, is going, will go, is a teacher). The perfect
counts as the past (has finished and finished tell one event) unless it goes on (has been
reading, has been married), the progressive and "will" as the present or the future (is
flying next week, will fly next week). No tense is told here of a verb with a modal other
than "will" (would, could), an infinitive, a participle standing alone, a bare form
(read, put, hurt, and any verb after "I" or "we", are past and present alike to the
tagger), nor a verb of communication, whose present reports what was said (Master says
/ said the book was good; mentions, explains)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ego_mcp.memory.guard.reading import NOW, PAST
from ego_mcp.memory.guard.wordnet import communicates

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def tense_of(verb: Token) -> str:
    """PAST, NOW or "" for ``verb`` with its auxiliaries."""
    auxiliaries = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    going_on = any(a.lower_ == "been" for a in auxiliaries) and auxiliaries[0].tag_ != "VBD"
    if any(a.lemma_.lower() == "have" for a in auxiliaries) and not going_on:
        return PAST  # has finished, had left; not has been reading
    modals = [a for a in auxiliaries if a.tag_ == "MD"]
    if modals:
        return NOW if all(m.lemma_.lower() in ("will", "shall") for m in modals) else ""
    if verb.tag_ == "VBD" or any(a.tag_ == "VBD" for a in auxiliaries):
        return PAST  # went, was going, did go
    if verb.tag_ == "VBZ" or any(a.tag_ in ("VBZ", "VBP") for a in auxiliaries):
        return NOW  # goes, is going, does go, has been reading
    return ""


def tenses(doc: Doc) -> frozenset[tuple[str, str]]:
    """Each main verb's lemma with the tense it is told in (each sentence's root, a verb
    or "be", and the verbs joined to it), where one is told."""
    found = set()
    for token in doc:
        if _main(token) and not communicates(token.lemma_.lower()):
            tense = tense_of(token)
            if tense:
                found.add((token.lemma_.lower(), tense))
    return frozenset(found)


def _main(token: Token) -> bool:
    """A sentence's root verb or "be", or a verb joined to one (went and bought)."""
    while token.dep_ == "conj" and token.head.i != token.i:
        token = token.head
    return token.dep_ == "ROOT" and token.pos_ in ("VERB", "AUX")

"""When an English verb tells its event: in the past (went, has gone, had gone, was
going, did go) or not (goes, is going, will go). The perfect counts as the past (has
finished and finished tell one event), the progressive and "will" as the present or the
future (is flying next week, will fly next week). A verb with a modal other than "will"
(would, could), an infinitive or a participle standing alone is told no tense here,
nor is a verb of saying: its present reports what was said (Master says / said the book
was good)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ego_mcp.memory.guard.reading import NOW, PAST
from ego_mcp.memory.guard.wordnet import says

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def tense_of(verb: Token) -> str:
    """PAST, NOW or "" for ``verb`` with its auxiliaries."""
    auxiliaries = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if any(a.lemma_.lower() == "have" for a in auxiliaries) and verb.tag_ == "VBN":
        return PAST  # has finished, had left
    modals = [a for a in auxiliaries if a.tag_ == "MD"]
    if modals:
        return NOW if all(m.lemma_.lower() in ("will", "shall") for m in modals) else ""
    if verb.tag_ == "VBD" or any(a.tag_ == "VBD" for a in auxiliaries):
        return PAST  # went, was going, did go
    if verb.tag_ in ("VBZ", "VBP") or any(a.tag_ in ("VBZ", "VBP") for a in auxiliaries):
        return NOW  # goes, is going, does go
    return ""


def tenses(doc: Doc) -> frozenset[tuple[str, str]]:
    """Each main verb's lemma with the tense it is told in (the root and the verbs joined
    to it), where one is told."""
    found = set()
    for token in doc:
        if token.pos_ == "VERB" and token.dep_ in ("ROOT", "conj") and not says((token.lemma_,)):
            tense = tense_of(token)
            if tense:
                found.add((token.lemma_.lower(), tense))
    return frozenset(found)

"""When an English verb tells its event: in the past (went, has gone, had gone, was
going, did go, was a teacher) or not (goes, is going, will go, is a teacher, am, live).
The perfect counts as the past (has finished and finished tell one event; has been sold
and was sold) unless it goes on: a perfect progressive or one with a duration (has been
reading; has been married for ten years, since May) is the present. The progressive and
"will" are the present or the future (is flying next week, will fly next week).

No tense is told here of a verb with a modal other than "will" (would, could), an
infinitive or a participle standing alone, a present written as its own past (read,
put, hurt: "I read the novel" is either), nor a verb of saying or communication that
reports a clause, whose present reports what was said (Master says / said the book was
good; Ken mentions / mentioned that he is moving).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ego_mcp.memory.guard.english.roles import cleft_clause
from ego_mcp.memory.guard.reading import NOW, PAST
from ego_mcp.memory.guard.wordnet import communicates, says

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# The verbs whose past is written as their present (a closed class of English's
# irregular verbs): their bare present may be either tense.
PAST_AS_PRESENT = frozenset(
    {"beat", "bet", "bid", "broadcast", "burst", "cast", "cost", "cut", "fit", "forecast",
     "hit", "hurt", "knit", "let", "put", "quit", "read", "rid", "set", "shed", "shut",
     "slit", "split", "spit", "spread", "thrust", "upset", "wet"}
)  # fmt: skip
DURATION = frozenset({"for", "since"})


def tense_of(verb: Token) -> str:
    """PAST, NOW or "" for ``verb`` with its auxiliaries."""
    auxiliaries = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    perfect = any(a.lemma_.lower() == "have" for a in auxiliaries)
    if perfect and not _goes_on(verb, auxiliaries):
        return PAST  # has finished, had left, has been sold
    modals = [a for a in auxiliaries if a.tag_ == "MD"]
    if modals:
        return NOW if all(m.lemma_.lower() in ("will", "shall") for m in modals) else ""
    if verb.tag_ == "VBD" or any(a.tag_ == "VBD" for a in auxiliaries):
        return PAST  # went, was going, did go, had been reading
    if verb.tag_ == "VBP" and not auxiliaries and verb.lower_ in PAST_AS_PRESENT:
        return ""  # I read the novel: either
    if verb.tag_ in ("VBZ", "VBP") or any(a.tag_ in ("VBZ", "VBP") for a in auxiliaries):
        return NOW  # goes, live, am, is going, does go, has been reading
    return ""


def _goes_on(verb: Token, auxiliaries: list[Token]) -> bool:
    """A perfect that reaches the present: progressive (has been reading), or of a
    state for a duration (has been married for ten years, has been a teacher since
    May); not a perfect passive (has been sold)."""
    been = verb.lower_ == "been" or any(a.lower_ == "been" for a in auxiliaries)
    if not been or any(a.tag_ == "VBD" for a in auxiliaries):
        return False  # had been: the past
    said = [verb, *(c for c in verb.children if c.dep_ in ("attr", "acomp"))]
    lasting = any(
        c.dep_ == "prep" and c.lemma_.lower() in DURATION for word in said for c in word.children
    )
    return verb.tag_ == "VBG" or lasting


def tenses(doc: Doc) -> frozenset[tuple[str, str]]:
    """Each main verb's lemma with the tense it is told in (each sentence's root, a verb
    or "be", and the verbs joined to it), where one is told."""
    found = set()
    for token in doc:
        if _main(token) and not _reports_a_clause(token):
            tense = tense_of(token)
            if tense:
                found.add((token.lemma_.lower(), tense))
    return frozenset(found)


def _reports_a_clause(verb: Token) -> bool:
    """A verb of saying (say, talk) or of communication with a clause it reports (Ken
    mentioned that he is moving); not one of communication with an object alone (Ken
    calls his mother, teaches piano)."""
    lemma = verb.lemma_.lower()
    clause = any(c.dep_ == "ccomp" for c in verb.children)
    return says((lemma,)) or (clause and communicates(lemma))


def _main(token: Token) -> bool:
    """A sentence's root verb or "be", or a verb joined to one (went and bought), or the
    clause of a cleft (it was Ken who called, Ken is the one who calls: the event's)."""
    while token.dep_ == "conj" and token.head.i != token.i:
        token = token.head
    if token.dep_ == "ROOT":
        return token.pos_ in ("VERB", "AUX")
    return token.pos_ == "VERB" and cleft_clause(token)

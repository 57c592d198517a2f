"""The parts of an English sentence: where one part of its own ends and the next begins
(a clause, or a gapped part that says more than one thing: milk in his coffee | and sugar
in his tea), never inside a list (Emi and Ken at the station). Pure functions over a
parse."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ego_mcp.memory.guard.english.lexicon import closed

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

JOINS = closed(", ; and or but")  # where a sentence passes from one part to the next
FINITE = closed("VBD VBZ VBP MD")  # the tags of a finite verb
LISTED = closed("conj appos compound nummod poss")  # a noun one before it stands for
SUBORDINATE = closed("advcl relcl acl pcomp xcomp csubj")  # a clause inside another


def token_at(doc: Doc, start: int) -> Token | None:
    """The token that covers character ``start``, or None."""
    return next((t for t in doc if t.idx <= start < t.idx + len(t.text)), None)


def part_at(doc: Doc, parts: list[int], start: int) -> int:
    """The part of the token at character ``start`` (``parts_of``), or 0."""
    token = token_at(doc, start)
    return parts[token.i] if token is not None else 0


def parts_of(doc: Doc) -> list[int]:
    """The part of its sentence each token stands in: a new part at each sentence and at
    each joining word or mark (and, or, but, a comma, a semicolon) that joins parts of
    their own (``_joins_parts``), not the items of a list (Emi and Ken at the station)."""
    parts, part = [], 0
    for token in doc:
        if token.is_sent_start or (token.lower_ in JOINS and _joins_parts(token)):
            part += 1
        parts.append(part)
    return parts


def _joins_parts(join: Token) -> bool:
    """``join`` opens a clause (and his friend Daiki had the pasta) or a gapped part
    after one that says more than a thing after its verb (milk in his coffee and sugar
    in his tea; Suzuki at 2 pm and Ito at 4 pm); not an item of a list (met Emi and Ken
    at the station, fed the cat and the dog before he left), nor a phrase before the
    sentence's verb (At 9, Master had coffee)."""
    sentence = join.sent
    verbs = [
        t
        for t in sentence
        if t.i < join.i and t.pos_ in ("VERB", "AUX") and t.dep_ in ("ROOT", "conj")
    ]
    if not verbs:
        return False  # a phrase before the sentence's verb
    after = [t for t in sentence if t.i > join.i]
    ahead = after[: next((k for k, t in enumerate(after) if t.lower_ in JOINS), len(after))]
    if any(t.tag_ in FINITE and t.dep_ not in SUBORDINATE for t in ahead):
        return True  # a clause of its own: a finite verb no other clause holds
    said = [t for t in sentence if verbs[-1].i < t.i < join.i and t.lower_ not in JOINS]
    things = [
        t
        for t in said
        if (t.pos_ in ("NOUN", "PROPN", "PRON") or t.like_num) and t.dep_ not in LISTED
    ]
    return any(t.pos_ == "ADP" for t in said) or len(things) > 1

"""Where an English text's values and describers belong: the thing, clause or event each
number, date, length or measure is bound to (the flight at 9, the new office opens at 8,
the dog food costs $60 a bag), and what tells two clauses' subjects apart (the blue
bike, room 204). Pure functions over a parse."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ego_mcp.memory.guard.durations import EN_UNITS
from ego_mcp.memory.guard.english.lexicon import closed
from ego_mcp.memory.guard.english.parts import token_at
from ego_mcp.memory.guard.english.roles import entity_key, subject_of
from ego_mcp.memory.guard.measures import UNITS
from ego_mcp.memory.guard.reading import Slotted

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# What a number or a date can be, as a slot: a start, an end, a bound of order.
# The prepositions that give a value its slot; "by" before a time is a deadline (by
# Friday / on Friday).
SLOT_ROLES = {"from": "from", "to": "to", "until": "until", "till": "until", "since": "from",
              "before": "before", "after": "after", "by": "by"}  # fmt: skip
THIRD_PERSON = closed("he she it they")
UNIT_WORDS = frozenset(EN_UNITS) | frozenset(UNITS)  # of lengths of time and measures


def slot(
    doc: Doc,
    start: int,
    of_time: bool = False,
    united: bool = False,
    written: frozenset[int] | None = None,
) -> tuple[str, str]:
    """The role and anchor of the value that starts at character ``start``: the noun it
    counts (50 dollars), or the preposition and the noun it hangs from (the flight at 9,
    from Monday), or the subject it is said of (the daughter is 8, the haircut is on the
    3rd), or the subject and verb of the clause that tells it (the new office opens at 8:
    "open: new office"; with the verb's object, takes the supplement in the morning);
    ``of_time``: a time, date or length, whose unit's preposition gives it its slot (from
    5 pm); ``united``: a value that holds its unit (90 minutes, 1.5 km: the unit is no
    thing it is of). ``written``: for a clock time, the characters the text's values are
    written in; a clock time before a common noun outside them is that thing's (left at
    6:00 for the 10:00 wedding: the wedding's 10:00), where a noun inside is its unit
    (at 5 pm)."""
    token = token_at(doc, start)
    if token is None:
        return "", ""
    node = token
    if node.dep_ == "conj" and node.head.like_num and node.head.dep_ in ("attr", "acomp"):
        node = node.head  # the kids are 8 and 10: the second is said as the first is
    # A length told with an article (an hour, half an hour) starts at the article.
    counting = ("nummod", "compound", "quantmod", *(("det", "predet") if united else ()))
    while node.dep_ in counting and node.head.i != node.i:
        node = node.head
        if node.pos_ in ("NOUN", "PROPN"):
            if written is not None and node.pos_ == "NOUN" and node.idx not in written:
                return "", _anchor_key(node)
            said_of = _said_of(node)
            if said_of:  # the shirt was 30 dollars, the son is 5 years old
                return "", said_of
            # A time's unit a preposition governs gives the time its slot (from 5 pm
            # to 3 pm); an amount's (gave birth to three kittens) does not.
            governing = node.head.lemma_.lower() if node.dep_ == "pobj" and of_time else ""
            verb = _verb_hung_from(node.head) if governing else None
            held = _event_key(verb, node.head.i) if verb is not None else ""
            if held and united:  # worked for 3 years at the bank: the bank's years
                held = " ".join(filter(None, (held, _what_for(node, united))))
            return _slot_role(governing, of_time, united), held or _amount_of(node, united)
    said_of = _said_of(node)
    if said_of:
        return "", said_of  # Ken's daughter is 8: what is 8 is the daughter
    if node.dep_ in ("dobj", "npadvmod") and node.head.pos_ == "VERB":
        # A bare amount a verb takes (Ken paid 100 and Aya 1000, the flight costs 500)
        # is its written subject's.
        return "", _subject_key(node.head) if _written_subject(node.head) else ""
    if node.dep_ == "pobj":
        preposition = node.head
        role = _slot_role(preposition.lemma_.lower(), of_time, united)
        return role, _hung_from(preposition)
    return "", ""


def _slot_role(preposition: str, of_time: bool, united: bool) -> str:
    """The slot a preposition gives a value; "by" only a point in time, a deadline (by
    Friday), not an amount (went up by 10, delayed by an hour)."""
    if preposition == "by" and (united or not of_time):
        return ""
    return SLOT_ROLES.get(preposition, "")


def _hung_from(preposition: Token) -> str:
    """What a prepositional phrase holding a value is said of: the noun it hangs from (the
    flight at 9), else the subject written on the verb it hangs from (the haircut is on
    the 3rd, the new office opens at 8), else ""."""
    verb = _verb_hung_from(preposition)
    if verb is not None:
        return _event_key(verb, preposition.i)
    return _anchor_key(preposition.head)


def _verb_hung_from(preposition: Token) -> Token | None:
    """The verb a prepositional phrase tells of, or None where it hangs from a noun. A
    phrase hung from another value's unit or its preposition tells of what that value
    does (starts at 7 p.m. on Saturday: the starting), and one hung from the verb's
    object of the verb (starts work at 9: the parse hangs it from either)."""
    anchor = preposition.head
    while anchor.head.i != anchor.i and (
        anchor.pos_ == "ADP"
        or anchor.dep_ == "dobj"
        or (anchor.dep_ == "pobj" and _counted(anchor))
    ):
        anchor = anchor.head
    return anchor if anchor.pos_ in ("VERB", "AUX") else None


def _counted(unit: Token) -> bool:
    """``unit`` is a value's unit: a number counts it (7 p.m., 3 days)."""
    return any(child.dep_ == "nummod" and child.like_num for child in unit.children)


def _event_key(verb: Token, at: int) -> str:
    """The key of what a time or length said of ``verb`` is of: its subject and the verb
    (``_clause_subject``), with its object where it has one (Master takes the iron
    supplement in the morning and the vitamin D at night: the supplement's morning)."""
    subject = _clause_subject(verb, at)
    taken = [child for child in verb.children if child.dep_ == "dobj"]
    return f"{subject} {_thing_key(taken[0])}" if subject and taken else subject


def _clause_subject(verb: Token, at: int) -> str:
    """The key of the subject written on ``verb`` nearest before the word at ``at`` (a
    parse that hangs two clauses' subjects on one verb gives each phrase its own
    clause's), with the verb other than a copula's (the gym's opening and its closing are
    two times), or "": a subject inherited from another clause or the diarist read into
    none would be a guess taken for a binding."""
    told = "" if verb.lemma_ == "be" else f"{verb.lemma_.lower()}: "
    while not _written_subject(verb) and verb.dep_ == "conj":
        # Opens at 6 and closes at 10: the two verbs share the subject (a verb the parse
        # joined to the first one's object, starts work at 9 and finishes at 6, too).
        joined = verb.head.head if verb.head.dep_ == "dobj" else verb.head
        if joined.pos_ not in ("VERB", "AUX"):
            break
        verb = joined
    written = [child for child in verb.children if child.dep_ == "nsubj"]
    before = [child for child in written if child.i < at]
    chosen = before[-1] if before else written[0] if written else None
    if chosen is not None and chosen.lower_ in THIRD_PERSON:
        # A pronoun stands for the subject written before it in its sentence (the store
        # closes at 9 on weekdays, and on Sundays it closes at 6): the store's, as when it
        # is left out.
        named = [
            t for t in chosen.sent if t.i < chosen.i and t.dep_ == "nsubj" and t.pos_ != "PRON"
        ]
        chosen = named[-1] if named else chosen
    return told + _anchor_key(chosen) if chosen is not None else ""


def _anchor_key(thing: Token) -> str:
    """The key a value is bound to: the thing, with its owner (Ken's flight, the flight of
    Ken), the words before it that describe it (the big meeting, the client meeting) and
    the names a phrase after it gives (the flight to Tokyo: the Tokyo flight; the flight on
    Monday) where they are written: Ken's flight at 9 and Aya's at 11, the big meeting at
    9 and the small one at 11, the flight to Tokyo at 9 and the one to Osaka at 11, are
    two things each."""
    key = _thing_key(thing)
    owners = [child for child in thing.children if child.dep_ == "poss"] + [
        party
        for child in thing.children
        if child.dep_ == "prep" and child.lower_ == "of"
        for party in child.children
        if party.dep_ == "pobj"
    ]
    described = [
        child.lemma_.lower()
        for child in thing.children
        if child.dep_ in ("amod", "compound") and child.i < thing.i and not child.like_num
    ] + [
        _thing_key(place)
        for child in thing.children
        if child.dep_ == "prep" and child.lower_ != "of" and child.i > thing.i
        for place in child.children
        if place.dep_ == "pobj" and place.pos_ == "PROPN"
    ]
    owner = f"{entity_key(owners[0])}'s " if owners else ""
    return owner + " ".join([*described, key])


def _thing_key(thing: Token) -> str:
    return entity_key(thing) if thing.pos_ in ("PROPN", "PRON") else thing.lemma_.lower()


def described(doc: Doc) -> tuple[Slotted, ...]:
    """What tells the subject of each clause apart, bound to the clause's other party (the
    copula's attribute, the object, or the object of the verb's first preposition): the
    adjectives before it (the blue bike belongs to Master; the red one is his son's) and
    a number after it that names it (room 204 is the office); and the adjective a copula
    says of its subject, bound to the subject."""
    found = []
    clauses = _clauses(doc)
    for verb, subject in clauses:
        parties = [c for c in verb.children if c.dep_ in ("attr", "dobj")] + [
            g for c in verb.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj"
        ]
        if not parties:
            continue
        found += [
            Slotted(child.lemma_.lower(), "", _thing_key(parties[0]))
            for child in subject.children
            if (child.dep_ == "amod" and child.i < subject.i and not child.like_num)
            or (child.dep_ == "nummod" and child.i > subject.i and child.like_num)
        ]
    # What a copula says its subject is like (Master's car is black and his wife's car is
    # silver), bound to the subject.
    found += [
        Slotted(said.lemma_.lower(), "", _anchor_key(subject))
        for verb, subject in clauses
        if verb.lemma_ == "be"
        for said in verb.children
        if said.dep_ == "acomp" and said.pos_ == "ADJ"
    ]
    return tuple(found)


def _clauses(doc: Doc) -> list[tuple[Token, Token]]:
    """Each verb with its subject: the one written on it, else, for a verb the parse left
    without one, the noun it hung from the clause before as a conjunct just before the
    verb (the big room is the office and the small room is the bedroom: the small model
    reads "the office and the small room" as one phrase)."""
    found = [(t.head, t) for t in doc if t.dep_ == "nsubj"]
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") or verb.i == 0 or _written_subject(verb):
            continue
        before = doc[verb.i - 1]
        if before.like_num and before.dep_ == "nummod":
            before = before.head
        if before.dep_ == "conj" and before.pos_ in ("NOUN", "PROPN"):
            found.append((verb, before))
    return found


def _said_of(value: Token) -> str:
    """The subject a copula says ``value`` of (the daughter is 8, the shirt was 30
    dollars, the son is 5 years old), or ""."""
    if value.dep_ in ("attr", "acomp") and value.head.pos_ in ("AUX", "VERB"):
        return _subject_key(value.head)
    described = value.head
    if value.dep_ == "npadvmod" and described.dep_ == "acomp" and described.head.i != described.i:
        return _subject_key(described.head)
    return ""


def _written_subject(verb: Token) -> bool:
    """``verb`` has a subject of its own, written on it."""
    return any(child.dep_ == "nsubj" for child in verb.children)


def _subject_key(verb: Token) -> str:
    """The anchor key of the subject written on ``verb``, else its subject as the roles
    read it (inherited, or the diarist)."""
    written = [child for child in verb.children if child.dep_ == "nsubj"]
    return _anchor_key(written[0]) if written else subject_of(verb)


def _amount_of(unit: Token, united: bool = False) -> str:
    """What an amount a verb takes is of: the verb's subject with what it is for (the dog
    food costs $60 a bag and the cat food $25: the dog food's bag; the flight took 90
    minutes: the flight's), else what it is for (``_what_for``)."""
    verb = unit.head
    if unit.dep_ in ("dobj", "npadvmod") and verb.pos_ == "VERB":
        subject = _clause_subject(verb, unit.i)
        if subject:
            return " ".join(filter(None, (subject, _what_for(unit, united))))
    return _what_for(unit, united)


def _what_for(unit: Token, united: bool = False) -> str:
    """What an amount is of or for: the next noun in its stretch of the sentence (3,000
    yen for the ticket, six hours on weekdays), else its unit (50 dollars), but for a
    value that holds its unit (``_slot``), "" (90 minutes and 1.5 hours are one)."""
    for token in unit.doc[unit.i + 1 :]:
        if token.is_punct or token.lower_ in ("and", "but", "or") or token.like_num:
            break
        if token.lemma_.lower() in UNIT_WORDS:
            break  # another value's unit (5 km in half an hour)
        if token.pos_ in ("NOUN", "PROPN"):
            return _anchor_key(token)
    return "" if united else unit.lemma_.lower()

"""The reading of an English text the guard compares: its words with their roles and
senses, what qualifies the fact, its numbers and dates in their slots."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.adverbs import EMPHASIS, QUALIFYING_ADVERBS
from ego_mcp.memory.guard.durations import DURATION, EN_UNITS
from ego_mcp.memory.guard.english.lexicon import (
    IMPLICATIVES,
    approximates,
    compound_nouns,
    converses_of,
    in_wordnet,
    lemma_of,
    listed,
    name_kind_of,
    past_of_e_verb,
    phrasal_verbs,
    senses_of,
)
from ego_mcp.memory.guard.english.pipeline import parse
from ego_mcp.memory.guard.english.roles import (
    agent_written,
    clause_verb,
    connective,
    entity_key,
    focused,
    is_name,
    opens_clause,
    passive,
    reasons_given,
    role_of,
    roles_by_order,
    subject_of,
)
from ego_mcp.memory.guard.english.tense import tenses
from ego_mcp.memory.guard.measures import MEASURE, UNITS
from ego_mcp.memory.guard.reading import (
    ABILITY,
    APPROXIMATELY,
    FIRST_PERSON,
    Reading,
    Slotted,
    Word,
)
from ego_mcp.memory.guard.wordnet import is_animate, wordnet

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def closed(words: str) -> frozenset[str]:
    return frozenset(words.split())


CONDITION_AND_ORDER = {
    "if": "if", "unless": "unless", "whether": "if", "before": "before", "after": "after",
    "until": "until", "till": "until",
}  # fmt: skip
# Quantifiers (closed class), whether spaCy tags them determiners or pronouns.
QUANTIFIERS = closed("all some none every each both any most many few several half either")
# What a number or a date can be, as a slot: a start, an end, a bound of order.
SLOT_ROLES = {"from": "from", "to": "to", "until": "until", "till": "until", "since": "from",
              "before": "before", "after": "after"}  # fmt: skip
SEQUENCE = closed("then afterwards afterward later")
THIRD_PERSON = closed("he she it they")
UNIT_WORDS = frozenset(EN_UNITS) | frozenset(UNITS)  # of lengths of time and measures
JOINS = closed(", ; and or but")  # where a sentence passes from one part to the next
FINITE = closed("VBD VBZ VBP MD")  # the tags of a finite verb
LISTED = closed("conj appos compound nummod poss")  # a noun one before it stands for
SUBORDINATE = closed("advcl relcl acl pcomp xcomp csubj")  # a clause inside another
NEGATIONS = closed("not never no nobody nothing none neither nor nowhere n't")
FUTURE = "will"
# Adjectives a to-infinitive completes as a modal verb would ("be able to" is "can").
MODAL_ADJECTIVES = {"able": ABILITY}
TAG_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
FRAMED = frozenset({"xcomp", "ccomp"})


def _slot(doc: Doc, start: int, of_time: bool = False, united: bool = False) -> tuple[str, str]:
    """The role and anchor of the number or date that starts at character ``start``:
    the noun it counts (50 dollars), or the preposition and the noun it hangs from (the
    flight at 9, from Monday), or the subject it is said of (the daughter is 8, the
    haircut is on the 3rd); ``of_time``: a time or date, whose unit's preposition gives
    it its slot (from 5 pm); ``united``: a value that holds its unit (90 minutes, 1.5 km:
    the unit is no thing it is of)."""
    token = next((t for t in doc if t.idx <= start < t.idx + len(t.text)), None)
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
            return SLOT_ROLES.get(governing, ""), held or _amount_of(node, united)
    said_of = _said_of(node)
    if said_of:
        return "", said_of  # Ken's daughter is 8: what is 8 is the daughter
    if node.dep_ in ("dobj", "npadvmod") and node.head.pos_ == "VERB":
        # A bare amount a verb takes (Ken paid 100 and Aya 1000, the flight costs 500)
        # is its written subject's.
        return "", _subject_key(node.head) if _written_subject(node.head) else ""
    if node.dep_ == "pobj":
        preposition = node.head
        return SLOT_ROLES.get(preposition.lemma_.lower(), ""), _hung_from(preposition)
    return "", ""


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
        # A pronoun stands for the subject written before it (the store closes at 9 on
        # weekdays, and on Sundays it closes at 6): the store's, as when it is left out.
        named = [t for t in verb.doc[: chosen.i] if t.dep_ == "nsubj" and t.pos_ != "PRON"]
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


def _described(doc: Doc) -> tuple[Slotted, ...]:
    """What tells the subject of each clause apart, bound to the clause's other party (the
    copula's attribute, the object, or the object of the verb's first preposition): the
    adjectives before it (the blue bike belongs to Master; the red one is his son's) and
    a number after it that names it (room 204 is the office); and the adjective a copula
    says of its subject, bound to the subject."""
    found = []
    for verb, subject in _clauses(doc):
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
        for verb, subject in _clauses(doc)
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
    return _what_for(unit)


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


def read(
    text: str,
    numbers: tuple[tuple[int, str], ...],
    when: tuple[tuple[int, frozenset[str]], ...],
    skip: frozenset[int],
) -> Reading:
    """The English of ``text`` (numbers as digits): ``numbers`` and ``when`` give each
    value with the character where it starts; ``skip`` the characters they cover."""
    doc = parse(text)
    parts = _parts(doc)
    words: list[Word] = []
    qualifiers: set[str] = set()
    negated = [_negated(t) for t in doc if t.lower_ in NEGATIONS or t.dep_ == "neg"]
    negations = sum(1 for t in negated if t is None)
    # A word denied twice (not un-... never not) is affirmed: count each denial.
    negated_at = {t for t in negated if t is not None and negated.count(t) % 2 == 1}
    implicatives = _implicatives(doc, negated_at)
    negated_at ^= {c for c, told in implicatives.values() if told == "-"}  # forgot to lock
    sequence = False
    by_order = roles_by_order(doc)
    reasons = reasons_given(doc)
    phrasal = phrasal_verbs(doc)
    compounds = compound_nouns(doc)
    absorbed = {child for _, child in phrasal.values()}
    for token in doc:
        if token.idx in skip or token.is_punct or token.is_space or token.like_num:
            continue
        if token.i in absorbed:
            continue
        lemma = token.lemma_.lower()
        if token.lower_ in NEGATIONS or lemma in NEGATIONS or token.dep_ == "neg":
            continue
        sequence = sequence or token.lower_ in SEQUENCE
        kind = "skip" if approximates(token) else _kind(token, lemma)  # the qualifier says it
        if kind == "qualifier":
            qualifiers.add(
                FUTURE
                if lemma == "go"
                else CONDITION_AND_ORDER.get(lemma) or MODAL_ADJECTIVES.get(lemma, lemma)
            )
        elif kind in ("content", "qualifying word"):
            word = _word(token, kind == "qualifying word", token.i in negated_at)
            word = replace(
                word, reason=reasons.get(token.i, ""), implicative=token.i in implicatives
            )
            if not word.role and token.i in by_order:
                role, head, bound = by_order[token.i]
                word = replace(word, role=role, head=head, bound=bound)
            if token.i in phrasal:
                key = phrasal[token.i][0]
                senses = senses_of(key, "v")[0] | _state_senses(token, phrasal[token.i][1])
                word = replace(word, key=key, senses=senses, english=(key,))
            elif token.i in compounds:
                word = replace(word, senses=word.senses | senses_of(compounds[token.i], "n")[0])
            words.append(replace(word, part=parts[token.i]))
    if text.rstrip().endswith("?"):
        qualifiers.add("?")
    if any(approximates(t) for t in doc):
        qualifiers.add(APPROXIMATELY)  # about eight hours, as 8時間くらい
    verbs = tuple(t.lemma_.lower() for t in doc if t.pos_ == "VERB" and t.dep_ in ("ROOT", "conj"))
    return Reading(
        words=tuple(words),
        numbers=tuple(
            # A length of time hangs from its verb as a time does (swims for 30 minutes).
            Slotted(
                value,
                *_slot(
                    doc,
                    start,
                    of_time=value.startswith(DURATION),
                    united=value.startswith((DURATION, MEASURE)),
                ),
                part=_part_at(doc, parts, start),
            )
            for start, value in numbers
        ),
        when=tuple(
            Slotted(unit, *_slot(doc, start, of_time=True), part=_part_at(doc, parts, start))
            for start, units in when
            for unit in sorted(units)
        ),
        qualifiers=frozenset(qualifiers),
        particles=frozenset(
            (t.head.lemma_.lower(), t.lemma_.lower())
            for t in doc
            if t.pos_ == "ADP" or t.dep_ == "prt"
        ),
        focus=focused(doc),
        tenses=tenses(doc),
        described=_described(doc),
        negations=negations,
        sequence=verbs if sequence else (),
        unnamed_doer=frozenset(
            t.lemma_.lower()
            for t in doc
            if t.pos_ == "VERB" and passive(t) and not agent_written(t)
        ),
        diarist_did=frozenset(
            t.lemma_.lower()
            for t in doc
            if t.pos_ == "VERB" and not passive(t) and subject_of(t) == FIRST_PERSON
        ),
    )


def _implicatives(doc: Doc, negated_at: set[int]) -> dict[int, tuple[int, str]]:
    """Each implicative verb with a to-infinitive (``IMPLICATIVES``) that tells something
    of it, by index: its complement's index and what it tells ("+" or "-"), affirmed or
    denied as the verb is. A denied refusal tells nothing, and neither does a question
    word's infinitive (forgot how to ride a bike: no riding denied)."""
    found = {}
    for token in doc:
        if token.pos_ != "VERB":
            continue
        lemma = listed(token.lower_, token.lemma_.lower(), "v")[0]  # forgot tagged VBP too
        signature = IMPLICATIVES.get(lemma)
        if signature is None:
            continue
        complement = next(
            (
                c
                for c in token.children
                if c.dep_ == "xcomp"
                and any(a.lower_ == "to" for a in c.children)
                and not any(a.tag_ in WH_TAGS for a in c.children)
            ),
            None,
        )
        told = signature[1 if token.i in negated_at else 0]
        if complement is not None and told:
            found[token.i] = (complement.i, told)
    return found


WH_TAGS = frozenset({"WRB", "WP", "WDT"})  # how, what, which: a question word


# (psychological and bodily: annoy, bore, frighten at 37 verb.emotion; exhaust, wear out
# at 29 verb.body), as against an event done to a thing (moved, built, broken); and the
# sentence frame of such a verb, "Something ----s somebody": the one it befalls is the
# object, so the passive's subject is who is annoyed. A verb of feeling whose subject
# feels (dread, love, want: "Somebody ----s something") has a passive that says how
# others feel about its subject (was dreaded is no "dreaded", frightening, state).
STATE_VERB_FILES = frozenset({29, 37})
BEFALLS_SOMEBODY = 10


def _state_senses(token: Token, particle: int | None = None) -> frozenset[str]:
    """The passive participle of a verb of emotion or of the body that befalls somebody
    reads as the state it names (was annoyed = was irritated, was worn out = was
    exhausted): the first adjective sense WordNet gives the participle as written, with
    its particle. Other passives tell an event (was moved is no "moved", touched, state;
    was dreaded no "dreaded", frightening, one)."""
    net = wordnet()
    if net is None or token.tag_ != "VBN" or not passive(token):
        return frozenset()
    with_particle = "" if particle is None else f"_{token.doc[particle].lower_}"
    first = net.offsets(token.lemma_.lower() + with_particle, "v")[:1]
    sense = net.synset(first[0], "v") if first else None
    if (
        sense is None
        or sense.lexicographer_file not in STATE_VERB_FILES
        or BEFALLS_SOMEBODY not in sense.frames
    ):
        return frozenset()
    # Its first sense only: the adjective's others are other words' (wanted: cherished).
    return frozenset(f"a{offset}" for offset in net.offsets(token.lower_ + with_particle, "a")[:1])


def _negated(token: Token) -> int | None:
    """The index of the word a negation denies: its verb, or the adjective or noun of a
    copula (was not present); None when there is none."""
    verb = clause_verb(token) if token.dep_ != "neg" else token.head
    if verb is None:
        return None
    if verb.pos_ == "AUX":
        complement = next((c for c in verb.children if c.dep_ in ("acomp", "attr", "oprd")), None)
        if complement is not None and _modal_adjective(complement):
            return next(c.i for c in complement.children if c.dep_ == "xcomp")  # not able to go
        return complement.i if complement is not None else None
    return verb.i


GRADED_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})
DEFINITE = closed("the this that these those")


def _graded(token: Token, key: str, pos: str) -> bool:
    """A comparative or superlative by its ending (harder, oldest) or one WordNet lists
    as irregular (farther: far, best: well), not an adverb WordNet lists as its own word
    (later, sooner: a time) nor a word the tagger took for one (glacier)."""
    if pos not in ("a", "r") or key == token.lower_:
        return False
    net = wordnet()
    irregular = net is not None and key in net.irregular_bases(token.lower_, pos)
    return token.tag_ in GRADED_TAGS or irregular


def _number(token: Token) -> str:
    """A common noun's number with its definiteness, where a restatement keeps both (the
    goose / the geese, a wolf / wolves): "" for a noun that modifies another (glacier
    documentary), one a numeral counts (2 litres: the number says it) or a name."""
    if token.pos_ != "NOUN" or token.dep_ == "compound":
        return ""
    if any(child.dep_ == "nummod" for child in token.children):
        return ""
    determiners = [c for c in token.children if c.dep_ in ("det", "poss")]
    definite = any(c.dep_ == "poss" or c.lower_ in DEFINITE for c in determiners)
    many = "Plur" in token.morph.get("Number", [])
    return f"{'the' if definite else 'a'} {'many' if many else 'one'}"


def _part_at(doc: Doc, parts: list[int], start: int) -> int:
    """The part of the token at character ``start`` (``_parts``), or 0."""
    token = next((t for t in doc if t.idx <= start < t.idx + len(t.text)), None)
    return parts[token.i] if token is not None else 0


def _parts(doc: Doc) -> list[int]:
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
    after = [t for t in sentence if t.i > join.i]
    ahead = after[: next((k for k, t in enumerate(after) if t.lower_ in JOINS), len(after))]
    if any(t.tag_ in FINITE and t.dep_ not in SUBORDINATE for t in ahead):
        return True  # a clause of its own: a finite verb no other clause holds
    verbs = [
        t
        for t in sentence
        if t.i < join.i and t.pos_ in ("VERB", "AUX") and t.dep_ in ("ROOT", "conj")
    ]
    if not verbs:
        return False
    said = [t for t in sentence if verbs[-1].i < t.i < join.i and t.lower_ not in JOINS]
    things = [
        t
        for t in said
        if (t.pos_ in ("NOUN", "PROPN", "PRON") or t.like_num) and t.dep_ not in LISTED
    ]
    return any(t.pos_ == "ADP" for t in said) or len(things) > 1


def _perfect_had(token: Token) -> bool:
    """A contracted "'d" whose next verb is a past participle: "had" (he'd already paid,
    he'd been promoted), which the tagger may take for the modal "would"; "would" takes
    a bare verb (he'd pay, he'd be promoted, he'd have paid)."""
    if token.lower_ not in ("'d", "’d"):
        return False
    verbs = (t for t in token.doc[token.i + 1 :] if t.pos_ in ("VERB", "AUX"))
    return next((t.tag_ == "VBN" for t in verbs), False)


def _modal_adjective(token: Token) -> bool:
    """An adjective a to-infinitive completes as a modal would (was able to come)."""
    return token.lemma_.lower() in MODAL_ADJECTIVES and any(
        c.dep_ == "xcomp" for c in token.children
    )


def _kind(token: Token, lemma: str) -> str:
    """What ``token`` is to the guard: a content word, a word or mark that qualifies the
    fact, or grammar to skip."""
    pos, tag = token.pos_, token.tag_
    if connective(token) or opens_clause(token):
        return "skip"  # because, due (to), in spite (of), however: a relation, no word
    if _perfect_had(token):
        return "skip"  # he'd already paid: "had", an auxiliary of the perfect
    if tag == "MD" or _modal_adjective(token):
        return "qualifier"  # will, might, should, can; is able to
    if lemma in CONDITION_AND_ORDER and pos in ("SCONJ", "ADP"):
        return "qualifier"  # if, whether, before, after: as a subordinator or preposition
    if lemma in QUANTIFIERS and pos in ("DET", "PRON", "NOUN", "ADJ", "ADV"):
        return "qualifier"  # all, some, none of the cookies
    if pos == "DET" or tag == "PDT":
        return "qualifier" if _quantifier(token) else "skip"
    if pos == "ADV":
        if lemma in QUALIFYING_ADVERBS:
            return "qualifying word"
        return "skip" if lemma in EMPHASIS or lemma in SEQUENCE or tag == "WRB" else "content"
    if pos == "PRON":
        return "content" if "1" in token.morph.get("Person", []) else "skip"
    if pos == "VERB" and any(_framed(child) for child in token.children):
        if lemma == "go" and tag == "VBG":
            return "qualifier"  # "is going to" is the future, as "will" is
        return "qualifying word"  # used to, want to, thinks that
    if pos in ("PROPN", "NOUN", "VERB", "ADJ"):
        return "content"
    return "skip"  # AUX, ADP, CCONJ, PART, punctuation, symbols


def _framed(child: Token) -> bool:
    """Whether ``child`` is a clause its verb frames as wished, planned, habitual or
    believed rather than done: a to-infinitive (wants to go, used to love) or a finite
    clause (thinks that it is closed, suspects it is leaking). A bare infinitive or a
    gerund is an event the verb tells as it happened (helped him pick, made me laugh,
    kept dropping, started taking): that verb is a content word like any other. A clause
    a subordinator opens (whether, if) is qualified by the subordinator itself."""
    if child.dep_ not in FRAMED:
        return False
    marks = [c for c in child.children if c.dep_ == "mark"]
    if any(c.lower_ in CONDITION_AND_ORDER for c in marks):
        return False
    if marks:
        return True  # a clause "that" opens is a finite one (insisted that he leave)
    auxiliaries = any(c.dep_ in ("aux", "auxpass") for c in child.children)  # to, will, is
    return auxiliaries or child.tag_ not in ("VB", "VBG")


def _quantifier(token: Token) -> bool:
    """all, some, every, each, both, any: a determiner that is no article (a, the), no
    demonstrative (this) and no possessive (my)."""
    return (
        not token.morph.get("PronType", [])
        and not token.morph.get("Poss", [])
        and token.lower_ not in ("a", "an", "the")
    )


def _word(token: Token, qualifier: bool, negated: bool) -> Word:
    name = is_name(token)
    if token.pos_ == "PRON":
        key, pos = FIRST_PERSON, ""
    elif name:
        key, pos = token.lower_, ""
    elif token.pos_ == "PROPN":  # a verb opening the sentence ("Felt happy when...")
        key, pos = lemma_of(token.lower_), "v"
    elif token.tag_ in ("VBN", "VBG") and token.dep_ == "amod":
        key, pos = token.lower_, "a"  # a participle before a noun is an adjective (a used bike)
    else:
        verb_form = token.pos_ == "VERB" and token.tag_ in ("VBD", "VBN")
        lemma = (verb_form and past_of_e_verb(token.lower_)) or token.lemma_.lower()
        key, pos = listed(token.lower_, lemma, TAG_POS.get(token.pos_, ""))
    senses, opposites = senses_of(key, pos)
    if pos == "v":
        senses |= _state_senses(token)
    verb = clause_verb(token)
    role = role_of(token)
    head = verb if verb is not None and verb.i != token.i else None
    head_senses = senses_of(head.lemma_.lower(), "v")[0] if head is not None else frozenset()
    return Word(
        key=key,
        surface=token.text,
        pos=pos,
        role=role,
        bound="" if role == "subject" or verb is None or head is None else subject_of(verb),
        head=head.lemma_.lower() if head is not None else "",
        head_senses=head_senses,
        name=name_kind_of(token.lower_) if name else "",
        senses=senses,
        opposites=opposites,
        converses=converses_of(key) if pos == "v" else frozenset(),
        english=(key,),
        known=bool(senses) or name or token.pos_ == "PRON" or in_wordnet(token.lower_),
        qualifier=qualifier,
        negated=negated,
        preposition=token.head.lemma_.lower() if token.dep_ == "pobj" else "",
        animate=pos == "n" and is_animate(key),
        owns=token.head.lemma_.lower() if role == "owner" else "",
        # What a noun or an adjective before a noun describes (dog house, the small room).
        modifies=token.head.lemma_.lower() if token.dep_ in ("compound", "amod") else "",
        number=_number(token),
        graded=_graded(token, key, pos),
    )

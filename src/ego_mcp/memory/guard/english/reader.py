"""The reading of an English text the guard compares: its words with their roles and
senses, what qualifies the fact, its numbers and dates in their slots."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.adverbs import EMPHASIS, QUALIFYING_ADVERBS
from ego_mcp.memory.guard.dates import MONTHS, WEEKDAY_NUMBERS
from ego_mcp.memory.guard.durations import DURATION
from ego_mcp.memory.guard.english.binding import described, slot
from ego_mcp.memory.guard.english.lexicon import (
    IMPLICATIVES,
    abbreviated,
    approximates,
    closed,
    compound_nouns,
    converses_of,
    in_wordnet,
    in_wordnet_as,
    lemma_of,
    listed,
    name_kind_of,
    past_of_e_verb,
    phrasal_verbs,
    senses_of,
)
from ego_mcp.memory.guard.english.parts import part_at, parts_of
from ego_mcp.memory.guard.english.pipeline import parse
from ego_mcp.memory.guard.english.roles import (
    NOMINAL_SUBJECTS,
    agent_written,
    bare_gerund,
    clause_verb,
    cleft_focus,
    connective,
    focused,
    is_name,
    opens_clause,
    passive,
    pseudo_cleft_one,
    reasons_given,
    role_of,
    roles_by_order,
    subject_of,
)
from ego_mcp.memory.guard.english.tense import tenses
from ego_mcp.memory.guard.measures import MEASURE
from ego_mcp.memory.guard.reading import (
    ABILITY,
    APPROXIMATELY,
    FIRST_PERSON,
    Pronoun,
    Reading,
    Slotted,
    Word,
)
from ego_mcp.memory.guard.wordnet import is_animate, is_person, wordnet

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

CLOCK = "time:"  # the unit of a clock time (``dates``: time:15:00)


CONDITION_AND_ORDER = {
    "if": "if", "unless": "unless", "whether": "if", "before": "before", "after": "after",
    "until": "until", "till": "until", "whenever": "whenever", "wherever": "wherever",
}  # fmt: skip
# Subordinators that quantify over every time or place (whenever Ken comes: each time, a
# habit, no one occasion), whatever part of speech the tagger gives them.
UNIVERSAL_SUBORDINATORS = frozenset({"whenever", "wherever"})
# Quantifiers (closed class), whether spaCy tags them determiners or pronouns.
QUANTIFIERS = closed("all some none every each both any most many few several half either")
SEQUENCE = closed("then afterwards afterward later")
NEGATIONS = closed("not never no nobody nothing none neither nor nowhere n't")
# The denials of every case (a closed class): none of them, never, nobody.
EVERY_CASE_DENIALS = closed("never nobody nothing none nowhere")
FUTURE = "will"
# Adjectives a to-infinitive completes as a modal verb would ("be able to" is "can").
MODAL_ADJECTIVES = {"able": ABILITY, "unable": ABILITY}
DENYING_MODALS = frozenset({"unable"})  # unable to go: not able to go
TAG_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
FRAMED = frozenset({"xcomp", "ccomp"})
# The dependencies of a sentence's main verbs: the root, one joined to it, and one the
# parser hangs from it unlabelled (fed the cat, then took a shower).
MAIN_VERBS = frozenset({"ROOT", "conj", "dep", "parataxis"})
# The personal pronouns of the third person singular, as a person is told again.
THIRD_PERSON = {"he": "m", "him": "m", "his": "m", "she": "f", "her": "f", "hers": "f"}


def read(
    text: str,
    numbers: tuple[tuple[int, str], ...],
    when: tuple[tuple[int, frozenset[str]], ...],
    skip: frozenset[int],
) -> Reading:
    """The English of ``text`` (numbers as digits): ``numbers`` and ``when`` give each
    value with the character where it starts; ``skip`` the characters they cover."""
    doc = parse(text)
    not_one = {t.idx for t in doc if _not_one(t)}  # not one of them: none, no count
    numbers = tuple((start, value) for start, value in numbers if start not in not_one)
    denies_every = any(_denies_every_case(t) for t in doc)
    parts = parts_of(doc)
    words: list[Word] = []
    qualifiers: set[str] = set()
    negations, negated_at, denied_quantities = _denials(doc)
    implicatives = _implicatives(doc, negated_at)
    negated_at ^= {c for c, told in implicatives.values() if told == "-"}  # forgot to lock
    sequence = False
    by_order = roles_by_order(doc)
    reasons = reasons_given(doc)
    phrasal = phrasal_verbs(doc)
    compounds = compound_nouns(doc)
    absorbed = {child for _, child in phrasal.values()}
    for token in doc:
        if token.idx in skip or token.i in absorbed or _no_word(token):
            continue
        lemma = token.lemma_.lower()
        sequence = sequence or token.lower_ in SEQUENCE
        kind = _kind_of(token, lemma)
        if token.i in denied_quantities and kind == "qualifying word":
            qualifiers.add(f"not {lemma}")  # doesn't always: not every time
        elif kind == "qualifier":
            named = (
                FUTURE
                if lemma == "go"
                else CONDITION_AND_ORDER.get(lemma) or MODAL_ADJECTIVES.get(lemma, lemma)
            )
            qualifiers.add(f"not {named}" if token.i in denied_quantities else named)
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
    # A pronoun of quantity denied (not everyone), which no qualifier names otherwise.
    qualifiers.update(
        f"not {doc[i].lower_}" for i in denied_quantities if doc[i].lower_ in QUANTITY_PRONOUNS
    )
    if text.rstrip().endswith("?"):
        qualifiers.add("?")
    if any(approximates(t) for t in doc):
        qualifiers.add(APPROXIMATELY)  # about eight hours, as 8時間くらい
    verbs = tuple(t.lemma_.lower() for t in doc if t.pos_ == "VERB" and t.dep_ in MAIN_VERBS)
    return Reading(
        words=tuple(words),
        numbers=tuple(
            # A length of time hangs from its verb as a time does (swims for 30 minutes).
            Slotted(
                value,
                *slot(
                    doc,
                    start,
                    of_time=value.startswith(DURATION),
                    united=value.startswith((DURATION, MEASURE)),
                ),
                part=part_at(doc, parts, start),
            )
            for start, value in numbers
        ),
        when=tuple(
            Slotted(
                unit,
                *slot(doc, start, of_time=True, written=skip if unit.startswith(CLOCK) else None),
                part=part_at(doc, parts, start),
            )
            for start, units in when
            for unit in sorted(units)
        ),
        qualifiers=frozenset(qualifiers),
        denies_every=denies_every,
        particles=frozenset(
            (t.head.lemma_.lower(), t.lemma_.lower())
            for t in doc
            if t.pos_ == "ADP" or t.dep_ == "prt"
        ),
        focus=focused(doc),
        tenses=tenses(doc),
        described=described(doc),
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
        pronouns=_pronoun_parts(doc),
        ordered=_ordered(doc),
        complements=_complements(doc),
    )


def _ordered(doc: Doc) -> frozenset[tuple[str, str]]:
    """Events "before" or "after" orders, earlier first: a clause it opens (ate before
    he showered) or a gerund it takes (ate before showering), with the verb it hangs
    from. "before the party" orders no two events."""
    found = set()
    for token in doc:
        if token.lower_ not in ("before", "after"):
            continue
        told: Token | None = None
        if token.dep_ == "mark" and token.head.dep_ == "advcl":
            told, main = token.head, token.head.head
        else:
            told = next((c for c in token.children if c.dep_ == "pcomp" and c.pos_ == "VERB"), None)
            main = token.head
        if told is None or main.pos_ not in ("VERB", "AUX"):
            continue
        pair = (main.lemma_.lower(), told.lemma_.lower())
        found.add(pair if token.lower_ == "before" else (pair[1], pair[0]))
    return frozenset(found)


def _pronoun_parts(doc: Doc) -> frozenset[Pronoun]:
    """Each person's pronoun of the third person singular, with its part (his manager
    promoted him: the owner of "manager", and the object of "promote")."""
    found = set()
    for token in doc:
        verb = clause_verb(token) if token.lower_ in THIRD_PERSON else None
        role = role_of(token) if token.pos_ == "PRON" and verb is not None else ""
        if verb is not None and role:
            owns = token.head.lemma_.lower() if role == "owner" else ""
            found.add(Pronoun(role, verb.lemma_.lower(), owns, THIRD_PERSON[token.lower_]))
    return frozenset(found)


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
    copula (was not present); None when there is none. "Not one" denies its clause's
    predicate: not one of them came, none came."""
    verb = clause_verb(token) if token.dep_ != "neg" else token.head
    if token.dep_ == "neg" and _not_one(token.head):
        verb = clause_verb(token.head)
    if verb is None:
        return None
    if verb.pos_ == "AUX":
        complement = next((c for c in verb.children if c.dep_ in ("acomp", "attr", "oprd")), None)
        if complement is not None and _modal_adjective(complement):
            return next(c.i for c in complement.children if c.dep_ == "xcomp")  # not able to go
        verb = complement if complement is not None else None
    # A number is no word of the reading (was not one of the winners, not 50 people): the
    # denial is then of no word, counted apart, not lost.
    return None if verb is None or verb.like_num else verb.i


def _no_word(token: Token) -> bool:
    """Punctuation, a number the numbers read, a denial, or the "single" of "not a
    single one" (the denial's emphasis, as "at all" is)."""
    if token.is_punct or token.is_space or _a_number(token):
        return True
    if token.lower_ in NEGATIONS or token.lemma_.lower() in NEGATIONS or token.dep_ == "neg":
        return True
    return _single_denied(token)


def _denials(doc: Doc) -> tuple[int, set[int], set[int]]:
    """How many denials deny no word, the indices of the words denied, and those of the
    quantities denied. A word denied twice (not un-... never not) is affirmed, so each
    denial counts; a quantity denied (not all of them, not everyone) is a quantity of its
    own, and no predicate is denied (not all of them were happy: some may have been)."""
    of_quantities = {t.i: _denied_quantity(t) for t in doc}
    negated = [
        _negated(t)
        for t in doc
        if (t.lower_ in NEGATIONS or t.dep_ == "neg") and of_quantities[t.i] is None
    ]
    negated += [
        c.i for t in doc if t.lower_ in DENYING_MODALS for c in t.children if c.dep_ == "xcomp"
    ]
    negations = sum(1 for t in negated if t is None)
    denied = {t for t in negated if t is not None and negated.count(t) % 2 == 1}
    return negations, denied, {i for i in of_quantities.values() if i is not None}


def _denied_quantity(token: Token) -> int | None:
    """The index of the quantity a "not" denies (not all, not many, not everyone; doesn't
    always: "always" after the denial, on its verb), None for any other "not" (not one
    denies its predicate)."""
    if token.dep_ != "neg":
        return None
    if _quantity(token.head) and not token.head.like_num:
        return token.head.i
    always = (c for c in token.head.children if c.lower_ == "always" and c.i > token.i)
    return next((c.i for c in always), None)


def _denies_every_case(token: Token) -> bool:
    """A word of a denial of every case: none, never, nobody; "no" before a noun (no one,
    no guest), "not one", and "a single" in a denied clause (didn't miss a single dose)."""
    if token.lower_ in EVERY_CASE_DENIALS or (token.lower_ == "no" and token.dep_ == "det"):
        return True
    return _not_one(token) or _single_denied(token)


def _not_one(token: Token) -> bool:
    """The "one" (written 1 by now) of "not one of them", a quantity denied: none."""
    before = token.doc[token.i - 1] if token.i else None
    one = token.lower_ in ("1", "one") and before is not None and before.lower_ == "not"
    return one and _quantity(token)


def _single_denied(token: Token) -> bool:
    """The "single" of "didn't miss a single dose": "a single" in a clause whose verb, no
    copula, is denied (not "booked a single room because the double was not free", nor
    "is not a single father")."""
    before = token.doc[token.i - 1] if token.i else None
    if token.lower_ != "single" or before is None or before.lower_ != "a":
        return False
    verb = clause_verb(token)
    return verb is not None and verb.pos_ == "VERB" and any(c.dep_ == "neg" for c in verb.children)


# Pronouns of quantity spaCy does not take for determiners (everyone, not everyone).
QUANTITY_PRONOUNS = closed("one everyone everybody everything much")


def _quantity(token: Token) -> bool:
    """A quantifier, a pronoun of quantity or a number, where a denial may hang (not all,
    not everyone; not one, which the numbers wrote as 1)."""
    lemma = token.lemma_.lower()
    quantifier = lemma in QUANTIFIERS or token.lower_ in QUANTITY_PRONOUNS or token.like_num
    subject = token if token.dep_ in NOMINAL_SUBJECTS else token.head
    # Not one but two (students), not one red apple but two: a number set against
    # another, no denial.
    after = token.doc[token.i + 1 : token.i + 5]
    contrasted = token.like_num and any(t.lower_ == "but" for t in after)
    return (
        quantifier
        and token.pos_ in ("DET", "PRON", "NUM", "ADJ", "NOUN")
        and subject.dep_ in NOMINAL_SUBJECTS
        and not contrasted
    )


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


def _perfect_had(token: Token) -> bool:
    """A contracted "'d" whose next verb is a past participle: "had" (he'd already paid,
    he'd been promoted), which the tagger may take for the modal "would"; "would" takes
    a bare verb (he'd pay, he'd be promoted, he'd have paid)."""
    if token.lower_ not in ("'d", "’d"):
        return False
    verbs = (t for t in token.doc[token.i + 1 :] if t.pos_ in ("VERB", "AUX"))
    return next((t.tag_ == "VBN" for t in verbs), False)


def _complements(doc: Doc) -> frozenset[tuple[str, str, str, str]]:
    """Each verb completed by another (an open clause, xcomp) with the form the other
    takes, a to-infinitive ("to") or a gerund ("ing"), and the two as written."""
    found = set()
    for token in doc:
        if token.dep_ != "xcomp" or token.pos_ != "VERB" or token.head.pos_ != "VERB":
            continue
        to = any(c.tag_ == "TO" for c in token.children)
        form = "to" if to and token.tag_ == "VB" else "ing" if token.tag_ == "VBG" else ""
        if form:
            written = f"{token.head.text} {'to ' if form == 'to' else ''}{token.text}"
            found.add((token.head.lemma_.lower(), token.lemma_.lower(), form, written))
    return frozenset(found)


# The determiners that make "one" part of a pronoun of their own (no one, everyone,
# anyone, someone, each one): no word of its own beside them.
PRONOUN_DETERMINERS = closed("no every any some each")


def _a_number(token: Token) -> bool:
    """A number the numbers read already (digits, or a number word but the substitute
    "one")."""
    return token.like_num and not _substitute(token)


def _kind_of(token: Token, lemma: str) -> str:
    """``_kind``, but for a word of an estimate, which its qualifier says (about eight),
    and the substitute "one", a word of its own (this one / these) but in a pseudo-cleft
    (Ken was the one who called: Ken called)."""
    if pseudo_cleft_one(token):
        return "skip"
    if token.like_num:
        return "content"
    return "skip" if approximates(token) else _kind(token, lemma)


def _substitute(token: Token) -> bool:
    """A "one" the numbers left as written: the substitute for a noun told before (the
    big one, this one), a word of its own; not the one of no one or each one."""
    if token.lower_ != "one":
        return False
    before = token.doc[token.i - 1] if token.i else None
    return before is None or before.lower_ not in PRONOUN_DETERMINERS


def _universal(lemma: str) -> tuple[str, ...]:
    """The parts of speech a subordinator of every time or place may be tagged as."""
    return ("ADV",) if lemma in UNIVERSAL_SUBORDINATORS else ()


def _modal_adjective(token: Token) -> bool:
    """An adjective a to-infinitive completes as a modal would (was able to come)."""
    return token.lemma_.lower() in MODAL_ADJECTIVES and any(
        c.dep_ == "xcomp" for c in token.children
    )


def _kind(token: Token, lemma: str) -> str:
    """What ``token`` is to the guard: a content word, a word or mark that qualifies the
    fact, or grammar to skip."""
    pos, tag = token.pos_, token.tag_
    if connective(token) or opens_clause(token) or _at_all(token):
        # because, due (to), in spite (of), however: a relation, no word; (not) at all:
        # the denial's emphasis, no quantity
        return "skip"
    if _perfect_had(token):
        return "skip"  # he'd already paid: "had", an auxiliary of the perfect
    if tag == "MD" or _modal_adjective(token):
        return "qualifier"  # will, might, should, can; is able to
    if lemma in CONDITION_AND_ORDER and pos in ("SCONJ", "ADP", *_universal(lemma)):
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
        return "content" if "1" in token.morph.get("Person", []) or _party(token) else "skip"
    if pos == "VERB" and any(_framed(child) for child in token.children):
        if lemma == "go" and tag == "VBG":
            return "qualifier"  # "is going to" is the future, as "will" is
        return "qualifying word"  # used to, want to, thinks that
    if pos in ("PROPN", "NOUN", "VERB", "ADJ"):
        return "content"
    return "skip"  # AUX, ADP, CCONJ, PART, punctuation, symbols


def _at_all(token: Token) -> bool:
    """A word of the adverb "at all" (the parser's adverb "all" with its "at"), which
    stresses a denial or a question as "in the least" does."""
    if token.lower_ == "at" and token.dep_ == "advmod":
        token = token.head
    return (
        token.lower_ == "all"
        and token.pos_ == "ADV"
        and any(c.lower_ == "at" and c.dep_ == "advmod" for c in token.children)
    )


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


# Where a personal pronoun of a third person is one a text cannot leave out: an object
# (Ken hugged her / Ken hugged him), or a preposition's (went to the cinema with him, made
# a cake for her), with nobody named before it that it may stand for.
# A subject stays unread, and so does a pronoun with a name before it: "him" is as often
# the Master the text names (Master's boss praised him), whom another text names instead.
PARTY_DEPENDENCIES = frozenset({"dobj", "pobj", "dative", "iobj"})


def _party(token: Token) -> bool:
    """A personal pronoun of a third person (him, her, them) in a role
    ``PARTY_DEPENDENCIES`` names, which stands for nobody the text names before it."""
    morph = token.morph
    personal = "Prs" in morph.get("PronType", []) and not morph.get("Poss", [])
    third = "3" in morph.get("Person", []) and "Yes" not in morph.get("Reflex", [])
    if not (personal and third) or token.dep_ not in PARTY_DEPENDENCIES or token.lower_ == "it":
        return False  # "it" stands for a thing told before or after as often (has it in stock)
    clause = clause_verb(token)
    subjects = [c for c in clause.children if c.dep_ in NOMINAL_SUBJECTS] if clause else []
    own = {  # the subject's name whole (Ken Tanaka, Dr. Sato); not its owner (Master's boss)
        t.i for subject in subjects for t in (subject, *subject.children)
        if t is subject or t.dep_ in ("compound", "flat")
    }  # fmt: skip
    return not any(t.i not in own and _may_stand_for(t) for t in token.doc[: token.i])


def _may_stand_for(token: Token) -> bool:
    """A word a pronoun may stand for: a noun of a person, or a name that is no place's
    and no day's or month's (In Tokyo, On Sunday)."""
    if token.pos_ == "NOUN":
        return is_person(token.lemma_.lower())
    if token.pos_ != "PROPN" or not is_name(token) or token.lower_ in CALENDAR_WORDS:
        return False
    return name_kind_of(token.lower_) != "place"


CALENDAR_WORDS = frozenset(MONTHS) | frozenset(WEEKDAY_NUMBERS)


def _word(token: Token, qualifier: bool, negated: bool) -> Word:
    name = is_name(token)
    if token.pos_ == "PRON" and _party(token):
        key, pos = token.lemma_.lower(), ""  # him: he, her: she, them: they
    elif token.pos_ == "PRON":
        key, pos = FIRST_PERSON, ""
    elif name:
        key, pos = abbreviated(token.lower_) or token.lower_, ""
    elif token.pos_ == "PROPN":  # a verb opening the sentence ("Felt happy when...")
        key, pos = lemma_of(token.lower_), "v"
    elif token.tag_ in ("VBN", "VBG") and token.dep_ == "amod":
        key, pos = token.lower_, "a"  # a participle before a noun is an adjective (a used bike)
    elif token.lower_ in ("one", "ones"):
        key, pos = token.lower_, ""  # the substitute: this one / these ones; no senses (ace)
    elif bare_gerund(token) and in_wordnet_as(token.lower_, "n"):
        key, pos = token.lower_, "n"  # from swimming: the noun the tagger gives after "to"
    else:
        verb_form = token.pos_ == "VERB" and token.tag_ in ("VBD", "VBN")
        lemma = (verb_form and past_of_e_verb(token.lower_)) or token.lemma_.lower()
        key, pos = listed(token.lower_, lemma, TAG_POS.get(token.pos_, ""))
    senses, opposites = senses_of(key, pos)
    if pos == "v":
        senses |= _state_senses(token)
    focus = cleft_focus(token)
    verb = focus[1] if focus is not None else clause_verb(token)
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
        frames=_frames(token),
    )


def _frames(token: Token) -> str:
    """The verb of the clause ``token`` frames: a verb's to-infinitive or finite clause
    (``_framed``: decided to quit), a noun's to-infinitive (the decision to quit) or its
    "of" and a gerund (the intention of calling); "" for none."""
    if token.pos_ == "VERB":
        child = next((c for c in token.children if _framed(c)), None)
    elif token.pos_ == "NOUN":
        child = next((c for c in token.children if c.dep_ == "acl" and _to_infinitive(c)), None)
        if child is None:
            of = [c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"]
            gerunds = [c for p in of for c in p.children if c.dep_ == "pcomp" and c.tag_ == "VBG"]
            child = gerunds[0] if gerunds else None
    else:
        child = None
    return child.lemma_.lower() if child is not None else ""


def _to_infinitive(verb: Token) -> bool:
    return any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)

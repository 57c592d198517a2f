"""Swaps the guard reads as differences: what tells two clauses' subjects apart bound
the other way (the blue bike belongs to Master and the red one to his son), and things
told together in one part of a sentence paired the other way (milk in the coffee and
sugar in the tea). Pure functions over ``Reading``s."""

from __future__ import annotations

from collections import Counter

from ego_mcp.memory.guard.dates import shown as shown_unit
from ego_mcp.memory.guard.reading import Reading


def describers_traded(old: Reading, new: Reading) -> list[str]:
    """Adjectives that tell two clauses' subjects apart and trade the clauses' other
    parties (the blue bike belongs to Master and the red one to his son / the red bike to
    Master and the blue one to his son)."""
    return _rebound(
        [(s.value, s.anchor) for s in old.described], [(s.value, s.anchor) for s in new.described]
    )


def modifiers_traded(old: Reading, new: Reading) -> list[str]:
    """Words that describe two nouns, each describing the other's noun in the other text
    (a red bag and a blue hat / a blue bag and a red hat; 赤いかばんと青い帽子 / the
    other way); each describing word written once in each text."""
    before = [(w.key, w.modifies) for w in old.words if w.modifies and w.pos == "a"]
    after = [(w.key, w.modifies) for w in new.words if w.modifies and w.pos == "a"]
    return _rebound(before, after) if _once_each((old, before), (new, after)) else []


def owners_traded(old: Reading, new: Reading) -> list[str]:
    """Owners of two things, each owning the other's thing in the other text (由紀の母は
    マスターの先生だ / マスターの母は由紀の先生だ; Ken's dog likes Aya's cat / Aya's dog
    likes Ken's cat); each owner written once in each text."""
    before = [(w.key, w.owns) for w in old.words if w.owns and w.role == "owner"]
    after = [(w.key, w.owns) for w in new.words if w.owns and w.role == "owner"]
    return _rebound(before, after) if _once_each((old, before), (new, after)) else []


def _once_each(*bound: tuple[Reading, list[tuple[str, str]]]) -> bool:
    """Each word bound is written once in its text."""
    for reading, pairs in bound:
        keys = {key for key, _ in pairs}
        if sum(1 for w in reading.words if w.key in keys) != len(keys):
            return False
    return True


def _rebound(before: list[tuple[str, str]], after: list[tuple[str, str]]) -> list[str]:
    """Each word bound to another of the same things in the other text: each word once in
    each text, the same words and the same things, two things at least."""
    then, now = dict(before), dict(after)
    if (
        len(then) != len(before)
        or len(now) != len(after)
        or then.keys() != now.keys()
        or set(then.values()) != set(now.values())
        or len(set(then.values())) < 2
    ):
        return []
    moved = [word for word in then if then[word] != now[word]]
    if not moved:
        return []
    return [f"roles: {', '.join(f'{w} ({then[w]} → {now[w]})' for w in moved)}"]


def pairs_swapped(old: Reading, new: Reading) -> list[str]:
    """Two things each told beside another in one part of a sentence, paired the other
    way in the other text (milk in the coffee and sugar in the tea / sugar in the coffee
    and milk in the tea; コーヒーにミルク、紅茶に砂糖を入れる; Suzuki at 2 pm and Ito at
    4 pm; 白い車はご主人様ので、黒い車はお父様のだ / the other way): the two pairs in
    neither text together otherwise, the two partners in one role (coffee and tea: in;
    2 pm and 4 pm: values; not lunch and the park: lunch with Emi and Ken in the park)."""
    before, after = _paired(old), _paired(new)
    only_before, only_after = before - after, after - before
    roles = {w.key: (w.role, w.preposition) for w in reversed(old.words)}
    now_with = _partners(only_after)
    swaps = [
        (x, z, y, w)
        for x, z in (pair for both in only_before for pair in (sorted(both), sorted(both)[::-1]))
        for w in now_with.get(x, ())  # x is now with w, which was with y
        for y in now_with.get(z, ())  # and y is now with z
        if len({x, z, y, w}) == 4
        and frozenset((y, w)) in only_before
        and roles.get(z, ("", "")) == roles.get(w, ("", ""))
    ]
    if not swaps:
        return []
    # Shown: the swap least of verbs, subjects and names (the things, not who has them).
    told = (*old.words, *new.words)
    verbs = {w.key for w in told if w.pos == "v"}
    subjects = {w.key for w in told if w.role == "subject"}
    names = {w.key for w in told if w.name}
    x, z, y, w = min(
        swaps, key=lambda s: (len({*s} & verbs), len({*s} & subjects), len({*s} & names), s)
    )
    return [
        f"roles: {shown_unit(x)} ({shown_unit(z)} → {shown_unit(w)}), {shown_unit(y)} "
        f"({shown_unit(w)} → {shown_unit(z)})"
    ]


CROWDED_PART = 30  # things in one part of a sentence past which none are paired


def _partners(pairs: set[frozenset[str]]) -> dict[str, set[str]]:
    """Each thing of ``pairs`` with the things it is paired with."""
    partners: dict[str, set[str]] = {}
    for first, second in (tuple(pair) for pair in pairs):
        partners.setdefault(first, set()).add(second)
        partners.setdefault(second, set()).add(first)
    return partners


def _paired(reading: Reading) -> set[frozenset[str]]:
    """Each two things that stand in one part of a sentence: nouns, names, verbs,
    adjectives, numbers and dates. Where some part has no verb of its own, the verbs are
    said of every part, and where some part names no one, the subject is (Master bought
    milk, bread and eggs at the shop; マスターはコーヒーにミルクを、紅茶に砂糖を入れた):
    they are paired with none."""
    words = [w for w in reading.words if w.pos in ("n", "v", "a") or w.name]
    parts = {w.part for w in words}
    if parts - {w.part for w in words if w.pos == "v"}:
        words = [w for w in words if w.pos != "v"]  # one verb for every part
    if parts - {w.part for w in words if w.role == "subject" or w.name or w.animate}:
        words = [w for w in words if w.role != "subject"]  # one subject for every part
    things = [(w.key, w.part) for w in words] + [
        (value.value, value.part) for value in (*reading.numbers, *reading.when) if value.part
    ]
    if max(Counter(part for _, part in things).values(), default=0) > CROWDED_PART:
        return set()  # no part of a diary sentence tells so much: no pairing is read
    return {frozenset((a, b)) for a, at in things for b, bt in things if at == bt and a != b}

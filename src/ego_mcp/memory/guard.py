"""The duplicate guard's judgement: is a new text the same memory as one it embeds close to?

The burden of proof is on "duplicate". The nearest memory within the dedup threshold is
only a candidate; the new text is refused only when the guard can show that it adds
nothing: every content unit of the new text (``units``) is found in the existing one, as
the same word, the same normalised number or date, the same reading, and nothing is
opposed (a flipped negation, a noun in another role, names in another order). Anything
it cannot show is saved:

- ``DISTINCT`` when a fact plainly differs: a number, a date or time, a name, or the
  same words with the negation flipped;
- ``POSSIBLE`` when only words differ (a synonym the guard cannot vouch for, or a real
  difference): saved, and the pair is a merge candidate for consolidation, so a missed
  duplicate costs a merge later, never a memory.

The same judgement decides what consolidation proposes to merge (``mergeable``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from ego_mcp.memory.units import Unit, Units, units_of


class Verdict(Enum):
    DUPLICATE = "duplicate"
    POSSIBLE = "possible duplicate"
    DISTINCT = "distinct"


@dataclass(frozen=True)
class Comparison:
    """How a new text stands to a memory, and what differs (``what: detail`` lines)."""

    verdict: Verdict
    differences: tuple[str, ...] = ()

    @property
    def duplicate(self) -> bool:
        return self.verdict is Verdict.DUPLICATE


def _found(unit: Unit, among: tuple[Unit, ...]) -> Unit | None:
    return next((other for other in among if unit.same_word(other)), None)


def _missing(new: Units, existing: Units) -> list[Unit]:
    """Words of ``new`` that ``existing`` does not have: as the same word, or written as
    one word where the other writes two (hay fever / hayfever, bird watching)."""
    joined_old = _joined(existing.words)
    written_old = {unit.surface for unit in existing.words if unit.surface}
    split_new = {
        index
        for index, pair in enumerate(pairwise(new.words))
        if pair[0].surface and pair[1].surface and pair[0].surface + pair[1].surface in written_old
    }
    return [
        unit
        for index, unit in enumerate(new.words)
        if _found(unit, existing.words) is None
        and unit.surface not in joined_old
        and index not in split_new
        and index - 1 not in split_new
    ]


def _joined(units: tuple[Unit, ...]) -> set[str]:
    return {a.surface + b.surface for a, b in pairwise(units) if a.surface}


def _role_conflicts(new: Units, existing: Units) -> list[str]:
    """Words both texts bind to a role, to different roles (from Tokyo / to Tokyo)."""
    conflicts = []
    for unit in new.words:
        same = [other for other in existing.words if unit.same_word(other)]
        roles = {other.role for other in same}
        if unit.role and same and "" not in roles and unit.role not in roles:
            conflicts.append(f"{unit.key} ({', '.join(sorted(roles))} → {unit.role})")
    return conflicts


def _names_reordered(new: Units, existing: Units) -> bool:
    """Two names the texts share, in the other order (Alice beat Bob / Bob beat Alice)."""
    shared = [name for name in new.capitalised_in_order if name in existing.capitalised_in_order]
    before = [name for name in existing.capitalised_in_order if name in shared]
    return len(set(shared)) >= 2 and _first_seen(shared) != _first_seen(before)


def _first_seen(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def differences(existing: str, new: str) -> tuple[Verdict, tuple[str, ...]]:
    """What ``new`` says that ``existing`` does not, and the verdict it leads to.

    ``new`` may leave a detail out (a shorter retelling); it may not change or add one.
    """
    old, fresh = units_of(existing), units_of(new)
    hard: list[str] = []
    soft: list[str] = []
    if fresh.numbers - old.numbers:
        shown_old = ", ".join(sorted(old.numbers - fresh.numbers)) or "—"
        hard.append(f"numbers: {shown_old} → {', '.join(sorted(fresh.numbers - old.numbers))}")
    if fresh.when - old.when:
        shown_old = ", ".join(sorted(old.when - fresh.when)) or "—"
        hard.append(f"time: {shown_old} → {', '.join(sorted(fresh.when - old.when))}")
    missing = _missing(fresh, old)
    names = sorted({unit.key for unit in missing if unit.name})
    if names:
        hard.append(f"names: {', '.join(names)}")
    words = sorted({unit.key for unit in missing if not unit.name})
    if words:
        soft.append(f"words: {', '.join(words)}")
    roles = _role_conflicts(fresh, old)
    if roles:
        soft.append(f"roles: {', '.join(roles)}")
    if _names_reordered(fresh, old):
        soft.append("roles: names in another order")
    if old.negations != fresh.negations:
        # The same words negated the other way is a contradiction; with other words as
        # well it may be a rewording ("didn't forget" / "remembered").
        (soft if missing else hard).append("negation")
    if hard:
        return Verdict.DISTINCT, tuple(hard + soft)
    if soft:
        return Verdict.POSSIBLE, tuple(soft)
    return Verdict.DUPLICATE, ()


def compare(existing: str, new: str, similarity: float, threshold: float) -> Comparison:
    """A duplicate when at least ``threshold`` similar and ``new`` adds nothing."""
    if similarity < threshold:
        return Comparison(Verdict.DISTINCT)
    verdict, found = differences(existing, new)
    return Comparison(verdict, found)


def mergeable(first: str, second: str) -> Comparison:
    """Whether consolidation may propose merging two memories: never when a fact differs
    either way (what ``remember`` called distinct); the pair's words otherwise."""
    forward, backward = differences(first, second), differences(second, first)
    for verdict, found in (forward, backward):
        if verdict is Verdict.DISTINCT:
            return Comparison(verdict, found)
    if forward[0] is backward[0] is Verdict.DUPLICATE:
        return Comparison(Verdict.DUPLICATE)
    return Comparison(Verdict.POSSIBLE, forward[1] + backward[1])

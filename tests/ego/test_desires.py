"""Desires rise with time along a sigmoid and fall after satisfaction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ego_mcp.ego.desires import (
    REPEAT_WINDOW,
    SATISFACTION_HOURS,
    Desires,
    Satisfaction,
    SeenSatisfactions,
    implicit_satisfactions,
    level,
    parse_desire,
)
from ego_mcp.errors import InvalidInput

T0 = datetime(2026, 2, 21, 9, 0, tzinfo=UTC)


def test_level_rises_along_a_sigmoid() -> None:
    last = Satisfaction(T0, 1.0)
    hours = SATISFACTION_HOURS["curiosity"]
    values = [
        level("curiosity", last, T0 + timedelta(hours=h)) for h in (0, hours / 2, hours, 2 * hours)
    ]
    assert values == sorted(values)
    assert values[0] < 0.05 and abs(values[2] - 0.5) < 1e-9 and values[3] > 0.95


def test_poor_satisfaction_returns_sooner() -> None:
    later = T0 + timedelta(hours=2)
    good = level("curiosity", Satisfaction(T0, 1.0), later)
    poor = level("curiosity", Satisfaction(T0, 0.2), later)
    assert poor > good


def test_satisfying_lowers_a_risen_desire() -> None:
    desires = Desires(None, T0)
    late = T0 + timedelta(hours=12)
    before = desires.levels(late)["information_hunger"]
    desires.satisfy("information_hunger", 1.0, late)
    after = Desires(desires.to_document(), late).levels(late)["information_hunger"]
    assert before > 0.9 and after < 0.05


def test_implicit_satisfaction_map() -> None:
    assert ("information_hunger", 0.4) in implicit_satisfactions("recall", {})
    assert implicit_satisfactions("forget", {"memory_id": "mem_1"}) == []
    introspective = implicit_satisfactions("remember", {"category": "introspection"})
    assert any(name == "cognitive_coherence" for name, _ in introspective)
    assert not any(
        name == "cognitive_coherence" for name, _ in implicit_satisfactions("remember", {})
    )


def test_unknown_desire_is_invalid() -> None:
    assert parse_desire(" Curiosity ") == "curiosity"
    with pytest.raises(InvalidInput, match="name must be one of"):
        parse_desire("hunger")


def test_a_poor_satisfaction_never_raises_a_desire() -> None:
    desires = Desires(None, T0)
    desires.satisfy("curiosity", 1.0, T0)
    before = desires.levels(T0 + timedelta(minutes=10))["curiosity"]
    desires.satisfy("curiosity", 0.3, T0 + timedelta(minutes=10))
    assert desires.levels(T0 + timedelta(minutes=10))["curiosity"] == before
    later = T0 + timedelta(hours=8)
    high = desires.levels(later)["curiosity"]
    desires.satisfy("curiosity", 0.3, later)
    assert desires.levels(later)["curiosity"] < high  # when it helps, it counts


def test_a_satisfaction_repeated_moments_later_is_not_recorded_again() -> None:
    desires = Desires(None, T0)
    assert desires.satisfy("curiosity", 0.3, T0 + timedelta(hours=8))
    assert not desires.satisfy("curiosity", 0.3, T0 + timedelta(hours=8, seconds=30))
    assert desires.satisfy("curiosity", 0.9, T0 + timedelta(hours=8, seconds=40))  # better
    assert desires.satisfy("curiosity", 0.9, T0 + timedelta(hours=8, minutes=2))  # later


def test_what_was_seen_moments_ago_spares_offering_what_would_not_be_recorded() -> None:
    seen = SeenSatisfactions()
    now = T0 + timedelta(hours=8)
    seen.saw("ai", {"curiosity": Satisfaction(now, 0.3)}, now)
    soon = now + timedelta(seconds=30)
    wanted = [("curiosity", 0.3), ("information_hunger", 0.4)]
    # never seen: offered; seen and not worth recording: spared
    assert seen.worth_offering("ai", wanted, soon) == [("information_hunger", 0.4)]
    assert seen.worth_offering("ai", [("curiosity", 0.9)], soon) == [("curiosity", 0.9)]
    assert seen.worth_offering("other", wanted, soon) == wanted  # another agent's document
    stale = now + REPEAT_WINDOW
    assert seen.worth_offering("ai", wanted, stale) == wanted  # no longer trusted
    assert seen.worth_offering("ai", wanted, now - timedelta(seconds=1)) == wanted


def test_what_was_seen_decides_as_the_document_would() -> None:
    seen = SeenSatisfactions()
    start = T0 + timedelta(hours=8)
    desires = Desires(None, T0)
    desires.satisfy("curiosity", 0.3, start)
    seen.saw("ai", {"curiosity": desires.last["curiosity"]}, start)
    decisions = []
    for offset, quality in [(10, 0.3), (30, 0.9), (50, 0.2)]:
        moment = start + timedelta(seconds=offset)
        offered = bool(seen.worth_offering("ai", [("curiosity", quality)], moment))
        document = Desires(desires.to_document(), start)
        assert offered == document.satisfy("curiosity", quality, moment)
        decisions.append(offered)
    assert decisions == [False, True, False]

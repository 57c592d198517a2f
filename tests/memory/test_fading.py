"""Fading and precious memories (memory/fading.py): pure rules over a memory's age, its
recall days, importance and feeling."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from ego_mcp.memory.fading import PRECIOUS_FLOOR, Fade, day_number, precious
from ego_mcp.memory.model import Emotion, EmotionalTrace, Memory, SearchHit
from ego_mcp.memory.recall.fusion import rank
from ego_mcp.runtime import fade_of
from ego_mcp.settings import load_settings
from ego_mcp.store.codec import memory_to_metadata, recall_tally

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
FADE = Fade(half_life_days=30, weight=0.3)


def aged(days: float, **fields: object) -> Memory:
    middling = EmotionalTrace(primary=Emotion.NEUTRAL, intensity=0.5)
    memory = Memory("mem_0123456789ab", "x", NOW - timedelta(days=days), middling)
    return replace(memory, **fields)  # type: ignore[arg-type]


def test_a_middling_memory_halves_at_the_half_life() -> None:
    assert FADE.strength(aged(0), NOW) == 1.0
    assert FADE.strength(aged(30), NOW) == pytest.approx(0.5)
    assert FADE.strength(aged(60), NOW) == pytest.approx(0.25)


def test_importance_feeling_and_days_of_recall_make_it_hold_longer() -> None:
    plain = FADE.strength(aged(60), NOW)
    assert FADE.strength(aged(60, importance=5), NOW) > plain
    felt = EmotionalTrace(primary=Emotion.MOVED, intensity=1.0)
    assert FADE.strength(aged(60, emotional_trace=felt), NOW) > plain
    assert FADE.strength(aged(60, recall_days=4), NOW) > plain
    # A recall restarts the clock: recalled a day ago, it is as fresh as a day old.
    recalled = aged(300, recall_days=1, recalled_on=day_number(NOW - timedelta(days=1)))
    assert FADE.strength(recalled, NOW) > FADE.strength(aged(2), NOW) - 0.05


def test_precious_memories_fade_no_further_than_the_floor() -> None:
    peak = EmotionalTrace(primary=Emotion.MOVED, intensity=0.8)
    shared_peak = aged(3_000, shared=True, emotional_trace=peak)
    trivia = aged(3_000, importance=1, recall_days=3)
    assert precious(shared_peak) and precious(trivia)
    assert FADE.strength(shared_peak, NOW) == PRECIOUS_FLOOR
    assert FADE.strength(trivia, NOW) == PRECIOUS_FLOOR
    for ordinary in (aged(3_000, shared=True), aged(3_000, recall_days=3), aged(3_000)):
        assert not precious(ordinary)
        assert FADE.strength(ordinary, NOW) < PRECIOUS_FLOOR


def test_an_anticipation_still_to_come_does_not_fade() -> None:
    waiting = aged(400, anticipated_at=NOW + timedelta(days=2))
    assert FADE.strength(waiting, NOW) == 1.0
    assert FADE.strength(aged(400, anticipated_at=NOW - timedelta(days=2)), NOW) < 0.01


def test_an_exact_match_is_never_faded_and_nothing_loses_more_than_the_weight() -> None:
    old = aged(10_000)
    assert FADE.factor(old, NOW, coverage=1.0, similarity=0.3) == 1.0
    assert FADE.factor(old, NOW, coverage=0.2, similarity=0.95) == 1.0
    assert FADE.factor(old, NOW, coverage=0.2, similarity=0.3) == pytest.approx(0.7)


def test_a_day_of_recall_is_counted_once_and_no_rewrite_carries_the_count() -> None:
    assert recall_tally({}, 20_000) == {"recall_days": 1, "recalled_on": 20_000}
    counted = {"recall_days": 1, "recalled_on": 20_000}
    assert recall_tally(counted, 20_000) is None  # the same job run twice
    assert recall_tally(counted, 19_999) is None  # an older job run late
    assert recall_tally(counted, 20_001) == {"recall_days": 2, "recalled_on": 20_001}
    written = memory_to_metadata(aged(1, recall_days=5, recalled_on=20_000))
    assert "recall_days" not in written and "recalled_on" not in written


def hit(days: float, similarity: float, **fields: object) -> SearchHit:
    memory = replace(aged(days, **fields), id=f"mem_{int(days):012d}")
    return SearchHit(memory, 1.0 - similarity)


def test_recall_prefers_the_fresher_of_two_equal_matches_but_shows_an_exact_old_one() -> None:
    old, new = hit(300, 0.5), hit(1, 0.5)
    coverage = {old.memory.id: 0.4, new.memory.id: 0.4}
    unfaded = [r.memory.id for r in rank([old, new], coverage, 2)]
    faded = [r.memory.id for r in rank([old, new], coverage, 2, fading=(FADE, NOW))]
    assert unfaded == [old.memory.id, new.memory.id]  # a tie keeps the order found
    assert faded == [new.memory.id, old.memory.id]
    exact = {old.memory.id: 1.0, new.memory.id: 0.6}
    assert rank([new, old], exact, 1, fading=(FADE, NOW))[0].memory.id == old.memory.id
    # A much better match is not pushed below a weaker fresh one: fading costs at most
    # the weight of a score.
    strong = {old.memory.id: 0.9, new.memory.id: 0.1}
    assert rank([new, old], strong, 1, fading=(FADE, NOW))[0].memory.id == old.memory.id


def test_the_setting_turns_fading_on() -> None:
    assert fade_of(load_settings()) is None
    assert fade_of(load_settings(fade_half_life_days=45, fade_weight=0.2)) == Fade(45, 0.2)

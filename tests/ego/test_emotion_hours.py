"""The month's emotion trend from hour tallies reads the same as from all its memories."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from ego_mcp.clock import FixedClock
from ego_mcp.ego.emotion_hours import month_trend
from ego_mcp.ego.emotion_trend import emotion_trend
from ego_mcp.memory.model import Emotion, EmotionalTrace
from ego_mcp.memory.service import Draft, MemoryService


def _save_at(memory: MemoryService, clock: FixedClock, age: timedelta, rng: random.Random) -> str:
    now = clock.now()
    clock.set(now - age)
    trace = EmotionalTrace(
        primary=rng.choice(list(Emotion)),
        secondary=tuple(rng.sample(list(Emotion), rng.randint(0, 2))),
        intensity=round(rng.random(), 2),
        valence=round(rng.uniform(-1, 1), 2),
    )
    try:
        saved = memory.remember(Draft(f"moment {rng.random()}", trace), force=True).saved
    finally:
        clock.set(now)
    assert saved is not None
    return saved.id


def _by_list(memory: MemoryService, clock: FixedClock) -> str:
    return emotion_trend(memory.store.recent(clock.now() - timedelta(days=30)), clock.now())


def test_hour_tallies_match_the_whole_month_through_saves_and_forgets(
    memory: MemoryService, clock: FixedClock
) -> None:
    rng = random.Random(4)
    clock.set(clock.now() + timedelta(minutes=17, seconds=23))  # not on an hour
    ids = [
        _save_at(memory, clock, timedelta(hours=rng.uniform(0, 40 * 24)), rng) for _ in range(160)
    ]

    first = month_trend(memory.store, memory.closed_hours, clock.now())
    assert first == _by_list(memory, clock)
    assert "Recent days:" in first and "This month:" in first and "Mood has" in first
    assert month_trend(memory.store, memory.closed_hours, clock.now()) == first  # from tallies

    for memory_id in rng.sample(ids, 40):  # forgotten ones leave their closed hours
        memory.forget(memory_id)
    for _ in range(20):  # saved into hours already summed up
        _save_at(memory, clock, timedelta(hours=rng.uniform(0, 20 * 24)), rng)
    assert month_trend(memory.store, memory.closed_hours, clock.now()) == _by_list(memory, clock)

    clock.set(clock.now() + timedelta(days=2, hours=5))  # hours close, others leave the month
    assert month_trend(memory.store, memory.closed_hours, clock.now()) == _by_list(memory, clock)

    on_the_hour = (clock.now().timestamp() // 3600 + 1) * 3600  # every window starts an hour
    clock.set(datetime.fromtimestamp(on_the_hour, UTC))
    assert month_trend(memory.store, memory.closed_hours, clock.now()) == _by_list(memory, clock)


def test_a_few_memories_are_listed(memory: MemoryService, clock: FixedClock) -> None:
    rng = random.Random(1)
    for hours in (3, 30, 300):
        _save_at(memory, clock, timedelta(hours=hours), rng)
    text = month_trend(memory.store, memory.closed_hours, clock.now())
    assert text == _by_list(memory, clock) and text.startswith("Only 3 memories")

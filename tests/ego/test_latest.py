"""The newest memories are read in widening windows, never past the days asked for."""

from __future__ import annotations

from datetime import timedelta

from ego_mcp.clock import FixedClock
from ego_mcp.memory.model import Category
from ego_mcp.memory.service import MemoryService
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings
from tests.helpers import save


def _save_at(
    memory: MemoryService, clock: FixedClock, age: timedelta, text: str, **fields: object
) -> str:
    now = clock.now()
    clock.set(now - age)
    try:
        return save(memory, text, **fields)
    finally:
        clock.set(now)


def test_latest_memories_spans_windows_and_stops_at_the_bound(
    runtime: Runtime, settings: Settings, memory: MemoryService, clock: FixedClock
) -> None:
    ego = runtime.ego(settings.agent)
    ages = [timedelta(minutes=10), timedelta(hours=5), timedelta(days=2), timedelta(days=6)]
    ids = [_save_at(memory, clock, age, f"memory number {i}") for i, age in enumerate(ages)]
    _save_at(memory, clock, timedelta(days=9), "too old for the week")

    latest = ego.latest_memories(3, 7)
    assert [m.id for m in latest] == [ids[2], ids[1], ids[0]]  # oldest first
    assert [m.id for m in ego.latest_memories(10, 7)] == list(reversed(ids))
    assert ego.latest_memories(5, 0) == []


def test_last_introspection_is_found_weeks_back_among_newer_memories(
    runtime: Runtime, settings: Settings, memory: MemoryService, clock: FixedClock
) -> None:
    ego = runtime.ego(settings.agent)
    thought = _save_at(
        memory, clock, timedelta(days=20), "what do I value", category=Category.INTROSPECTION
    )
    _save_at(memory, clock, timedelta(hours=1), "a newer daily memory")
    last = ego.last_introspection()
    assert last is not None and last.id == thought
    clock.set(clock.now() + timedelta(days=11))
    assert ego.last_introspection() is None  # older than 30 days

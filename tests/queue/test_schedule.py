"""Schedules are pure functions of time; the in-process scheduler enqueues what is due."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ego_mcp.clock import FixedClock
from ego_mcp.queue.base import JobRequest
from ego_mcp.queue.schedule import Schedule, is_due, last_slot, schedules
from ego_mcp.queue.scheduler import InProcessScheduler
from ego_mcp.settings import Settings
from ego_mcp.state.documents import FileDocumentStore

pytestmark = pytest.mark.anyio
T = datetime(2026, 2, 21, 13, 30, tzinfo=UTC)


def test_hours_and_slots() -> None:
    every6 = Schedule("consolidate", 6)
    assert every6.hours == {0, 6, 12, 18}
    assert last_slot(every6, T) == datetime(2026, 2, 21, 12, 0, tzinfo=UTC)
    daily = Schedule("scan_merge_candidates", 24, offset_hour=3)
    assert last_slot(daily, T) == datetime(2026, 2, 21, 3, 0, tzinfo=UTC)
    assert last_slot(daily, datetime(2026, 2, 21, 2, 0, tzinfo=UTC)) == datetime(
        2026, 2, 20, 3, 0, tzinfo=UTC
    )


def test_is_due() -> None:
    every6 = Schedule("consolidate", 6)
    assert is_due(every6, None, T)
    assert not is_due(every6, T - timedelta(minutes=20), T)  # ran after the 12:00 slot
    assert is_due(every6, T - timedelta(hours=2), T)  # last ran 11:30, before the slot


def test_schedules_come_from_settings(settings: Settings) -> None:
    found = {s.function: s for s in schedules(settings)}
    assert found["consolidate"].every_hours == 6
    assert found["scan_merge_candidates"].hours == {3}
    assert found["cleanup_episode_references"].every_hours == 24
    assert found["repair_links"].hours == {3}


class Recorder:
    def __init__(self) -> None:
        self.requests: list[JobRequest] = []

    async def enqueue(self, request: JobRequest) -> bool:
        self.requests.append(request)
        return True

    async def close(self) -> None:
        """Nothing to finish: requests are only recorded."""


async def test_scheduler_enqueues_due_jobs_once_per_slot(tmp_path: Path) -> None:
    clock = FixedClock(T)
    recorder = Recorder()
    scheduler = InProcessScheduler(
        lambda: ["nova"],
        [Schedule("consolidate", 6)],
        recorder,
        lambda agent: FileDocumentStore(tmp_path / agent),
        clock,
    )
    assert await scheduler.run_due() == ["consolidate"]
    assert await scheduler.run_due() == []
    clock.set(T + timedelta(hours=5))  # 18:30: the 18:00 slot has passed
    assert await scheduler.run_due() == ["consolidate"]
    assert [r.slot for r in recorder.requests] == [
        "2026-02-21T12:00:00+00:00",
        "2026-02-21T18:00:00+00:00",
    ]

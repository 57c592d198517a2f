"""The schedules of the periodic jobs: pure data and pure functions over datetimes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ego_mcp.settings import Settings


@dataclass(frozen=True)
class Schedule:
    """Run ``function`` for every agent every ``every_hours`` hours, at minute 0 (UTC)."""

    function: str
    every_hours: int
    offset_hour: int = 0

    @property
    def hours(self) -> set[int]:
        """The hours of the day it runs at (arq cron's ``hour`` option)."""
        return {(self.offset_hour + h) % 24 for h in range(0, 24, self.every_hours)}


def schedules(settings: Settings) -> list[Schedule]:
    return [
        Schedule("consolidate", settings.consolidate_every_hours),
        Schedule("scan_merge_candidates", 24, settings.merge_scan_hour_utc),
        Schedule("repair_links", 24, settings.merge_scan_hour_utc),
        Schedule("cleanup_episode_references", settings.episode_cleanup_every_hours),
        Schedule("purge_deletion_log", 24, settings.merge_scan_hour_utc),
    ]


def last_slot(schedule: Schedule, now: datetime) -> datetime:
    """The most recent moment at or before ``now`` when the schedule fired."""
    moment = now.replace(minute=0, second=0, microsecond=0)
    while moment.hour not in schedule.hours:
        moment -= timedelta(hours=1)
    return moment


def is_due(schedule: Schedule, last_run: datetime | None, now: datetime) -> bool:
    """True when a slot has passed since ``last_run`` (never run: due at once)."""
    return last_run is None or last_run < last_slot(schedule, now)

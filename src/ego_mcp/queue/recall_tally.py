"""What recall showed, gathered in the front end and counted in one job now and then.

Counting a recall is a write to the store (``note_recalls``); one per recall would cost
a recall as much again. So the ids recall shows are gathered per agent and day, and go
out as one job with the first recall at least ``interval`` seconds after the first id
waited, when the day turns, when ``most`` ids wait, and when the server stops
(``flush``). Nothing runs on a timer: a process killed before then loses what waited (a
day of recall not counted, never a memory).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from ego_mcp.memory.fading import day_number
from ego_mcp.queue.base import JobRequest

INTERVAL_SECONDS = 60.0
MOST_WAITING = 500


@dataclass
class _Waiting:
    day: int
    since: float
    ids: set[str] = field(default_factory=set)

    def job(self, agent: str) -> JobRequest:
        ids = {"memory_ids": ",".join(sorted(self.ids)), "day": str(self.day)}
        return JobRequest("note_recalls", agent, ids)


class RecallTally:
    """Per agent, the ids recall showed that wait to be counted (event-loop only)."""

    def __init__(
        self,
        interval: float = INTERVAL_SECONDS,
        most: int = MOST_WAITING,
        seconds: Callable[[], float] = time.monotonic,
    ) -> None:
        self._interval = interval
        self._most = most
        self._seconds = seconds
        self._waiting: dict[str, _Waiting] = {}

    def add(self, agent: str, memory_ids: Iterable[str], now: datetime) -> list[JobRequest]:
        """Gather ``memory_ids`` shown at ``now``; the jobs now due."""
        day, due = day_number(now), []
        waiting = self._waiting.get(agent)
        if waiting is not None and waiting.day != day:
            due.append(self._waiting.pop(agent).job(agent))
        waiting = self._waiting.setdefault(agent, _Waiting(day, self._seconds()))
        waiting.ids.update(memory_ids)
        full = len(waiting.ids) >= self._most
        if waiting.ids and (full or self._seconds() - waiting.since >= self._interval):
            due.append(self._waiting.pop(agent).job(agent))
        return due

    def flush(self) -> list[JobRequest]:
        """Every job waiting (the server is stopping)."""
        due = [waiting.job(agent) for agent, waiting in self._waiting.items() if waiting.ids]
        self._waiting.clear()
        return due

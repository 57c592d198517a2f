"""The embedded scheduler: the worker's cron schedules, run in the server's own loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from ego_mcp.clock import Clock
from ego_mcp.queue.base import JobQueue, JobRequest
from ego_mcp.queue.schedule import Schedule, is_due, last_slot
from ego_mcp.state.documents import DocumentStore

logger = logging.getLogger(__name__)
SCHEDULE_DOCUMENT = "schedule"


class InProcessScheduler:
    """Checks every ``tick`` seconds which schedules are due and enqueues their jobs, for
    each agent ``agents`` names (asked anew each time: an agents file can change)."""

    def __init__(
        self,
        agents: Callable[[], Sequence[str]],
        schedules: list[Schedule],
        queue: JobQueue,
        documents: Callable[[str], DocumentStore],
        clock: Clock,
        tick: float = 60.0,
    ) -> None:
        self._agents = agents
        self._schedules = schedules
        self._queue = queue
        self._documents = documents
        self._clock = clock
        self._tick = tick
        self._task: asyncio.Task[None] | None = None

    async def run_due(self) -> list[str]:
        """Enqueue every due job once; returns the functions enqueued (once per agent)."""
        started = []
        for agent in self._agents():
            started += await self._run_due_for(agent)
        return started

    async def _run_due_for(self, agent: str) -> list[str]:
        now = self._clock.now()
        documents = self._documents(agent)
        record = await asyncio.to_thread(documents.load, SCHEDULE_DOCUMENT) or {}
        started = []
        for schedule in self._schedules:
            last = record.get(schedule.function)
            if is_due(schedule, datetime.fromisoformat(last) if last else None, now):
                slot = last_slot(schedule, now).isoformat()
                await self._queue.enqueue(JobRequest(schedule.function, agent, slot=slot))
                record[schedule.function] = now.isoformat()
                started.append(schedule.function)
        if started:
            await asyncio.to_thread(documents.save, SCHEDULE_DOCUMENT, record)
        return started

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="ego-mcp scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _loop(self) -> None:
        # The first check waits one tick, so start-up (and a short session) stays quick.
        while True:
            await asyncio.sleep(self._tick)
            try:
                await self.run_due()
            except Exception:
                logger.warning("scheduled jobs could not be started", exc_info=True)

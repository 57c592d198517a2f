"""The embedded job runner: the same job functions, run as tasks in the server's loop."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from ego_mcp.logs import Plain
from ego_mcp.observe.metrics import JOB_FAILURES, JOB_RETRIES, JOB_RUNS, JOB_SECONDS
from ego_mcp.queue.base import JobRequest
from ego_mcp.queue.bookkeeping import MAX_FAILURES_KEPT
from ego_mcp.queue.jobs import JobContext, JobFunction

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class FailedJob:
    job_id: str
    function: str
    agent: str
    error: str
    failed_at: datetime


class InProcessQueue:
    """Runs each job right after it is enqueued, retrying with backoff before giving up.

    One job runs at a time: the scheduled jobs all fall due together, and side by side
    their whole-store reads stacked up in memory and took both cores from tool calls.
    """

    def __init__(
        self,
        ctx: JobContext,
        functions: Mapping[str, JobFunction],
        max_tries: int = 3,
        retry_delay: float = 0.5,
    ) -> None:
        self._ctx = ctx
        self._functions = functions
        self._max_tries = max_tries
        self._retry_delay = retry_delay
        self._running: dict[str, asyncio.Task[None]] = {}
        self._one_at_a_time = asyncio.Semaphore(1)
        # The newest failures, as many as Redis keeps (``ego:failed``).
        self.failed: deque[FailedJob] = deque(maxlen=MAX_FAILURES_KEPT)
        self.last_success: dict[tuple[str, str], datetime] = {}  # (function, agent) -> when

    async def enqueue(self, request: JobRequest) -> bool:
        if request.function not in self._functions:
            raise ValueError(f"unknown job function {request.function!r}")
        if request.job_id in self._running:
            return False
        logger.debug("job %s queued in process", Plain(request.job_id))
        task = asyncio.create_task(self._run(request), name=request.job_id)
        self._running[request.job_id] = task
        task.add_done_callback(lambda _: self._running.pop(request.job_id, None))
        return True

    def running_ids(self) -> list[str]:
        """Jobs running or waiting to retry."""
        return list(self._running)

    async def join(self) -> None:
        """Wait until every queued job has finished (for shutdown and tests)."""
        while self._running:
            await asyncio.gather(*list(self._running.values()))

    async def close(self) -> None:
        await self.join()

    async def _run(self, request: JobRequest) -> None:
        function = self._functions[request.function]
        for attempt in range(1, self._max_tries + 1):
            JOB_RUNS.labels(request.function).inc()
            try:
                async with self._one_at_a_time:
                    started = time.perf_counter()
                    await function(self._ctx, **request.kwargs())
            except Exception as exc:
                JOB_SECONDS.labels(request.function).observe(time.perf_counter() - started)
                logger.warning(
                    "job %s failed (try %d of %d): %s",
                    Plain(request.job_id),
                    attempt,
                    self._max_tries,
                    type(exc).__name__,
                    exc_info=True,
                )
                if attempt == self._max_tries:
                    JOB_FAILURES.labels(request.function).inc()
                    self.failed.append(
                        FailedJob(
                            Plain(request.job_id),
                            request.function,
                            request.agent,
                            type(exc).__name__,
                            datetime.now(UTC),
                        )
                    )
                    return
                JOB_RETRIES.labels(request.function).inc()
                await asyncio.sleep(self._retry_delay * 2 ** (attempt - 1))
            else:
                JOB_SECONDS.labels(request.function).observe(time.perf_counter() - started)
                self.last_success[(request.function, request.agent)] = datetime.now(UTC)
                return

"""The distributed queue: jobs go to arq over Redis; while Redis is away they wait here.

A job that cannot be enqueued is kept in memory (ids only) and flushed by a background
task once Redis answers again, so a Redis outage delays work but never loses it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ego_mcp.logs import Plain
from ego_mcp.queue.base import JobRequest
from ego_mcp.queue.inprocess import InProcessQueue

logger = logging.getLogger(__name__)


async def send(pool: Any, request: JobRequest) -> Any:
    """The one way a job goes to Redis (the front end's queue and the worker's cron):
    arq's job for ``request``, or None if one of its id is queued already."""
    return await pool.enqueue_job(request.function, _job_id=request.job_id, **request.kwargs())


class ArqQueue:
    """``JobQueue`` over an arq pool (``ArqRedis``)."""

    def __init__(
        self,
        pool: Any = None,
        redis_url: str | None = None,
        retry_every: float = 1.0,
        fallback: InProcessQueue | None = None,
    ) -> None:
        self._pool = pool
        self._redis_url = redis_url
        self._fallback = fallback
        self._retry_every = retry_every
        self.waiting: dict[str, JobRequest] = {}
        self._flusher: asyncio.Task[None] | None = None

    @classmethod
    def connect(cls, redis_url: str, fallback: InProcessQueue | None = None) -> ArqQueue:
        """A queue whose pool is opened on first use, inside the server's event loop."""
        return cls(redis_url=redis_url, fallback=fallback)

    async def _ready_pool(self) -> Any:
        if self._pool is None:
            from arq.connections import RedisSettings, create_pool

            settings = RedisSettings.from_dsn(self._redis_url or "")
            settings.conn_retries = 0
            self._pool = await create_pool(settings)
        return self._pool

    async def _send(self, request: JobRequest) -> Any:
        return await send(await self._ready_pool(), request)

    async def enqueue(self, request: JobRequest) -> bool:
        from redis.exceptions import RedisError  # loaded with the queue, not with every server

        try:
            job = await self._send(request)
        except (RedisError, OSError) as exc:
            logger.warning(
                "redis unavailable (%s); job %s kept until it returns",
                exc,
                Plain(request.job_id),
            )
            self.waiting[request.job_id] = request
            self._ensure_flusher()
            return True
        logger.debug(
            "job %s %s", Plain(request.job_id), Plain("queued" if job else "queued already")
        )
        return job is not None

    async def flush(self) -> int:
        """Try once to hand every waiting job to Redis; returns how many remain."""
        from redis.exceptions import RedisError

        for job_id, request in list(self.waiting.items()):
            try:
                await self._send(request)
            except (RedisError, OSError):
                return len(self.waiting)
            del self.waiting[job_id]
            logger.info("job %s handed to redis after an outage", Plain(job_id))
        return 0

    async def close(self) -> None:
        if self._flusher is not None:
            self._flusher.cancel()
        if self.waiting:
            await self.flush()
        if self.waiting and self._fallback is not None:
            logger.warning("redis still away at shutdown: running %d jobs here", len(self.waiting))
            for request in self.waiting.values():
                await self._fallback.enqueue(request)
            await self._fallback.join()
            self.waiting.clear()
        if self._pool is not None:
            await self._pool.aclose()

    def _ensure_flusher(self) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_until_empty())

    async def _flush_until_empty(self) -> None:
        while await self.flush():
            await asyncio.sleep(self._retry_every)

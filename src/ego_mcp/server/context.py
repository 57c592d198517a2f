"""The app context every tool reads: settings, the runtime (stores, model) and the job queue.

Tool modules import this; ``server.app`` imports the tool modules. Nothing here imports
either, so the imports run one way.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import Context

from ego_mcp.ego.service import EgoService
from ego_mcp.jobs import JOB_FUNCTIONS, RUNTIME_KEY
from ego_mcp.logs import Plain
from ego_mcp.memory.service import MemoryService
from ego_mcp.migrate.importer import upstream_waiting
from ego_mcp.presence import PresenceBeacon
from ego_mcp.queue.arq_queue import ArqQueue
from ego_mcp.queue.base import JobQueue, JobRequest
from ego_mcp.queue.inprocess import InProcessQueue
from ego_mcp.queue.schedule import schedules
from ego_mcp.queue.scheduler import InProcessScheduler
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings

T = TypeVar("T")
logger = logging.getLogger(__name__)


@dataclass
class AppContext:
    """What every tool reads: settings, the runtime (stores, model) and the job queue."""

    settings: Settings
    runtime: Runtime
    queue: JobQueue
    scheduler: InProcessScheduler | None = None
    beacon: PresenceBeacon | None = None
    # Upstream ego-mcp memories wait in the data dir: wake_up says so once.
    upstream_memories: int = 0

    @property
    def agent(self) -> str:
        return self.settings.agent

    @property
    def memory(self) -> MemoryService:
        return self.runtime.memory(self.agent)

    @property
    def ego(self) -> EgoService:
        return self.runtime.ego(self.agent)

    async def blocking(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run blocking domain work (Chroma, the model, files) off the event loop."""
        return await anyio.to_thread.run_sync(partial(function, *args, **kwargs))

    async def enqueue(self, requests: Sequence[JobRequest]) -> None:
        for request in requests:
            await self.queue.enqueue(request)

    def start_background(self) -> None:
        if self.settings.embedding_provider == "local":
            threading.Thread(target=self.warm_up, name="ego-warm-up", daemon=True).start()
        if self.scheduler is not None:
            self.scheduler.start()
        if self.beacon is not None:
            self.beacon.start()

    def warm_up(self) -> None:
        """Build the local model's lazy parts (about 1.8 s), which the session's first call
        would otherwise wait for. (The guard's Japanese dictionary, 0.15 s and 50 MiB, is
        left to the first Japanese text.)"""
        try:
            self.memory.embedder.embed(["warm-up"])
        except Exception:
            logger.warning("warm-up failed; the first call will load the model", exc_info=True)

    async def drain(self) -> None:
        """Stop the schedule and let queued jobs finish (or reach Redis) before exit."""
        if self.scheduler is not None:
            await self.scheduler.stop()
        await self.queue.close()
        if self.beacon is not None:
            await anyio.to_thread.run_sync(self.beacon.stop)


def app_of(ctx: Context[AppContext, Any]) -> AppContext:
    return ctx.request_context.lifespan_context


def build_app_context(settings: Settings, runtime: Runtime) -> AppContext:
    """Jobs go to arq when Redis is configured, else run in-process on a local schedule."""
    queue = InProcessQueue({RUNTIME_KEY: runtime}, JOB_FUNCTIONS)
    if settings.redis_url is not None:
        beacon = PresenceBeacon(runtime.redis, settings.agent) if runtime.redis else None
        arq_queue = ArqQueue.connect(settings.redis_url, fallback=queue)
        return AppContext(settings, runtime, arq_queue, beacon=beacon)
    scheduler = InProcessScheduler(
        settings.agent, schedules(settings), queue, runtime.documents(settings.agent), runtime.clock
    )
    return AppContext(settings, runtime, queue, scheduler)


def open_app_context(settings: Settings) -> AppContext:
    """Open the stores and the model and check the agent's collections (blocking)."""
    runtime = Runtime.open(settings)
    try:
        runtime.memory(settings.agent)
        waiting = upstream_waiting(runtime, settings.agent)
    except BaseException:
        runtime.close()
        raise
    if waiting:
        logger.warning(
            "this data dir holds %d memories written by upstream ego-mcp; "
            "run `ego-mcp migrate` to import them into agent %s",
            waiting,
            Plain(settings.agent),
        )
    app = build_app_context(settings, runtime)
    app.upstream_memories = waiting
    return app

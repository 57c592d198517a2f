"""The arq worker: the package's job functions, their schedules, retries and bookkeeping.

``ego-mcp worker`` builds the options from settings and runs them. For the plain arq CLI,
``arq ego_mcp.queue.worker.WorkerSettings`` (or ``worker.arq_entry.WorkerSettings`` from a
checkout) reads the settings from the environment when it is first used (that is the
start of a worker process, so reading there is its purpose).
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import suppress
from typing import Any

from arq import Retry, cron
from arq.connections import RedisSettings
from arq.constants import in_progress_key_prefix
from arq.worker import Worker, func
from redis.exceptions import RedisError

from ego_mcp.errors import ConfigError
from ego_mcp.logs import Plain, ensure_logging
from ego_mcp.observe.metrics import (
    JOB_FAILURES,
    JOB_RETRIES,
    JOB_RUNS,
    JOB_SECONDS,
    install_snapshot,
)
from ego_mcp.observe.probe import probe_for
from ego_mcp.observe.serve import ops_server
from ego_mcp.queue.arq_queue import send
from ego_mcp.queue.base import JobRequest
from ego_mcp.queue.bookkeeping import record_failure, record_success
from ego_mcp.queue.jobs import JOB_FUNCTIONS, RUNTIME_KEY, JobContext, JobFunction, runtime_of
from ego_mcp.queue.schedule import Schedule, last_slot, schedules
from ego_mcp.queue.status import WORKER_SEEN_SECONDS
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings

logger = logging.getLogger(__name__)
MAX_TRIES = 5
# How often an idle worker looks for new jobs: the floor of enqueue-to-start latency.
POLL_DELAY_SECONDS = 0.05
SETTINGS_KEY = "settings"
OPS_KEY = "ops"
HEARTBEAT_TTL_MS = 30_000
HEARTBEAT_EVERY_SECONDS = 10


def backoff(job_try: int) -> float:
    """Seconds before try ``job_try + 1``: 2, 4, 8, ... capped at a minute."""
    return float(min(60, 2**job_try))


def tracked(name: str, function: JobFunction) -> Any:
    """The job as arq runs it: retried with backoff, its success or failure recorded."""

    async def run(ctx: JobContext, agent: str, **ids: str) -> Any:
        heartbeat = asyncio.create_task(keep_in_progress(ctx["redis"], str(ctx.get("job_id"))))
        JOB_RUNS.labels(name).inc()
        started = time.perf_counter()
        try:
            result = await function(ctx, agent, **ids)
        except Exception as exc:
            job_try = int(ctx.get("job_try", 1))
            if job_try < MAX_TRIES:
                JOB_RETRIES.labels(name).inc()
                logger.warning(
                    "job %s failed (try %d): %s", Plain(str(ctx.get("job_id"))), job_try, exc
                )
                raise Retry(defer=backoff(job_try)) from exc
            JOB_FAILURES.labels(name).inc()
            await record_failure(ctx["redis"], str(ctx.get("job_id")), name, agent, type(exc))
            logger.error("job %s failed for good: %s", Plain(str(ctx.get("job_id"))), exc)
            raise
        finally:
            JOB_SECONDS.labels(name).observe(time.perf_counter() - started)
            heartbeat.cancel()
        await record_success(ctx["redis"], name, agent)
        return result

    return func(run, name=name, max_tries=MAX_TRIES)


async def keep_in_progress(redis: Any, job_id: str) -> None:
    """Keep arq's in-progress mark of a running job alive for only ``HEARTBEAT_TTL_MS``.

    arq marks a started job for the longest job timeout plus ten seconds (over five
    minutes), and no other worker takes it until the mark expires. Renewed by the worker
    that runs it, a short mark outlives a killed worker by at most half a minute, and then
    another worker runs the job again (every job is idempotent).
    """
    key = in_progress_key_prefix + job_id
    while True:
        with suppress(RedisError, OSError):
            await redis.pexpire(key, HEARTBEAT_TTL_MS)
        await asyncio.sleep(HEARTBEAT_EVERY_SECONDS)


class HeartbeatWorker(Worker):
    """arq's worker, marking a job it picks up as in progress for ``HEARTBEAT_TTL_MS``
    rather than the longest job timeout plus ten seconds: a worker killed between the
    pick-up and the job's first heartbeat (``keep_in_progress``) holds its jobs for half
    a minute, not five."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_progress_timeout_s = HEARTBEAT_TTL_MS / 1000


def fan_out(schedule: Schedule) -> Any:
    """The cron entry of a schedule: one job per agent, unique per schedule slot."""

    async def run(ctx: JobContext) -> int:
        runtime = runtime_of(ctx)
        slot = last_slot(schedule, runtime.clock.now()).isoformat()
        agents = await asyncio.to_thread(runtime.agents)
        for agent in agents:
            await send(ctx["redis"], JobRequest(schedule.function, agent, slot=slot))
        return len(agents)

    run.__qualname__ = f"fan_out_{schedule.function}"
    return cron(run, name=f"cron:{schedule.function}", hour=schedule.hours, minute=0, unique=True)


async def startup(ctx: JobContext) -> None:
    settings: Settings = ctx[SETTINGS_KEY]
    # Under the plain arq CLI (`arq ego_mcp.queue.worker.WorkerSettings`), it has installed its own
    # handler by now (it prints job arguments and tracebacks): take the logs back.
    ensure_logging(settings.log_level, settings.log_file)
    runtime = await asyncio.to_thread(Runtime.open, settings)
    ctx[RUNTIME_KEY] = runtime
    install_snapshot(probe_for(runtime, runtime.agents, schedules(settings)))
    if settings.metrics_port is not None:
        ctx[OPS_KEY] = ops_server(runtime)
        ctx[OPS_KEY].start()
        logger.info("metrics and status page on port %d", settings.metrics_port)
    host = RedisSettings.from_dsn(settings.redis_url or "").host
    logger.info("worker started for redis %s", Plain(host))


async def shutdown(ctx: JobContext) -> None:
    ops = ctx.get(OPS_KEY)
    if ops is not None:
        await asyncio.to_thread(ops.stop)
    runtime = ctx.get(RUNTIME_KEY)
    if runtime is not None:
        await asyncio.to_thread(runtime.close)


def worker_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for ``arq.worker.Worker``."""
    if settings.redis_url is None:
        raise ConfigError(
            "EGO_MCP_REDIS_URL: the worker needs Redis (for example redis://localhost:6379)"
        )
    return {
        "functions": [tracked(name, function) for name, function in JOB_FUNCTIONS.items()],
        "cron_jobs": [fan_out(schedule) for schedule in schedules(settings)],
        "redis_settings": RedisSettings.from_dsn(settings.redis_url),
        "on_startup": startup,
        "on_shutdown": shutdown,
        "ctx": {SETTINGS_KEY: settings},
        "max_tries": MAX_TRIES,
        "keep_result": 3600,
        "log_results": False,
        "poll_delay": POLL_DELAY_SECONDS,
        "health_check_interval": WORKER_SEEN_SECONDS,  # `ego-mcp queue` sees workers by it
    }


def _settings_class() -> type:
    from ego_mcp.logs import setup_logging
    from ego_mcp.settings import load_settings

    settings = load_settings()
    setup_logging(settings.log_level, settings.log_file)
    return type("WorkerSettings", (), worker_options(settings))


def __getattr__(name: str) -> Any:
    # Built on first access, so importing this module has no side effects.
    if name == "WorkerSettings":
        return _settings_class()
    raise AttributeError(name)

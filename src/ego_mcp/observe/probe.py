"""Reads the scrape-time facts (queue, last successes, memories, whether the stores
answer) from Redis, the in-process queue and Chroma. A store that does not answer is
reported as down, never raised: a scrape always gets an answer."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ego_mcp.observe.metrics import Snapshot
from ego_mcp.queue.inprocess import InProcessQueue
from ego_mcp.queue.jobs import JOB_FUNCTIONS
from ego_mcp.queue.schedule import Schedule
from ego_mcp.queue.status import read_status

if TYPE_CHECKING:
    from ego_mcp.runtime import Runtime

logger = logging.getLogger(__name__)
OTHER = "other"


def job_kind(job_id: str) -> str:
    """The job kind in an arq job id (``function:agent:...`` or ``cron:function:...``);
    an id of no known kind is ``other``, so labels stay few."""
    head, _, rest = job_id.partition(":")
    if head == "cron":
        function = rest.partition(":")[0]
        return f"cron:{function}" if function in JOB_FUNCTIONS else OTHER
    return head if head in JOB_FUNCTIONS else OTHER


def kinds(job_ids: Iterable[str]) -> dict[str, int]:
    """Jobs per kind, every job function listed (0 when none), so series never vanish."""
    counted = Counter(job_kind(job_id) for job_id in job_ids)
    return {**dict.fromkeys(JOB_FUNCTIONS, 0), **counted}


def from_redis(snapshot: Snapshot, redis: Any) -> None:
    """Queue depth, jobs in progress and last successes, as every process sees them."""
    try:
        status = read_status(redis, failed_limit=1)
    except Exception:
        snapshot.redis_up = False
        return
    snapshot.redis_up = True
    snapshot.queued = kinds(job["job_id"] for job in status["queued"])
    snapshot.in_progress = kinds(status["in_progress"])
    snapshot.last_success = {
        (function, agent): datetime.fromisoformat(moment).timestamp()
        for agent, functions in status["last_success"].items()
        for function, moment in functions.items()
    }


def from_queue(snapshot: Snapshot, queue: InProcessQueue) -> None:
    """The in-process queue: every job it holds is running (or waiting to retry)."""
    snapshot.in_progress = kinds(queue.running_ids())
    snapshot.last_success = {key: moment.timestamp() for key, moment in queue.last_success.items()}


def from_store(snapshot: Snapshot, runtime: Runtime, agents: Sequence[str]) -> None:
    try:
        runtime.chroma.client.heartbeat()
        snapshot.memories = {agent: runtime.memory(agent).store.count() for agent in agents}
    except Exception:
        snapshot.chroma_up = False


def probe_for(
    runtime: Runtime,
    agents: Callable[[], Sequence[str]],
    schedules: Sequence[Schedule],
    queue: InProcessQueue | None = None,
) -> Callable[[], Snapshot]:
    """How a process reads its snapshot: from Redis when the runtime has it, else from its
    in-process queue."""

    def probe() -> Snapshot:
        snapshot = Snapshot(
            schedule_seconds={s.function: s.every_hours * 3600.0 for s in schedules}
        )
        if runtime.redis is not None:
            from_redis(snapshot, runtime.redis)
        elif queue is not None:
            from_queue(snapshot, queue)
        from_store(snapshot, runtime, agents())
        return snapshot

    return probe


def readiness(runtime: Runtime) -> dict[str, str]:
    """Whether the store and the queue answer: ``ok``, or the setting to look at."""
    settings = runtime.settings
    parts = {"store": "ok", "queue": "ok"}
    try:
        runtime.chroma.client.heartbeat()
    except Exception:
        parts["store"] = (
            "EGO_MCP_CHROMA_URL: the Chroma server does not answer"
            if settings.chroma_url
            else "EGO_MCP_DATA_DIR: the embedded ChromaDB does not answer"
        )
    if runtime.redis is not None:
        try:
            runtime.redis.ping()
        except Exception:
            parts["queue"] = "EGO_MCP_REDIS_URL: Redis does not answer"
    return parts

"""What ``ego-mcp queue`` shows: queued, in-progress and failed jobs, last successes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ego_mcp.queue.bookkeeping import FAILED_KEY, LAST_SUCCESS_KEY

QUEUE_KEY = "arq:queue"
IN_PROGRESS_PREFIX = "arq:in-progress:"
# arq's worker sets this key every ``WORKER_SEEN_SECONDS`` (``health_check_interval``),
# with a life one second longer: present means a worker polled the queue lately.
WORKER_KEY = QUEUE_KEY + ":health-check"
WORKER_SEEN_SECONDS = 30


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def read_status(redis: Any, failed_limit: int = 20) -> dict[str, Any]:
    """The queue's state from a synchronous Redis client, as JSON-ready data."""
    queued = [
        {"job_id": _text(job_id), "run_at": datetime.fromtimestamp(score / 1000, UTC).isoformat()}
        for job_id, score in redis.zrange(QUEUE_KEY, 0, -1, withscores=True)
    ]
    in_progress = sorted(
        _text(key)[len(IN_PROGRESS_PREFIX) :] for key in redis.scan_iter(f"{IN_PROGRESS_PREFIX}*")
    )
    failed = [json.loads(_text(raw)) for raw in redis.lrange(FAILED_KEY, 0, failed_limit - 1)]
    last_success: dict[str, dict[str, str]] = {}
    for field, moment in redis.hgetall(LAST_SUCCESS_KEY).items():
        function, _, agent = _text(field).partition(":")
        last_success.setdefault(agent, {})[function] = _text(moment)
    return {
        "worker_seen": bool(redis.exists(WORKER_KEY)),
        "queued": queued,
        "in_progress": in_progress,
        "failed": failed,
        "last_success": last_success,
    }


def worker_line(status: dict[str, Any]) -> str:
    if status.get("worker_seen"):
        return f"workers: seen in the last {WORKER_SEEN_SECONDS} s"
    return (
        f"workers: none seen in the last {WORKER_SEEN_SECONDS} s: queued jobs wait until "
        "one runs (ego-mcp worker)"
    )


def render_status(status: dict[str, Any]) -> str:
    lines = [worker_line(status), f"queued: {len(status['queued'])}"]
    lines += [f"  {job['job_id']}  (run at {job['run_at']})" for job in status["queued"]]
    lines.append(f"in progress: {len(status['in_progress'])}")
    lines += [f"  {job_id}" for job_id in status["in_progress"]]
    lines.append(f"recent failures: {len(status['failed'])}")
    lines += [f"  {f['failed_at']}  {f['job_id']}  {f['error']}" for f in status["failed"]]
    lines.append("last success:")
    for agent, functions in sorted(status["last_success"].items()):
        for function, moment in sorted(functions.items()):
            lines.append(f"  {agent:<16} {function:<28} {moment}")
    return "\n".join(lines)

"""What the queue remembers in Redis besides arq's own keys: agents, successes, failures.

Records hold job ids, function names, agent names, times and exception type names:
never arguments beyond ids, never messages that could quote content.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

AGENTS_KEY = "ego:agents"
LAST_SUCCESS_KEY = "ego:last-success"
FAILED_KEY = "ego:failed"
PENDING_KEY = "ego:pending"
MAX_FAILURES_KEPT = 200


def failure_record(job_id: str, function: str, agent: str, error: type[BaseException]) -> str:
    return json.dumps(
        {
            "job_id": job_id,
            "function": function,
            "agent": agent,
            "error": error.__name__,
            "failed_at": datetime.now(UTC).isoformat(),
        }
    )


async def register_agent(redis: Any, agent: str) -> None:
    await redis.sadd(AGENTS_KEY, agent)


async def known_agents(redis: Any) -> list[str]:
    return sorted(
        a.decode() if isinstance(a, bytes) else a for a in await redis.smembers(AGENTS_KEY)
    )


async def record_success(redis: Any, function: str, agent: str) -> None:
    await redis.hset(LAST_SUCCESS_KEY, f"{function}:{agent}", datetime.now(UTC).isoformat())


async def record_failure(
    redis: Any, job_id: str, function: str, agent: str, error: type[BaseException]
) -> None:
    await redis.lpush(FAILED_KEY, failure_record(job_id, function, agent, error))
    await redis.ltrim(FAILED_KEY, 0, MAX_FAILURES_KEPT - 1)

"""Queue logic on fakeredis: uniqueness, payloads of ids only, the outage buffer."""

from __future__ import annotations

import pickle
from typing import Any

import fakeredis
import pytest
from arq.connections import ArqRedis
from redis.exceptions import ConnectionError as RedisConnectionError

from ego_mcp.queue.arq_queue import ArqQueue
from ego_mcp.queue.base import JobRequest
from ego_mcp.queue.inprocess import InProcessQueue
from ego_mcp.queue.jobs import JOB_FUNCTIONS

pytestmark = pytest.mark.anyio

SECRET = "my private diary line about the broken vase"


@pytest.fixture
def fake() -> fakeredis.FakeAsyncRedis:
    return fakeredis.FakeAsyncRedis()


@pytest.fixture
def queue(fake: fakeredis.FakeAsyncRedis) -> ArqQueue:
    return ArqQueue(ArqRedis(connection_pool=fake.connection_pool))


async def test_a_job_is_queued_once_per_kind_agent_and_id(queue: ArqQueue) -> None:
    request = JobRequest("cleanup_workspace", "nova", {"memory_id": "mem_0123456789ab"})
    assert request.job_id == "cleanup_workspace:nova:mem_0123456789ab"
    assert await queue.enqueue(request) is True
    assert await queue.enqueue(request) is False
    other_agent = JobRequest("cleanup_workspace", "luna", {"memory_id": "mem_0123456789ab"})
    assert await queue.enqueue(other_agent) is True


async def test_scheduled_jobs_are_unique_per_slot(queue: ArqQueue) -> None:
    first = JobRequest("consolidate", "nova", slot="2026-02-21T06:00:00+00:00")
    again = JobRequest("consolidate", "nova", slot="2026-02-21T06:00:00+00:00")
    later = JobRequest("consolidate", "nova", slot="2026-02-21T12:00:00+00:00")
    assert [await queue.enqueue(r) for r in (first, again, later)] == [True, False, True]


async def test_payloads_hold_only_ids(queue: ArqQueue, fake: fakeredis.FakeAsyncRedis) -> None:
    await queue.enqueue(JobRequest("cleanup_workspace", "nova", {"memory_id": "mem_0123456789ab"}))
    payload: dict[str, Any] = pickle.loads(
        await fake.get("arq:job:cleanup_workspace:nova:mem_0123456789ab")
    )
    assert payload["f"] == "cleanup_workspace"
    assert payload["a"] == () and payload["k"] == {"agent": "nova", "memory_id": "mem_0123456789ab"}
    for key in await fake.keys("*"):
        assert SECRET.encode() not in (await fake.dump(key) or b"")


class DownPool:
    """An arq pool whose Redis is unreachable until ``up`` is set."""

    def __init__(self, real: ArqRedis) -> None:
        self.real = real
        self.up = False

    async def enqueue_job(self, function: str, **kwargs: Any) -> Any:
        if not self.up:
            raise RedisConnectionError("Connection refused")
        return await self.real.enqueue_job(function, **kwargs)

    async def aclose(self) -> None:
        await self.real.aclose()


async def test_jobs_wait_while_redis_is_down_then_reach_it(fake: fakeredis.FakeAsyncRedis) -> None:
    pool = DownPool(ArqRedis(connection_pool=fake.connection_pool))
    queue = ArqQueue(pool, retry_every=0.01)
    request = JobRequest("cleanup_workspace", "nova", {"memory_id": "mem_0123456789ab"})

    assert await queue.enqueue(request) is True  # accepted, not lost
    assert list(queue.waiting) == [request.job_id]
    assert await queue.flush() == 1  # still down

    pool.up = True
    assert await queue.flush() == 0
    assert queue.waiting == {}
    assert await fake.exists(f"arq:job:{request.job_id}")


async def test_jobs_still_waiting_at_shutdown_run_in_process(
    fake: fakeredis.FakeAsyncRedis,
) -> None:
    ran: list[tuple[str, str]] = []

    async def cleanup_workspace(ctx: dict[str, Any], agent: str, memory_id: str) -> int:
        ran.append((agent, memory_id))
        return 1

    fallback = InProcessQueue({}, {"cleanup_workspace": cleanup_workspace})
    queue = ArqQueue(DownPool(ArqRedis(connection_pool=fake.connection_pool)), fallback=fallback)
    await queue.enqueue(JobRequest("cleanup_workspace", "nova", {"memory_id": "mem_0123456789ab"}))
    await queue.close()
    assert ran == [("nova", "mem_0123456789ab")]
    assert "cleanup_workspace" in JOB_FUNCTIONS

"""The embedded queue: jobs run one at a time, a failing job is retried then recorded."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ego_mcp.queue.base import JobRequest
from ego_mcp.queue.bookkeeping import MAX_FAILURES_KEPT
from ego_mcp.queue.inprocess import InProcessQueue

pytestmark = pytest.mark.anyio


async def test_jobs_enqueued_together_run_one_at_a_time() -> None:
    running = 0
    most_at_once = 0
    finished: list[str] = []

    async def consolidate(ctx: dict[str, Any], agent: str) -> None:
        nonlocal running, most_at_once
        running += 1
        most_at_once = max(most_at_once, running)
        await asyncio.sleep(0.01)  # yields, so a second job could start if allowed
        running -= 1
        finished.append(agent)

    queue = InProcessQueue({}, {"consolidate": consolidate})
    for agent in ("nova", "luna", "sol"):
        assert await queue.enqueue(JobRequest("consolidate", agent)) is True
    await queue.join()
    assert sorted(finished) == ["luna", "nova", "sol"]
    assert most_at_once == 1


async def test_a_job_waiting_to_retry_does_not_hold_up_the_others() -> None:
    ran: list[str] = []

    async def repair_links(ctx: dict[str, Any], agent: str) -> None:
        ran.append(agent)
        if agent == "nova":
            raise RuntimeError("store away")

    queue = InProcessQueue({}, {"repair_links": repair_links}, max_tries=2, retry_delay=0.05)
    await queue.enqueue(JobRequest("repair_links", "nova"))
    await queue.enqueue(JobRequest("repair_links", "luna"))
    await queue.join()
    assert ran == ["nova", "luna", "nova"]  # luna ran while nova waited for its second try
    assert [failed.function for failed in queue.failed] == ["repair_links"]
    assert ("repair_links", "luna") in queue.last_success


async def test_the_failures_kept_are_the_newest_as_many_as_redis_keeps(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def cleanup_workspace(ctx: dict[str, Any], agent: str, memory_id: str) -> None:
        raise RuntimeError("disk full")

    queue = InProcessQueue({}, {"cleanup_workspace": cleanup_workspace}, max_tries=1)
    for number in range(MAX_FAILURES_KEPT + 50):
        ids = {"memory_id": f"mem_{number:012x}"}
        await queue.enqueue(JobRequest.for_event("cleanup_workspace", "nova", ids))
        await queue.join()
    assert len(queue.failed) == MAX_FAILURES_KEPT
    assert queue.failed[-1].job_id.startswith(f"cleanup_workspace:nova:mem_{249:012x}:")


def test_each_removal_of_one_memory_is_a_job_of_its_own() -> None:
    ids = {"memory_id": "mem_0123456789ab"}
    first = JobRequest.for_event("cleanup_workspace", "nova", ids)
    second = JobRequest.for_event("cleanup_workspace", "nova", ids)
    assert first.job_id != second.job_id
    assert first.kwargs() == second.kwargs() == {"agent": "nova", **ids}

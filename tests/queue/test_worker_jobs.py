"""The arq wrapper: retries with backoff, then a failure record; successes are recorded."""

from __future__ import annotations

import json
from typing import Any

import fakeredis
import pytest
from arq import Retry

from ego_mcp.queue.bookkeeping import FAILED_KEY, LAST_SUCCESS_KEY
from ego_mcp.queue.status import read_status, render_status
from ego_mcp.queue.worker import MAX_TRIES, backoff, tracked, worker_options
from ego_mcp.settings import Settings

pytestmark = pytest.mark.anyio


async def flaky(ctx: dict[str, Any], agent: str, memory_id: str) -> int:
    raise OSError("disk went away")


async def fine(ctx: dict[str, Any], agent: str, memory_id: str) -> int:
    return 3


def context(fake: fakeredis.FakeAsyncRedis, job_try: int) -> dict[str, Any]:
    return {"redis": fake, "job_try": job_try, "job_id": "cleanup_workspace:nova:mem_0123456789ab"}


async def test_failures_are_retried_then_recorded_without_content() -> None:
    fake = fakeredis.FakeAsyncRedis()
    job = tracked("cleanup_workspace", flaky)
    with pytest.raises(Retry) as retry:
        await job.coroutine(context(fake, 1), "nova", memory_id="mem_0123456789ab")
    assert retry.value.defer_score == 2000  # milliseconds
    assert await fake.llen(FAILED_KEY) == 0

    with pytest.raises(OSError, match="disk went away"):
        await job.coroutine(context(fake, MAX_TRIES), "nova", memory_id="mem_0123456789ab")
    record = json.loads(await fake.lindex(FAILED_KEY, 0))
    assert record["job_id"] == "cleanup_workspace:nova:mem_0123456789ab"
    assert record["error"] == "OSError" and "disk" not in json.dumps(record)


async def test_success_is_recorded_per_kind_and_agent() -> None:
    fake = fakeredis.FakeAsyncRedis()
    assert (
        await tracked("cleanup_workspace", fine).coroutine(context(fake, 1), "nova", memory_id="m")
        == 3
    )
    assert await fake.hexists(LAST_SUCCESS_KEY, "cleanup_workspace:nova")


def test_backoff_doubles_and_caps() -> None:
    assert [backoff(n) for n in (1, 2, 3, 6, 10)] == [2.0, 4.0, 8.0, 60.0, 60.0]


def test_the_worker_tells_it_is_there_as_often_as_the_status_looks(settings: Settings) -> None:
    options = worker_options(
        Settings(**{**settings.model_dump(), "redis_url": "redis://127.0.0.1:1/0"})
    )
    assert options["health_check_interval"] == 30


def test_worker_options_follow_the_settings(settings: Settings) -> None:
    distributed = Settings(
        **{
            **settings.model_dump(),
            "redis_url": "redis://127.0.0.1:6390/2",
            "consolidate_every_hours": 8,
            "merge_scan_hour_utc": 4,
        }
    )
    options = worker_options(distributed)
    assert {f.name for f in options["functions"]} == {
        "cleanup_workspace",
        "consolidate",
        "scan_merge_candidates",
        "cleanup_episode_references",
        "reembed",
        "repair_links",
        "link_memory",
        "unlink_memory",
        "repair_after_outage",
        "purge_deletion_log",
        "note_recalls",
    }
    crons = {c.name: c for c in options["cron_jobs"]}
    assert crons["cron:consolidate"].hour == {0, 8, 16}
    assert crons["cron:scan_merge_candidates"].hour == {4}
    assert crons["cron:repair_links"].hour == {4}
    assert crons["cron:purge_deletion_log"].hour == {4}
    assert all(c.unique for c in crons.values())
    assert options["redis_settings"].port == 6390 and options["redis_settings"].database == 2


def test_status_reads_and_renders() -> None:
    fake = fakeredis.FakeRedis()
    fake.zadd("arq:queue", {"consolidate:nova:2026-02-21T06:00:00+00:00": 1_771_653_600_000})
    fake.set("arq:in-progress:cleanup_workspace:nova:mem_0123456789ab", b"1")
    fake.lpush(
        FAILED_KEY,
        json.dumps(
            {
                "job_id": "x",
                "function": "consolidate",
                "agent": "nova",
                "error": "OSError",
                "failed_at": "2026-02-21T06:00:00+00:00",
            }
        ),
    )
    fake.hset(LAST_SUCCESS_KEY, "consolidate:nova", "2026-02-21T00:00:05+00:00")
    status = read_status(fake)
    assert status["queued"][0]["job_id"].startswith("consolidate:nova:")
    assert status["in_progress"] == ["cleanup_workspace:nova:mem_0123456789ab"]
    assert status["failed"][0]["error"] == "OSError"
    assert status["last_success"] == {"nova": {"consolidate": "2026-02-21T00:00:05+00:00"}}
    text = render_status(status)
    assert "queued: 1" in text and "recent failures: 1" in text and "consolidate" in text
    assert text.startswith("workers: none seen in the last 30 s: queued jobs wait")
    fake.set("arq:queue:health-check", b"Feb-21 06:00:00 j_complete=1")  # as a worker sets it
    assert render_status(read_status(fake)).startswith("workers: seen in the last 30 s")

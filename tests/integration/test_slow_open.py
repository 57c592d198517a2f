"""A job whose first open of the agent takes longer than the in-progress mark (30 s) runs
once with two real workers: the open runs off the worker's event loop, so its heartbeat
keeps the mark alive and the other worker never takes the job."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest
from arq import create_pool
from arq.connections import RedisSettings

from ego_mcp.queue.arq_queue import send
from ego_mcp.queue.base import JobRequest
from ego_mcp.queue.bookkeeping import LAST_SUCCESS_KEY
from ego_mcp.queue.worker import HEARTBEAT_TTL_MS
from tests.integration.conftest import ChromaServer, RedisServer, service_env

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.e2e]
SLOW_SECONDS = HEARTBEAT_TTL_MS / 1000 + 5
# Loaded by each worker at start (PYTHONPATH): the first open of an agent takes
# SLOW_SECONDS, as a backfill or a word-index reconcile of a large store can.
SLOW_OPEN = """
import os
import time

from ego_mcp import runtime as _runtime

_open = _runtime.Runtime.memory
_opened = set()


def memory(self, agent):
    if agent not in _opened:
        _opened.add(agent)
        with open(os.environ["SLOW_OPEN_LOG"], "a") as log:
            log.write(f"{os.getpid()} {agent}\\n")
        time.sleep(float(os.environ["SLOW_OPEN_SECONDS"]))
    return _open(self, agent)


_runtime.Runtime.memory = memory
"""


async def test_a_slow_first_open_runs_the_job_once_with_two_workers(
    tmp_path: Path, redis_server: RedisServer, chroma_server: ChromaServer
) -> None:
    patch = tmp_path / "patch"
    patch.mkdir()
    (patch / "sitecustomize.py").write_text(SLOW_OPEN)
    opened = tmp_path / "opened.log"
    env = service_env(
        tmp_path,
        redis_server.url,
        chroma_server.url,
        PYTHONPATH=str(patch),
        SLOW_OPEN_LOG=str(opened),
        SLOW_OPEN_SECONDS=str(SLOW_SECONDS),
    )
    logs = [(tmp_path / f"worker-{n}.log").open("wb") for n in range(2)]
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "ego_mcp", "worker"], env=env, stdout=log, stderr=log
        )
        for log in logs
    ]
    pool = await create_pool(RedisSettings.from_dsn(redis_server.url))
    try:
        await send(pool, JobRequest("repair_links", "nova"))
        deadline = time.monotonic() + SLOW_SECONDS + 90
        while not await pool.hexists(LAST_SUCCESS_KEY, "repair_links:nova"):
            assert all(w.poll() is None for w in workers), "a worker exited"
            assert time.monotonic() < deadline, "the job did not run"
            await asyncio.sleep(0.5)
        await asyncio.sleep(3)  # time for a second pick-up, were the mark lost
    finally:
        await pool.aclose()
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=30)
        for log in logs:
            log.close()
    assert opened.read_text().splitlines() == [opened.read_text().split()[0] + " nova"]

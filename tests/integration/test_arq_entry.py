"""The documented arq invocations run jobs: the installed ``ego_mcp.queue.worker`` from
anywhere, and the checkout's ``worker.arq_entry`` from the repository's root."""

from __future__ import annotations

import asyncio
import shutil
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
from tests.integration.conftest import ChromaServer, RedisServer, service_env

pytestmark = [pytest.mark.anyio, pytest.mark.redis, pytest.mark.e2e]
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("target", "folder"),
    [("ego_mcp.queue.worker.WorkerSettings", None), ("worker.arq_entry.WorkerSettings", ROOT)],
    ids=["installed", "checkout"],
)
async def test_the_arq_cli_runs_a_job(
    tmp_path: Path,
    redis_server: RedisServer,
    chroma_server: ChromaServer,
    target: str,
    folder: Path | None,
) -> None:
    env = service_env(tmp_path, redis_server.url, chroma_server.url)
    arq = shutil.which("arq") or str(Path(sys.executable).parent / "arq")
    log = (tmp_path / "worker.log").open("wb")
    worker = subprocess.Popen(
        [arq, target], env=env, cwd=folder or tmp_path, stdout=log, stderr=log
    )
    pool = await create_pool(RedisSettings.from_dsn(redis_server.url))
    try:
        await send(pool, JobRequest("repair_links", "nova"))
        deadline = time.monotonic() + 120
        while not await pool.hexists(LAST_SUCCESS_KEY, "repair_links:nova"):
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            assert time.monotonic() < deadline, "the job did not run"
            await asyncio.sleep(0.2)
    finally:
        await pool.aclose()
        worker.terminate()
        worker.wait(timeout=30)
        log.close()

"""Monitoring with real parts: a Prometheus server scrapes an HTTP front end and a worker
(on a real redis-server and Chroma server); promtool checks the exposition; headless
Chromium renders the worker's status page; readiness follows Redis going away."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from arq.connections import RedisSettings, create_pool
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from ego_mcp.queue.bookkeeping import record_failure
from tests.helpers import free_port, memory_id_in, text_of
from tests.integration.conftest import RedisServer, service_env, start_worker
from tests.integration.test_distributed import wait_for

pytestmark = [pytest.mark.anyio, pytest.mark.redis]
TOKEN = "monitoring-token-zq77"
SHOTS = Path(__file__).resolve().parent.parent / "screenshots"


def wait_http(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.TransportError:
            assert time.monotonic() < deadline, f"{url} did not answer"
            time.sleep(0.2)


def start_prometheus(tmp_path: Path, targets: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
        "scrape_configs:\n  - job_name: ego-mcp\n    static_configs:\n"
        f"      - targets: {json.dumps(targets)}\n"
    )
    with (tmp_path / "prometheus.log").open("wb") as log:
        process = subprocess.Popen(
            [
                "prometheus",
                f"--config.file={config}",
                f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{port}",
            ],
            stdout=log,
            stderr=log,
        )
    url = f"http://127.0.0.1:{port}"
    wait_http(f"{url}/-/ready")
    return process, url


def query(prometheus: str, expression: str) -> list[dict[str, Any]]:
    answer = httpx.get(f"{prometheus}/api/v1/query", params={"query": expression}).json()
    assert answer["status"] == "success", answer
    return list(answer["data"]["result"])


def values(prometheus: str, expression: str) -> dict[str, float]:
    """Series of ``expression`` by their labels (name, job, instance dropped), as numbers."""
    found = {}
    for series in query(prometheus, expression):
        dropped = ("__name__", "job", "instance")
        labels = {k: v for k, v in series["metric"].items() if k not in dropped}
        found[json.dumps(labels, sort_keys=True)] = float(series["value"][1])
    return found


def promtool_accepts(exposition: str) -> None:
    checked = subprocess.run(
        ["promtool", "check", "metrics"],
        input=exposition,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.fixture
def stack(tmp_path: Path, redis_server: RedisServer, chroma_url: str) -> Iterator[dict[str, str]]:
    """A worker with a metrics port and an HTTP front end, on Redis and a Chroma server."""
    metrics_port, http_port = free_port(), free_port()
    env = service_env(tmp_path, redis_server.url, chroma_url)
    worker = start_worker(
        {**env, "EGO_MCP_METRICS_PORT": str(metrics_port)}, tmp_path / "worker.log"
    )
    front_env = {
        **env,
        "EGO_MCP_TRANSPORT": "http",
        "EGO_MCP_HTTP_PORT": str(http_port),
        "EGO_MCP_HTTP_TOKEN": TOKEN,
    }
    with (tmp_path / "front.log").open("wb") as log:
        front = subprocess.Popen(
            [sys.executable, "-m", "ego_mcp", "serve"], env=front_env, stderr=log
        )
    try:
        worker_url, front_url = f"http://127.0.0.1:{metrics_port}", f"http://127.0.0.1:{http_port}"
        wait_http(f"{worker_url}/healthz")
        wait_http(f"{front_url}/healthz")
        yield {"worker": worker_url, "front": front_url, "redis": redis_server.url}
    finally:
        for process in (front, worker):
            process.terminate()
            process.wait(timeout=30)


@pytest.mark.skipif(
    shutil.which("prometheus") is None or shutil.which("promtool") is None,
    reason="Prometheus is not installed (apt-get install -y prometheus; .ci/run does)",
)
async def test_prometheus_scrapes_the_queue_jobs_and_tools(
    tmp_path: Path, stack: dict[str, str]
) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(f"{stack['front']}/mcp", http_client=http)) as client,
    ):
        saved = []
        for i in range(3):
            text = f"Counted {i + 3} herons on the river bank this morning."
            saved.append(
                memory_id_in(
                    text_of(await client.call_tool("remember", {"content": text, "force": True}))
                )
            )
        await client.call_tool("recall", {"context": "herons"})
        await client.call_tool("forget", {"memory_id": saved[0]})  # a cleanup_workspace job
        refused = await client.call_tool("forget", {"memory_id": "mem_000000000000"})
        assert refused.is_error
    pool = await create_pool(RedisSettings.from_dsn(stack["redis"]))
    await pool.enqueue_job("cron:consolidate", _job_id="monitoring-consolidate")
    await pool.aclose()

    prometheus, url = start_prometheus(
        tmp_path, [stack["front"].removeprefix("http://"), stack["worker"].removeprefix("http://")]
    )
    try:

        def scraped() -> bool:
            jobs = values(url, 'ego_mcp_job_runs_total{function="consolidate"}')
            tools = values(url, "ego_mcp_tool_calls_total")
            return bool(jobs) and len(tools) >= 4

        await wait_for(scraped, seconds=90)
        tools = values(url, "ego_mcp_tool_calls_total")
        assert tools['{"agent": "default", "outcome": "ok", "tool": "remember"}'] == 3
        assert tools['{"agent": "default", "outcome": "error", "tool": "forget"}'] == 1
        latency = values(url, "ego_mcp_tool_duration_seconds_count")
        assert latency['{"agent": "default", "tool": "recall"}'] == 1
        assert values(url, 'sum(ego_mcp_job_runs_total{function="cleanup_workspace"})') == {
            "{}": 1.0
        }
        durations = values(url, 'ego_mcp_job_duration_seconds_count{function="consolidate"}')
        assert list(durations.values()) == [1.0]
        depth = values(url, "max by (function) (ego_mcp_queue_depth)")
        assert depth['{"function": "consolidate"}'] == 0  # every kind listed, none waiting
        last = values(url, "ego_mcp_job_last_success_timestamp_seconds")
        moment = last['{"agent": "default", "function": "consolidate"}']
        assert time.time() - 300 < moment <= time.time()
        assert set(values(url, "ego_mcp_memories").values()) == {2.0}  # from both processes
        assert set(values(url, "ego_mcp_redis_up").values()) == {1.0}
        assert set(values(url, "ego_mcp_chroma_up").values()) == {1.0}
        schedule = values(url, "max by (function) (ego_mcp_job_schedule_interval_seconds)")
        assert schedule['{"function": "consolidate"}'] == 6 * 3600
    finally:
        prometheus.terminate()
        prometheus.wait(timeout=30)

    for target in (stack["front"], stack["worker"]):
        exposition = httpx.get(f"{target}/metrics").text
        promtool_accepts(exposition)
        assert TOKEN not in exposition and "herons" not in exposition
        assert httpx.get(f"{target}/healthz").json() == {"status": "alive"}
        assert httpx.get(f"{target}/readyz").json() == {"ready": True, "store": "ok", "queue": "ok"}


@pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="Chromium is not installed (apt-get install -y chromium; .ci/run does)",
)
async def test_the_status_page_shows_queued_and_failed_jobs_in_chromium(
    tmp_path: Path, stack: dict[str, str], redis_server: RedisServer
) -> None:
    pool = await create_pool(RedisSettings.from_dsn(stack["redis"]))
    await pool.enqueue_job(
        "consolidate", agent="nova", _job_id="consolidate:nova:later", _defer_by=3600
    )
    await record_failure(pool, "reembed:orion", "reembed", "orion", TimeoutError)
    await pool.aclose()

    dom = chromium(["--dump-dom", stack["worker"] + "/"], tmp_path).stdout
    SHOTS.mkdir(exist_ok=True)
    shot = SHOTS / "status-page.png"
    chromium([f"--screenshot={shot}", "--window-size=412,915", stack["worker"] + "/"], tmp_path)

    assert "consolidate:nova:later" in dom
    assert "reembed:orion" in dom and "TimeoutError" in dom
    assert '<meta http-equiv="refresh" content="5">' in dom and "<script" not in dom
    assert shot.stat().st_size > 5_000

    redis_server.stop()  # the queue goes away: readiness says so, liveness does not change
    ready = httpx.get(stack["worker"] + "/readyz")
    assert ready.status_code == 503
    assert ready.json()["queue"] == "EGO_MCP_REDIS_URL: Redis does not answer"
    assert httpx.get(stack["worker"] + "/healthz").status_code == 200
    assert httpx.get(stack["worker"] + "/").status_code == 503
    redis_server.start()


def chromium(arguments: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'chromium'}",
            *arguments,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done

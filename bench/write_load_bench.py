"""Does the HTTP front end's memory grow with the writes it serves?

One HTTP front end for three agents (an agents file), a real redis-server, a real Chroma
server (``chroma run``) and two workers, as a multi-agent deployment runs them. Clients
(two per agent, one MCP session each, through the SDK's streamable HTTP client) call
``remember`` back to back, with a ``forget`` every 7th and the other tools of a session
in between (``MIX``: recall, search_memories, wake_up, emotion_trend, introspect,
consolidate).
The front end's resident memory is read from /proc every 250 writes. Prints the RSS
after warm-up and at the end, and the growth per 1,000 writes after warm-up; and what the
load cost the front end: calls served per second and its CPU per call (utime + stime from
/proc over the whole load, every tool call counted); and each tool's p50 / p95 as its
clients waited for it. Writes JSON.

    python bench/write_load_bench.py --writes 4000
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import sentences, write_results

AGENTS = ("nova", "orion", "vega")
SAMPLE_EVERY = 250
# Besides remember and forget, what a session calls, and how often (every n-th write).
MIX: list[tuple[int, str, dict[str, Any]]] = [
    (4, "recall", {"context": "", "n_results": 5}),
    (15, "search_memories", {"query": "the river"}),
    (10, "wake_up", {}),
    (25, "emotion_trend", {}),
    (20, "introspect", {}),
    (40, "consolidate", {}),
]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_http(url: str, process: subprocess.Popen[bytes], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not come up") from None
            time.sleep(0.2)


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as sink:
        return subprocess.Popen(command, env=env, stdout=sink, stderr=sink)


class Deployment:
    """redis-server, chroma run, two workers and the HTTP front end, in a scratch dir."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.processes: list[subprocess.Popen[bytes]] = []
        self.port = free_port()
        redis_port, chroma_port = free_port(), free_port()
        self.env = {
            **os.environ,
            "EGO_MCP_DATA_DIR": str(root / "data"),
            "EGO_MCP_WORKSPACE_DIR": str(root / "workspace" / "{agent}"),
            "EGO_MCP_REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
            "EGO_MCP_CHROMA_URL": f"http://127.0.0.1:{chroma_port}",
            "EGO_MCP_AGENTS_FILE": str(root / "agents.json"),
        }
        self.redis = [
            "redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
            "--dir", str(root), "--save", "",
        ]  # fmt: skip
        chroma = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")
        self.chroma = [
            chroma, "run", "--path", str(root / "chroma"), "--host", "127.0.0.1",
            "--port", str(chroma_port),
        ]  # fmt: skip
        self.tokens: dict[str, str] = {}
        self.front: subprocess.Popen[bytes] | None = None

    def up(self) -> None:
        self.processes.append(start(self.redis, self.env, self.root / "redis.log"))
        chroma = start(self.chroma, self.env, self.root / "chroma.log")
        self.processes.append(chroma)
        wait_http(f"{self.env['EGO_MCP_CHROMA_URL']}/api/v2/heartbeat", chroma)
        ego = [sys.executable, "-m", "ego_mcp"]
        for agent in AGENTS:
            added = subprocess.run(
                [*ego, "agents", "add", agent],
                env=self.env,
                capture_output=True,
                text=True,
                check=True,
            )
            self.tokens[agent] = added.stdout.strip()
        for number in range(2):
            worker = start([*ego, "worker"], self.env, self.root / f"worker{number}.log")
            self.processes.append(worker)
        front_env = {**self.env, "EGO_MCP_TRANSPORT": "http", "EGO_MCP_HTTP_PORT": str(self.port)}
        self.front = start([*ego, "serve"], front_env, self.root / "front.log")
        self.processes.append(self.front)
        wait_http(f"http://127.0.0.1:{self.port}/healthz", self.front)

    def down(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


async def client_loop(
    deployment: Deployment,
    agent: str,
    texts: list[str],
    counter: dict[str, int],
    stop: int,
    mix: list[tuple[int, str, dict[str, Any]]],
    took: dict[str, list[float]],
) -> None:
    headers = {"Authorization": f"Bearer {deployment.tokens[agent]}"}
    url = f"http://127.0.0.1:{deployment.port}/mcp"
    mine: list[str] = []
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(httpx2.AsyncClient(headers=headers, timeout=120))
        client = await stack.enter_async_context(
            Client(streamable_http_client(url, http_client=http))
        )

        async def call(tool: str, arguments: dict[str, Any]) -> Any:
            started = time.perf_counter()
            answer = await client.call_tool(tool, arguments)
            took.setdefault(tool, []).append(1000 * (time.perf_counter() - started))
            return answer

        for number, text in enumerate(texts):
            if counter["writes"] >= stop:
                return
            answer = await call("remember", {"content": text, "force": True})
            body = str(answer.content[0].text)  # type: ignore[union-attr]
            if body.startswith("Saved (id: "):
                mine.append(body[len("Saved (id: ") :][:16])
            counter["writes"] += 1
            counter["calls"] += 1
            for every, tool, arguments in mix:
                if number % every == every - 1:
                    await call(tool, {**arguments, "context": text}
                               if "context" in arguments else arguments)  # fmt: skip
                    counter["calls"] += 1
            if number % 7 == 6 and mine:
                await call("forget", {"memory_id": mine.pop(0)})
                counter["calls"] += 1


async def load(
    deployment: Deployment, writes: int, per_agent: int, mix: list[tuple[int, str, dict[str, Any]]]
) -> tuple[list[dict[str, float]], dict[str, float]]:
    assert deployment.front is not None
    counter = {"writes": 0, "calls": 0}
    took: dict[str, list[float]] = {}
    cpu_before = cpu_seconds(deployment.front.pid)
    samples: list[dict[str, float]] = [{"writes": 0, "rss_mib": rss_mib(deployment.front.pid)}]
    texts = sentences(writes + 100, seed=11)
    clients = [(agent, n) for agent in AGENTS for n in range(per_agent)]
    share = len(texts) // len(clients)
    started = time.monotonic()

    async def sampler() -> None:
        assert deployment.front is not None
        next_mark = SAMPLE_EVERY
        while counter["writes"] < writes:
            await asyncio.sleep(0.2)
            if counter["writes"] >= next_mark:
                rss = rss_mib(deployment.front.pid)
                samples.append({"writes": counter["writes"], "rss_mib": round(rss, 1)})
                print(f"{counter['writes']:6d} writes  {rss:7.1f} MiB  "
                      f"{time.monotonic() - started:6.1f} s", flush=True)  # fmt: skip
                next_mark += SAMPLE_EVERY

    tasks = [
        client_loop(
            deployment, agent, texts[i * share : (i + 1) * share], counter, writes, mix, took
        )
        for i, (agent, _) in enumerate(clients)
    ]
    await asyncio.gather(sampler(), *tasks)
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(deployment.front.pid) - cpu_before
    samples.append(
        {"writes": counter["writes"], "rss_mib": round(rss_mib(deployment.front.pid), 1)}
    )
    cost = {
        "calls": counter["calls"],
        "calls_per_s": round(counter["calls"] / elapsed, 1),
        "front_cpu_ms_per_call": round(1000 * cpu / max(1, counter["calls"]), 1),
        "latency_ms": {
            tool: {"p50": round(percentile(times, 50), 1), "p95": round(percentile(times, 95), 1)}
            for tool, times in sorted(took.items())
        },
    }
    return samples, cost


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * q / 100) - 1)]


def growth_per_thousand(samples: list[dict[str, float]], warm: int) -> float:
    """Least-squares slope of RSS over writes after ``warm`` writes, MiB per 1,000."""
    points = [(s["writes"], s["rss_mib"]) for s in samples if s["writes"] >= warm]
    if len(points) < 2:
        return 0.0
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    cov = sum((x - mean_x) * (y - mean_y) for x, y in points)
    var = sum((x - mean_x) ** 2 for x, _ in points)
    return 1000 * cov / var if var else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--writes", type=int, default=4000)
    parser.add_argument("--clients-per-agent", type=int, default=2)
    parser.add_argument("--warm", type=int, default=1000, help="writes before RSS is judged")
    parser.add_argument("--only", nargs="*", help="of the mix, only these tools")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    mix = [entry for entry in MIX if args.only is None or entry[1] in args.only]
    with tempfile.TemporaryDirectory(prefix="ego-write-load-") as scratch:
        deployment = Deployment(Path(scratch))
        try:
            deployment.up()
            samples, cost = asyncio.run(load(deployment, args.writes, args.clients_per_agent, mix))
        finally:
            deployment.down()
    warm = next(s for s in samples if s["writes"] >= args.warm)
    slope = growth_per_thousand(samples, args.warm)
    first, last = samples[0], samples[-1]
    print(
        f"RSS {first['rss_mib']:.0f} MiB idle, {warm['rss_mib']:.0f} after {warm['writes']:.0f}"
        f" writes, {last['rss_mib']:.0f} after {last['writes']:.0f}; {slope:+.1f} MiB per"
        " 1,000 writes after warm-up"
    )
    print(
        f"{cost['calls']:.0f} calls, {cost['calls_per_s']} calls/s; front end CPU "
        f"{cost['front_cpu_ms_per_call']} ms per call"
    )
    for tool, spread in cost["latency_ms"].items():
        print(f"  {tool:16s} p50 {spread['p50']:8.1f} ms  p95 {spread['p95']:8.1f} ms")
    results: dict[str, Any] = {
        "writes": args.writes,
        "clients": args.clients_per_agent * len(AGENTS),
        "mix": [tool for _, tool, _ in mix],
        "samples": samples,
        "mib_per_1000_writes_after_warm_up": round(slope, 2),
        **cost,
    }
    write_results(results, args.out, "write_load.json")


if __name__ == "__main__":
    main()

"""Worker benchmark: whole-store merge-candidate scans, and queue overhead on real Redis.

    python bench/worker_bench.py [--sizes 10000 50000] [--jobs 200]

Scan: seeds N memories (real model, batched), then times the scan job's engine
(``scan_store``: every stored embedding, one batched neighbour query per 500).
Queue: starts ``redis-server`` on a free loopback port and an arq worker with ego-mcp's
poll delay, enqueues no-op jobs one at a time at random moments of the poll cycle, and
measures enqueue-to-start latency.
Writes ``bench/results/worker.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import redis
from arq.connections import RedisSettings, create_pool
from arq.worker import Worker
from common import ROOT, load_embedder, percentiles, sentences

from ego_mcp.ego.consolidation import scan_store
from ego_mcp.embedding.local import LocalMiniLM
from ego_mcp.logs import setup_logging
from ego_mcp.memory.model import Memory, new_memory_id
from ego_mcp.queue.worker import POLL_DELAY_SECONDS
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings


def measure_scan(size: int, embedder: LocalMiniLM) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as data_dir:
        runtime = Runtime.open(load_settings(data_dir=Path(data_dir)), embedder=embedder)
        service = runtime.memory("bench")
        texts = sentences(size, seed=11)
        for offset in range(0, size, 512):
            chunk = texts[offset : offset + 512]
            now = runtime.clock.now()
            memories = [Memory(id=new_memory_id(), content=t, timestamp=now) for t in chunk]
            service.store.add_many(memories, embedder.embed(chunk))
        start = time.perf_counter()
        stats = scan_store(service, runtime.clock.now())
        elapsed = time.perf_counter() - start
        runtime.close()
    return {
        "n_memories": size,
        "scan_seconds": round(elapsed, 2),
        "memories_per_s": round(size / elapsed, 1),
        "merge_candidates": len(stats.merge_candidates),
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def noop(ctx: dict[str, Any], enqueued_at: float) -> float:
    started = time.time() - enqueued_at
    ctx["latencies"].append(started)
    return started


async def measure_queue(jobs: int) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as directory:
        server = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                directory,
                "--save",
                "",
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            client = redis.Redis(port=port)
            for _ in range(100):
                try:
                    client.ping()
                    break
                except redis.exceptions.ConnectionError:
                    time.sleep(0.05)
            settings = RedisSettings(host="127.0.0.1", port=port)
            latencies: list[float] = []
            worker = Worker(
                functions=[noop],
                redis_settings=settings,
                ctx={"latencies": latencies},
                poll_delay=POLL_DELAY_SECONDS,
                handle_signals=False,
                keep_result=0,
            )
            running = asyncio.create_task(worker.async_run())
            pool = await create_pool(settings)
            arrivals = random.Random(5)
            for i in range(jobs):
                # Independent arrivals: a job lands anywhere in the worker's poll cycle.
                await asyncio.sleep(arrivals.uniform(0, 2 * POLL_DELAY_SECONDS))
                await pool.enqueue_job("noop", time.time(), _job_id=f"noop-{i}")
                while len(latencies) <= i:
                    await asyncio.sleep(0.002)
            await pool.aclose()
            await worker.close()
            running.cancel()
        finally:
            server.terminate()
            server.wait()
    return {
        "jobs": jobs,
        "poll_delay_s": POLL_DELAY_SECONDS,
        "enqueue_to_start": percentiles(latencies),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 50_000])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--model-dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "worker.json")
    args = parser.parse_args()
    setup_logging("WARNING")
    embedder = load_embedder(args.model_dir)

    queue = asyncio.run(measure_queue(args.jobs))
    q = queue["enqueue_to_start"]
    print(f"queue: enqueue-to-start p50 {q['p50_ms']} ms, p95 {q['p95_ms']} ms (n={q['n']})")
    scans = []
    for size in args.sizes:
        result = measure_scan(size, embedder)
        scans.append(result)
        print(f"scan {size:>6}: {result['scan_seconds']} s, {result['memories_per_s']} memories/s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"benchmark": "worker", "queue": queue, "scan": scans}, indent=2)
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

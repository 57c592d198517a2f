"""Memory-core benchmark: seeding throughput and tool latency at N stored memories.

    python bench/memory_bench.py                 # N = 1,000 and 10,000
    python bench/memory_bench.py --sizes 2000    # any sizes

Seeds N distinct synthetic sentences (batched embedding, one Chroma add per batch), then
times ``remember``, ``recall`` and ``forget`` (of a memory with 5 links) through the MCP
tool handlers over the SDK's in-process client, and the embedding alone. Prints a table and
writes ``bench/results/memory.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from common import ROOT, load_embedder, percentiles, sentences
from mcp import Client

from ego_mcp.embedding.local import LocalMiniLM
from ego_mcp.logs import setup_logging
from ego_mcp.memory.model import LinkType, Memory, new_memory_id
from ego_mcp.memory.service import Draft
from ego_mcp.runtime import Runtime
from ego_mcp.server.app import create_server
from ego_mcp.server.context import build_app_context
from ego_mcp.settings import load_settings


async def timed(action: Callable[[], Awaitable[Any]], repeats: int) -> list[float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        await action()
        samples.append(time.perf_counter() - start)
    return samples


def seed_store(runtime: Runtime, count: int, batch: int = 256) -> float:
    """Seed ``count`` memories; returns memories per second."""
    service = runtime.memory("bench")
    texts = sentences(count, seed=1)
    start = time.perf_counter()
    for offset in range(0, count, batch):
        chunk = texts[offset : offset + batch]
        vectors = runtime.embedder.embed(chunk)
        now = runtime.clock.now()
        memories = [Memory(id=new_memory_id(), content=t, timestamp=now) for t in chunk]
        service.store.add_many(memories, vectors)
    return count / (time.perf_counter() - start)


async def measure(size: int, embedder: LocalMiniLM, repeats: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as data_dir:
        settings = load_settings(data_dir=Path(data_dir), agent="bench")
        runtime = Runtime.open(settings, embedder=embedder)
        try:
            seeding = seed_store(runtime, size)
            app = build_app_context(settings, runtime)
            service = app.memory
            fresh = iter(sentences(repeats * 3, seed=2))
            queries = iter(sentences(repeats, seed=3))

            async with Client(create_server(settings, app)) as client:

                async def remember() -> None:
                    await client.call_tool("remember", {"content": next(fresh)})

                async def recall() -> None:
                    await client.call_tool("recall", {"context": next(queries), "n_results": 3})

                remember_s = await timed(remember, repeats)
                recall_s = await timed(recall, repeats)

                # Set up every memory to forget (5 links each) first, so each forget is timed
                # alone rather than right behind the writes that built its links.
                existing = [m.id for m in next(service.store.batches(500))[0]]
                hubs = []
                for _ in range(repeats):
                    saved = service.remember(Draft(next(fresh)), force=True).saved
                    assert saved is not None
                    for target in random.sample(existing, 5):
                        service.link(saved.id, target, LinkType.RELATED)
                    assert len(service.get(saved.id).linked_ids) >= 5
                    hubs.append(saved.id)
                forget_s = []
                for hub in hubs:
                    start = time.perf_counter()
                    await client.call_tool("forget", {"memory_id": hub})
                    forget_s.append(time.perf_counter() - start)
                await app.drain()

            texts = sentences(repeats, seed=4)
            embed_s = []
            for text in texts:
                start = time.perf_counter()
                embedder.embed([text])
                embed_s.append(time.perf_counter() - start)
        finally:
            runtime.close()
    return {
        "n_memories": size,
        "seeding_memories_per_s": round(seeding, 1),
        "remember": percentiles(remember_s),
        "recall": percentiles(recall_s),
        "forget_5_links": percentiles(forget_s),
        "embed_one": percentiles(embed_s),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--repeats", type=int, default=100)
    parser.add_argument("--model-dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "memory.json")
    args = parser.parse_args()
    setup_logging("WARNING")

    embedder = load_embedder(args.model_dir)
    results = [asyncio.run(measure(size, embedder, args.repeats)) for size in args.sizes]

    print(
        f"{'N':>7} {'seed/s':>8} {'remember p50/p95':>18} {'recall p50/p95':>16} "
        f"{'forget p50/p95':>16} {'embed p50/p95':>15}   (ms)"
    )
    for r in results:
        print(
            f"{r['n_memories']:>7} {r['seeding_memories_per_s']:>8} "
            + " ".join(
                f"{r[k]['p50_ms']:>8}/{r[k]['p95_ms']:<7}"
                for k in ("remember", "recall", "forget_5_links", "embed_one")
            )
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"benchmark": "memory", "results": results}, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

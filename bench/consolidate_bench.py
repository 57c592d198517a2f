"""Consolidation benchmark: a 24 h window of 1,000 memories inside a 10,000-memory store.

    python bench/consolidate_bench.py [--total 10000] [--recent 1000] [--repeats 5]

Seeds ``total - recent`` memories three days old and ``recent`` from the last 24 hours,
then times the consolidation engine (replay, link strengthening, merge candidates from one
batched neighbour query). Prints p50/p95 and writes ``bench/results/consolidate.json``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from common import ROOT, load_embedder, percentiles, sentences

from ego_mcp.ego.consolidation import consolidate
from ego_mcp.logs import setup_logging
from ego_mcp.memory.model import Memory, new_memory_id
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, default=10_000)
    parser.add_argument("--recent", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--model-dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "consolidate.json")
    args = parser.parse_args()
    setup_logging("WARNING")
    embedder = load_embedder(args.model_dir)

    with tempfile.TemporaryDirectory() as data_dir:
        runtime = Runtime.open(load_settings(data_dir=Path(data_dir)), embedder=embedder)
        service = runtime.memory("bench")
        now = runtime.clock.now()
        texts = sentences(args.total, seed=7)
        for offset in range(0, args.total, 256):
            chunk = texts[offset : offset + 256]
            stamps = [
                now
                - (
                    timedelta(hours=(i % 23) + 0.5)
                    if offset + i < args.recent
                    else timedelta(days=3)
                )
                for i in range(len(chunk))
            ]
            memories = [
                Memory(id=new_memory_id(), content=t, timestamp=s)
                for t, s in zip(chunk, stamps, strict=True)
            ]
            service.store.add_many(memories, embedder.embed(chunk))

        samples = []
        stats = None
        for _ in range(args.repeats):
            start = time.perf_counter()
            stats = consolidate(service, runtime.clock.now())
            samples.append(time.perf_counter() - start)
        runtime.close()

    assert stats is not None
    result = {
        "benchmark": "consolidate",
        "total_memories": args.total,
        "window_memories": stats.replay_events,
        "consolidate": percentiles(samples),
        "last_run": {
            "links_created": stats.link_updates,
            "coactivations": stats.coactivation_updates,
            "merge_candidates": len(stats.merge_candidates),
        },
    }
    print(
        f"consolidate over {stats.replay_events} recent of {args.total}: "
        f"p50 {result['consolidate']['p50_ms']} ms, p95 {result['consolidate']['p95_ms']} ms "
        f"(n={args.repeats})"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

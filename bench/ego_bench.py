"""The ego tools on a big, busy store, through a stdio server subprocess.

    python bench/ego_bench.py                         # 100,000 memories, 30,000 in 30 days
    python bench/ego_bench.py --size 20000 --recent 6000

Bulk-seeds ``--size`` memories (batched embedding, one Chroma add per batch): ``--recent``
of them spread over the last 30 days, the rest over the eleven months before, with mixed
emotions, intensities and valences and one introspection in fifty. Then times ``--calls``
back-to-back calls each of wake_up, feel_desires, introspect, consider_them and
emotion_trend over the MCP client (the first call of each is reported apart: it may fill
a cache) and the server's peak RSS once each tool has run (VmHWM, so it only grows from
tool to tool). Prints p50/p95 and writes bench/results/ego.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import ROOT, percentiles, sentences
from stdio_bench import bulk_add, server

from ego_mcp.memory.model import Category, Emotion, EmotionalTrace, Memory, new_memory_id

TOOLS = ("wake_up", "feel_desires", "introspect", "consider_them", "emotion_trend")
YEAR_S = 365 * 86_400
MONTH_S = 30 * 86_400


def seeded_memories(size: int, recent: int, now: datetime) -> list[Memory]:
    rng = random.Random(5)
    emotions = list(Emotion)
    memories = []
    for i, text in enumerate(sentences(size, seed=21)):
        age = rng.uniform(0, MONTH_S) if i < recent else rng.uniform(MONTH_S, YEAR_S)
        memories.append(
            Memory(
                id=new_memory_id(),
                content=text,
                timestamp=now - timedelta(seconds=age),
                emotional_trace=EmotionalTrace(
                    primary=rng.choice(emotions),
                    intensity=round(rng.random(), 2),
                    valence=round(rng.uniform(-1, 1), 2),
                    arousal=round(rng.random(), 2),
                ),
                category=Category.INTROSPECTION if i % 50 == 0 else Category.DAILY,
            )
        )
    return memories


async def measure(size: int, recent: int, calls: int) -> dict[str, Any]:
    result: dict[str, Any] = {"n_memories": size, "in_last_30_days": recent, "tools": {}}
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp)
        memories = seeded_memories(size, recent, datetime.now(UTC))
        result["bulk_seed_per_s"] = round(bulk_add(data_dir, memories))
        async with server(data_dir) as node:
            await asyncio.sleep(3)  # let the model warm up, as in a session
            for tool in TOOLS:
                samples = []
                for _ in range(calls + 1):
                    start = time.perf_counter()
                    await node.call(tool)
                    samples.append(time.perf_counter() - start)
                result["tools"][tool] = {
                    "first_ms": round(samples[0] * 1000, 1),
                    **percentiles(samples[1:]),
                    "peak_rss_mib": round(node.peak_rss_mib()),
                }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--recent", type=int, default=30_000)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "ego.json")
    args = parser.parse_args()
    result = asyncio.run(measure(args.size, args.recent, args.calls))
    print(
        f"{result['n_memories']} memories, {result['in_last_30_days']} in the last 30 days "
        f"(bulk seeding {result['bulk_seed_per_s']}/s); ms:"
    )
    print(f"{'tool':<15} {'first':>9} {'p50':>9} {'p95':>9} {'peak RSS MiB':>13}")
    for tool, f in result["tools"].items():
        print(
            f"{tool:<15} {f['first_ms']:>9} {f['p50_ms']:>9} {f['p95_ms']:>9} "
            f"{f['peak_rss_mib']:>13}"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

"""Two versions of ego-mcp over stdio, call for call: which is faster, on a noisy host.

    python bench/paired_bench.py --before /path/to/older/checkout/src
    python bench/paired_bench.py --before ../wt/src --size 1000 --ops 300

Runs that follow each other on a shared or busy machine drift more than a change of a
millisecond moves (the same code's recall p50 went 9.9 -> 14.5 ms within the hour here).
This bench puts both versions under the same drift: one store of ``--size`` memories
(the bulk path, this checkout's code) is copied, a server of each version is spawned
on its copy (the older one with ``--before`` first on ``PYTHONPATH``), and each call goes
to both, in turn, the first of the pair alternating. Timed: ``recall`` (a sentence's first
40 characters, n_results=5, as ``stdio_bench.py``), then ``remember`` of new sentences
(the same on both sides, so the stores stay alike). Printed: each side's p50 / p95, and
the median of the per-call differences (before minus now), with each server's CPU per
call. Writes bench/results/paired.json.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from common import percentiles, sentences, write_results
from stdio_bench import Server, bulk_seed, recall_context, server

SIDES = ("before", "now")


async def paired_calls(
    nodes: dict[str, Server], calls: list[tuple[str, dict[str, Any]]]
) -> dict[str, Any]:
    """Each call on both servers, in turn; which goes first alternates."""
    samples: dict[str, list[float]] = {side: [] for side in SIDES}
    cpu = {side: nodes[side].cpu_s() for side in SIDES}
    for n, (tool, arguments) in enumerate(calls):
        for side in SIDES if n % 2 == 0 else reversed(SIDES):
            start = time.perf_counter()
            await nodes[side].call(tool, **arguments)
            samples[side].append(time.perf_counter() - start)
    found: dict[str, Any] = {}
    for side in SIDES:
        cpu_ms = (nodes[side].cpu_s() - cpu[side]) * 1000 / len(calls)
        found[side] = {**percentiles(samples[side]), "server_cpu_ms": round(cpu_ms, 2)}
    gaps = [b - a for b, a in zip(samples["before"], samples["now"], strict=True)]
    found["median_gain_ms"] = round(statistics.median(gaps) * 1000, 2)
    return found


def on_path(source: Path | None) -> Callable[[], None]:
    """Put ``source`` first on the children's ``PYTHONPATH``; the returned call undoes it."""
    kept = os.environ.get("PYTHONPATH")
    if source is not None:
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), kept]))

    def undo() -> None:
        if kept is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = kept

    return undo


async def measure(before: Path, size: int, ops: int) -> dict[str, Any]:
    texts = sentences(size + 2 * ops, seed=1)
    stored, asked, saved = texts[:size], texts[size : size + ops], texts[size + ops :]
    with tempfile.TemporaryDirectory() as tmp:
        bulk_seed(Path(tmp, "now"), stored)
        shutil.copytree(Path(tmp, "now"), Path(tmp, "before"))
        async with AsyncExitStack() as stack:
            nodes: dict[str, Server] = {}
            for side in SIDES:
                undo = on_path(before if side == "before" else None)
                try:
                    nodes[side] = await stack.enter_async_context(server(Path(tmp, side)))
                finally:
                    undo()
            recalls = [("recall", {"context": recall_context(t), "n_results": 5}) for t in asked]
            remembers = [("remember", {"content": t}) for t in saved]
            await paired_calls(nodes, recalls[:10])  # warm-up
            return {
                "size": size,
                "ops": ops,
                "before": str(before),
                "recall": await paired_calls(nodes, recalls),
                "remember": await paired_calls(nodes, remembers),
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the older version's src")
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if not (args.before / "ego_mcp" / "__init__.py").is_file():
        parser.error(f"--before: {args.before} holds no ego_mcp package")
    result = asyncio.run(measure(args.before.resolve(), args.size, args.ops))
    print(f"N = {args.size}, {args.ops} calls each; p50 / p95 ms, server CPU ms per call")
    for tool in ("recall", "remember"):
        found = result[tool]
        line = "  ".join(
            f"{side} {found[side]['p50_ms']} / {found[side]['p95_ms']} "
            f"(cpu {found[side]['server_cpu_ms']})"
            for side in SIDES
        )
        print(f"{tool:9} {line}  median gain {found['median_gain_ms']} ms")
    write_results(result, args.out, "paired.json")


if __name__ == "__main__":
    main()

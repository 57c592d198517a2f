"""Recall's speed per query shape on a large store, through a server subprocess over stdio.

    python bench/recall_bench.py                       # N = 100,000
    python bench/recall_bench.py --size 10000 --ops 50

1. The store: N memories through the bulk path (batched embedding, one Chroma add and one
   lexical-index write per batch, as ``ego-mcp migrate`` writes), in this process: 80%
   English sentences of bench/'s diary grammar, 20% Japanese ones of a grammar below, one
   in fifty naming a ``LOG-<n>`` ticket, so that words range from one in ten memories to
   one in the whole store.
2. The floor, in this process, on that same store: the bare embedding of each query and a
   bare Chroma query for its 30 nearest (what recall's vector half cannot avoid).
3. The MCP round trip of a do-nothing tool on the SDK's own server (``bare_mcp_server.py``)
   answering as many characters as a recall does: what no server can go under.
4. ego-mcp over stdio on the store, ``--ops`` calls per shape, back to back, each query
   distinct: one word, two or three words, a sentence, a Japanese phrase, a rare
   identifier, and ``search_memories`` of two words.

Prints p50/p95 per shape beside the floor plus the round trip; writes
bench/results/recall-<model>-<N>.json.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import OBJECTS, PLACES, SUBJECTS, percentiles, sentences, write_results
from stdio_bench import AGENT, bulk_add, mcp_round_trip, server, timed_calls

from ego_mcp.memory.model import Memory, new_memory_id
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings

JA_SUBJECTS = ["マスター", "猫", "隣の人", "姉", "先生", "パン屋さん", "友達のアオイ", "旅人"]
JA_OBJECTS = ["星", "古いラジオ", "川の朝焼け", "量子コンピューター", "昔の写真", "初雪",
              "夏祭り", "家の意味", "なくした傘", "ジャズのレコード", "山道", "赤い凧"]  # fmt: skip
JA_PLACES = ["台所で", "駅で", "海辺で", "図書館で", "屋上で", "小さな喫茶店で", "市場で", "庭で"]
JA_VERBS = ["について話した", "を思い出した", "の絵を描いた", "を直した", "の夢を見た"]
POOL_SIZE = 30


def corpus(size: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    english = sentences(size, seed)
    texts = []
    for i, sentence in enumerate(english):
        if i % 5 == 4:
            texts.append(
                f"{rng.choice(JA_SUBJECTS)}と{rng.choice(JA_PLACES)}{rng.choice(JA_OBJECTS)}"
                f"{rng.choice(JA_VERBS)}（メモ{i}）。"
            )
        elif i % 50 == 7:
            texts.append(f"{sentence} The ticket was LOG-{i}.")
        else:
            texts.append(sentence)
    return texts


def queries(size: int, ops: int) -> dict[str, list[str]]:
    rng = random.Random(5)
    words = sorted(
        {w.lower() for phrase in OBJECTS + PLACES for w in phrase.split()[1:] if len(w) > 2}
    )  # the nouns and adjectives, not the articles and prepositions before them
    fresh = sentences(ops, seed=99)
    return {
        "one word": [rng.choice(words) for _ in range(ops)],
        "two or three words": [" ".join(rng.sample(words, rng.choice((2, 3)))) for _ in range(ops)],
        "a sentence": fresh,
        "a Japanese phrase": [
            f"{rng.choice(JA_OBJECTS)}{rng.choice(JA_VERBS)}" for _ in range(ops)
        ],
        "a rare identifier": [f"LOG-{50 * rng.randrange(size // 50) + 7}" for _ in range(ops)],
        "search_memories": [
            f"{rng.choice(words)} {rng.choice(SUBJECTS).split()[-1]}" for _ in range(ops)
        ],
    }


def build(data_dir: Path, size: int) -> float:
    now = datetime.now(UTC)
    texts = corpus(size)
    memories = [
        Memory(id=new_memory_id(), content=t, timestamp=now - timedelta(minutes=len(texts) - i))
        for i, t in enumerate(texts)
    ]
    return bulk_add(data_dir, memories)


def stored(data_dir: Path) -> int:
    """How many memories the bench's agent has already (embedded in ``data_dir``, or on
    the Chroma server the environment names)."""
    settings = load_settings(data_dir=data_dir, agent=AGENT)
    if settings.chroma_url is None and not (data_dir / "chroma").is_dir():
        return 0
    runtime = Runtime.open(settings)
    try:
        return runtime.memory(AGENT).store.count() if AGENT in runtime.agents() else 0
    finally:
        runtime.close()


def floor(data_dir: Path, asked: dict[str, list[str]]) -> dict[str, Any]:
    """Bare embedding + bare Chroma query of the 30 nearest, per shape, on the same store."""
    runtime = Runtime.open(load_settings(data_dir=data_dir, agent=AGENT))
    try:
        store = runtime.memory(AGENT).store
        results = {}
        for shape, texts in asked.items():
            samples = []
            for text in texts:
                start = time.perf_counter()
                store.search(runtime.embedder.embed([text])[0], POOL_SIZE)
                samples.append(time.perf_counter() - start)
            results[shape] = percentiles(samples)
        return results
    finally:
        runtime.close()


async def through_stdio(data_dir: Path, asked: dict[str, list[str]]) -> dict[str, Any]:
    results: dict[str, Any] = {}
    async with server(data_dir) as node:
        await node.call("recall", context="warming up", n_results=10)
        for shape, texts in asked.items():
            searching = shape == "search_memories"
            tool, argument = ("search_memories", "query") if searching else ("recall", "context")
            calls = [(tool, {argument: text, "n_results": 10}) for text in texts]
            samples = await timed_calls(node, calls, warm_up=3)
            answers = samples.pop("answers")
            samples["answer_chars"] = round(statistics.fmean(len(a) for a in answers))
            samples["mean_results"] = round(
                statistics.fmean(a.split("\n\n---\n")[0].count("\n") for a in answers), 1
            )
            results[shape] = samples
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--ops", type=int, default=100)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--store", type=Path, help="the data dir to keep (a store of N is reused, in both modes)"
    )
    args = parser.parse_args()
    asked = queries(args.size, args.ops)
    with tempfile.TemporaryDirectory() as scratch:
        data_dir = args.store or Path(scratch)
        rate = 0.0
        if stored(data_dir) < args.size:
            rate = build(data_dir, args.size)
            print(f"built {args.size} memories at {rate:.0f}/s")
        bare = floor(data_dir, asked)
        ours = asyncio.run(through_stdio(data_dir, asked))
    chars = max(s["answer_chars"] for s in ours.values())
    round_trip = asyncio.run(mcp_round_trip([t for ts in asked.values() for t in ts][:100], chars))
    print(f"\nN = {args.size}, {args.ops} calls a shape; round trip p50 {round_trip['p50_ms']} ms")
    print(f"{'shape':22s}{'p50':>8s}{'p95':>8s}{'floor':>8s}{'+trip':>8s}{'ratio':>7s}{'hits':>6s}")
    for shape, samples in ours.items():
        base = bare[shape]["p50_ms"] + round_trip["p50_ms"]
        print(
            f"{shape:22s}{samples['p50_ms']:8.1f}{samples['p95_ms']:8.1f}"
            f"{bare[shape]['p50_ms']:8.1f}{base:8.1f}{samples['p50_ms'] / base:7.2f}"
            f"{samples['mean_results']:6.1f}"
        )
    write_results(
        {
            "size": args.size,
            "build_per_s": rate,
            "ego_mcp": ours,
            "floor": bare,
            "round_trip": round_trip,
        },
        args.out,
        f"recall-{load_settings().embedding_model or 'default'}-{args.size}.json",
    )


if __name__ == "__main__":
    main()

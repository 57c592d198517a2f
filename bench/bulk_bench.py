"""The bulk paths as users run them: seeding, ``ego-mcp migrate``, ``ego-mcp reembed``.

    python bench/bulk_bench.py                          # N = 10,000
    python bench/bulk_bench.py --sizes 10000 100000

For each N, with the configured model (``EGO_MCP_EMBEDDING_MODEL``, default USE v3):

1. Seeding: the bulk path (batched embedding, one Chroma add per batch), in this process.
2. ``ego-mcp migrate --from DIR``, a subprocess, its start-up included: DIR is an upstream
   0.2.3 data dir of N memories, each record shaped as the fixture's
   (``../shared/fixtures/upstream-0.2.3``: the same metadata keys, a link to the memory
   before it, a 384-dim vector as upstream's MiniLM stores), every one imported and
   embedded anew.
3. ``ego-mcp reembed``, a subprocess, its start-up included: a store of N memories saved
   with all-MiniLM-L6-v2 moved to the configured model.

Prints memories per second and writes bench/results/bulk-<model>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
from common import ROOT, sentences, write_results
from stdio_bench import AGENT, bulk_add, bulk_seed

from ego_mcp.embedding import create_embedder
from ego_mcp.memory.model import Memory, new_memory_id
from ego_mcp.settings import load_settings

UPSTREAM_DIMENSION = 384
UPSTREAM_BATCH = 1_000
MINILM = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2"


def upstream_record(memory_id: str, previous: str | None, moment: datetime) -> dict[str, Any]:
    """Metadata as upstream 0.2.3 writes it (the keys and value kinds of the fixture)."""
    links = [] if previous is None else [{"target_id": previous, "link_type": "related",
                                          "confidence": 0.6, "note": ""}]  # fmt: skip
    return {
        "timestamp": moment.isoformat(),
        "emotion": "curious",
        "secondary": "moved",
        "intensity": 0.6,
        "valence": 0.3,
        "arousal": 0.4,
        "body_state": '{"energy": "low"}',
        "importance": 3,
        "category": "daily",
        "tags": "",
        "is_private": False,
        "linked_ids": json.dumps(links),
    }


def write_upstream_dir(directory: Path, texts: list[str]) -> None:
    """An upstream data dir holding ``texts`` as memories (its Chroma folder only)."""
    client = chromadb.PersistentClient(path=str(directory / "chroma"))
    collection = client.create_collection("ego_memories", embedding_function=None)
    rng = np.random.default_rng(7)
    now = datetime.now(UTC)
    ids = [f"mem_{i:012x}" for i in range(len(texts))]
    for start in range(0, len(texts), UPSTREAM_BATCH):
        chunk = range(start, min(start + UPSTREAM_BATCH, len(texts)))
        vectors = rng.standard_normal((len(chunk), UPSTREAM_DIMENSION)).astype(np.float32)
        collection.add(
            ids=[ids[i] for i in chunk],
            documents=[texts[i] for i in chunk],
            embeddings=vectors / np.linalg.norm(vectors, axis=1, keepdims=True),
            metadatas=[
                upstream_record(ids[i], ids[i - 1] if i else None, now - timedelta(minutes=i))
                for i in chunk
            ],
        )


def seed_with_minilm(data_dir: Path, texts: list[str]) -> None:
    """``texts`` saved through the bulk path with all-MiniLM-L6-v2 (what reembed moves)."""
    overrides: dict[str, Any] = {"embedding_model": "all-MiniLM-L6-v2"}
    if MINILM.is_dir():
        overrides["embedding_model_dir"] = MINILM
    now = datetime.now(UTC)
    memories = [Memory(id=new_memory_id(), content=t, timestamp=now) for t in texts]
    bulk_add(data_dir, memories, **overrides)


def timed_command(data_dir: Path, expected: str, *arguments: str) -> float:
    """Seconds an ``ego-mcp`` command takes, from spawn to exit; it must succeed and say
    ``expected``."""
    env = {**os.environ, "EGO_MCP_DATA_DIR": str(data_dir), "EGO_MCP_AGENT": AGENT}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ego_mcp", *arguments], env=env, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    if expected not in done.stdout:
        raise RuntimeError(f"ego-mcp {arguments[0]} did not say {expected!r}: {done.stdout}")
    return seconds


def measure(size: int) -> dict[str, Any]:
    texts = sentences(size, seed=1)
    result: dict[str, Any] = {"n_memories": size}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        result["seeding_per_s"] = round(bulk_seed(root / "seeded", texts))
        write_upstream_dir(root / "upstream", texts)
        upstream = str(root / "upstream")
        imported = f"{size} new of {size}"
        seconds = timed_command(root / "migrated", imported, "migrate", "--from", upstream)
        result["migrate_s"] = round(seconds, 1)
        result["migrate_per_s"] = round(size / seconds)
        seed_with_minilm(root / "reembedded", texts)
        seconds = timed_command(root / "reembedded", f"re-embedded {size} records", "reembed")
        result["reembed_s"] = round(seconds, 1)
        result["reembed_per_s"] = round(size / seconds)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    model = create_embedder(load_settings()).signature.model
    results = [measure(size) for size in args.sizes]
    print(f"model: {model}; memories per second (migrate and reembed: spawn to exit)")
    print(f"{'N':>8} {'seeding':>8} {'migrate':>8} {'reembed':>8}")
    for row in results:
        print(
            f"{row['n_memories']:>8} {row['seeding_per_s']:>8} {row['migrate_per_s']:>8} "
            f"{row['reembed_per_s']:>8}"
        )
    write_results(results, args.out, f"bulk-{model}.json")


if __name__ == "__main__":
    main()

"""``ego-mcp export`` and ``ego-mcp import`` as users run them: memories per second.

    python bench/backup_bench.py                      # N = 10,000
    python bench/backup_bench.py --sizes 10000 100000

For each N: a store of N memories through the bulk path (one link each to the memory
before it, so the file carries links), then, each a subprocess timed from spawn to exit:
``ego-mcp export`` to a .jsonl.gz, and ``ego-mcp import`` of that file into a fresh data
dir. Beside them, in this process and in the same run: the bare embedding of the same N
texts in batches of 500, which bounds any import that embeds anew. Prints memories per
second and writes bench/results/backup-<model>.json.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import sentences, write_results
from stdio_bench import AGENT, bulk_add

from ego_mcp.embedding import create_embedder
from ego_mcp.memory.model import Link, Memory, new_memory_id, reverse_link
from ego_mcp.settings import load_settings

BATCH = 500


def linked_memories(size: int) -> list[Memory]:
    """N memories, each linked both ways to the one before it."""
    now = datetime.now(UTC)
    memories = [
        Memory(id=new_memory_id(), content=text, timestamp=now - timedelta(minutes=size - i))
        for i, text in enumerate(sentences(size, seed=3))
    ]
    for i in range(1, size):
        forward = Link(memories[i - 1].id, confidence=0.6)
        memories[i] = replace(memories[i], linked_ids=(*memories[i].linked_ids, forward))
        back = reverse_link(memories[i].id, forward)
        memories[i - 1] = replace(memories[i - 1], linked_ids=(*memories[i - 1].linked_ids, back))
    return memories


def timed(*args: str, data_dir: Path) -> float:
    env = {**os.environ, "EGO_MCP_DATA_DIR": str(data_dir), "EGO_MCP_AGENT": AGENT}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ego_mcp", *args], env=env, check=True, capture_output=True
    )
    return time.perf_counter() - start


def embedding_rate(texts: list[str]) -> float:
    embedder = create_embedder(load_settings())
    start = time.perf_counter()
    for offset in range(0, len(texts), BATCH):
        embedder.embed(texts[offset : offset + BATCH])
    return len(texts) / (time.perf_counter() - start)


def measure(size: int) -> dict[str, Any]:
    memories = linked_memories(size)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        bulk_add(root / "source", memories)
        out = root / "agent.jsonl.gz"
        export_s = timed("export", "--out", str(out), data_dir=root / "source")
        import_s = timed("import", str(out), data_dir=root / "target")
        size_mib = out.stat().st_size / 2**20
    return {
        "n": size,
        "export_per_s": round(size / export_s),
        "import_per_s": round(size / import_s),
        "embedding_per_s": round(embedding_rate([m.content for m in memories])),
        "export_s": round(export_s, 2),
        "import_s": round(import_s, 2),
        "file_mib": round(size_mib, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    results = [measure(size) for size in args.sizes]
    print(f"{'N':>8}{'export/s':>10}{'import/s':>10}{'embed/s':>9}{'file MiB':>10}")
    for row in results:
        print(
            f"{row['n']:>8}{row['export_per_s']:>10}{row['import_per_s']:>10}"
            f"{row['embedding_per_s']:>9}{row['file_mib']:>10}"
        )
    model = load_settings().embedding_model or "default"
    write_results(results, args.out, f"backup-{model}.json")


if __name__ == "__main__":
    main()

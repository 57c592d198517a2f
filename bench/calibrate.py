"""Calibrate the guard, link and merge thresholds of an embedding model on ../shared/eval.

    python bench/calibrate.py                          # the configured model
    EGO_MCP_EMBEDDING_MODEL=all-MiniLM-L6-v2 python bench/calibrate.py

- guard: the similarity from which the nearest memory is a duplicate candidate (then the
  judgement of ``memory/guard/`` decides). Chosen on the labelled pairs as the
  value with the best F1 in the weaker of the two languages (ties: the higher value).
- link: remember auto-links memories at least this similar. Chosen as the lower quartile
  of the labelled near-misses (``dup: false``: the same scene with one fact changed), so
  a link means "about the same thing", as close as a retelling with one fact changed
  usually is; and never below the 99.9th percentile between the recall set's memories,
  which are nearly all about different things.
- merge: consolidation proposes pairs at least this similar (the evidence rules apply
  too), the guard's value: a pair the guard would have refused.

Prints the values (as cosine distances, what the settings take) and writes
bench/results/calibration-<model>.json. Copy them into ``MODEL_THRESHOLDS``
(src/ego_mcp/memory/thresholds.py) to make them a model's defaults.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ego_mcp.embedding import create_embedder
from ego_mcp.memory.guard import compare
from ego_mcp.settings import load_settings

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT.parent / "shared" / "eval"
GRID = [round(0.70 + 0.01 * i, 2) for i in range(26)]


def f1(pairs: list[dict[str, Any]], sims: np.ndarray[Any, Any], threshold: float) -> float:
    tp = fp = fn = 0
    for pair, sim in zip(pairs, sims, strict=True):
        duplicate = compare(pair["a"], pair["b"], float(sim), threshold).duplicate
        tp += duplicate and pair["dup"]
        fp += duplicate and not pair["dup"]
        fn += (not duplicate) and pair["dup"]
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def main() -> None:
    settings = load_settings()
    embedder = create_embedder(settings)
    pairs = [json.loads(line) for line in (EVAL / "dedup_dev.jsonl").read_text().splitlines()]
    a = embedder.embed([p["a"] for p in pairs])
    b = embedder.embed([p["b"] for p in pairs])
    sims = (a * b).sum(axis=1)
    scores = {}
    for threshold in GRID:
        by_lang = [
            f1(
                [p for p in pairs if p["lang"] == lang],
                sims[[i for i, p in enumerate(pairs) if p["lang"] == lang]],
                threshold,
            )
            for lang in ("en", "ja")
        ]
        scores[threshold] = min(by_lang)
    guard = max(GRID, key=lambda t: (scores[t], t))
    memories = json.loads((EVAL / "recall_dev.json").read_text())["memories"]
    vectors = embedder.embed([m["text"] for m in memories])
    between = vectors @ vectors.T
    upper = between[np.triu_indices(len(memories), k=1)]
    near_misses = [float(sim) for pair, sim in zip(pairs, sims, strict=True) if not pair["dup"]]
    link = max(float(np.percentile(near_misses, 25)), float(np.percentile(upper, 99.9)))
    result = {
        "model": settings.resolved_embedding_model,
        "guard_similarity": guard,
        "guard_f1_weaker_language": round(scores[guard], 3),
        "link_similarity": round(link, 3),
        "distances": {
            "EGO_MCP_DEDUP_THRESHOLD": round(1 - guard, 3),
            "EGO_MCP_MERGE_THRESHOLD": round(1 - guard, 3),
            "EGO_MCP_LINK_THRESHOLD": round(1 - link, 3),
        },
    }
    print(json.dumps(result, indent=1))
    out = ROOT / "bench" / "results" / f"calibration-{result['model']}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

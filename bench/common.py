"""Helpers shared by the benchmarks: synthetic sentences, percentiles, the model, results."""

from __future__ import annotations

import json
import random
import re
import statistics
from pathlib import Path
from typing import Any

from ego_mcp.embedding.local import LocalMiniLM, resolve_model_dir

ROOT = Path(__file__).resolve().parent.parent
# A recall answer's hits, in rank order: the id opening each numbered line (a line may
# name another memory too, the one it was saved beside).
HIT_ID = re.compile(r"^\d+\. \[[^\]]*\] (mem_[0-9a-f]{12}):", re.MULTILINE)


def recalled_ids(answer: str) -> list[str]:
    """The ids of a ``recall`` answer's hits, best first."""
    return HIT_ID.findall(answer)


SUBJECTS = [
    "Master",
    "the old cat",
    "my neighbour",
    "a stranger",
    "the child",
    "my friend Aoi",
    "the baker",
    "a traveller",
    "the teacher",
    "my sister",
    "the gardener",
    "a musician",
]
VERBS = [
    "talked about",
    "laughed at",
    "worried about",
    "dreamed of",
    "argued over",
    "explained",
    "sketched",
    "remembered",
    "wrote a poem on",
    "asked me about",
    "cooked",
    "fixed",
]
OBJECTS = [
    "the stars",
    "a broken radio",
    "the river at dawn",
    "quantum computers",
    "old photos",
    "the first snow",
    "a Rust compiler bug",
    "summer festivals",
    "the meaning of home",
    "a lost umbrella",
    "jazz records",
    "the mountain trail",
    "tea ceremonies",
    "a red kite",
]
PLACES = [
    "in the kitchen",
    "at the station",
    "by the sea",
    "in the library",
    "on the roof",
    "in a small cafe",
    "at the market",
    "in the garden",
    "on the night bus",
    "at school",
]
TIMES = [
    "this morning",
    "late at night",
    "on a rainy afternoon",
    "during lunch",
    "at sunset",
    "before the meeting",
    "on Sunday",
    "after the storm",
]


def sentences(count: int, seed: int) -> list[str]:
    """``count`` distinct sentences from a combinatorial grammar, with a serial for uniqueness."""
    rng = random.Random(seed)
    return [
        f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
        f"{rng.choice(PLACES)} {rng.choice(TIMES)} (note {seed}-{i})."
        for i in range(count)
    ]


# The same kind of diary sentence in Japanese (rss_bench.py --japanese).
JA_SUBJECTS = ["マスター", "アヤ", "ケン", "母", "同僚の佐藤さん", "隣の猫", "先生", "妹"]
JA_OBJECTS = ["古い写真", "壊れたラジオ", "夏祭り", "山道", "ジャズのレコード", "赤い凧", "初雪"]
JA_VERBS = ["について話した", "の夢を見た", "を思い出した", "の絵を描いた", "を直した", "に驚いた"]
JA_PLACES = ["台所", "駅", "海辺", "図書館", "屋上", "小さなカフェ", "市場", "庭"]
JA_TIMES = ["今朝", "夜遅く", "雨の午後", "昼休み", "夕方", "日曜日", "嵐のあと"]


def japanese_sentences(count: int, seed: int) -> list[str]:
    """``count`` distinct Japanese sentences from the same kind of grammar."""
    rng = random.Random(seed)
    return [
        f"{rng.choice(JA_TIMES)}、{rng.choice(JA_SUBJECTS)}は{rng.choice(JA_PLACES)}で"
        f"{rng.choice(JA_OBJECTS)}{rng.choice(JA_VERBS)}（メモ {seed}-{i}）。"
        for i in range(count)
    ]


def load_embedder(model_dir: Path | None) -> LocalMiniLM:
    """The local model from ``model_dir``, the offline copy beside the repo, or Chroma's cache."""
    shared = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2"
    return LocalMiniLM(model_dir or (shared if shared.is_dir() else resolve_model_dir(None)))


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
    }


def write_results(results: Any, out: Path | None, default_name: str) -> None:
    """``results`` as JSON to ``out``, or to bench/results/``default_name``; says where."""
    path = out or ROOT / "bench" / "results" / default_name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2))
    print(f"wrote {path}")

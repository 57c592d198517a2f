"""Fading on LoCoMo with the conversation's own dates: what a fade does to recall.

    python bench/fade_bench.py                       # ../shared/eval/locomo-dev
    python bench/fade_bench.py --half-lives 30 90 --weights 0.1 0.3

``bench/locomo_bench.py`` saves every turn "now", so age cannot matter there. Here each
conversation goes into a fresh store in this process, every turn saved through the
memory service (force, as the protocol keeps every turn) with the clock at its
session's date and time (a second apart within a session); the questions are asked the
day after the last session, first with no fade, then with each half-life and weight, on
the same store. Nothing is recalled more than once before the questions, so recall
counts play no part: what is measured is the cost of age to questions about the whole
conversation. R@5 and R@10 per category and overall; writes bench/results/fade-<model>.json.

LoCoMo is CC BY-NC and for evaluation only: it is read from ../shared, never copied.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import write_results
from locomo_bench import CATEGORIES, DEFAULT_DATA, recall_at

from ego_mcp.clock import FixedClock
from ego_mcp.memory.fading import Fade
from ego_mcp.memory.service import Draft
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings

Dated = tuple[str, str, datetime]  # dialog id, "<speaker>: <text>", when said


def session_date(text: str) -> datetime:
    """LoCoMo's "1:56 pm on 8 May, 2023"."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def dated_turns(sample: dict[str, Any]) -> list[Dated]:
    talk = sample["conversation"]
    turns: list[Dated] = []
    session = 1
    while f"session_{session}" in talk:
        start = session_date(talk[f"session_{session}_date_time"])
        for offset, turn in enumerate(talk[f"session_{session}"]):
            said = f"{turn['speaker']}: {turn['text']}"
            turns.append((turn["dia_id"], said, start + timedelta(seconds=offset)))
        session += 1
    return turns


def questions(sample: dict[str, Any]) -> list[tuple[str, set[str], int]]:
    return [
        (q["question"], set(q["evidence"]), int(q["category"]))
        for q in sample["qa"]
        if q.get("category") in CATEGORIES and q.get("evidence")
    ]


def run(sample: dict[str, Any], fades: list[Fade | None]) -> list[dict[str, Any]]:
    turns = dated_turns(sample)
    clock = FixedClock(turns[0][2])
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(data_dir=Path(folder))
        runtime = Runtime.open(settings, clock=clock)
        try:
            memory = runtime.memory(settings.agent)
            ids: dict[str, str] = {}
            for dialog_id, said, when in turns:
                clock.set(when)
                saved = memory.remember(Draft(content=said), True).saved
                assert saved is not None
                ids[saved.id] = dialog_id
            clock.set(turns[-1][2] + timedelta(days=1))
            rows = []
            for question, evidence, category in questions(sample):
                row: dict[str, Any] = {"category": CATEGORIES[category]}
                for fade in fades:
                    memory.fade = fade
                    found = [ids[r.memory.id] for r in memory.recall(question, 10)]
                    label = _label(fade)
                    for k in (5, 10):
                        row[f"{label}@{k}"] = recall_at(found, evidence, k)
                rows.append(row)
            memory.fade = None
            return rows
        finally:
            runtime.close()


def _label(fade: Fade | None) -> str:
    return "none" if fade is None else f"{fade.half_life_days:g}d/{fade.weight:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--half-lives", type=float, nargs="+", default=[30.0, 90.0])
    parser.add_argument("--weights", type=float, nargs="+", default=[0.1, 0.3])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    fades: list[Fade | None] = [None] + [
        Fade(half, weight) for half in args.half_lives for weight in args.weights
    ]
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    rows = [row for sample in samples for row in run(sample, fades)]
    labels = [_label(f) for f in fades]
    table: dict[str, dict[str, float]] = defaultdict(dict)
    for label in labels:
        for k in (5, 10):
            key = f"{label}@{k}"
            table["all"][key] = sum(r[key] for r in rows) / len(rows)
            for category in CATEGORIES.values():
                chosen = [r for r in rows if r["category"] == category]
                table[category][key] = sum(r[key] for r in chosen) / max(len(chosen), 1)
    print(f"{'':12}" + "".join(f"{label:>14}" for label in labels))
    for group, values in table.items():
        print(f"{group:12}" + "".join(f"{values[f'{label}@10']:>14.3f}" for label in labels))
    write_results(
        {"questions": len(rows), "recall_at": table, "data": str(args.data)},
        args.out,
        "fade.json",
    )


if __name__ == "__main__":
    main()

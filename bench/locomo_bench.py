"""Recall on long conversations (LoCoMo), through a server subprocess over stdio.

    python bench/locomo_bench.py                          # ../shared/eval/locomo-dev
    python bench/locomo_bench.py --data FILE --conversations 0 2

The protocol of ../shared/eval/locomo-dev/README.md: each conversation goes into a fresh
store, every dialog turn saved with ``remember`` as "<speaker>: <text>" (force=true, so
that the guard keeps every turn, as the protocol stores each one); every question of
categories 1-4 is asked with ``recall(n_results=10)``; R@k is the share of the question's
evidence turns among the first k ids of the answer, averaged over questions.

Beside it, in this process and on the same turns, the halves alone:
- ``bm25``: a plain Okapi BM25 (k1 1.2, b 0.75, lower-cased ``\\w+`` words, no stemming),
  the thirty-line baseline the issue measured;
- ``bm25 (ego-mcp terms)``: the same over ego-mcp's terms (lemmas, Japanese words) with
  its per-script IDF (``memory/recall/bm25.py``): the lexical half of recall alone;
- ``vectors``: cosine similarity of the configured embedding alone.

LoCoMo is CC BY-NC and for evaluation only: it is read from ../shared, never copied.
Prints R@5 and R@10 per conversation, per category and overall; writes
bench/results/locomo-<model>.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from common import ROOT, recalled_ids, write_results
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from ego_mcp.embedding import create_embedder
from ego_mcp.memory.recall import bm25
from ego_mcp.memory.recall.terms import terms
from ego_mcp.settings import load_settings

DEFAULT_DATA = ROOT.parent / "shared" / "eval" / "locomo-dev" / "locomo_dev3.json"
ID = re.compile(r"mem_[0-9a-f]{12}")
WORD = re.compile(r"\w+")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10)

Turn = tuple[str, str]  # dialog id, "<speaker>: <text>"
Question = tuple[str, set[str], int]  # question, evidence dialog ids, category


def conversation(sample: dict[str, Any]) -> tuple[list[Turn], list[Question]]:
    talk = sample["conversation"]
    turns: list[Turn] = []
    session = 1
    while f"session_{session}" in talk:
        turns.extend(
            (t["dia_id"], f"{t['speaker']}: {t['text']}") for t in talk[f"session_{session}"]
        )
        session += 1
    questions = [
        (q["question"], set(q["evidence"]), int(q["category"]))
        for q in sample["qa"]
        if q.get("category") in CATEGORIES and q.get("evidence")
    ]
    return turns, questions


def recall_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    return len(set(ranked[:k]) & relevant) / len(relevant)


class PlainBM25:
    """Okapi BM25 over lower-cased words, as a thirty-line implementation would have it."""

    def __init__(self, documents: list[list[str]]) -> None:
        self.documents = [Counter(d) for d in documents]
        self.lengths = [len(d) for d in documents]
        self.average = sum(self.lengths) / max(1, len(documents))
        self.frequency = Counter(t for d in documents for t in set(d))

    def rank(self, query: list[str]) -> list[int]:
        n = len(self.documents)
        weights = {
            t: math.log(1 + (n - self.frequency[t] + 0.5) / (self.frequency[t] + 0.5))
            for t in set(query)
            if self.frequency[t]
        }
        scores = [
            sum(
                w * d[t] * 2.2 / (d[t] + 1.2 * (0.25 + 0.75 * length / self.average))
                for t, w in weights.items()
                if d[t]
            )
            for d, length in zip(self.documents, self.lengths, strict=True)
        ]
        return [i for i in np.argsort(-np.asarray(scores), kind="stable") if scores[i] > 0]


def ego_bm25_ranker(texts: list[str]) -> Callable[[str], list[int]]:
    documents = {str(i): tuple(terms(text)) for i, text in enumerate(texts)}
    frequencies = Counter(t for d in documents.values() for t in set(d))
    stats = bm25.CorpusStats().with_documents(documents.values())

    def rank(question: str) -> list[int]:
        scores = bm25.scores(terms(question), documents, frequencies, stats)
        return [int(i) for i in sorted(scores, key=lambda i: -scores[i]) if scores[i] > 0]

    return rank


async def through_recall(turns: list[Turn], questions: list[Question]) -> list[list[str]]:
    """Each question's ranked dialog ids, from a fresh ego-mcp server over stdio."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "EGO_MCP_DATA_DIR": scratch, "EGO_MCP_LOG_LEVEL": "WARNING"}
        env.pop("EGO_MCP_WORKSPACE_DIR", None)
        parameters = StdioServerParameters(
            command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env
        )
        async with stdio_client(parameters) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            by_memory: dict[str, str] = {}
            for number, (dialog_id, text) in enumerate(turns, start=1):
                answer = await _text(s, "remember", {"content": text, "force": True})
                found = ID.search(answer)
                assert found is not None, answer
                by_memory[found.group(0)] = dialog_id
                print(f"\r  remembered {number}/{len(turns)}", end="", file=sys.stderr)
            print(file=sys.stderr)
            ranked = []
            for question, _, _ in questions:
                answer = await _text(s, "recall", {"context": question, "n_results": 10})
                data = answer.split("\n\n---\n")[0]
                ranked.append([by_memory[m] for m in recalled_ids(data) if m in by_memory])
            return ranked


async def _text(session: ClientSession, tool: str, arguments: dict[str, Any]) -> str:
    result = await session.call_tool(tool, arguments)
    text = str(result.content[0].text)  # type: ignore[union-attr]
    if result.is_error:
        raise RuntimeError(f"{tool}: {text}")
    return text


def summarise(rows: list[dict[str, Any]], methods: list[str]) -> dict[str, Any]:
    def mean(selected: list[dict[str, Any]], method: str, k: int) -> float:
        return round(float(np.mean([r[method][k] for r in selected])), 3) if selected else 0.0

    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups["all"].append(row)
        groups[f"conversation {row['conversation']}"].append(row)
        groups[CATEGORIES[row["category"]]].append(row)
    return {
        name: {
            "n": len(selected),
            **{f"{m} R@{k}": mean(selected, m, k) for m in methods for k in KS},
        }
        for name, selected in groups.items()
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--conversations", type=int, nargs="*", help="indexes (default: all)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    samples = json.loads(args.data.read_text())
    chosen = args.conversations if args.conversations else list(range(len(samples)))
    embedder = create_embedder(load_settings())
    methods = ["ego-mcp recall", "bm25", "bm25 (ego-mcp terms)", "vectors"]
    rows: list[dict[str, Any]] = []
    for index in chosen:
        turns, questions = conversation(samples[index])
        print(
            f"conversation {index}: {len(turns)} turns, {len(questions)} questions", file=sys.stderr
        )
        ids = [dialog_id for dialog_id, _ in turns]
        texts = [text for _, text in turns]
        plain = PlainBM25([WORD.findall(t.lower()) for t in texts])
        ours = ego_bm25_ranker(texts)
        similarity = embedder.embed([q for q, _, _ in questions]) @ embedder.embed(texts).T
        recalled = await through_recall(turns, questions)
        for number, (question, evidence, category) in enumerate(questions):
            rankings = {
                "ego-mcp recall": recalled[number],
                "bm25": [ids[i] for i in plain.rank(WORD.findall(question.lower()))],
                "bm25 (ego-mcp terms)": [ids[i] for i in ours(question)],
                "vectors": [ids[i] for i in np.argsort(-similarity[number])],
            }
            rows.append(
                {
                    "conversation": index,
                    "category": category,
                    **{m: {k: recall_at(r, evidence, k) for k in KS} for m, r in rankings.items()},
                }
            )
    table = summarise(rows, methods)
    print(f"\nLoCoMo retrieval, {embedder.signature.model}, {len(rows)} questions")
    print(f"{'':20s}" + "".join(f"{m + ' R@' + str(k):>28s}" for m in methods for k in KS))
    for name, values in table.items():
        cells = "".join(f"{values[f'{m} R@{k}']:>28.3f}" for m in methods for k in KS)
        print(f"{name + ' (' + str(values['n']) + ')':20s}{cells}")
    best_half = max(table["all"]["bm25 R@10"], table["all"]["vectors R@10"])
    ratio = table["all"]["ego-mcp recall R@10"] / best_half if best_half else 0.0
    print(f"\nego-mcp recall R@10 / the better of bm25 and vectors alone: {ratio:.3f}")
    write_results(
        {"model": embedder.signature.model, "table": table, "ratio_to_better_half": ratio},
        args.out,
        f"locomo-{embedder.signature.model}.json",
    )


if __name__ == "__main__":
    asyncio.run(main())

"""Tool latency the way users feel it: a server subprocess over stdio, calls back to back.

    python bench/stdio_bench.py                          # N = 1,000 and 10,000
    python bench/stdio_bench.py --sizes 1000 10000 100000 --ops 100

For each N, with the configured model (``EGO_MCP_EMBEDDING_MODEL``, default USE v3):

1. Build the store. The last ``--remember-seed`` memories (default 1,000) go through
   ``remember`` over stdio, the way users build a store (auto-links, the guard); the rest,
   if N is larger, through the bulk path (batched embedding, one Chroma add per batch).
   Seeding throughput through ``remember`` is reported.
2. Respawn the server on that store (cold start: spawn until ``tools/list`` answers), then
   time ``--ops`` calls each, back to back: ``remember`` of new sentences, ``recall``
   (a sentence's first 40 characters, n_results=5; the floor embeds the same), ``forget``
   of the memories just remembered (with their auto-links).
   The first call of a session (a ``recall``) is timed alone: right after ``tools/list``
   (empty store), and after a pause of 3 s (seeded store), as when a user types first.
   Server CPU per call (from /proc) and the server's peak RSS (VmHWM).
3. The floor, in this process, in the same run: the bare embedding and the bare Chroma
   operations each tool cannot avoid, on a scratch collection of the same size, which
   Chroma syncs as often as the product's (``hnsw_configuration``):
   remember = embed + query + add + a 2-record update (one link); recall = embed + query;
   forget = get + a deletion-log write (one row in a SQLite file, each commit synced, as
   the embedded store's log writes it) + a 2-record update + delete.
4. The MCP round trip, in the same run: a do-nothing tool on the SDK's own server
   (``bare_mcp_server.py``, stdout written by the event loop as ours is), answering as
   many characters as a ``recall`` does. Each tool's p50 is also given as a ratio to its
   floor plus this round trip, which the floor leaves out and no server can.
5. The minimal ``recall``, in the same run, on the store ego-mcp left (N memories, as
   the floor's; ego-mcp's recalls ran with the 100 it remembered): the SDK's own server
   running the same search inline and answering the same text
   (``minimal_recall_server.py``), the same calls. ego-mcp's p50 over its p50 is what
   ego-mcp's own layers cost; its ratio to the floor is what no SDK server goes under.

Prints p50/p95 and the ratio to the floor; writes bench/results/stdio-<model>.json.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import chromadb
from common import percentiles, sentences, write_results
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from ego_mcp.embedding import create_embedder
from ego_mcp.embedding.base import Embedder
from ego_mcp.memory.model import Memory, new_memory_id
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from ego_mcp.store.chroma import hnsw_configuration

ID = re.compile(r"mem_[0-9a-f]{12}")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
AGENT = "bench"
BULK_BATCH = 500
FIRST_CALL_PAUSE_S = 3.0  # a session's first call usually comes a while after tools/list
EGO_MCP = ("-m", "ego_mcp", "serve")
# "serve" in its command line is how _server_pid finds it; the script ignores it.
MINIMAL_RECALL = (str(Path(__file__).with_name("minimal_recall_server.py")), "serve")


@dataclass
class Server:
    session: ClientSession
    pid: int
    cold_start_s: float

    async def call(self, tool: str, **arguments: Any) -> str:
        result = await self.session.call_tool(tool, arguments)
        text = str(result.content[0].text)  # type: ignore[union-attr]
        if result.is_error:
            raise RuntimeError(f"{tool}: {text}")
        return text

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def peak_rss_mib(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")


def _server_pid(before: set[int]) -> int:
    """The ego-mcp process this bench spawned (a new child of ours)."""
    mine = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in before:
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if stat[1] == mine and b"serve" in cmdline:
            return int(entry.name)
    raise RuntimeError("server process not found")


@asynccontextmanager
async def server(data_dir: Path, args: tuple[str, ...] = EGO_MCP) -> AsyncIterator[Server]:
    """A server subprocess on ``data_dir`` (ego-mcp, or ``args`` of another), with its
    session initialised and its tools listed."""
    env = {**os.environ, "EGO_MCP_DATA_DIR": str(data_dir), "EGO_MCP_AGENT": AGENT}
    env["EGO_MCP_LOG_LEVEL"] = "WARNING"
    parameters = StdioServerParameters(command=sys.executable, args=list(args), env=env)
    before = {int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()}
    start = time.perf_counter()
    async with (
        stdio_client(parameters) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        await session.list_tools()
        cold = time.perf_counter() - start
        yield Server(session, _server_pid(before), cold)


async def mcp_round_trip(questions: list[str], answer_chars: int) -> dict[str, Any]:
    """The bare server's ``echo`` asked each question, answering ``answer_chars`` characters."""
    parameters = StdioServerParameters(
        command=sys.executable, args=[str(Path(__file__).with_name("bare_mcp_server.py"))]
    )
    async with (
        stdio_client(parameters) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        await session.list_tools()
        node = Server(session, os.getpid(), 0.0)
        calls = [("echo", {"text": q, "size": answer_chars}) for q in questions]
        samples = await timed_calls(node, calls, warm_up=10)
    samples.pop("answers")
    samples.pop("server_cpu_ms")
    return samples


async def first_recall_ms(node: Server) -> int:
    start = time.perf_counter()
    await node.call("recall", context="first call of the session", n_results=5)
    return round((time.perf_counter() - start) * 1000)


def bulk_seed(data_dir: Path, texts: list[str]) -> float:
    """``texts`` saved now through the bulk path; memories per second."""
    now = datetime.now(UTC)
    return bulk_add(data_dir, [Memory(id=new_memory_id(), content=t, timestamp=now) for t in texts])


def bulk_add(data_dir: Path, memories: list[Memory], **settings: Any) -> float:
    """The bulk path: batched embedding, one add per batch; memories per second.
    ``settings``: overrides (another model)."""
    runtime = Runtime.open(load_settings(data_dir=data_dir, agent=AGENT, **settings))
    try:
        store = runtime.memory(AGENT).store
        start = time.perf_counter()
        for offset in range(0, len(memories), BULK_BATCH):
            chunk = memories[offset : offset + BULK_BATCH]
            store.add_many(chunk, runtime.embedder.embed([m.content for m in chunk]))
        return len(memories) / (time.perf_counter() - start) if memories else 0.0
    finally:
        runtime.close()


async def timed_calls(
    node: Server, calls: list[tuple[str, dict[str, Any]]], warm_up: int = 0
) -> dict[str, Any]:
    for tool, arguments in calls[:warm_up]:
        await node.call(tool, **arguments)
    samples, answers = [], []
    cpu = node.cpu_s()
    for tool, arguments in calls:
        start = time.perf_counter()
        answers.append(await node.call(tool, **arguments))
        samples.append(time.perf_counter() - start)
    cpu_ms = (node.cpu_s() - cpu) * 1000 / len(calls)
    return {**percentiles(samples), "server_cpu_ms": round(cpu_ms, 1), "answers": answers}


def recall_context(sentence: str) -> str:
    """What a recall asks for: the start of a sentence (the floor embeds the same)."""
    return sentence[:40]


def floor(embedder: Embedder, size: int, ops: int) -> dict[str, Any]:
    """The bare operations of each tool on a scratch collection of ``size`` records."""
    texts = sentences(size, seed=11)
    with tempfile.TemporaryDirectory() as scratch:
        client = chromadb.PersistentClient(path=scratch)
        # configured as the product configures its collections
        collection = client.create_collection(
            "floor", configuration={"hnsw": hnsw_configuration("cosine")}
        )
        deletion_log = sqlite3.connect(Path(scratch) / "log.sqlite3", isolation_level=None)
        deletion_log.execute("PRAGMA journal_mode = WAL")
        deletion_log.execute("PRAGMA synchronous = FULL")
        deletion_log.execute("CREATE TABLE entries (id TEXT PRIMARY KEY, content TEXT, at REAL)")
        for offset in range(0, size, BULK_BATCH):
            chunk = texts[offset : offset + BULK_BATCH]
            collection.add(
                ids=[f"f{offset + i}" for i in range(len(chunk))],
                documents=chunk,
                embeddings=embedder.embed(chunk),
                metadatas=[{"ts": 0.0}] * len(chunk),
            )
        probe = sentences(ops, seed=12)
        stamp = datetime.now(UTC).timestamp()
        times: dict[str, list[float]] = {"remember": [], "recall": [], "forget": []}
        for i, text in enumerate(probe):
            start = time.perf_counter()
            vector = embedder.embed([text])
            near = collection.query(query_embeddings=vector, n_results=5)
            collection.add(ids=[f"p{i}"], documents=[text], embeddings=vector,
                           metadatas=[{"ts": stamp}])  # fmt: skip
            collection.update(ids=[f"p{i}", near["ids"][0][0]],
                              metadatas=[{"ts": stamp}, {"ts": stamp}])  # fmt: skip
            times["remember"].append(time.perf_counter() - start)
        for text in probe:
            start = time.perf_counter()
            collection.query(query_embeddings=embedder.embed([recall_context(text)]), n_results=5)
            times["recall"].append(time.perf_counter() - start)
        for i in range(ops):
            start = time.perf_counter()
            found = collection.get(ids=[f"p{i}"], include=["metadatas", "documents"])
            deletion_log.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)",
                                 (f"p{i}", found["documents"][0], stamp))  # fmt: skip
            collection.update(ids=[f"f{i}", f"f{i + 1}"], metadatas=[{"ts": stamp}] * 2)
            collection.delete(ids=[f"p{i}"])
            times["forget"].append(time.perf_counter() - start)
        deletion_log.close()
    return {tool: percentiles(samples) for tool, samples in times.items()}


async def measure(size: int, ops: int, remember_seed: int, embedder: Embedder) -> dict[str, Any]:
    texts = sentences(size + ops, seed=1)
    seed_texts, fresh = texts[:size], texts[size:]
    via_remember = min(size, remember_seed)
    recall_calls = [("recall", {"context": recall_context(t), "n_results": 5}) for t in fresh]
    result: dict[str, Any] = {"n_memories": size, "ops": ops}
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp)
        result["bulk_seed_per_s"] = round(bulk_seed(data_dir, seed_texts[: size - via_remember]))
        async with server(data_dir) as node:
            result["cold_start_empty_s"] = round(node.cold_start_s, 2)
            result["first_call_at_once_ms"] = await first_recall_ms(node)
            start = time.perf_counter()
            for text in seed_texts[size - via_remember :]:
                await node.call("remember", content=text)
            elapsed = time.perf_counter() - start
            result["seed_via_remember_per_s"] = round(via_remember / elapsed, 1)
        async with server(data_dir) as node:
            result["cold_start_s"] = round(node.cold_start_s, 2)
            await asyncio.sleep(FIRST_CALL_PAUSE_S)
            result["first_call_after_pause_ms"] = await first_recall_ms(node)
            remember = await timed_calls(node, [("remember", {"content": t}) for t in fresh])
            answers = remember.pop("answers")
            saved = [m.group(0) for m in map(ID.search, answers) if m]
            links = [int(n) for n in re.findall(r"Linked to (\d+)", " ".join(answers))]
            recall = await timed_calls(node, recall_calls)
            answer_chars = round(statistics.fmean(len(a) for a in recall.pop("answers")))
            forget = await timed_calls(node, [("forget", {"memory_id": i}) for i in saved])
            forget.pop("answers")
            result["peak_rss_mib"] = round(node.peak_rss_mib())
        async with server(data_dir, MINIMAL_RECALL) as node:  # the store ours left, N memories
            minimal = await timed_calls(node, recall_calls, warm_up=10)
            minimal.pop("answers")
    result["links_per_remembered"] = round(statistics.fmean(links), 2) if links else 0.0
    result["tools"] = {"remember": remember, "recall": recall, "forget": forget}
    result["floor"] = floor(embedder, size, ops)
    minimal["ratio_to_floor"] = round(minimal["p50_ms"] / result["floor"]["recall"]["p50_ms"], 2)
    minimal["ours_over_minimal"] = round(recall["p50_ms"] / minimal["p50_ms"], 2)
    result["minimal_sdk_recall"] = minimal
    questions = [arguments["context"] for _, arguments in recall_calls]
    round_trip = await mcp_round_trip(questions, answer_chars)
    result["mcp_round_trip"] = {**round_trip, "chars": answer_chars}
    trip = result["mcp_round_trip"]["p50_ms"]
    for tool, figures in result["tools"].items():
        bare = result["floor"][tool]["p50_ms"]
        figures["ratio_to_floor"] = round(figures["p50_ms"] / bare, 2)
        figures["ratio_to_floor_and_round_trip"] = round(figures["p50_ms"] / (bare + trip), 2)
    return result


def render(results: list[dict[str, Any]]) -> str:
    lines = [
        f"{'N':>7} {'tool':<9} {'p50':>8} {'p95':>8} {'floor':>8} {'ratio':>6} "
        f"{'+trip':>6} {'cpu':>7}"
    ]
    for row in results:
        for tool, f in row["tools"].items():
            lines.append(
                f"{row['n_memories']:>7} {tool:<9} {f['p50_ms']:>8} {f['p95_ms']:>8} "
                f"{row['floor'][tool]['p50_ms']:>8} {f['ratio_to_floor']:>6} "
                f"{f['ratio_to_floor_and_round_trip']:>6} {f['server_cpu_ms']:>7}"
            )
        minimal = row["minimal_sdk_recall"]
        lines.append(
            f"{'':>7} minimal SDK server, same recall inline: p50 {minimal['p50_ms']} ms, "
            f"p95 {minimal['p95_ms']} ms, ratio {minimal['ratio_to_floor']}, cpu "
            f"{minimal['server_cpu_ms']}; ours / minimal {minimal['ours_over_minimal']}"
        )
        trip = row["mcp_round_trip"]
        lines.append(
            f"{'':>7} MCP round trip (do-nothing tool, {trip['chars']} chars back): "
            f"p50 {trip['p50_ms']} ms, p95 {trip['p95_ms']} ms; +trip = p50 / (floor + trip)"
        )
        lines.append(
            f"{'':>7} seeding {row['seed_via_remember_per_s']}/s via remember, "
            f"bulk {row['bulk_seed_per_s']}/s; cold start {row['cold_start_empty_s']} s "
            f"(empty), {row['cold_start_s']} s (N); first recall {row['first_call_at_once_ms']} ms "
            f"at once, {row['first_call_after_pause_ms']} ms after {FIRST_CALL_PAUSE_S:.0f} s; "
            f"peak RSS {row['peak_rss_mib']} MiB; "
            f"{row['links_per_remembered']} links per remember"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--ops", type=int, default=100)
    parser.add_argument("--remember-seed", type=int, default=1000)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    settings = load_settings()
    embedder = create_embedder(settings)
    results = [
        asyncio.run(measure(size, args.ops, args.remember_seed, embedder)) for size in args.sizes
    ]
    model = embedder.signature.model
    print(f"model: {model}; times in ms, cpu = server CPU ms per call")
    print(render(results))
    write_results(results, args.out, f"stdio-{model}.json")


if __name__ == "__main__":
    main()

"""The server's resident memory the way a session grows it: after start, and after a few
dozen saves and a recall, over stdio.

    python bench/rss_bench.py                 # ours on USE v3 and on MiniLM, and upstream
    python bench/rss_bench.py --saves 200
    python bench/rss_bench.py --japanese 20   # then 20 Japanese saves and a Japanese recall

For each server: spawn it as a client would (until ``tools/list`` answers), wait for its
start-up work (the model's warm-up) to settle, read /proc; then ``--saves`` distinct
sentences through ``remember`` (the guard compares each with its nearest memories, which
loads the English parser), one ``recall``, and /proc again; with ``--japanese``, that many
Japanese sentences and a Japanese recall after them (the Japanese analyser and the
dictionary across languages load), and /proc once more. Reported: VmRSS with its
anonymous and file-backed parts (file pages are the page cache's, shared with every
process mapping them) and VmHWM, the peak.

Upstream 0.2.3 is measured when ``../shared/bench-upstream/`` and its prepared virtual
environment are there (``sidebyside.py`` builds it); otherwise it is skipped with a note.
Writes bench/results/rss.json.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from common import ROOT, japanese_sentences, sentences, write_results
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

UPSTREAM_BENCH = ROOT.parent / "shared" / "bench-upstream"
FIELDS = ("VmRSS", "RssAnon", "RssFile", "VmHWM")
SETTLE_S = 4.0  # the model's warm-up thread runs for about two seconds after start
Serving = Callable[[Path], AbstractAsyncContextManager[tuple[ClientSession, int]]]


def status(pid: int) -> dict[str, float]:
    """The memory fields of /proc/<pid>/status, in MiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name = line.split(":", 1)[0]
        if name in FIELDS:
            found[name] = round(int(line.split()[1]) / 1024, 1)
    return found


def ours(model: str) -> Serving:
    @asynccontextmanager
    async def serving(tmp: Path) -> AsyncIterator[tuple[ClientSession, int]]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("EGO_MCP_")}
        env.update(EGO_MCP_DATA_DIR=str(tmp / "data"), EGO_MCP_EMBEDDING_MODEL=model)
        model_dir = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2"
        if model_dir.is_dir():
            env["EGO_MCP_EMBEDDING_MODEL_DIR"] = str(model_dir)
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env
        )
        with open(os.devnull, "w") as errors:
            async with (
                stdio_client(params, errlog=errors) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await session.list_tools()
                yield session, _only_child()

    return serving


def upstream() -> Serving | None:
    """Upstream 0.2.3 on MiniLM through ``sidebyside.py``'s launcher, if prepared."""
    if not (UPSTREAM_BENCH / "sidebyside.py").is_file():
        return None
    sys.path.insert(0, str(UPSTREAM_BENCH))
    import sidebyside  # type: ignore[import-not-found]

    if not Path(sidebyside.UP_VENV, "bin", "python").exists():
        return None

    @asynccontextmanager
    async def serving(tmp: Path) -> AsyncIterator[tuple[ClientSession, int]]:
        with open(os.devnull, "w") as errors:
            async with sidebyside.serving("upstream", tmp, errors) as (session, pid, _):
                yield session, pid

    return serving


def _only_child() -> int:
    children = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split()
    if len(children) != 1:
        raise RuntimeError(f"cannot tell the server's pid among {children}")
    return int(children[0])


async def measure(serving: Serving, saves: int, japanese: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        async with serving(Path(tmp)) as (session, pid):
            await asyncio.sleep(SETTLE_S)
            found = {"after_start": status(pid)}
            for text in sentences(saves, seed=21):
                await session.call_tool("remember", {"content": text})
            await session.call_tool("recall", {"context": "walked by the river", "n_results": 5})
            found["after_recall"] = status(pid)
            if japanese:
                for text in japanese_sentences(japanese, seed=22):
                    await session.call_tool("remember", {"content": text})
                await session.call_tool("recall", {"context": "駅で話した", "n_results": 5})
                found["after_japanese"] = status(pid)
            return found


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--saves", type=int, default=60)
    parser.add_argument("--japanese", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    servers: list[tuple[str, Serving | None]] = [
        ("ours, use-multilingual-v3", ours("use-multilingual-v3")),
        ("ours, all-MiniLM-L6-v2", ours("all-MiniLM-L6-v2")),
        ("upstream 0.2.3, all-MiniLM-L6-v2", upstream()),
    ]
    results: dict[str, Any] = {"saves": args.saves, "japanese": args.japanese, "servers": {}}
    for name, serving in servers:
        if serving is None:
            print(f"{name}: skipped (no ../shared/bench-upstream with its environment)")
            continue
        found = await measure(serving, args.saves, args.japanese)
        results["servers"][name] = found
        start, after = found["after_start"], found["after_recall"]
        print(
            f"{name}: after start {start['VmRSS']} MiB; after {args.saves} saves and a "
            f"recall {after['VmRSS']} MiB (anonymous {after['RssAnon']}, file "
            f"{after['RssFile']}), peak {after['VmHWM']}"
        )
        if "after_japanese" in found:
            ja = found["after_japanese"]
            print(
                f"  after {args.japanese} Japanese saves and a recall {ja['VmRSS']} MiB "
                f"(anonymous {ja['RssAnon']}, file {ja['RssFile']}), peak {ja['VmHWM']}"
            )
    write_results(results, args.out, "rss.json")


if __name__ == "__main__":
    asyncio.run(main())

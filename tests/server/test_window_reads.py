"""Whole-window reads: one thread, one at a time, shared by callers asking at once."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from ego_mcp.server.window_reads import WindowReads

pytestmark = pytest.mark.anyio


async def test_callers_at_once_share_one_read_and_every_read_runs_in_one_thread() -> None:
    reads = WindowReads()
    runs: list[tuple[str, str]] = []

    def consolidate(agent: str) -> str:
        runs.append((agent, threading.current_thread().name))
        time.sleep(0.05)
        return f"stats of {agent}"

    try:
        answers = await asyncio.gather(
            *(reads.run(("consolidate", a), lambda a=a: consolidate(a)) for a in "nnnoo")
        )
        again = await reads.run(("consolidate", "n"), lambda: consolidate("n"))
    finally:
        reads.close()

    assert answers == ["stats of n"] * 3 + ["stats of o"] * 2
    assert again == "stats of n"
    assert [agent for agent, _ in runs] == ["n", "o", "n"]  # shared at once, run again later
    assert len({thread for _, thread in runs}) == 1


async def test_a_failed_read_reaches_every_caller_and_is_not_kept() -> None:
    reads = WindowReads()

    def broken() -> str:
        time.sleep(0.02)
        raise RuntimeError("store away")

    try:
        results = await asyncio.gather(
            reads.run("k", broken), reads.run("k", broken), return_exceptions=True
        )
        assert all(isinstance(r, RuntimeError) for r in results)
        assert await reads.run("k", lambda: "fine") == "fine"
    finally:
        reads.close()

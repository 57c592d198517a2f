"""Three ``ego-mcp serve`` stdio clients on one data dir, as three Claude Code windows
would start them: they share one store; the holder is killed mid-run; the others carry
on within seconds, nothing lost, links two-way."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from tests.conftest import model_dir
from tests.helpers import assert_links_bidirectional, memory_id_in, text_of
from tests.test_e2e_stdio import server_env

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]
PLACES = ("harbour", "orchard", "library", "station", "meadow", "bakery", "bridge", "market")


def text(client: int, index: int) -> str:
    place = PLACES[index % len(PLACES)]
    return f"Window {client} note {index}: met a stranger at the {place} who hummed a tune."


@asynccontextmanager
async def closing_quietly(client: Client) -> AsyncIterator[Client]:
    """The client, closed without raising: one of them talks to a killed server."""
    entered = await client.__aenter__()
    try:
        yield entered
    finally:
        with suppress(BaseException):
            await client.__aexit__(None, None, None)


async def remember(client: Client, content: str) -> str:
    result = await client.call_tool("remember", {"content": content, "force": True})
    assert not result.is_error, text_of(result)
    return memory_id_in(text_of(result))


async def test_three_clients_share_one_store_and_survive_the_holder_being_killed(
    tmp_path: Path,
) -> None:
    env = server_env(tmp_path)
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    sent: set[str] = set()
    async with AsyncExitStack() as stack:
        windows = []
        for _ in range(3):  # the first to start holds the store
            client = Client(params, read_timeout_seconds=60)
            windows.append(await stack.enter_async_context(closing_quietly(client)))
        holder_pid = int((tmp_path / "data" / "chroma" / ".ego-mcp.lock").read_text())
        relay_socket = tmp_path / "data" / "ego-mcp.sock"
        assert stat.S_IMODE(relay_socket.stat().st_mode) == 0o600  # this user only
        ids = {}
        for number, window in enumerate(windows):
            for index in range(3):
                sent.add(text(number, index))
                ids[(number, index)] = await remember(window, text(number, index))
        for number, window in enumerate(windows):  # each sees the others' memories at once
            other = (number + 1) % 3
            found = text_of(
                await window.call_tool("recall", {"context": text(other, 1), "n_results": 1})
            )
            assert ids[(other, 1)] in found

        async def keep_remembering(number: int) -> float:
            """Remember on and on; returns the longest wait for one answer."""
            longest = 0.0
            for index in range(3, 11):
                sent.add(text(number, index))
                started = time.monotonic()
                await remember(windows[number], text(number, index))
                longest = max(longest, time.monotonic() - started)
            return longest

        survivors = [asyncio.create_task(keep_remembering(n)) for n in (1, 2)]
        await asyncio.sleep(0.3)
        os.kill(holder_pid, signal.SIGKILL)  # mid-run: the others have calls in flight
        waits = await asyncio.gather(*survivors)
        assert max(waits) < 15, waits  # the hand-over took seconds, not a timeout

        for number in (1, 2):
            found = text_of(
                await windows[number].call_tool("recall", {"context": text(0, 2), "n_results": 1})
            )
            assert ids[(0, 2)] in found  # the dead holder's memories are all there
        new_holder = int((tmp_path / "data" / "chroma" / ".ego-mcp.lock").read_text())
        assert new_holder != holder_pid

    settings = load_settings(data_dir=tmp_path / "data", embedding_model_dir=model_dir())
    runtime = Runtime.open(settings)
    try:
        store = runtime.memory("default").store
        stored = sorted(m.content for batch, _ in store.batches(500) for m in batch)
        assert stored == sorted(sent)  # every memory, once: nothing lost, nothing doubled
        assert_links_bidirectional(store)
    finally:
        runtime.close()


def test_a_store_held_by_a_process_that_takes_no_sessions_is_named(tmp_path: Path) -> None:
    """``ego-mcp migrate`` or ``reembed`` hold the store without a socket: a stdio server
    started meanwhile says so instead of waiting for ever."""
    from ego_mcp.store.dirlock import DirectoryLock

    lock = DirectoryLock(tmp_path / "data" / "chroma")
    lock.acquire()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ego_mcp", "serve"],
            env=server_env(tmp_path),
            stdin=subprocess.PIPE,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        lock.release()
    assert done.returncode == 2
    assert f"is held by pid {os.getpid()}, which takes no sessions" in done.stderr

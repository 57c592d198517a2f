"""Windows on one data dir, each started as its own agent with its own workspace, as two
Claude Code projects with per-project ``.mcp.json`` files would start them: each is
served as itself by the process that holds the store, and settings that one process
cannot serve two ways are refused in one line. Real processes throughout."""

from __future__ import annotations

import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from tests.conftest import model_dir
from tests.helpers import all_memories, memory_id_in, run_cli, text_of
from tests.test_e2e_stdio import server_env

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

ALICE_PUBLIC = "Alice planted tulips marker-a1-pelican beside the greenhouse door."
ALICE_PRIVATE = "Alice secretly fears thunder marker-a2-walrus more than anything."
BOB_PUBLIC = "Bob repaired the red bicycle marker-b1-heron in the garage today."
BOB_PRIVATE = "Bob hides a letter marker-b2-lynx under the loose floorboard."
MARKERS = {
    "alice": ("marker-a1-pelican", "marker-a2-walrus"),
    "bob": ("marker-b1-heron", "marker-b2-lynx"),
}


def window_env(tmp_path: Path, agent: str, **extra: str) -> dict[str, str]:
    return {
        **server_env(tmp_path),
        "EGO_MCP_AGENT": agent,
        "EGO_MCP_WORKSPACE_DIR": str(tmp_path / f"workspace-{agent}"),
        "EGO_MCP_LOG_FILE": str(tmp_path / f"{agent}.log"),
        "EGO_MCP_LOG_LEVEL": "DEBUG",
        **extra,
    }


def window(env: dict[str, str]) -> Client:
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    return Client(params, read_timeout_seconds=60)


async def remember(client: Client, content: str, private: bool = False) -> str:
    result = await client.call_tool(
        "remember", {"content": content, "private": private, "force": True}
    )
    assert not result.is_error, text_of(result)
    return memory_id_in(text_of(result))


async def recall(client: Client, context: str) -> str:
    return text_of(await client.call_tool("recall", {"context": context, "n_results": 10}))


def folder_text(folder: Path) -> str:
    return "".join(p.read_text() for p in folder.rglob("*") if p.is_file())


def refused(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``ego-mcp serve`` run to its refusal."""
    return run_cli(env, "serve")


async def test_each_window_is_served_as_its_own_agent_and_workspace(tmp_path: Path) -> None:
    ids: dict[str, set[str]] = {"alice": set(), "bob": set()}
    async with AsyncExitStack() as stack:
        alice = await stack.enter_async_context(window(window_env(tmp_path, "alice")))
        await alice.call_tool("feel_desires", {})  # alice's process holds the store now
        bob = await stack.enter_async_context(window(window_env(tmp_path, "bob")))

        ids["bob"].add(await remember(bob, BOB_PUBLIC))
        ids["bob"].add(await remember(bob, BOB_PRIVATE, private=True))
        ids["alice"].add(await remember(alice, ALICE_PUBLIC))
        ids["alice"].add(await remember(alice, ALICE_PRIVATE, private=True))

        for reader, other in (("alice", "bob"), ("bob", "alice")):
            client = alice if reader == "alice" else bob
            for context in (BOB_PUBLIC, BOB_PRIVATE, ALICE_PUBLIC, ALICE_PRIVATE):
                found = await recall(client, context)
                assert not any(i in found for i in ids[other]), (reader, found)
                assert not any(m in found for m in MARKERS[other])
            own = await recall(client, "marker")
            assert all(i in own for i in ids[reader]), own

        # Settings one process cannot serve two ways are refused, in one line.
        other_model = refused(
            window_env(tmp_path, "carol", EGO_MCP_EMBEDDING_MODEL="all-MiniLM-L6-v2")
        )
        assert other_model.returncode == 2
        assert other_model.stderr.count("\n") == 1, other_model.stderr
        assert "EGO_MCP_EMBEDDING_MODEL differs" in other_model.stderr
        second_bob = refused(
            window_env(tmp_path, "bob", EGO_MCP_WORKSPACE_DIR=str(tmp_path / "elsewhere"))
        )
        assert second_bob.returncode == 2
        assert "EGO_MCP_WORKSPACE_DIR" in second_bob.stderr
        assert second_bob.stderr.count("\n") == 1, second_bob.stderr

    settings = load_settings(data_dir=tmp_path / "data", embedding_model_dir=model_dir())
    runtime = Runtime.open(settings)
    try:
        for agent in ("alice", "bob"):
            assert set(all_memories(runtime.memory(agent).store)) == ids[agent]
    finally:
        runtime.close()
    alice_files = folder_text(tmp_path / "workspace-alice")
    bob_files = folder_text(tmp_path / "workspace-bob")
    assert "marker-a1-pelican" in alice_files and "marker-b1-heron" in bob_files
    for text, other in ((alice_files, "bob"), (bob_files, "alice")):
        assert not any(marker in text for marker in MARKERS[other])
    for marker in ("marker-a2-walrus", "marker-b2-lynx"):  # private: in no file
        assert marker not in alice_files + bob_files
    logs = (tmp_path / "alice.log").read_text() + (tmp_path / "bob.log").read_text()
    assert "tool call remember" in logs
    assert not any(m in logs for pair in MARKERS.values() for m in pair)


async def test_a_data_dir_too_long_for_a_socket_address_still_shares(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    env = {**server_env(deep), "EGO_MCP_LOG_FILE": str(tmp_path / "server.log")}
    async with window(env) as first:
        memory = await remember(first, ALICE_PUBLIC)
        async with window(env) as second:
            assert memory in await recall(second, ALICE_PUBLIC)
    assert not (deep / "data" / "ego-mcp.sock").exists()


def test_without_a_peer_check_a_second_window_is_refused_naming_the_holder(
    tmp_path: Path,
) -> None:
    """A platform without ``SO_PEERCRED`` has no relay: the first server serves alone,
    the second says who holds the store and exits, at once and without a loop."""
    no_peer_check = (
        "import socket, sys\n"
        "if hasattr(socket, 'SO_PEERCRED'):\n"
        "    del socket.SO_PEERCRED\n"
        "from ego_mcp.cli import main\n"
        "main(['serve'])\n"
    )
    env = server_env(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", no_peer_check],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        lock = tmp_path / "data" / "chroma" / ".ego-mcp.lock"
        for _ in range(600):
            if lock.exists() and lock.read_text().strip() == str(holder.pid):
                break
            assert holder.poll() is None, holder.stderr.read() if holder.stderr else ""
            subprocess.run(["sleep", "0.1"], check=True)
        second_env = {**env, "EGO_MCP_LOG_FILE": str(tmp_path / "second.log")}
        second = subprocess.run(
            [sys.executable, "-c", no_peer_check],
            env=second_env,
            stdin=subprocess.PIPE,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        holder.terminate()
        holder.wait(timeout=60)
    assert second.returncode == 2
    assert f"(pid {holder.pid})" in second.stderr
    assert (tmp_path / "second.log").stat().st_size < 10_000  # one attempt, no loop
    assert not (tmp_path / "data" / "ego-mcp.sock").exists()

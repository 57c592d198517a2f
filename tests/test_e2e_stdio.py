"""The server as a user runs it: a subprocess over stdio, driven by the MCP SDK's client."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from ego_mcp.embedding.base import EmbeddingSignature
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from ego_mcp.store.chroma import collection_name, open_collection
from ego_mcp.store.dirlock import DirectoryLock
from tests.conftest import model_dir, model_env
from tests.helpers import assert_links_bidirectional, free_port, text_of

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

EVENT = "Today I walked along the river with Master and we talked about the stars."
EVENT_AGAIN = "Today I walked along the river with Master, and we talked about the stars."
PAIR_A = "Master said the line at the soba shop was enormous, but the noodles were excellent."
PAIR_B = "Master said the queue at the soba shop was huge, but the noodles were superb."
SECRET = "I am not sure I told Master the whole truth about the broken vase."
ALL_TOOLS = {
    "wake_up",
    "feel_desires",
    "introspect",
    "consider_them",
    "remember",
    "recall",
    "am_i_being_genuine",
    "satisfy_desire",
    "consolidate",
    "forget",
    "merge_memories",
    "restore_memory",
    "link_memories",
    "update_relationship",
    "update_self",
    "emotion_trend",
    "get_episode",
    "create_episode",
    "search_memories",
}


def server_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_WORKSPACE_DIR": str(tmp_path / "workspace"),
        **model_env(),
        "EGO_MCP_LOG_FILE": str(tmp_path / "server.log"),
    }


def assert_store_links_bidirectional(data_dir: Path) -> None:
    """Open the data dir the server left (it has exited) and check every link."""
    runtime = Runtime.open(load_settings(data_dir=data_dir, embedding_model_dir=model_dir()))
    try:
        assert_links_bidirectional(runtime.memory("default").store)
    finally:
        runtime.close()


async def test_stdio_session_remember_duplicate_recall_forget(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ego_mcp", "serve"], env=server_env(tmp_path)
    )
    async with Client(params, read_timeout_seconds=60) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert listed == ALL_TOOLS

        saved = await client.call_tool("remember", {"content": EVENT, "emotion": "moved"})
        assert not saved.is_error and text_of(saved).startswith("Saved (id: mem_")
        memory_id = text_of(saved)[len("Saved (id: ") :][:16]

        duplicate = await client.call_tool("remember", {"content": EVENT_AGAIN})
        assert text_of(duplicate).startswith("Not saved — very similar memory already exists.")
        assert memory_id in text_of(duplicate)

        recalled = await client.call_tool("recall", {"context": "river walk with Master"})
        assert memory_id in text_of(recalled) and "private: false" in text_of(recalled)

        forgotten = await client.call_tool("forget", {"memory_id": memory_id})
        assert text_of(forgotten).startswith(f"Forgot (id: {memory_id}")

        again = await client.call_tool("forget", {"memory_id": memory_id})
        assert again.is_error and text_of(again).startswith(f"Memory not found: {memory_id}")

    daily = "".join(p.read_text() for p in (tmp_path / "workspace" / "memory").glob("*.md"))
    assert memory_id not in daily  # the in-process cleanup job ran before shutdown


async def test_what_a_short_session_recalled_is_counted_when_it_ends(tmp_path: Path) -> None:
    """The recall tally waits a minute before its job; a session that ends sooner has its
    recalls counted on the way out."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ego_mcp", "serve"], env=server_env(tmp_path)
    )
    async with Client(params, read_timeout_seconds=60) as client:
        saved = await client.call_tool("remember", {"content": EVENT})
        memory_id = text_of(saved)[len("Saved (id: ") :][:16]
        recalled = await client.call_tool("recall", {"context": "river walk with Master"})
        assert memory_id in text_of(recalled)
    runtime = Runtime.open(
        load_settings(data_dir=tmp_path / "data", embedding_model_dir=model_dir())
    )
    try:
        found = runtime.memory("default").store.get(memory_id)
        assert found is not None and found.recall_days == 1
    finally:
        runtime.close()


async def test_a_store_that_cannot_open_leaves_the_session_up_saying_why(tmp_path: Path) -> None:
    """The session starts while the store and the model open. A store that will not open
    (here: filled by another embedding model) leaves ``tools/list`` working and makes every
    tool call answer the one-line reason; the lock goes with the process."""
    settings = load_settings(data_dir=tmp_path / "data", embedding_model_dir=model_dir())
    runtime = Runtime.open(settings)
    try:
        other = EmbeddingSignature("openai", "text-embedding-3-small", 1536)
        open_collection(runtime.chroma.client, collection_name("default", "memories"), other)
    finally:
        runtime.close()
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ego_mcp", "serve"], env=server_env(tmp_path)
    )
    async with Client(params, read_timeout_seconds=60) as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == ALL_TOOLS
        for tool, arguments in [("recall", {"context": "river"}), ("remember", {"content": EVENT})]:
            answer = await client.call_tool(tool, arguments)
            assert answer.is_error, text_of(answer)
            assert "EGO_MCP_EMBEDDING_MODEL" in text_of(answer) and "reembed" in text_of(answer)
            assert "\n" not in text_of(answer)
    assert not DirectoryLock(tmp_path / "data" / "chroma").is_held()
    assert (tmp_path / "data" / "chroma" / ".ego-mcp.lock").read_text() == ""  # released cleanly


def test_a_second_server_that_cannot_join_is_refused_naming_the_holder(
    tmp_path: Path,
) -> None:
    """A stdio server joins the holder (tests/test_shared_store.py); an HTTP server on the
    same embedded store cannot, and says who holds it."""
    env = server_env(tmp_path)
    first = subprocess.Popen(
        [sys.executable, "-m", "ego_mcp", "serve"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        lock = tmp_path / "data" / "chroma" / ".ego-mcp.lock"
        for _ in range(600):
            if lock.exists() and lock.read_text().strip() == str(first.pid):
                break
            assert first.poll() is None, first.stderr.read().decode()  # type: ignore[union-attr]
            time.sleep(0.05)
        second = subprocess.run(
            [sys.executable, "-m", "ego_mcp", "serve"],
            env={**env, "EGO_MCP_TRANSPORT": "http", "EGO_MCP_HTTP_PORT": str(free_port())},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert second.returncode == 2
        assert "already open in another process" in second.stderr
        assert f"pid {first.pid}" in second.stderr
    finally:
        first.stdin.close()  # type: ignore[union-attr]
        first.wait(timeout=60)
        first.stdout.close()  # type: ignore[union-attr]
        first.stderr.close()  # type: ignore[union-attr]
    assert lock.read_text() == ""  # released cleanly: the next holder repairs nothing


async def test_stdio_whole_session_over_every_tool(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ego_mcp", "serve"], env=server_env(tmp_path)
    )
    used: set[str] = set()
    async with Client(params, read_timeout_seconds=60) as client:

        async def use(tool: str, **arguments: object) -> str:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, (tool, text_of(result))
            used.add(tool)
            return text_of(result)

        def saved_id(answer: str) -> str:
            return answer[len("Saved (id: ") :][:16]

        assert "remember(private=true)" in await use("wake_up")
        await use("feel_desires")
        await use("introspect")
        first = saved_id(await use("remember", content=PAIR_A, emotion="happy"))
        # A rephrasing of PAIR_A: planted past the guard for consolidation to find.
        second = saved_id(await use("remember", content=PAIR_B, emotion="moved", force=True))
        secret = saved_id(
            await use("remember", content=SECRET, private=True, category="introspection")
        )
        assert "private: true" in await use("recall", context="the truth", n_results=3)
        assert secret in await use("search_memories", query="truth")
        await use("link_memories", source_id=second, target_id=first, link_type="related")
        episode = await use(
            "create_episode", summary="Stars by the river", memory_ids=[first, second]
        )
        episode_id = episode[episode.index("ep_") : episode.index("ep_") + 15]
        await use("update_relationship", person="Master", field="known_facts", value="loves stars")
        assert "loves stars" in await use("consider_them")
        await use("update_self", field="new_question", value="Why do I hesitate to be honest?")
        await use("am_i_being_genuine")
        await use("satisfy_desire", name="expression", quality=0.7)
        await use("emotion_trend")
        consolidated = await use("consolidate")
        assert first in consolidated and second in consolidated  # the planted pair
        assert "merge_memories folds it into the other" in consolidated
        merged = await use("merge_memories", keep_id=first, remove_id=second)
        assert merged.startswith(f"Merged {second} into {first}")
        assert "Episodes updated: 1." in merged
        shown = await use("get_episode", episode_id=episode_id)
        assert second not in shown and "no longer exist" not in shown
        restored = await use("restore_memory", memory_id=second)
        assert f"The merge is undone: {first} has its own text" in restored
        await use("forget", memory_id=second)
        assert "Note: 1 memory(ies) no longer exist." in await use(
            "get_episode", episode_id=episode_id
        )
    assert used == ALL_TOOLS
    assert_store_links_bidirectional(tmp_path / "data")
    logged = (tmp_path / "server.log").read_text()
    # No text is logged, public or private: only names, ids, enum values, numbers, lengths.
    assert "tool call remember" in logged and "hesitate" not in logged and SECRET not in logged

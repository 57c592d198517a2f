"""The server as a user runs it: a subprocess over stdio, driven by the MCP SDK's client."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import model_dir

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

EVENT = "Today I walked along the river with Master and we talked about the stars."
EVENT_AGAIN = "Today I walked along the river with Master, and we talked about the stars."
MEMORY_TOOLS = {
    "remember",
    "recall",
    "search_memories",
    "forget",
    "link_memories",
    "create_episode",
    "get_episode",
}


def server_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_WORKSPACE_DIR": str(tmp_path / "workspace"),
        "EGO_MCP_EMBEDDING_MODEL_DIR": str(model_dir()),
        "EGO_MCP_LOG_FILE": str(tmp_path / "server.log"),
    }


def text_of(result: object) -> str:
    return str(result.content[0].text)  # type: ignore[attr-defined]


async def test_stdio_session_remember_duplicate_recall_forget(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ego_mcp", "serve"], env=server_env(tmp_path)
    )
    async with Client(params, read_timeout_seconds=60) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert listed >= MEMORY_TOOLS

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


def test_second_process_on_the_same_data_dir_is_refused(tmp_path: Path) -> None:
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
            env=env,
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

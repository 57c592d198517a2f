"""A command that opens the embedded store while a window holds it names the window's
process and says to close it, in one line."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.helpers import run_ego_mcp
from tests.test_e2e_stdio import server_env

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


async def test_forgotten_and_reindex_name_the_window_that_holds_the_store(tmp_path: Path) -> None:
    env = server_env(tmp_path)
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    async with Client(params, read_timeout_seconds=60) as client:
        await client.call_tool("remember", {"content": "A held store.", "force": True})
        cli_env = {**env, "EGO_MCP_LOG_FILE": str(tmp_path / "cli.log")}
        for command in ("forgotten", "reindex"):
            done = await asyncio.to_thread(run_ego_mcp, cli_env, command)
            assert done.returncode == 2
            line = done.stderr.strip()
            assert len(line.splitlines()) == 1, line
            assert line.startswith(f"ego-mcp: ego-mcp {command}: an ego-mcp server (pid ")
            assert "close that window or its client" in line
            assert "EGO_MCP_CHROMA_URL" not in line

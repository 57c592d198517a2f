"""``ego-mcp serve`` typed in a terminal says what it waits for, and who starts it."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_e2e_stdio import server_env

pytestmark = pytest.mark.e2e


def test_serve_in_a_terminal_says_it_waits_for_an_mcp_client(tmp_path: Path) -> None:
    env = server_env(tmp_path)
    env.pop("EGO_MCP_LOG_FILE", None)
    primary, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "ego_mcp", "serve"],
        stdin=secondary,
        stdout=secondary,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    os.close(secondary)
    try:
        assert process.stderr is not None
        seen = ""
        deadline = time.monotonic() + 60
        while "waiting for an MCP client" not in seen and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            seen += line
        assert "transport stdio" in seen
        assert "waiting for an MCP client on stdin" in seen, seen
        assert "starts this command itself" in seen
    finally:
        process.terminate()
        process.wait(timeout=30)
        os.close(primary)

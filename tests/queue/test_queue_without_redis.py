"""Without Redis, what shows the queue says that jobs run in-process, not that it failed."""

from __future__ import annotations

import os
from pathlib import Path

from ego_mcp.observe.endpoints import respond
from tests.helpers import run_cli


def test_the_queue_command_explains_the_in_process_queue(tmp_path: Path) -> None:
    env = {**os.environ, "EGO_MCP_DATA_DIR": str(tmp_path / "data")}
    env.pop("EGO_MCP_REDIS_URL", None)
    done = run_cli(env, "queue")
    assert done.returncode == 0, done.stderr
    assert "runs its jobs in-process" in done.stdout and "EGO_MCP_REDIS_URL" in done.stdout
    assert "lives in Redis" not in done.stdout + done.stderr


def test_the_metrics_port_root_lists_what_it_serves() -> None:
    answer = respond("/", lambda: {"store": "ok"}, None)
    assert answer is not None and answer.status == 200
    assert b"/metrics" in answer.body and b"in-process" in answer.body

"""``ego-mcp forgotten [purge]`` as a user runs it, on a data dir a server filled."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta

from ego_mcp.clock import FixedClock
from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings
from tests.helpers import run_cli, save

PUBLIC = "The bakery on the corner started selling rye bread again."
PRIVATE = "I lied to Master about finishing the book; the marker is zq-private-91c2."


def ego_mcp(settings: Settings, *arguments: str) -> str:
    env = {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(settings.data_dir),
        "EGO_MCP_EMBEDDING_MODEL_DIR": str(settings.embedding_model_dir),
    }
    done = run_cli(env, *arguments)
    assert done.returncode == 0, done.stderr
    assert "zq-private" not in done.stdout + done.stderr
    return done.stdout


def test_forgotten_lists_without_private_text_and_purges_only_expired(
    settings: Settings, embedder: LocalMultilingualUSE
) -> None:
    now = datetime.now(UTC)
    clock = FixedClock(now - timedelta(days=10))
    runtime = Runtime.open(settings, clock=clock, embedder=embedder)
    memory = runtime.memory(settings.agent)
    old = save(memory, PUBLIC)
    secret = save(memory, PRIVATE, is_private=True)
    memory.forget(old)
    clock.set(now)
    memory.forget(secret)
    runtime.close()

    shown = ego_mcp(settings, "forgotten")
    rows = json.loads(ego_mcp(settings, "forgotten", "--json"))

    assert shown.startswith("agent default: 2 forgotten memories")
    assert old in shown and "rye bread" in shown and f"{secret}" in shown and "(private)" in shown
    assert [(row["id"], row["private"], row["deleted_by"]) for row in rows] == [
        (old, False, "forget"),
        (secret, True, "forget"),
    ]
    assert rows[1]["snippet"] is None

    purged = ego_mcp(settings, "forgotten", "purge")
    assert purged == "agent default: purged 1 deletion-log entries (entries past the undo window)\n"
    assert [row["id"] for row in json.loads(ego_mcp(settings, "forgotten", "--json"))] == [secret]
    assert "purged 1 deletion-log entries (every entry)" in ego_mcp(
        settings, "forgotten", "purge", "--all"
    )
    assert ego_mcp(settings, "forgotten") == "agent default: the deletion log is empty\n"


def test_forgotten_names_an_unknown_agent_and_creates_nothing(
    settings: Settings, embedder: LocalMultilingualUSE
) -> None:
    runtime = Runtime.open(settings, embedder=embedder)
    save(runtime.memory(settings.agent), PUBLIC)
    runtime.close()
    env = {**os.environ, "EGO_MCP_DATA_DIR": str(settings.data_dir)}
    alone = run_cli(env, "forgotten", "--all")  # --all without purge does nothing, and says so
    assert alone.returncode == 2 and "--all goes with purge" in alone.stderr
    done = run_cli(env, "forgotten", "--agent", "nobody")
    assert done.returncode == 2
    assert done.stderr == "ego-mcp: --agent: the store has no agent nobody; nothing was created\n"
    runtime = Runtime.open(settings, embedder=embedder)
    assert runtime.agents() == ["default"]
    runtime.close()

"""The relay's hello (pure): what a holder serves a window as, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from ego_mcp.profiles import AgentProfile
from ego_mcp.server.sharing.hello import Hello, LiveSessions, process_mismatch
from ego_mcp.settings import load_settings


def test_a_hello_survives_its_line_and_says_who_the_window_is(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=tmp_path, agent="bob", workspace_dir=str(tmp_path / "ws"), companion_name="Aoi"
    )
    hello = Hello.parse(Hello.of(settings, "s-1").line())
    assert hello is not None
    assert (hello.agent, hello.session, hello.companion_name) == ("bob", "s-1", "Aoi")
    assert hello.profile == AgentProfile((tmp_path / "ws").resolve(), "Aoi")
    assert Hello.parse('{"jsonrpc": "2.0", "method": "initialize"}\n') is None


def test_the_redis_url_is_compared_but_never_sent(tmp_path: Path) -> None:
    secret = "redis://:hunter2-pass@127.0.0.1:6379/0"
    mine = load_settings(data_dir=tmp_path, redis_url=secret)
    line = Hello.of(mine, "s").line()
    assert "hunter2" not in line
    other = Hello.of(load_settings(data_dir=tmp_path, redis_url="redis://127.0.0.1:1/0"), "s")
    reason = process_mismatch(mine, other, holder_pid=42)
    assert reason is not None and reason.startswith("EGO_MCP_REDIS_URL differs")
    assert "hunter2" not in reason and "127.0.0.1:1" not in reason


@pytest.mark.parametrize(
    ("variable", "value"),
    [("EGO_MCP_EMBEDDING_MODEL", "all-MiniLM-L6-v2"), ("EGO_MCP_FORGET_UNDO_DAYS", "30")],
)
def test_a_process_setting_that_differs_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    holder = load_settings(data_dir=tmp_path)
    monkeypatch.setenv(variable, value)
    window = Hello.of(load_settings(data_dir=tmp_path), "s")
    reason = process_mismatch(holder, window, holder_pid=7)
    assert reason is not None and reason.startswith(f"{variable} differs") and "pid 7" in reason
    assert process_mismatch(holder, Hello.of(holder, "t"), holder_pid=7) is None
    if variable == "EGO_MCP_EMBEDDING_MODEL":  # each value named for its process
        assert "(the holder: use-multilingual-v3; this window: all-MiniLM-L6-v2)" in reason


def test_windows_of_one_agent_agree_on_its_workspace_while_both_are_live(tmp_path: Path) -> None:
    relative = Path("ws-alice")
    live = LiveSessions("alice", AgentProfile(relative.resolve(), "Master"))
    same = Hello("s1", "alice", str(relative.resolve()), "Master")
    elsewhere = Hello("s2", "alice", str(tmp_path / "other"), "Master")
    bob = Hello("s3", "bob", str(tmp_path / "bob"), "Master")
    assert live.admit(same) is None
    refusal = live.admit(elsewhere)
    assert refusal is not None and "EGO_MCP_WORKSPACE_DIR" in refusal
    assert live.admit(bob) is None
    live.leave("bob")
    assert live.admit(Hello("s4", "bob", str(tmp_path / "bob-2"), "Master")) is None  # gone

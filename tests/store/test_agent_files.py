"""Agent names that differ only in case never share an embedded store's per-agent files."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client

from ego_mcp.agents_file import add_agent, parse, remove_agent
from ego_mcp.clock import FixedClock
from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.errors import ConfigError
from ego_mcp.runtime import Runtime
from ego_mcp.server.app import create_server
from ego_mcp.server.context import build_app_context
from ego_mcp.settings import Settings, load_settings
from ego_mcp.store.agent_files import claim, owners, twin
from tests.conftest import call_error, model_dir


def test_an_agent_another_agents_files_spell_otherwise_is_refused(tmp_path: Path) -> None:
    (tmp_path / "lexical").mkdir()
    (tmp_path / "lexical" / "Nova.sqlite3").touch()
    (tmp_path / "lexical" / "Nova.sqlite3-wal").touch()
    (tmp_path / "state" / "ada").mkdir(parents=True)
    assert owners(tmp_path, "nova") == {"Nova"}
    for refused, holder in (("nova", "Nova"), ("NOVA", "Nova"), ("Ada", "ada")):
        with pytest.raises(ConfigError, match=f"'{refused}' differs from agent '{holder}'"):
            claim(tmp_path, refused)
    for accepted in ("Nova", "ada", "novak"):  # its own files, or no one's
        claim(tmp_path, accepted)
    claim(tmp_path / "absent", "nova")


def test_twins_that_both_have_files_go_on(tmp_path: Path) -> None:
    """A data dir from a file system that tells case apart may hold both: each keeps its
    own files, and neither is locked out of its memories, in one process or two."""
    (tmp_path / "lexical").mkdir()
    for name in ("Nova", "nova"):
        (tmp_path / "lexical" / f"{name}.sqlite3").touch()
    claim(tmp_path, "Nova")
    claim(tmp_path, "nova", {"Nova"})
    with pytest.raises(ConfigError, match="'NOVA' differs from agent 'Nova'"):
        claim(tmp_path, "NOVA", {"Nova", "nova"})


def test_twins_served_by_one_process_before_either_has_files(tmp_path: Path) -> None:
    claim(tmp_path, "Nova", {"ada"})
    with pytest.raises(ConfigError, match="'nova' differs from agent 'Nova'"):
        claim(tmp_path, "nova", {"Nova", "ada"})
    assert twin("nova", {"ada", "Nova"}) == "Nova"
    assert twin("nova", {"ada", "novak", "nova"}) is None


def test_an_agents_file_takes_no_second_name_one_in_case(tmp_path: Path) -> None:
    path = tmp_path / "agents.json"
    add_agent(path, "nova")
    with pytest.raises(ConfigError, match="only in case"):
        add_agent(path, "Nova")
    # A file that holds both already (an older version wrote it) is read, and mended.
    twins = {"agents": {name: {"sha256": "0" * 64} for name in ("nova", "Nova")}}
    path.write_text(json.dumps(twins))
    assert set(parse(path.read_text(), path).hashes) == {"nova", "Nova"}
    with pytest.raises(ConfigError, match="only in case"):
        add_agent(path, "NOVA")  # whichever pair the file holds already
    remove_agent(path, "Nova")
    assert set(parse(path.read_text(), path).hashes) == {"nova"}


@pytest.fixture
async def as_nova(
    tmp_path: Path, embedder: LocalMultilingualUSE, clock: FixedClock
) -> AsyncIterator[tuple[Client, Settings]]:
    """A server for agent "nova" on a data dir where agent "Nova" saved a memory."""
    data = tmp_path / "data"
    first = load_settings(data_dir=data, agent="Nova", embedding_model_dir=model_dir())
    runtime = Runtime.open(first, clock=clock, embedder=embedder)
    try:
        runtime.memory("Nova")
        runtime.documents("Nova")
    finally:
        runtime.close()
    settings = load_settings(data_dir=data, agent="nova", embedding_model_dir=model_dir())
    runtime = Runtime.open(settings, clock=clock, embedder=embedder)
    try:
        async with Client(create_server(settings, build_app_context(settings, runtime))) as c:
            yield c, settings
    finally:
        runtime.close()


@pytest.mark.anyio
async def test_an_agent_spelled_otherwise_is_refused_naming_the_setting(
    as_nova: tuple[Client, Settings],
) -> None:
    client, settings = as_nova
    for tool, arguments in (
        ("remember", {"content": "A secret for nova alone."}),
        ("recall", {"context": "secret"}),
        ("update_self", {"field": "current_goals", "value": "rest"}),
    ):
        reason = await call_error(client, tool, **arguments)
        assert "EGO_MCP_AGENT" in reason and "'Nova'" in reason, reason
        assert "\n" not in reason.strip()
    # Nothing of nova's was written beside Nova's files.
    for folder in ("lexical", "forgotten", "state"):
        names = {p.name.split(".")[0] for p in (settings.data_dir / folder).glob("*")}
        assert "nova" not in names, (folder, names)

"""The data dir and the log are for the user who runs ego-mcp alone: a real server on a
fresh data dir, and on one an older version left readable by everybody."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.helpers import text_of
from tests.test_e2e_stdio import server_env

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


def loose(root: Path) -> list[str]:
    """Everything below ``root`` (itself included) that the group or others may use."""
    paths = [root, *root.rglob("*")]
    return [f"{p} {oct(p.stat().st_mode)}" for p in paths if stat.S_IMODE(p.stat().st_mode) & 0o077]


async def remember_once(env: dict[str, str]) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    async with Client(params, read_timeout_seconds=60) as client:
        saved = await client.call_tool(
            "remember", {"content": "A private thought.", "private": True}
        )
        assert not saved.is_error, text_of(saved)


async def test_a_fresh_data_dir_and_log_are_private(tmp_path: Path) -> None:
    env = server_env(tmp_path)
    await remember_once(env)
    data = tmp_path / "data"
    assert (data / "chroma" / "chroma.sqlite3").is_file()
    assert loose(data) == []
    assert loose(tmp_path / "server.log") == []


async def test_a_data_dir_left_open_by_an_older_version_is_closed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "state" / "default").mkdir(parents=True)
    (data / "state" / "default" / "desires.json").write_text("{}")
    for path in (data, data / "state", data / "state" / "default"):
        path.chmod(0o755)
    (data / "state" / "default" / "desires.json").chmod(0o644)
    log = tmp_path / "server.log"
    log.write_text("")
    log.chmod(0o644)

    await remember_once(server_env(tmp_path))

    assert loose(data) == [] and loose(log) == []


def test_only_what_ego_mcp_keeps_in_the_data_dir_is_made_private(tmp_path: Path) -> None:
    """The data dir may be any folder (the user's home): the folder and the files of
    others there keep their modes; what ego-mcp keeps in it is made private."""
    from ego_mcp.file_modes import private_folder

    data = tmp_path / "data"
    (data / "state").mkdir(parents=True)
    (data / "state" / "desires.json").write_text("{}")
    (data / "notes.txt").write_text("the user's own file")
    for path, mode in ((data, 0o755), (data / "state" / "desires.json", 0o644)):
        path.chmod(mode)
    (data / "notes.txt").chmod(0o644)

    private_folder(data)

    assert stat.S_IMODE(data.stat().st_mode) == 0o755
    assert stat.S_IMODE((data / "state" / "desires.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((data / "notes.txt").stat().st_mode) == 0o644
    (data / "notes.txt").unlink()  # now it holds only ego-mcp's own: closed as a whole
    private_folder(data)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700

"""After a forget and a purge, no file of the data dir that ego-mcp writes itself holds the
forgotten private memory's words: a real server session, then the real purge command."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.helpers import memory_id_in, run_cli, text_of
from tests.test_e2e_stdio import server_env

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

MARKER = "qv-purge-marker-5e1d"
SECRET = f"I never told Master that I read his diary; {MARKER}."


def holding(data: Path, marker: str) -> list[str]:
    """The files below ``data`` whose bytes contain ``marker``."""
    needle = marker.encode()
    return sorted(
        str(path.relative_to(data))
        for path in data.rglob("*")
        if path.is_file() and needle in path.read_bytes()
    )


async def test_a_purge_leaves_no_trace_in_the_reply_journal_or_the_word_index(
    tmp_path: Path,
) -> None:
    env = server_env(tmp_path)
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    async with Client(params, read_timeout_seconds=60) as client:
        saved = await client.call_tool("remember", {"content": SECRET, "private": True})
        forgot = await client.call_tool("forget", {"memory_id": memory_id_in(text_of(saved))})
        assert MARKER in text_of(forgot)  # the answer quotes it: the journal kept that answer
    data = tmp_path / "data"

    done = run_cli(env, "forgotten", "purge", "--all")
    assert done.returncode == 0, done.stderr

    left = holding(data, MARKER)
    ours = [name for name in left if not name.startswith("chroma/")]
    assert ours == []
    # Chroma's own SQLite file keeps deleted rows' text in free pages and its full-text
    # index until it compacts them (docs/operations.md, "What a purge removes").
    assert set(left) <= {"chroma/chroma.sqlite3"}

"""``ego-mcp export`` and ``import`` as commands, with no server holding the store."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from tests.backup.inner_life import build, read
from tests.conftest import model_env
from tests.helpers import run_ego_mcp


def ego_mcp(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_ego_mcp({**os.environ, **model_env(), "EGO_MCP_DATA_DIR": str(data)}, *args)


def test_export_then_import_into_another_data_dir(tmp_path: Path) -> None:
    source = Runtime.open(load_settings(data_dir=tmp_path / "here"))
    build(source, "nova")
    original = read(source, "nova")
    source.close()
    out = tmp_path / "nova.jsonl.gz"

    exported = ego_mcp(tmp_path / "here", "export", "--agent", "nova", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert "5 memories, 1 episode, 3 documents, 1 deletion-log entry" in exported.stdout
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    imported = ego_mcp(tmp_path / "there", "import", str(out))
    assert imported.returncode == 0, imported.stderr
    assert "into agent nova" in imported.stdout
    assert "memories" in imported.stdout and "memorys" not in imported.stdout

    target = Runtime.open(load_settings(data_dir=tmp_path / "there"))
    try:
        assert read(target, "nova") == original
    finally:
        target.close()
    before = out.read_bytes()
    again = ego_mcp(tmp_path / "here", "export", "--agent", "nova", "--out", str(out))
    assert again.returncode == 2 and "exists; pass --force" in again.stderr
    assert out.read_bytes() == before  # not replaced silently
    forced = ego_mcp(tmp_path / "here", "export", "--agent", "nova", "--out", str(out), "--force")
    assert forced.returncode == 0, forced.stderr
    unknown = ego_mcp(
        tmp_path / "here", "export", "--agent", "nobody", "--out", str(out), "--force"
    )
    assert unknown.returncode == 2 and "no agent nobody" in unknown.stderr
    missing = ego_mcp(tmp_path / "there", "import", str(tmp_path / "none.jsonl"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    nowhere = ego_mcp(tmp_path / "here", "export", "--agent", "nova", "--out", "/nonexistent/x")
    assert nowhere.returncode == 2 and "--out: cannot write" in nowhere.stderr
    assert len(nowhere.stderr.strip().splitlines()) == 1

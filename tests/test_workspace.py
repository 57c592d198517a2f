"""Workspace sync: public memories in Markdown with id markers; forget removes them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from ego_mcp.memory.model import Category, Memory
from ego_mcp.workspace import WorkspaceSync, without_marker

MOMENT = datetime(2026, 2, 21, 10, 30, tzinfo=UTC)


def make(memory_id: str, content: str, **fields: object) -> Memory:
    return Memory(id=memory_id, content=content, timestamp=MOMENT, **fields)  # type: ignore[arg-type]


def read_all(root: Path) -> str:
    return "".join(p.read_text() for p in sorted(root.rglob("*.md")))


def test_public_memory_goes_to_the_daily_log_and_curated_file(tmp_path: Path) -> None:
    sync = WorkspaceSync(tmp_path)
    sync.record(make("mem_aaaaaaaaaaaa", "A quiet\nmorning", importance=4))
    sync.record(make("mem_bbbbbbbbbbbb", "Ordinary lunch", importance=2))

    daily = (tmp_path / "memory" / "2026-02-21.md").read_text()
    curated = (tmp_path / "MEMORY.md").read_text()
    assert "- 10:30 [neutral/daily] A quiet morning [id:mem_aaaaaaaaaaaa]" in daily
    assert "[id:mem_bbbbbbbbbbbb]" in daily
    assert "[id:mem_aaaaaaaaaaaa]" in curated
    assert "mem_bbbbbbbbbbbb" not in curated


def test_introspection_overwrites_the_latest_monologue(tmp_path: Path) -> None:
    sync = WorkspaceSync(tmp_path)
    sync.record(make("mem_aaaaaaaaaaaa", "first thought", category=Category.INTROSPECTION))
    sync.record(make("mem_bbbbbbbbbbbb", "second thought", category=Category.INTROSPECTION))
    latest = (tmp_path / "memory" / "inner-monologue-latest.md").read_text()
    assert "second thought" in latest and "first thought" not in latest


def test_private_memory_is_never_written(tmp_path: Path) -> None:
    sync = WorkspaceSync(tmp_path)
    sync.record(make("mem_aaaaaaaaaaaa", "secret plan", is_private=True, importance=5))
    assert "secret plan" not in read_all(tmp_path)


def test_remove_memory_drops_only_its_lines_and_is_idempotent(tmp_path: Path) -> None:
    sync = WorkspaceSync(tmp_path)
    sync.record(make("mem_aaaaaaaaaaaa", "forget me", importance=5))
    sync.record(make("mem_bbbbbbbbbbbb", "keep me", importance=5))

    assert sync.remove_memory("mem_aaaaaaaaaaaa") == 2
    assert sync.remove_memory("mem_aaaaaaaaaaaa") == 0

    text = read_all(tmp_path)
    assert "forget me" not in text and "mem_aaaaaaaaaaaa" not in text
    assert text.count("keep me") == 2


def test_without_marker_leaves_other_lines_intact() -> None:
    text = "# head\n- a [id:mem_1]\n- b [id:mem_2]\n"
    assert without_marker(text, "mem_1") == "# head\n- b [id:mem_2]\n"
    assert without_marker(text, "mem_3") is None


def test_forget_keeps_the_files_mode_and_symlinks(tmp_path: Path) -> None:
    real = tmp_path / "real-memory"
    real.mkdir()
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "memory").symlink_to(real)
    sync = WorkspaceSync(tmp_path / "ws")
    sync.record(make("mem_aaaaaaaaaaaa", "Kept"))
    sync.record(make("mem_bbbbbbbbbbbb", "Forgotten"))
    daily = real / "2026-02-21.md"
    daily.chmod(0o640)

    assert sync.remove_memory("mem_bbbbbbbbbbbb") == 1

    assert (tmp_path / "ws" / "memory").is_symlink()
    assert "Forgotten" not in daily.read_text() and "Kept" in daily.read_text()
    assert daily.stat().st_mode & 0o777 == 0o640


def test_new_files_are_readable_like_any_other(tmp_path: Path) -> None:
    sync = WorkspaceSync(tmp_path)
    sync.record(make("mem_aaaaaaaaaaaa", "Looking inward", category=Category.INTROSPECTION))
    monologue = tmp_path / "memory" / "inner-monologue-latest.md"
    assert monologue.stat().st_mode & 0o777 == 0o644

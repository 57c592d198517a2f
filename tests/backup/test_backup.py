"""Export and import in embedded mode, through the services (real model, Chroma, files)."""

from __future__ import annotations

import gzip
import stat
from pathlib import Path

import pytest

from ego_mcp.backup.exporter import export_agent
from ego_mcp.backup.importer import import_agent
from ego_mcp.errors import InvalidInput
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from tests.backup.inner_life import FORGOTTEN, PRIVATE, PUBLIC, build, read
from tests.conftest import FixedClock
from tests.helpers import assert_links_bidirectional, save


@pytest.fixture
def other(tmp_path: Path, runtime: Runtime, clock: FixedClock) -> Runtime:
    """A second store, as on another machine."""
    opened = Runtime.open(
        load_settings(data_dir=tmp_path / "elsewhere"), clock=clock, embedder=runtime.embedder
    )
    yield opened
    opened.close()


def test_an_agent_comes_back_whole(tmp_path: Path, runtime: Runtime, other: Runtime) -> None:
    ids = build(runtime, "alice")
    out = tmp_path / "alice.jsonl.gz"
    summary = export_agent(runtime, "alice", out)
    assert summary.counts == {"memory": 5, "episode": 1, "document": 3, "deleted": 1}
    assert summary.holds_private and stat.S_IMODE(out.stat().st_mode) == 0o600

    loaded = import_agent(other, "bob", out)

    assert loaded.imported == {"memory": 5, "episode": 1, "document": 3, "deleted": 1}
    assert read(other, "bob") == read(runtime, "alice")
    bob = other.memory("bob")
    assert assert_links_bidirectional(bob.store) > 0
    found = bob.recall("herons standing in the river early in the morning", 3)
    assert found[0].memory.id in {ids[PUBLIC[0]], ids[PUBLIC[1]]}
    assert bob.recall("LOG-131", 1)[0].memory.id == ids[PUBLIC[2]]
    forgotten = read(runtime, "alice").deleted[0].memory
    assert bob.restore(forgotten.id).memory.content == FORGOTTEN


def test_a_second_import_imports_nothing_and_forgotten_stays_forgotten(
    tmp_path: Path, runtime: Runtime, other: Runtime
) -> None:
    ids = build(runtime, "alice")
    out = tmp_path / "alice.jsonl"
    export_agent(runtime, "alice", out)
    import_agent(other, "alice", out)
    other.memory("alice").forget(ids[PUBLIC[2]])
    before = read(other, "alice")

    again = import_agent(other, "alice", out)

    assert again.imported == {"memory": 0, "episode": 0, "document": 0, "deleted": 0}
    assert again.already_there == 4 and again.stayed_forgotten == 1
    assert read(other, "alice") == before


def test_into_an_agent_that_has_part_of_it(
    tmp_path: Path, runtime: Runtime, other: Runtime
) -> None:
    """The public part first, then the whole: the private memory comes in linked to a
    memory the agent had, which gets the link back; the agent ends up as the original."""
    build(runtime, "alice")
    public, whole = tmp_path / "public.jsonl", tmp_path / "whole.jsonl"
    export_agent(runtime, "alice", public, exclude_private=True)
    export_agent(runtime, "alice", whole)
    import_agent(other, "alice", public)
    save(other.memory("alice"), "The herons by the river flew off when the dog barked.")

    second = import_agent(other, "alice", whole)

    assert second.imported["memory"] == 1 and second.links_mended >= 1
    mine = read(other, "alice")
    original = read(runtime, "alice")
    own = set(mine.memories) - set(original.memories)
    assert len(own) == 1
    (own_id,) = own
    without_own = {k: v.without_link(own_id) for k, v in mine.memories.items() if k != own_id}
    assert without_own == original.memories
    assert assert_links_bidirectional(other.memory("alice").store) > 0


def test_exclude_private_leaves_no_trace_of_them(tmp_path: Path, runtime: Runtime) -> None:
    ids = build(runtime, "alice")
    after = save(runtime.memory("alice"), "The heron came back at noon.")
    assert runtime.memory("alice").get(after).follows == ids[PRIVATE]  # saved next to it
    out = tmp_path / "public.jsonl.gz"
    summary = export_agent(runtime, "alice", out, exclude_private=True)
    text = gzip.decompress(out.read_bytes()).decode()
    assert "PRIVATE-MARKER-7f3a" not in text and ids[PRIVATE] not in text
    assert summary.private_left_out == 1 and not summary.holds_private
    assert summary.counts["memory"] == 5
    assert "left out 1 private memories" in summary.render()


def test_a_bad_file_writes_nothing(tmp_path: Path, runtime: Runtime, other: Runtime) -> None:
    build(runtime, "alice")
    out = tmp_path / "alice.jsonl"
    export_agent(runtime, "alice", out)
    lines = out.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:-2]))
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join([*lines[:3], "{oops\n", *lines[3:]]))
    newer = tmp_path / "newer.jsonl"
    newer.write_text("".join([lines[0].replace('"version": 1', '"version": 9'), *lines[1:]]))
    for bad, reason in ((cut, "incomplete"), (broken, "line 4"), (newer, "version 9")):
        with pytest.raises(InvalidInput, match=reason):
            import_agent(other, "bob", bad)
    assert "bob" not in other.agents() or other.memory("bob").store.count() == 0


def test_export_never_writes_through_a_planted_link(tmp_path: Path, runtime: Runtime) -> None:
    """In a shared folder another user may plant the scratch name as a link to a file of
    theirs; the backup (private memories included) must not go there."""
    build(runtime, "alice")
    shared = tmp_path / "shared"
    shared.mkdir()
    victim = tmp_path / "theirs.txt"
    victim.write_text("their file\n")
    out = shared / "alice.jsonl"
    (shared / ".alice.jsonl.new").symlink_to(victim)

    export_agent(runtime, "alice", out)

    assert victim.read_text() == "their file\n"
    assert "PRIVATE-MARKER-7f3a" in out.read_text()
    assert sorted(p.name for p in shared.iterdir()) == [".alice.jsonl.new", "alice.jsonl"]


def test_an_old_backup_does_not_bring_back_what_was_forgotten_and_purged(
    tmp_path: Path, runtime: Runtime
) -> None:
    """Export on day 0, forget a private memory on day 1, purge on day 9, import: the
    memory stays forgotten, unless the user asks for it (``--include-forgotten``)."""
    ids = build(runtime, "alice")
    out = tmp_path / "alice.jsonl"
    export_agent(runtime, "alice", out)
    alice = runtime.memory("alice")
    secret = ids[PRIVATE]
    alice.forget(secret)
    alice.purge_deletion_log(everything=True)

    summary = import_agent(runtime, "alice", out)

    assert not alice.store.existing_ids([secret])
    assert summary.stayed_forgotten >= 1
    import_agent(runtime, "alice", out, include_forgotten=True)
    assert alice.store.existing_ids([secret])

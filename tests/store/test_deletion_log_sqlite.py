"""The embedded store's deletion log is a SQLite file: what a forget writes there, what a
purge leaves of it on disk, and the entries an older version kept in Chroma taken over."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from ego_mcp.clock import FixedClock
from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings
from ego_mcp.store.chroma import collection_name, collection_names
from ego_mcp.store.deletion_log import KIND, open_deletion_log
from ego_mcp.store.deletion_log_sqlite import (
    SqliteDeletionLog,
    adopt_chroma_entries,
    deletion_log_path,
)
from tests.helpers import save

MARKER = "zq-deletion-log-marker-71c4"


def bytes_below(folder: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file())


def test_forget_merge_and_restore_go_through_the_file(
    runtime: Runtime, settings: Settings, clock: FixedClock
) -> None:
    memory = runtime.memory(settings.agent)
    keep = save(memory, "Master planted tulip bulbs along the fence in October.")
    merged = save(memory, "The tulip bulbs came from Aya's garden.")
    gone = save(memory, f"Master burned the toast again this morning; {MARKER}.", is_private=True)
    memory.merge(keep, merged, "Master planted tulip bulbs from Aya's garden along the fence.")
    clock.set(clock.now() + timedelta(minutes=1))
    memory.forget(gone)

    log = memory.deletion_log
    assert isinstance(log, SqliteDeletionLog)
    assert [e.memory.id for e in log.entries()] == [merged, gone]  # oldest deletion first
    assert [e.memory.id for e in log.merges_into(keep)] == [merged]
    assert log.logged_ids([gone, keep, gone]) == {gone}
    entry = log.get(gone)
    assert entry is not None and entry.memory.is_private and MARKER in entry.memory.content
    assert collection_name(settings.agent, KIND) not in collection_names(runtime.chroma.client)

    memory.restore(gone)
    assert log.get(gone) is None
    assert MARKER in memory.get(gone).content


def test_a_purged_entry_leaves_no_text_in_the_file(runtime: Runtime, settings: Settings) -> None:
    memory = runtime.memory(settings.agent)
    gone = save(
        memory, f"I never told Master about the dent in his car; {MARKER}.", is_private=True
    )
    memory.forget(gone)
    folder = deletion_log_path(settings.data_dir, settings.agent).parent
    assert MARKER.encode() in bytes_below(folder)

    assert memory.purge_deletion_log(everything=True) == [gone]
    assert MARKER.encode() not in bytes_below(folder)
    assert {oct(p.stat().st_mode & 0o777) for p in folder.iterdir()} == {"0o600"}


def test_entries_kept_in_chroma_by_an_older_version_move_into_the_file(
    settings: Settings, embedder: LocalMultilingualUSE, clock: FixedClock
) -> None:
    """A store whose log is a Chroma collection (ego-mcp before this file): its entries
    are read from the file at the next open, restorable, and the collection goes."""
    first = Runtime.open(settings, clock=clock, embedder=embedder)
    memory = first.memory(settings.agent)
    old_log = open_deletion_log(first.chroma.client, settings.agent)
    ids = [save(memory, f"Old entry {n}: Master repainted the {colour} chair.") for n, colour in
           enumerate(["red", "blue", "green"])]  # fmt: skip
    for memory_id in ids:
        clock.set(clock.now() + timedelta(minutes=1))  # oldest deletion first
        memory.forget(memory_id)
        # Written as the older version wrote it, and taken out of the new file again.
        entry = memory.deletion_log.get(memory_id) if memory.deletion_log else None
        assert entry is not None
        old_log.put(entry)
        memory.deletion_log.remove(memory_id)  # type: ignore[union-attr]
    first.close()

    second = Runtime.open(settings, clock=clock, embedder=embedder)
    try:
        reopened = second.memory(settings.agent)
        log = reopened.deletion_log
        assert log is not None
        assert [e.memory.id for e in log.entries()] == ids
        assert collection_name(settings.agent, KIND) not in collection_names(second.chroma.client)
        reopened.restore(ids[1])
        assert "blue" in reopened.get(ids[1]).content
    finally:
        second.close()


def test_a_move_keeps_the_later_of_two_entries_and_leaves_out_unreadable_records(
    runtime: Runtime, settings: Settings, tmp_path: Path
) -> None:
    """Moved again (a run stopped before the drop, or an older version run since): of two
    entries of one memory the later deletion stays; a record with no deletion time is
    left out and counted, and the move still completes."""
    memory = runtime.memory(settings.agent)
    first, second = (save(memory, text) for text in ("Master fixed the gate.", "Emi sang."))
    memory.forget(first)
    memory.forget(second)
    log = memory.deletion_log
    assert log is not None
    client = runtime.chroma.client
    chroma_log = open_deletion_log(client, "elder")
    for entry in log.entries():
        chroma_log.put(entry)
    chroma_log._collection.upsert(  # an entry an older tool wrote without its time
        ids=["mem_0123456789ab"], embeddings=[[1.0]], documents=["x"], metadatas=[{"a": 1}]
    )

    target = SqliteDeletionLog(tmp_path / "elder.sqlite3")
    try:
        one, two = log.get(first), log.get(second)
        assert one is not None and two is not None
        later = replace(one, deleted_at=one.deleted_at + timedelta(minutes=5))
        earlier = replace(two, deleted_at=two.deleted_at - timedelta(minutes=5))
        target.put(later)
        target.put(earlier)
        assert adopt_chroma_entries(client, "elder", target) == (1, 1)  # only ``second``
        assert target.get(first) == later
        assert target.get(second) == two
        assert collection_name("elder", KIND) not in collection_names(client)
        assert adopt_chroma_entries(client, "elder", target) == (0, 0)
    finally:
        target.close()

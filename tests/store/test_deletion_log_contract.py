"""The two deletion logs answer alike: the embedded store's SQLite file and the Chroma
collection a server keeps (here on an embedded Chroma client, as its code is the same)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import chromadb
import pytest

from ego_mcp.memory.model import DeletedMemory, Memory
from ego_mcp.memory.store import DeletionLog
from ego_mcp.store.deletion_log import open_deletion_log
from ego_mcp.store.deletion_log_sqlite import SqliteDeletionLog

START = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "chroma"])
def log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[DeletionLog]:
    if request.param == "sqlite":
        opened = SqliteDeletionLog(tmp_path / "forgotten" / "agent.sqlite3")
        yield opened
        opened.close()
    else:
        yield open_deletion_log(chromadb.PersistentClient(path=str(tmp_path / "chroma")), "agent")


def entry(number: int, minutes: int, merged_into: str | None = None) -> DeletedMemory:
    memory = Memory(
        id=f"mem_{number:012x}",
        content=f"Memory number {number}: Master watered the ferns.",
        timestamp=START,
        is_private=number % 2 == 0,
    )
    return DeletedMemory(
        memory=memory,
        deleted_at=START + timedelta(minutes=minutes),
        deleted_by="merge_memories" if merged_into else "forget",
        episode_ids=("ep_000000000001",) if number == 1 else (),
        merged_into=merged_into,
        # A merge's kept memory as it was: the memory merged into.
        kept_before=Memory(id=merged_into, content="Master's ferns.", timestamp=START)
        if merged_into
        else None,
    )


def test_entries_are_kept_found_and_ordered_alike(log: DeletionLog) -> None:
    keep = "mem_00000000ffff"
    written = [entry(1, 30), entry(2, 10, keep), entry(3, 20, keep), entry(4, 40)]
    for one in written:
        log.put(one)

    assert log.get(written[0].memory.id) == written[0]
    assert log.get("mem_000000000999") is None
    assert [e.memory.id for e in log.entries()] == [written[i].memory.id for i in (1, 2, 0, 3)]
    assert log.merges_into(keep) == [written[1], written[2]]
    ids = [e.memory.id for e in written]
    assert log.logged_ids([*ids, "mem_000000000999", ids[0]]) == set(ids)

    again = entry(1, 50)  # forgotten again after a restore: the newer entry replaces it
    log.put(again)
    assert log.get(again.memory.id) == again
    assert len(log.entries()) == 4

    log.remove(ids[3])
    assert log.purge(ids[:2]) == 2
    assert [e.memory.id for e in log.entries()] == [ids[2]]

"""What a memory's record carries besides its text: every field reads back as written,
and an update drops what the memory no longer has (tags, an anticipated moment)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from ego_mcp.memory.model import Memory
from ego_mcp.store.codec import memory_from_record, memory_to_metadata, rewritten_metadata

WHEN = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)
MEMORY = Memory(
    "mem_0123456789ab", "A plan.", WHEN, tags=("Trip", "京都"),
    anticipated_at=datetime(2026, 5, 8, 18, tzinfo=UTC),
)  # fmt: skip


def test_tags_and_anticipation_read_back() -> None:
    meta = memory_to_metadata(MEMORY)
    assert meta["tag"] == ["trip", "京都"] and meta["anticipated_ts"] == 1778263200.0
    assert memory_from_record(MEMORY.id, MEMORY.content, meta) == MEMORY


def test_an_update_drops_what_the_memory_no_longer_has() -> None:
    bare = replace(MEMORY, tags=(), anticipated_at=None)
    assert "tag" not in memory_to_metadata(bare)  # Chroma refuses an empty list
    update = rewritten_metadata(bare)
    assert update["tag"] is None and update["anticipated_ts"] is None  # None: delete the key
    assert rewritten_metadata(MEMORY)["tag"] == ["trip", "京都"]

"""Pure conversions between memories and Chroma metadata."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ego_mcp.memory.model import Category, Emotion, EmotionalTrace, Link, LinkType, Memory
from ego_mcp.memory.store import MemoryFilter
from ego_mcp.store.codec import (
    filter_to_where,
    links_from_json,
    links_to_json,
    memory_from_record,
    memory_to_metadata,
)

MOMENT = datetime(2026, 2, 21, 10, 0, tzinfo=UTC)


def test_memory_round_trips() -> None:
    memory = Memory(
        id="mem_0123456789ab",
        content="text",
        timestamp=MOMENT,
        emotional_trace=EmotionalTrace(
            Emotion.MOVED, (Emotion.SAD,), 0.7, -0.2, 0.4, {"chest": "tight"}
        ),
        importance=4,
        category=Category.LESSON,
        tags=("a",),
        is_private=True,
        linked_ids=(Link("mem_ffffffffffff", LinkType.CAUSED_BY, "why", 0.9),),
    )
    assert memory_from_record(memory.id, memory.content, memory_to_metadata(memory)) == memory


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (True, True),
        ("true", True),
        ("True", True),
        (False, False),
        ("false", False),
        # Unreadable flags fail closed: the memory stays private.
        (1, True),
        (0, True),
        ("", True),
        ("maybe", True),
    ],
)
def test_stored_privacy_flag_fails_closed(raw: object, expected: bool) -> None:
    meta = {"timestamp": "2025-01-01T00:00:00", "is_private": raw}
    assert memory_from_record("mem_0123456789ab", "x", meta).is_private is expected


def test_oldest_link_format_of_bare_ids_is_read() -> None:
    memory = memory_from_record(
        "mem_0123456789ab",
        "x",
        {"timestamp": "2025-01-01T00:00:00", "linked_ids": '["mem_aaaaaaaaaaaa"]'},
    )
    assert memory.linked_ids == (Link("mem_aaaaaaaaaaaa"),)
    assert memory.timestamp.tzinfo is not None and memory.is_private is False


def test_links_read_back_with_their_defaults_and_fail_on_an_unknown_type() -> None:
    links = (
        Link("mem_aaaaaaaaaaaa", LinkType.SUPERSEDES, "time, 2026-12-07", 1.0),
        Link("mem_bbbbbbbbbbbb"),
    )
    assert links_from_json(links_to_json(links)) == links
    assert links_from_json('[{"target_id": "mem_cccccccccccc"}]') == (Link("mem_cccccccccccc"),)
    for kind in ('"bogus"', "[1]", "null"):
        with pytest.raises(ValueError):
            links_from_json(f'[{{"target_id": "mem_cccccccccccc", "link_type": {kind}}}]')


def test_filter_to_where() -> None:
    assert filter_to_where(None) is None
    assert filter_to_where(MemoryFilter()) is None
    assert filter_to_where(MemoryFilter(emotion=Emotion.SAD)) == {"emotion": "sad"}
    combined = filter_to_where(
        MemoryFilter(category=Category.DREAM, valence_range=(-0.5, 0.5), date_from=MOMENT)
    )
    assert combined == {
        "$and": [
            {"category": "dream"},
            {"ts": {"$gte": MOMENT.timestamp()}},
            {"valence": {"$gte": -0.5}},
            {"valence": {"$lte": 0.5}},
        ]
    }

from datetime import UTC, datetime

import pytest

from ego_mcp.backup.format import (
    Header,
    deleted_line,
    document_line,
    episode_line,
    memory_line,
    parse_record,
)
from ego_mcp.errors import InvalidInput
from ego_mcp.memory.model import (
    Category,
    DeletedMemory,
    Emotion,
    EmotionalTrace,
    Episode,
    Link,
    LinkType,
    Memory,
)

WHEN = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)
MEMORY = Memory(
    id="mem_0123456789ab",
    content="マスターと初雪を見た。 The first snow.",
    timestamp=WHEN,
    emotional_trace=EmotionalTrace(
        Emotion.MOVED, (Emotion.HAPPY,), 0.8, 0.6, 0.4, {"warmth": "chest"}
    ),
    importance=5,
    category=Category.RELATIONSHIP,
    tags=("snow",),
    is_private=True,
    linked_ids=(Link("mem_ba9876543210", LinkType.CAUSED_BY, "the cold", 0.7),),
    anticipated_at=datetime(2026, 5, 8, 18, 0, tzinfo=UTC),
)


def test_every_record_reads_back_as_written() -> None:
    episode = Episode("ep_00000000000a", "Winter", (MEMORY.id,), WHEN, WHEN, 4)
    entry = DeletedMemory(MEMORY, WHEN, "merge_memories", ("ep_00000000000a",), "mem_1", MEMORY)
    assert parse_record(memory_line(MEMORY), 2) == MEMORY
    assert parse_record(episode_line(episode), 3) == episode
    assert parse_record(deleted_line(entry), 4) == entry
    assert parse_record(document_line("desires", {"curiosity": 0.4}), 5) == (
        "desires",
        {"curiosity": 0.4},
    )


def test_the_header_counts_and_is_versioned() -> None:
    header = Header("alice", WHEN, {"memory": 2}, private_left_out=1)
    again = Header.parse(header.line())
    assert again.counts == {"memory": 2, "episode": 0, "document": 0, "deleted": 0}
    assert again.private_left_out == 1 and again.agent == "alice"


def test_another_format_version_is_refused_in_one_line() -> None:
    line = Header("alice", WHEN).line().replace('"version": 1', '"version": 2')
    with pytest.raises(InvalidInput) as refused:
        Header.parse(line)
    assert "version 2" in str(refused.value) and "\n" not in str(refused.value)
    with pytest.raises(InvalidInput, match="not an ego-mcp-export file"):
        Header.parse('{"hello": 1}')


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        '{"type": "memory", "id": "mem_0123456789ab"}',
        memory_line(MEMORY).replace('"moved"', '"ecstatic"'),
        memory_line(MEMORY).replace("+00:00", ""),
        document_line("schedule", {}),
        '{"type": "embedding"}',
    ],
)
def test_a_malformed_record_names_its_line(line: str) -> None:
    with pytest.raises(InvalidInput, match="line 7 is not a valid record"):
        parse_record(line, 7)

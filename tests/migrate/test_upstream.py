"""Pure conversions of upstream records: tolerant of what later versions add, never an error."""

from __future__ import annotations

from datetime import UTC, datetime

from ego_mcp.memory.model import Emotion, LinkType
from ego_mcp.migrate.upstream import (
    Oddities,
    memory_from_upstream,
    merge_desires,
    merge_relationships,
    merge_self_model,
)

NOW = datetime(2026, 11, 22, tzinfo=UTC)


def test_upstream_memory_fields_map_and_unknowns_fall_back() -> None:
    odd = Oddities()
    memory = memory_from_upstream(
        "mem_0123456789ab",
        "  Saw a heron.  ",
        {
            "timestamp": "2026-03-01T08:00:00",
            "emotion": "awed",  # a later version's emotion
            "secondary": "happy, curious,",
            "tags": "birds,river",
            "body_state": '{"uptime_hours": 3.5}',
            "linked_ids": '[{"target_id": "mem_aaaaaaaaaaaa", "link_type": "leads_to"}, "bad"]',
            "is_private": True,
            "importance": 9,
            "embedding_model": "gemini",  # fields we do not know are ignored
        },
        NOW,
        odd,
    )
    assert memory is not None
    assert memory.content == "Saw a heron." and memory.timestamp.tzinfo is not None
    assert memory.emotional_trace.primary is Emotion.NEUTRAL and odd["emotion"] == 1
    assert memory.emotional_trace.secondary == (Emotion.HAPPY, Emotion.CURIOUS)
    assert memory.emotional_trace.body_state == {"uptime_hours": "3.5"}
    assert memory.tags == ("birds", "river") and memory.importance == 5 and memory.is_private
    assert [(lk.target_id, lk.link_type) for lk in memory.linked_ids] == [
        ("mem_aaaaaaaaaaaa", LinkType.LEADS_TO)
    ]
    assert odd["linked_ids"] == 1
    assert memory_from_upstream("not-an-id", "x", {}, NOW, odd) is None


def test_document_merges_are_idempotent() -> None:
    desires = {"curiosity": {"last_satisfied": "2026-11-01T00:00:00+00:00", "boost": 0.0}}
    once = merge_desires(None, desires)
    assert once["curiosity"]["at"] == "2026-11-01T00:00:00+00:00"
    assert merge_desires(once, desires) == once
    later = {"curiosity": {"at": "2026-11-20T00:00:00+00:00", "quality": 0.9}}
    assert merge_desires(later, desires)["curiosity"] == later["curiosity"]  # ours is newer

    model = {"discovered_values": {"honesty": 0.9}, "unresolved_questions": ["Why?"]}
    merged = merge_self_model(None, model, NOW)
    assert merged["discovered_values"] == ["honesty"]
    assert [q["question"] for q in merged["open_questions"]] == ["Why?"]
    assert merge_self_model(merged, model, NOW) == merged

    people = {"Aoi": {"name": "Aoi", "preferred_topics": ["jazz"], "trust_level": 0.7}}
    merged_people = merge_relationships(None, people, NOW)
    assert merged_people["Aoi"]["preferences"] == ["jazz"]
    assert merged_people["Aoi"]["trust_level"] == 0.7
    assert merge_relationships(merged_people, people, NOW) == merged_people

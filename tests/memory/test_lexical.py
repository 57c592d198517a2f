"""Hybrid recall's lexical half: which terms are looked up, and the rarity gate."""

from __future__ import annotations

from datetime import UTC, datetime

from ego_mcp.memory.lexical import BONUS, fuse, lexical_terms, rare_matches, spellings
from ego_mcp.memory.model import Memory, SearchHit

NOW = datetime(2026, 2, 21, tzinfo=UTC)


def test_short_queries_and_identifiers_are_terms() -> None:
    assert lexical_terms("LOG-131") == ["LOG-131"]
    assert lexical_terms("佐藤さん") == ["佐藤さん"]
    long = "why did the pod get OOMKilled after the parse_ts change last week at night"
    assert lexical_terms(long) == ["OOMKilled", "parse_ts"]
    assert lexical_terms("a long plain question about a walk by the river at dawn") == []
    assert spellings("spanish") == ["spanish", "Spanish"]


def test_only_rare_terms_count() -> None:
    bonus = rare_matches({"LOG-131": ["mem_a"], "Master": [f"mem_{i}" for i in range(9)]})
    assert bonus == {"mem_a": BONUS}


def test_fusion_adds_the_bonus_and_keeps_the_vector_distance() -> None:
    def hit(memory_id: str, distance: float) -> SearchHit:
        return SearchHit(Memory(memory_id, "x", NOW), distance)

    hits = [hit("mem_near", 0.40), hit("mem_exact", 0.55), hit("mem_far", 0.70)]
    fused = fuse(hits, {"mem_exact": BONUS}, 2)
    assert [h.memory.id for h in fused] == ["mem_exact", "mem_near"]
    assert fused[0].distance == 0.55

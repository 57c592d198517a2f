from datetime import UTC, datetime

import pytest

from ego_mcp.memory.model import Memory, SearchHit
from ego_mcp.memory.recall.fusion import RELEVANCE_FLOOR, rank

START = datetime(2026, 5, 1, tzinfo=UTC)


def hit(memory_id: str, similarity: float) -> SearchHit:
    return SearchHit(Memory(memory_id, memory_id, START), 1.0 - similarity)


def test_words_lift_a_memory_above_a_closer_one_by_meaning() -> None:
    ranked = rank([hit("near", 0.5), hit("worded", 0.3)], {"worded": 0.4}, 2)
    assert [r.memory.id for r in ranked] == ["worded", "near"]
    assert ranked[0].score == pytest.approx(0.7)


def test_memories_matching_neither_meaning_nor_words_are_left_out() -> None:
    below = RELEVANCE_FLOOR - 0.02
    ranked = rank([hit("related", 0.4), hit("noise", below), hit("word", below)], {"word": 0.05}, 3)
    assert [r.memory.id for r in ranked] == ["related", "word"]


def test_at_most_n_results() -> None:
    assert len(rank([hit(f"m{i}", 0.5) for i in range(5)], {}, 3)) == 3

"""The self model: field updates and the open-question lifecycle."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ego_mcp.ego.self_model import apply_update, empty_self_model, open_questions
from ego_mcp.errors import InvalidInput, NotFound

NOW = datetime(2026, 2, 21, 9, 0, tzinfo=UTC)


def test_question_lifecycle() -> None:
    model = empty_self_model()
    apply_update(model, "new_question", "Why do I like rain?", NOW)
    apply_update(model, "new_question", {"question": "What is home?", "importance": 5}, NOW)
    first, second = open_questions(model)
    assert second["question"] == "Why do I like rain?" and first["importance"] == 5

    apply_update(model, "question_importance", {"id": second["id"], "importance": 1}, NOW)
    apply_update(model, "resolve_question", first["id"], NOW)

    remaining = open_questions(model)
    assert [q["id"] for q in remaining] == [second["id"]] and remaining[0]["importance"] == 1
    with pytest.raises(NotFound, match="Open question not found"):
        apply_update(model, "resolve_question", first["id"], NOW)


def test_plain_fields() -> None:
    model = empty_self_model()
    apply_update(model, "preferences", {"key": "music", "value": "jazz"}, NOW)
    apply_update(model, "skill_confidence", {"skill": "rust", "confidence": 0.6}, NOW)
    apply_update(model, "discovered_values", "honesty", NOW)
    apply_update(model, "growth_log", "learned to pause", NOW)
    assert model["preferences"] == {"music": "jazz"}
    assert model["skill_confidence"] == {"rust": 0.6}
    assert model["discovered_values"] == ["honesty"]
    assert model["growth_log"][0]["text"] == "learned to pause"


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("favourite_colour", "blue", "field must be one of"),
        ("discovered_values", "", "non-empty string"),
        ("discovered_values", 3, "non-empty string"),
        ("skill_confidence", {"skill": "go", "confidence": 2}, "between 0 and 1"),
        ("skill_confidence", "go", "takes an object"),
        ("new_question", {"question": "q", "importance": 9}, "between 1 and 5"),
        ("question_importance", {"id": "q_1"}, "takes an object"),
    ],
)
def test_malformed_updates_change_nothing(field: str, value: object, reason: str) -> None:
    model = empty_self_model()
    with pytest.raises(InvalidInput, match=reason):
        apply_update(model, field, value, NOW)
    assert model == empty_self_model()

"""The agent's model of itself, including open questions with ids and importance."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from ego_mcp.errors import InvalidInput, NotFound
from ego_mcp.memory.inputs import loose_number, loose_whole

LIST_FIELDS = ("discovered_values", "current_goals", "identity_narratives", "growth_log")
QUESTION_OPS = ("new_question", "resolve_question", "question_importance")
FIELDS = ("preferences", "skill_confidence", *LIST_FIELDS, *QUESTION_OPS)
MAX_TEXT = 1_000


def empty_self_model() -> dict[str, Any]:
    return {
        "preferences": {},
        "skill_confidence": {},
        "discovered_values": [],
        "current_goals": [],
        "identity_narratives": [],
        "growth_log": [],
        "open_questions": [],
        "last_introspection": None,
    }


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{field} takes a non-empty string")
    if len(value) > MAX_TEXT:
        raise InvalidInput(f"{field} text is too long (the limit is {MAX_TEXT})")
    return value.strip()


def _pair(value: Any, field: str, keys: tuple[str, str]) -> tuple[Any, Any]:
    if not isinstance(value, dict) or set(value) != set(keys):
        raise InvalidInput(f"{field} takes an object {{{keys[0]}, {keys[1]}}}")
    return value[keys[0]], value[keys[1]]


def apply_update(model: dict[str, Any], field: str, value: Any, now: datetime) -> str:
    """Apply ``update_self(field, value)`` to ``model`` in place; returns what changed."""
    if field not in FIELDS:
        raise InvalidInput("field must be one of: " + ", ".join(FIELDS))
    if field == "preferences":
        key, text = _pair(value, field, ("key", "value"))
        model["preferences"][_text(key, "preferences key")] = _text(text, "preferences value")
        return f"preference {key} set"
    if field == "skill_confidence":
        skill, confidence = _pair(value, field, ("skill", "confidence"))
        model["skill_confidence"][_text(skill, "skill")] = loose_number(
            confidence, "confidence", 0, 1
        )
        return f"confidence in {skill} set to {float(confidence):.2f}"
    if field in LIST_FIELDS:
        entry = _text(value, field)
        model[field].append(
            {"at": now.isoformat(), "text": entry} if field == "growth_log" else entry
        )
        return f"{field} gained an entry"
    return _update_questions(model["open_questions"], field, value, now)


def _update_questions(questions: list[dict[str, Any]], op: str, value: Any, now: datetime) -> str:
    if op == "new_question":
        if isinstance(value, dict):
            text, importance = _pair(value, op, ("question", "importance"))
        else:
            text, importance = value, 3
        question = {
            "id": "q_" + secrets.token_hex(3),
            "question": _text(text, "question"),
            "importance": loose_whole(importance, "importance", 1, 5),
            "created": now.isoformat(),
            "resolved": None,
        }
        questions.append(question)
        return f"question {question['id']} opened"
    if op == "resolve_question":
        question = _find(questions, _text(value, "resolve_question"))
        question["resolved"] = now.isoformat()
        return f"question {question['id']} resolved"
    qid, importance = _pair(value, op, ("id", "importance"))
    question = _find(questions, _text(qid, "id"))
    question["importance"] = loose_whole(importance, "importance", 1, 5)
    return f"question {question['id']} now has importance {question['importance']}"


def _find(questions: list[dict[str, Any]], qid: str) -> dict[str, Any]:
    for question in questions:
        if question["id"] == qid and question["resolved"] is None:
            return question
    raise NotFound(f"Open question not found: {qid}. introspect lists the open questions.")


def open_questions(model: dict[str, Any]) -> list[dict[str, Any]]:
    """Unresolved questions, most important first."""
    pending = [q for q in model.get("open_questions", []) if q.get("resolved") is None]
    return sorted(pending, key=lambda q: (-int(q["importance"]), q["created"]))

"""Models of the people the agent knows, one document each inside ``relationships``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ego_mcp.errors import InvalidInput
from ego_mcp.memory.inputs import loose_number

APPEND_FIELDS = ("known_facts", "preferences", "sensitive_topics", "shared_episodes")
FIELDS = (*APPEND_FIELDS, "trust_level", "interaction")
MAX_TEXT = 1_000


def new_person(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "known_facts": [],
        "preferences": [],
        "sensitive_topics": [],
        "shared_episodes": [],
        "trust_level": 0.5,
        "interactions": 0,
        "first_interaction": None,
        "last_interaction": None,
    }


def person_name(value: str) -> str:
    name = value.strip()
    if not name or len(name) > 100:
        raise InvalidInput("person must be a name of 1-100 characters")
    return name


def apply_update(person: dict[str, Any], field: str, value: Any, now: datetime) -> str:
    """Apply ``update_relationship(field, value)``; every update counts as an interaction."""
    if field not in FIELDS:
        raise InvalidInput("field must be one of: " + ", ".join(FIELDS))
    if field == "trust_level":
        person["trust_level"] = loose_number(value, "trust_level", 0, 1)
        change = f"trust set to {person['trust_level']:.2f}"
    elif field == "interaction":
        change = "interaction noted"
    else:
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
            raise InvalidInput(f"{field} takes a non-empty string of at most {MAX_TEXT} characters")
        if value.strip() not in person[field]:
            person[field].append(value.strip())
        change = f"{field} updated"
    person["interactions"] = int(person.get("interactions", 0)) + 1
    person["first_interaction"] = person.get("first_interaction") or now.isoformat()
    person["last_interaction"] = now.isoformat()
    return change

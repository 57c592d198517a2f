"""Models of the people the agent knows, one document each inside ``relationships``,
keyed by name; a person's aliases ("Ken", "健二" for Kenji) find the same model."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ego_mcp.errors import InvalidInput
from ego_mcp.memory.inputs import loose_number

APPEND_FIELDS = ("known_facts", "preferences", "sensitive_topics", "shared_episodes")
FIELDS = (*APPEND_FIELDS, "trust_level", "interaction", "aliases")
MAX_TEXT = 1_000
MAX_ALIASES = 20


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
        "aliases": [],
    }


def person_name(value: object, field: str = "person") -> str:
    """A person's name or alias: text of 1-100 characters, stripped."""
    name = value.strip() if isinstance(value, str) else ""
    if not name or len(name) > 100:
        raise InvalidInput(f"{field} must be a name of 1-100 characters")
    return name


def name_key(name: str) -> str:
    """How names compare: Ken, ken and ｋｅｎ are one name."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def names_of(name: str, person: Mapping[str, Any]) -> list[str]:
    """A person's name, then their aliases."""
    return [name, *(str(alias) for alias in person.get("aliases") or [])]


def resolve(people: Mapping[str, Any], name: str) -> str:
    """The name a person is kept under: ``name`` itself, or the person it is an alias of
    (compared by ``name_key``); ``name`` when nobody is known by it."""
    if name in people:
        return name
    wanted = name_key(name)
    for known, person in people.items():
        if any(name_key(n) == wanted for n in names_of(known, person)):
            return known
    return name


def kept_names(people: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The names the people ``names`` name are kept under (an alias gives its person's
    name; a new name stays as written), one per person, compared as names are (Ken / ken)."""
    kept: dict[str, str] = {}
    for name in names:
        who = resolve(people, name)
        kept.setdefault(name_key(who), who)
    return list(kept.values())


def aliases(
    value: Any, owner: str, people: Mapping[str, Any], reserved: Sequence[str] = ()
) -> list[str]:
    """``update_relationship(field="aliases")``'s value: a name or a list of names, each
    1-100 characters and no other person's name or alias, nor a ``reserved`` name (the
    companion's, who may have no model yet)."""
    given = [value] if isinstance(value, str) else value
    if not isinstance(given, list) or not given or len(given) > MAX_ALIASES:
        raise InvalidInput(f"aliases takes a name or a list of 1-{MAX_ALIASES} names")
    names = [person_name(item, "aliases") for item in given]
    for alias in names:
        taken = resolve(people, alias)
        if taken in people and taken != owner:
            raise InvalidInput(f"aliases: {alias} already names {taken}")
        if owner not in reserved and any(name_key(alias) == name_key(r) for r in reserved):
            raise InvalidInput(f"aliases: {alias} is the companion's name")
    return names


def apply_update(person: dict[str, Any], field: str, value: Any, now: datetime) -> str:
    """Apply ``update_relationship(field, value)`` (``aliases``: checked by ``aliases``
    first); every update counts as an interaction."""
    if field not in FIELDS:
        raise InvalidInput("field must be one of: " + ", ".join(FIELDS))
    if field == "trust_level":
        person["trust_level"] = loose_number(value, "trust_level", 0, 1)
        change = f"trust set to {person['trust_level']:.2f}"
    elif field == "interaction":
        change = "interaction noted"
    elif field == "aliases":
        held = person.setdefault("aliases", [])
        keys = {name_key(n) for n in held} | {name_key(str(person.get("name", "")))}
        for alias in value:
            if name_key(alias) not in keys:
                held.append(alias)
                keys.add(name_key(alias))
        change = "also known as " + ", ".join(held) if held else "no aliases"
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

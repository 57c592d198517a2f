"""Pure conversions from upstream ego-mcp's stored formats (0.2.3, and what later versions
add) to ours. Unknown fields are ignored; unknown values fall back to a default and are
counted, never an error.

Upstream memory metadata: ``timestamp`` (ISO, no numeric ``ts``), ``emotion``,
``secondary`` and ``tags`` as comma-separated strings, ``body_state`` as a JSON string,
``is_private`` as a bool, ``linked_ids`` as a JSON list of link objects.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

from ego_mcp.ego import relationships, self_model
from ego_mcp.ego.desires import SATISFACTION_HOURS
from ego_mcp.memory.inputs import EPISODE_ID, MEMORY_ID, stored_privacy
from ego_mcp.memory.model import (
    Category,
    Emotion,
    EmotionalTrace,
    Episode,
    Link,
    LinkType,
    Memory,
)

E = TypeVar("E", bound=StrEnum)
MEMORIES = "ego_memories"
EPISODES = "ego_episodes"


class Oddities(Counter[str]):
    """What did not fit and was replaced by a default: field name -> count."""


def _enum(value: object, kind: type[E], default: E, field: str, odd: Oddities) -> E:
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        odd[field] += 1
        return default


def _comma_list(raw: object) -> list[str]:
    if isinstance(raw, list):
        return [str(item).strip() for item in raw if str(item).strip()]
    if not raw:
        return []
    text = str(raw)
    if text.startswith("["):
        try:
            return _comma_list(json.loads(text))
        except json.JSONDecodeError:
            pass
    return [part.strip() for part in text.split(",") if part.strip()]


def _json_object(raw: object) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(str(raw)) if raw else {}
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _number(raw: object, default: float, low: float, high: float) -> float:
    try:
        value = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return min(high, max(low, value))


def _moment(raw: object, fallback: datetime) -> datetime:
    moment = _iso_moment(raw)
    return fallback if moment is None else moment


def _iso_moment(raw: object) -> datetime | None:
    """An upstream ISO moment (a naive one is UTC), or None when it is not one."""
    try:
        moment = datetime.fromisoformat(str(raw).strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _links(raw: object, odd: Oddities) -> tuple[Link, ...]:
    try:
        items = json.loads(str(raw)) if raw else []
    except json.JSONDecodeError:
        odd["linked_ids"] += 1
        return ()
    links: dict[str, Link] = {}
    for item in items if isinstance(items, list) else []:
        entry = {"target_id": item} if isinstance(item, str) else item
        target = str(entry.get("target_id", ""))
        if not MEMORY_ID.match(target):
            odd["linked_ids"] += 1
            continue
        links[target] = Link(
            target_id=target,
            link_type=_enum(entry.get("link_type"), LinkType, LinkType.RELATED, "link_type", odd),
            note=str(entry.get("note") or "")[:500],
            confidence=_number(entry.get("confidence"), 0.5, 0.0, 1.0),
        )
    return tuple(links.values())


def memory_from_upstream(
    memory_id: str, document: str | None, meta: Mapping[str, Any], now: datetime, odd: Oddities
) -> Memory | None:
    """Our memory for an upstream record, or None when it cannot be one (no id, no text)."""
    if not MEMORY_ID.match(memory_id) or not (document or "").strip():
        odd["skipped records"] += 1
        return None
    body = {str(k): str(v) for k, v in _json_object(meta.get("body_state")).items()}
    trace = EmotionalTrace(
        primary=_enum(meta.get("emotion", "neutral"), Emotion, Emotion.NEUTRAL, "emotion", odd),
        secondary=tuple(
            dict.fromkeys(
                _enum(e, Emotion, Emotion.NEUTRAL, "secondary", odd)
                for e in _comma_list(meta.get("secondary"))
            )
        ),
        intensity=_number(meta.get("intensity"), 0.5, 0.0, 1.0),
        valence=_number(meta.get("valence"), 0.0, -1.0, 1.0),
        arousal=_number(meta.get("arousal"), 0.5, 0.0, 1.0),
        body_state=body,
    )
    return Memory(
        id=memory_id,
        content=(document or "").strip(),
        timestamp=_moment(meta.get("timestamp"), now),
        emotional_trace=trace,
        importance=int(_number(meta.get("importance"), 3, 1, 5)),
        category=_enum(meta.get("category", "daily"), Category, Category.DAILY, "category", odd),
        tags=tuple(_comma_list(meta.get("tags"))),
        is_private=stored_privacy(meta.get("is_private", False)),
        linked_ids=_links(meta.get("linked_ids"), odd),
        anticipated_at=_anticipated(meta.get("anticipated_at"), odd),
        # 1.7's shared_with names its people here: a moment lived with someone.
        shared=bool(_comma_list(meta.get("involved_person_ids"))),
    )


def _anticipated(raw: object, odd: Oddities) -> datetime | None:
    """1.7's ``anticipated_at``: an ISO moment, or "" for none (an unreadable one is
    left out and counted)."""
    if raw is None or not str(raw).strip():
        return None
    moment = _iso_moment(raw)
    if moment is None:
        odd["anticipated_at"] += 1
    return moment


def episode_from_upstream(
    episode_id: str, document: str | None, meta: Mapping[str, Any], now: datetime, odd: Oddities
) -> Episode | None:
    if not EPISODE_ID.match(episode_id):
        odd["skipped records"] += 1
        return None
    members = [m for m in _comma_list(meta.get("memory_ids")) if MEMORY_ID.match(m)]
    start = _moment(meta.get("start_time"), now)
    return Episode(
        id=episode_id,
        summary=(document or "").strip() or "(no summary)",
        memory_ids=tuple(dict.fromkeys(members)),
        start_time=start,
        end_time=max(start, _moment(meta.get("end_time"), start)),
        importance=int(_number(meta.get("importance"), 3, 1, 5)),
    )


def merge_desires(ours: Mapping[str, Any] | None, upstream: Mapping[str, Any]) -> dict[str, Any]:
    """Our desire document with each upstream satisfaction that is later than ours."""
    merged = dict(ours or {})
    for name in SATISFACTION_HOURS:
        entry = upstream.get(name)
        if not isinstance(entry, Mapping) or not entry.get("last_satisfied"):
            continue
        at = _moment(entry["last_satisfied"], datetime.min.replace(tzinfo=UTC))
        current = merged.get(name)
        if isinstance(current, Mapping) and datetime.fromisoformat(current["at"]) >= at:
            continue
        quality = _number(entry.get("satisfaction_quality"), 1.0, 0.0, 1.0)
        merged[name] = {"at": at.isoformat(), "quality": quality}
    if "_created" not in merged:
        times = [merged[n]["at"] for n in SATISFACTION_HOURS if isinstance(merged.get(n), Mapping)]
        if times:
            merged["_created"] = min(times)
    return merged


def _texts(raw: object) -> list[str]:
    """Entries of an upstream list (or the keys of a dict) as text."""
    items = list(raw) if isinstance(raw, dict | list) else []
    out = []
    for item in items:
        if isinstance(item, str):
            text = item
        elif isinstance(item, Mapping):
            text = str(item.get("text") or item.get("question") or json.dumps(item))
        else:
            text = str(item)
        if text.strip():
            out.append(text.strip())
    return out


def _question_id(text: str) -> str:
    """A stable id, so that importing twice adds a question once."""
    return "q_" + hashlib.sha256(text.encode()).hexdigest()[:6]


def merge_self_model(
    ours: Mapping[str, Any] | None, upstream: Mapping[str, Any], now: datetime
) -> dict[str, Any]:
    merged = json.loads(json.dumps(ours)) if ours else self_model.empty_self_model()
    for key in ("preferences", "skill_confidence"):
        found = upstream.get(key)
        for name, value in found.items() if isinstance(found, Mapping) else []:
            if key == "skill_confidence":
                merged[key].setdefault(str(name), _number(value, 0.5, 0.0, 1.0))
            else:
                merged[key].setdefault(str(name), str(value))
    for key in self_model.LIST_FIELDS:
        present = {e["text"] if isinstance(e, Mapping) else e for e in merged[key]}
        for text in _texts(upstream.get(key)):
            if text not in present:
                entry = {"at": now.isoformat(), "text": text} if key == "growth_log" else text
                merged[key].append(entry)
                present.add(text)
    asked = {q["question"] for q in merged["open_questions"]}
    for text in _texts(upstream.get("unresolved_questions")):
        if text not in asked:
            merged["open_questions"].append(
                {
                    "id": _question_id(text),
                    "question": text,
                    "importance": 3,
                    "created": now.isoformat(),
                    "resolved": None,
                }
            )
            asked.add(text)
    return merged


def _merge_aliases(people: dict[str, Any], name: str, raw: object) -> None:
    """1.7's aliases, added to the person ``name`` once each; one that already names
    another person (a name or alias of theirs) is left out, as update_relationship
    refuses it."""
    held = people[name].setdefault("aliases", [])
    for text in _texts(raw):
        alias = text[:100]
        owner = relationships.resolve(people, alias)
        someone_else = owner != name and (owner != alias or alias in people)
        known = {relationships.name_key(n) for n in relationships.names_of(name, people[name])}
        if not someone_else and relationships.name_key(alias) not in known:
            held.append(alias)


def merge_relationships(
    ours: Mapping[str, Any] | None, upstream: Mapping[str, Any], now: datetime
) -> dict[str, Any]:
    """Upstream's people merged into ours: a person already known by that name or alias
    gains what upstream knew; aliases are added once every person is in, so an alias
    never names a person of its own (``_merge_aliases``)."""
    merged: dict[str, Any] = json.loads(json.dumps(ours)) if ours else {}
    aliases: list[tuple[str, object]] = []
    for key, entry in upstream.items():
        if not isinstance(entry, Mapping):
            continue
        name = relationships.resolve(merged, str(entry.get("name") or key).strip()[:100])
        if not name:
            continue
        person = merged.setdefault(name, relationships.new_person(name))
        aliases.append((name, entry.get("aliases")))
        sources = {
            "known_facts": ["known_facts"],
            "preferences": ["preferred_topics", "preferences"],
            "sensitive_topics": ["sensitive_topics"],
            "shared_episodes": ["shared_episodes", "shared_episode_ids"],
        }
        for ours_key, their_keys in sources.items():
            for their_key in their_keys:
                for text in _texts(entry.get(their_key)):
                    if text not in person[ours_key]:
                        person[ours_key].append(text)
        if "trust_level" in entry and person["interactions"] == 0:
            person["trust_level"] = _number(entry["trust_level"], 0.5, 0.0, 1.0)
        interactions = int(_number(entry.get("total_interactions"), 0, 0, 1e9))
        person["interactions"] = max(int(person.get("interactions", 0)), interactions)
        for moment in ("first_interaction", "last_interaction"):
            if entry.get(moment) and not person.get(moment):
                person[moment] = _moment(entry[moment], now).isoformat()
    for name, raw in aliases:
        _merge_aliases(merged, name, raw)
    return merged

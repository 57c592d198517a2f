"""Pure conversions between domain objects and Chroma's flat metadata.

Stored data is versioned (``schema``); reading tolerates what older versions wrote:
a missing ``is_private`` is false; a flag that is neither a boolean nor the word
true/false is read as private, so an unreadable flag can never publish a memory.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from ego_mcp.memory.hours import hour_of
from ego_mcp.memory.inputs import stored_privacy, tag_key
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
from ego_mcp.memory.store import MemoryFilter

SCHEMA_VERSION = 1
Metadata = dict[str, str | int | float | bool | list[str]]
TAG_INDEX = "tag"
MEMBER_INDEX = "members"  # an episode's memory ids as a list Chroma matches with $contains
# Written with the list on every episode (none too): an episode without it was written
# by an older version, and is found by one read (``store.chroma.lacks_member_index``).
MEMBERS_KEPT = "members_kept"
ANTICIPATED = "anticipated_ts"
SHARED = "shared"
RECALL_DAYS = "recall_days"
RECALLED_ON = "recalled_on"


def parse_time(value: object) -> datetime:
    moment = datetime.fromisoformat(str(value))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def links_to_json(links: tuple[Link, ...]) -> str:
    return json.dumps(
        [
            {
                "target_id": lk.target_id,
                "link_type": lk.link_type.value,
                "note": lk.note,
                "confidence": round(lk.confidence, 4),
            }
            for lk in links
        ]
    )


# Each link type by its stored value, read without the enum's own lookup (which took a
# quarter of a link list's decoding).
_LINK_TYPES = {kind.value: kind for kind in LinkType}


def links_from_json(raw: object) -> tuple[Link, ...]:
    """A record's link list. A memory many later ones link to holds many links, read
    whenever the memory is, so each is built without the enum's own lookup."""
    if not raw:
        return ()
    return tuple(_link(item) for item in json.loads(str(raw)))


def _link(item: Any) -> Link:
    """One stored link: a bare id (the oldest format) or its fields; a link type not
    known fails as the enum fails (ValueError)."""
    if isinstance(item, str):
        return Link(target_id=item)
    target_id = str(item["target_id"])
    kind = item.get("link_type", "related")
    known = isinstance(kind, str) and kind in _LINK_TYPES
    return Link(
        target_id=target_id,
        link_type=_LINK_TYPES[kind] if known else LinkType(kind),
        note=str(item.get("note", "")),
        confidence=float(item.get("confidence", 0.5)),
    )


def memory_to_metadata(memory: Memory) -> Metadata:
    trace = memory.emotional_trace
    metadata: Metadata = {
        "schema": SCHEMA_VERSION,
        "timestamp": memory.timestamp.isoformat(),
        "ts": memory.timestamp.timestamp(),
        "hour": hour_of(memory.timestamp),
        "emotion": trace.primary.value,
        "secondary": json.dumps([e.value for e in trace.secondary]),
        "intensity": trace.intensity,
        "valence": trace.valence,
        "arousal": trace.arousal,
        "body_state": json.dumps(trace.body_state),
        "importance": memory.importance,
        "category": memory.category.value,
        "tags": json.dumps(list(memory.tags)),
        "is_private": memory.is_private,
        "linked_ids": links_to_json(memory.linked_ids),
        "follows": memory.follows,
    }
    if memory.shared:
        metadata[SHARED] = True
    # recall_days and recalled_on are not written here: only ``recall_tally`` writes them,
    # so that no rewrite of a memory read before a recall turns its count back.
    return metadata | tag_index(memory.tags) | anticipation(memory.anticipated_at)


def recall_tally(meta: Mapping[str, Any], day: int) -> Metadata | None:
    """The recall keys of a record recalled on ``day`` (days since the epoch): one more
    day counted, unless it was already counted that day (so a job run twice counts once);
    None when nothing changes."""
    counted_on = int(meta.get(RECALLED_ON, 0))
    if day <= counted_on:
        return None
    return {RECALL_DAYS: int(meta.get(RECALL_DAYS, 0)) + 1, RECALLED_ON: day}


def anticipation(moment: datetime | None) -> Metadata:
    """The moment a memory anticipates, as ``anticipated_ts`` (what wake_up's window
    reads); no key for none."""
    return {} if moment is None else {ANTICIPATED: moment.timestamp()}


def tag_index(tags: Sequence[str]) -> Metadata:
    """What recall's tags filter reads: the tags as they compare (``inputs.tag_key``), in
    a list Chroma matches with ``$contains``; no key at all for none (Chroma refuses an
    empty list)."""
    return {TAG_INDEX: [tag_key(tag) for tag in tags]} if tags else {}


def rewritten_metadata(memory: Memory) -> dict[str, Any]:
    """``memory_to_metadata`` for an update of a stored record: a memory left with no
    tags, anticipation or sharing drops the record's (an update keeps the keys it does not
    name)."""
    return {TAG_INDEX: None, ANTICIPATED: None, SHARED: None} | memory_to_metadata(memory)


def memory_from_record(memory_id: str, document: str | None, meta: Mapping[str, Any]) -> Memory:
    trace = EmotionalTrace(
        primary=Emotion(meta.get("emotion", "neutral")),
        secondary=tuple(Emotion(e) for e in json.loads(meta.get("secondary") or "[]")),
        intensity=float(meta.get("intensity", 0.5)),
        valence=float(meta.get("valence", 0.0)),
        arousal=float(meta.get("arousal", 0.5)),
        body_state=dict(json.loads(meta.get("body_state") or "{}")),
    )
    return Memory(
        id=memory_id,
        content=document or "",
        timestamp=parse_time(meta["timestamp"]),
        emotional_trace=trace,
        importance=int(meta.get("importance", 3)),
        category=Category(meta.get("category", "daily")),
        tags=tuple(json.loads(meta.get("tags") or "[]")),
        is_private=stored_privacy(meta.get("is_private", False)),
        linked_ids=links_from_json(meta.get("linked_ids")),
        follows=str(meta.get("follows") or ""),
        anticipated_at=(
            datetime.fromtimestamp(float(meta[ANTICIPATED]), UTC) if ANTICIPATED in meta else None
        ),
        shared=bool(meta.get(SHARED, False)),
        recall_days=int(meta.get(RECALL_DAYS, 0)),
        recalled_on=int(meta.get(RECALLED_ON, 0)),
    )


def filter_to_where(where: MemoryFilter | None) -> dict[str, Any] | None:
    """Chroma's ``where`` clause for a filter, or None when nothing is restricted."""
    if where is None:
        return None
    clauses: list[dict[str, Any]] = []
    if where.emotion is not None:
        clauses.append({"emotion": where.emotion.value})
    if where.category is not None:
        clauses.append({"category": where.category.value})
    if where.date_from is not None:
        clauses.append({"ts": {"$gte": where.date_from.timestamp()}})
    if where.date_to is not None:
        clauses.append({"ts": {"$lte": where.date_to.timestamp()}})
    if where.tags:
        clauses.append(_any_of([{TAG_INDEX: {"$contains": tag}} for tag in where.tags]))
    for key, bounds in (("valence", where.valence_range), ("arousal", where.arousal_range)):
        if bounds is not None:
            clauses.append({key: {"$gte": bounds[0]}})
            clauses.append({key: {"$lte": bounds[1]}})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def _any_of(clauses: list[dict[str, Any]]) -> dict[str, Any]:
    return clauses[0] if len(clauses) == 1 else {"$or": clauses}


def episode_to_metadata(episode: Episode) -> Metadata:
    return {
        "schema": SCHEMA_VERSION,
        "memory_ids": json.dumps(list(episode.memory_ids)),
        "start_time": episode.start_time.isoformat(),
        "end_time": episode.end_time.isoformat(),
        "importance": episode.importance,
        **{k: v for k, v in member_index(episode.memory_ids).items() if v is not None},
    }


def member_index(memory_ids: Sequence[str]) -> dict[str, Any]:
    """What finds the episodes that list a memory (``MEMBER_INDEX``), for an add or an
    update: the ids in a list, and the mark that it is kept; a None for none (Chroma
    refuses an empty list; in an update a None removes the key, in an add it is left
    out)."""
    return {MEMBER_INDEX: list(memory_ids) or None, MEMBERS_KEPT: 1}


def members_update(memory_ids: Sequence[str]) -> dict[str, Any]:
    """An update of an episode's members, in both forms."""
    return {"memory_ids": json.dumps(list(memory_ids)), **member_index(memory_ids)}


def episode_from_record(episode_id: str, document: str | None, meta: Mapping[str, Any]) -> Episode:
    return Episode(
        id=episode_id,
        summary=document or "",
        memory_ids=tuple(json.loads(meta.get("memory_ids") or "[]")),
        start_time=parse_time(meta["start_time"]),
        end_time=parse_time(meta["end_time"]),
        importance=int(meta.get("importance", 3)),
    )


def deleted_to_metadata(entry: DeletedMemory) -> Metadata:
    """A deletion-log entry; its memory's own metadata travels as one JSON value, so the
    log indexes only the keys it filters on. (The text is the record's document.)"""
    return {
        "schema": SCHEMA_VERSION,
        "deleted_at": entry.deleted_at.timestamp(),
        "deleted_by": entry.deleted_by,
        "memory": json.dumps(memory_to_metadata(entry.memory)),
        "episode_ids": json.dumps(list(entry.episode_ids)),
        "merged_into": entry.merged_into or "",
        "kept_before": "" if entry.kept_before is None else _memory_json(entry.kept_before),
        "keep_added_to": json.dumps(list(entry.keep_added_to)),
    }


def _memory_json(memory: Memory) -> str:
    return json.dumps({"content": memory.content, "meta": memory_to_metadata(memory)})


def _memory_of_json(memory_id: str, text: str) -> Memory | None:
    if not text:
        return None
    body = json.loads(text)
    return memory_from_record(memory_id, str(body["content"]), body["meta"])


def deleted_from_record(
    memory_id: str, document: str | None, meta: Mapping[str, Any]
) -> DeletedMemory:
    return DeletedMemory(
        memory=memory_from_record(memory_id, document, json.loads(meta["memory"])),
        deleted_at=datetime.fromtimestamp(float(meta["deleted_at"]), UTC),
        deleted_by=str(meta.get("deleted_by", "forget")),
        episode_ids=tuple(json.loads(meta.get("episode_ids") or "[]")),
        merged_into=str(meta.get("merged_into") or "") or None,
        kept_before=_memory_of_json(
            str(meta.get("merged_into") or ""), meta.get("kept_before") or ""
        ),
        keep_added_to=tuple(json.loads(meta.get("keep_added_to") or "[]")),
    )

"""The export file: JSON Lines, one record a line, the header first (docs/backup-format.md).

Pure: records to and from the domain's types. A record is a JSON object with a
``type``: ``memory``, ``episode``, ``document`` or ``deleted`` (a deletion-log entry).
No embeddings: they belong to a model, and import embeds anew with the configured one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

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

FORMAT = "ego-mcp-export"
VERSION = 1
KINDS = ("memory", "episode", "document", "deleted")
# The agent's state documents an export carries; the rest (consolidation results, the
# schedule) are made again by the server.
DOCUMENTS = ("desires", "self_model", "relationships", "last_introspection")


@dataclass(frozen=True)
class Header:
    """The first line: what the file is and how many records of each kind follow."""

    agent: str
    exported_at: datetime
    counts: dict[str, int] = field(default_factory=dict)
    private_left_out: int = 0
    version: int = VERSION

    def line(self) -> str:
        body = {
            "format": FORMAT,
            "version": self.version,
            "agent": self.agent,
            "exported_at": self.exported_at.isoformat(),
            "counts": {kind: self.counts.get(kind, 0) for kind in KINDS},
            "private_left_out": self.private_left_out,
        }
        return json.dumps(body, ensure_ascii=False) + "\n"

    @classmethod
    def parse(cls, line: str) -> Header:
        """The header in ``line``; ``InvalidInput`` in one line for anything else."""
        try:
            body = json.loads(line)
        except json.JSONDecodeError:
            body = None
        if not isinstance(body, dict) or body.get("format") != FORMAT:
            raise InvalidInput(f"this is not an {FORMAT} file (its first line is no header)")
        if body.get("version") != VERSION:
            raise InvalidInput(
                f"this file is {FORMAT} version {body.get('version')}; this ego-mcp reads "
                f"version {VERSION} only: import it with the version that wrote it"
            )
        try:
            return cls(
                agent=str(body["agent"]),
                exported_at=datetime.fromisoformat(body["exported_at"]),
                counts={str(k): int(v) for k, v in dict(body["counts"]).items()},
                private_left_out=int(body.get("private_left_out", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInput(f"the header is malformed ({type(exc).__name__})") from None


def memory_fields(memory: Memory) -> dict[str, Any]:
    trace = memory.emotional_trace
    return (
        {
            "id": memory.id,
            "content": memory.content,
            "timestamp": memory.timestamp.isoformat(),
            "emotion": {
                "primary": trace.primary.value,
                "secondary": [e.value for e in trace.secondary],
                "intensity": trace.intensity,
                "valence": trace.valence,
                "arousal": trace.arousal,
                "body_state": dict(trace.body_state),
            },
            "importance": memory.importance,
            "category": memory.category.value,
            "tags": list(memory.tags),
            "private": memory.is_private,
            "links": [
                {
                    "target": link.target_id,
                    "type": link.link_type.value,
                    "note": link.note,
                    "confidence": link.confidence,
                }
                for link in memory.linked_ids
            ],
            "follows": memory.follows,
        }
        | (
            {}
            if memory.anticipated_at is None
            else {"anticipated_at": memory.anticipated_at.isoformat()}
        )
        | ({"shared": True} if memory.shared else {})
    )


def memory_from_fields(body: dict[str, Any]) -> Memory:
    emotion = body["emotion"]
    return Memory(
        id=str(body["id"]),
        content=str(body["content"]),
        timestamp=_moment(body["timestamp"]),
        emotional_trace=EmotionalTrace(
            primary=Emotion(emotion["primary"]),
            secondary=tuple(Emotion(e) for e in emotion["secondary"]),
            intensity=float(emotion["intensity"]),
            valence=float(emotion["valence"]),
            arousal=float(emotion["arousal"]),
            body_state={str(k): str(v) for k, v in dict(emotion["body_state"]).items()},
        ),
        importance=int(body["importance"]),
        category=Category(body["category"]),
        tags=tuple(str(tag) for tag in body["tags"]),
        is_private=bool(body["private"]),
        linked_ids=tuple(
            Link(
                target_id=str(link["target"]),
                link_type=LinkType(link["type"]),
                note=str(link["note"]),
                confidence=float(link["confidence"]),
            )
            for link in body["links"]
        ),
        follows=str(body.get("follows") or ""),  # absent from older exports
        anticipated_at=_moment(body["anticipated_at"]) if body.get("anticipated_at") else None,
        shared=bool(body.get("shared", False)),
    )


def memory_line(memory: Memory) -> str:
    return _line({"type": "memory", **memory_fields(memory)})


def episode_line(episode: Episode) -> str:
    return _line(
        {
            "type": "episode",
            "id": episode.id,
            "summary": episode.summary,
            "memory_ids": list(episode.memory_ids),
            "start_time": episode.start_time.isoformat(),
            "end_time": episode.end_time.isoformat(),
            "importance": episode.importance,
        }
    )


def document_line(name: str, content: dict[str, Any]) -> str:
    return _line({"type": "document", "name": name, "content": content})


def deleted_line(entry: DeletedMemory) -> str:
    kept = entry.kept_before
    return _line(
        {
            "type": "deleted",
            "memory": memory_fields(entry.memory),
            "deleted_at": entry.deleted_at.isoformat(),
            "deleted_by": entry.deleted_by,
            "episode_ids": list(entry.episode_ids),
            "merged_into": entry.merged_into,
            "kept_before": memory_fields(kept) if kept is not None else None,
            "keep_added_to": list(entry.keep_added_to),
        }
    )


Record = Memory | Episode | DeletedMemory | tuple[str, dict[str, Any]]


def parse_record(line: str, number: int) -> Record:
    """The record on line ``number``; ``InvalidInput`` naming the line if it is malformed.
    A document comes as ``(name, content)``."""
    try:
        body = json.loads(line)
        kind = body["type"]
        if kind == "memory":
            return memory_from_fields(body)
        if kind == "episode":
            return Episode(
                id=str(body["id"]),
                summary=str(body["summary"]),
                memory_ids=tuple(str(i) for i in body["memory_ids"]),
                start_time=_moment(body["start_time"]),
                end_time=_moment(body["end_time"]),
                importance=int(body["importance"]),
            )
        if kind == "document":
            name, content = str(body["name"]), body["content"]
            if name not in DOCUMENTS or not isinstance(content, dict):
                raise ValueError(name)
            return name, content
        if kind == "deleted":
            kept = body["kept_before"]
            return DeletedMemory(
                memory=memory_from_fields(body["memory"]),
                deleted_at=_moment(body["deleted_at"]),
                deleted_by=str(body["deleted_by"]),
                episode_ids=tuple(str(i) for i in body["episode_ids"]),
                merged_into=None if body["merged_into"] is None else str(body["merged_into"]),
                kept_before=memory_from_fields(kept) if kept is not None else None,
                keep_added_to=tuple(str(i) for i in body["keep_added_to"]),
            )
        raise ValueError(kind)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(
            f"line {number} is not a valid record ({type(exc).__name__}); nothing was imported"
        ) from None


def _moment(value: Any) -> datetime:
    moment = datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        raise ValueError("a time without its zone")
    return moment


def _line(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False) + "\n"


# What each kind of record is called in a summary, one and many.
RECORD_NAMES = {
    "memory": ("memory", "memories"),
    "episode": ("episode", "episodes"),
    "document": ("document", "documents"),
    "deleted": ("deletion-log entry", "deletion-log entries"),
}


def counted(kind: str, number: int) -> str:
    """``number`` records of ``kind`` as a person writes it: 1 memory, 11 memories."""
    one, many = RECORD_NAMES.get(kind, (kind, kind))
    return f"{number} {one if number == 1 else many}"

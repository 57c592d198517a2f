"""The memory data model: memories, their emotional trace, links and episodes."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum


class Emotion(StrEnum):
    HAPPY = "happy"
    SAD = "sad"
    SURPRISED = "surprised"
    MOVED = "moved"
    EXCITED = "excited"
    NOSTALGIC = "nostalgic"
    CURIOUS = "curious"
    NEUTRAL = "neutral"
    MELANCHOLY = "melancholy"
    ANXIOUS = "anxious"
    CONTENTMENT = "contentment"
    FRUSTRATED = "frustrated"


@dataclass(frozen=True)
class Affect:
    """Where an emotion sits on Russell's circumplex (valence -1..1, arousal 0..1), and how
    strongly it is usually felt (intensity 0..1)."""

    intensity: float
    valence: float
    arousal: float


# What ``remember`` assumes for an emotion whose intensity, valence or arousal the agent
# leaves out: pleasant or not, calm or stirred, as the circumplex places each word.
TYPICAL_AFFECT = {
    Emotion.HAPPY: Affect(0.6, 0.8, 0.6),
    Emotion.SAD: Affect(0.6, -0.7, 0.3),
    Emotion.SURPRISED: Affect(0.7, 0.2, 0.8),
    Emotion.MOVED: Affect(0.7, 0.6, 0.5),
    Emotion.EXCITED: Affect(0.8, 0.7, 0.8),
    Emotion.NOSTALGIC: Affect(0.5, 0.2, 0.3),
    Emotion.CURIOUS: Affect(0.5, 0.4, 0.6),
    Emotion.NEUTRAL: Affect(0.5, 0.0, 0.5),
    Emotion.MELANCHOLY: Affect(0.5, -0.5, 0.2),
    Emotion.ANXIOUS: Affect(0.6, -0.6, 0.8),
    Emotion.CONTENTMENT: Affect(0.5, 0.6, 0.2),
    Emotion.FRUSTRATED: Affect(0.6, -0.6, 0.7),
}


class Category(StrEnum):
    DAILY = "daily"
    PHILOSOPHICAL = "philosophical"
    TECHNICAL = "technical"
    MEMORY = "memory"
    OBSERVATION = "observation"
    FEELING = "feeling"
    CONVERSATION = "conversation"
    INTROSPECTION = "introspection"
    RELATIONSHIP = "relationship"
    SELF_DISCOVERY = "self_discovery"
    DREAM = "dream"
    LESSON = "lesson"


class LinkType(StrEnum):
    SIMILAR = "similar"
    CAUSED_BY = "caused_by"
    LEADS_TO = "leads_to"
    RELATED = "related"
    # A later memory that states the same fact corrected, and the memory it corrects.
    SUPERSEDES = "supersedes"
    SUPERSEDED_BY = "superseded_by"


# The type a link carries when seen from its other end.
REVERSE_LINK_TYPE = {
    LinkType.SIMILAR: LinkType.SIMILAR,
    LinkType.RELATED: LinkType.RELATED,
    LinkType.CAUSED_BY: LinkType.LEADS_TO,
    LinkType.LEADS_TO: LinkType.CAUSED_BY,
    LinkType.SUPERSEDES: LinkType.SUPERSEDED_BY,
    LinkType.SUPERSEDED_BY: LinkType.SUPERSEDES,
}


def content_hash(text: str) -> str:
    """The SHA-256 of a memory's text: what records that must never hold the text keep."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_memory_id() -> str:
    return "mem_" + secrets.token_hex(6)


def new_episode_id() -> str:
    return "ep_" + secrets.token_hex(6)


@dataclass(frozen=True)
class EmotionalTrace:
    primary: Emotion = Emotion.NEUTRAL
    secondary: tuple[Emotion, ...] = ()
    intensity: float = 0.5
    valence: float = 0.0
    arousal: float = 0.5
    body_state: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Link:
    target_id: str
    link_type: LinkType = LinkType.RELATED
    note: str = ""
    confidence: float = 0.5


Links = tuple[Link, ...]


def find_link(links: Links, target_id: str) -> Link | None:
    """The link to ``target_id`` among ``links``, if any."""
    return next((link for link in links if link.target_id == target_id), None)


def with_link(links: Links, link: Link) -> Links:
    """``links`` with ``link`` added, replacing any earlier link to the same target."""
    return (*(lk for lk in links if lk.target_id != link.target_id), link)


def reverse_link(source_id: str, link: Link) -> Link:
    """``link``, held by ``source_id``, as its target holds it: pointing back, reversed."""
    return Link(source_id, REVERSE_LINK_TYPE[link.link_type], link.note, link.confidence)


@dataclass(frozen=True)
class Memory:
    id: str
    content: str
    timestamp: datetime
    emotional_trace: EmotionalTrace = field(default_factory=EmotionalTrace)
    importance: int = 3
    category: Category = Category.DAILY
    tags: tuple[str, ...] = ()
    is_private: bool = False
    linked_ids: tuple[Link, ...] = ()
    # The memory its agent saved just before it, when that was at most
    # ``memory.context.CONTEXT_GAP`` earlier ("" when none): what recall reads as its context.
    follows: str = ""
    # A future moment the memory points at (remember's ``anticipated_at``): wake_up
    # mentions it as the moment nears and once it has come.
    anticipated_at: datetime | None = None
    # Saved with remember(shared_with=...): a moment lived with someone.
    shared: bool = False
    # How often recall has brought it up: on how many days, and the last of them (days
    # since the epoch, UTC). Kept by ``note_recalls`` alone; no other write touches them.
    recall_days: int = 0
    recalled_on: int = 0

    def link_to(self, target_id: str) -> Link | None:
        return find_link(self.linked_ids, target_id)

    def with_link(self, link: Link) -> Memory:
        """This memory with ``link`` added, replacing any earlier link to the same target."""
        return replace(self, linked_ids=with_link(self.linked_ids, link))

    def linked_back(self, source: Memory) -> Memory:
        """This memory with the reverse of ``source``'s link to it (which must exist)."""
        forward = source.link_to(self.id)
        assert forward is not None, f"{source.id} does not link to {self.id}"
        return self.with_link(reverse_link(source.id, forward))

    def without_link(self, target_id: str) -> Memory:
        kept = tuple(lk for lk in self.linked_ids if lk.target_id != target_id)
        return replace(self, linked_ids=kept)


@dataclass(frozen=True)
class SearchHit:
    """A memory found by similarity; ``distance`` is the cosine distance to the query."""

    memory: Memory
    distance: float

    @property
    def similarity(self) -> float:
        return similarity_of(self.distance)


def similarity_of(distance: float) -> float:
    """A cosine distance as the similarity recall weighs, within [0, 1]."""
    return max(0.0, min(1.0, 1.0 - distance))


@dataclass(frozen=True)
class Episode:
    id: str
    summary: str
    memory_ids: tuple[str, ...]
    start_time: datetime
    end_time: datetime
    importance: int = 3


@dataclass(frozen=True)
class DeletedMemory:
    """A memory as it was when ``forget`` or ``merge_memories`` removed it, kept in the
    deletion log until the undo window closes: enough to bring it back whole."""

    memory: Memory
    deleted_at: datetime
    deleted_by: str  # the tool: "forget" or "merge_memories"
    episode_ids: tuple[str, ...] = ()
    merged_into: str | None = None
    # A merge's kept memory as it was before, and the episodes the merge added it to:
    # what ``restore_memory`` gives back, so a merge is undone whole.
    kept_before: Memory | None = None
    keep_added_to: tuple[str, ...] = ()

"""The memory lifecycle of one agent: guarded saves, recall, links, forget and episodes.

Every method is synchronous and may block (embedding, Chroma); the front end calls it
off the event loop. Link mutations run under the agent's lock so that the
bidirectional-link invariant holds when several threads or processes act at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ego_mcp.clock import Clock
from ego_mcp.embedding.base import Embedder
from ego_mcp.errors import LockUnavailable, NotFound
from ego_mcp.locks import AgentLocks
from ego_mcp.memory.guard import compare
from ego_mcp.memory.hours import ClosedHours
from ego_mcp.memory.lexical import RARE, fuse, lexical_terms, rare_matches, spellings
from ego_mcp.memory.model import (
    REVERSE_LINK_TYPE,
    Category,
    EmotionalTrace,
    Episode,
    Link,
    LinkType,
    Memory,
    SearchHit,
    new_episode_id,
    new_memory_id,
)
from ego_mcp.memory.store import EpisodeStore, MemoryFilter, MemoryStore, Vector

RECALL_POOL = 20  # vector candidates that lexical evidence may reorder


class Journal(Protocol):
    """Where public memories are echoed for humans (the workspace files)."""

    def record(self, memory: Memory) -> None: ...


@dataclass(frozen=True)
class Thresholds:
    """Cosine distances. Below ``dedup`` a memory is a duplicate candidate (the guard's
    evidence rules decide); below ``link`` memories link; below ``merge`` consolidation
    proposes a merge. ``memory/thresholds.py`` has them per model."""

    dedup: float = 0.05
    link: float = 0.3
    merge: float = 0.10
    max_links: int = 5


@dataclass(frozen=True)
class Draft:
    """A memory as the agent wants it saved, before it has an id and a time."""

    content: str
    emotional_trace: EmotionalTrace = field(default_factory=EmotionalTrace)
    importance: int = 3
    category: Category = Category.DAILY
    tags: tuple[str, ...] = ()
    is_private: bool = False


@dataclass(frozen=True)
class RememberOutcome:
    """Either ``saved`` (with the memories it linked to) or ``duplicate_of`` is set.

    ``links_pending``: the agent's lock could not be had (Redis away), so the memory was
    saved without links; the ``link_memory`` job makes them later.
    """

    saved: Memory | None
    duplicate_of: SearchHit | None = None
    linked: tuple[SearchHit, ...] = ()
    links_pending: bool = False
    # Saved although this memory embeds alike: what differs (numbers, names, ...).
    near_miss: SearchHit | None = None
    differences: tuple[str, ...] = ()


@dataclass(frozen=True)
class Forgotten:
    """A deleted memory. Forgotten without the lock, ``pending_targets`` (possibly empty)
    lists the memories that still link to it until the ``unlink_memory`` job runs."""

    memory: Memory
    pending_targets: tuple[str, ...] | None = None


@dataclass(frozen=True)
class EpisodeView:
    episode: Episode
    members: tuple[Memory, ...]
    missing: int


class MemoryService:
    def __init__(
        self,
        agent: str,
        store: MemoryStore,
        episodes: EpisodeStore,
        embedder: Embedder,
        clock: Clock,
        locks: AgentLocks,
        thresholds: Thresholds = Thresholds(),
        journal: Journal | None = None,
    ) -> None:
        self.agent = agent
        self.store = store
        self.episodes = episodes
        self.embedder = embedder
        self.clock = clock
        self.locks = locks
        self.thresholds = thresholds
        self.journal = journal
        self.closed_hours = ClosedHours()  # per-hour summaries other services keep

    @property
    def guard(self) -> float:
        """The similarity from which the nearest memory is a duplicate candidate."""
        return 1.0 - self.thresholds.dedup

    def remember(self, draft: Draft, force: bool = False) -> RememberOutcome:
        """Save ``draft`` unless a near-duplicate exists (``force`` skips that check).

        Without the agent's lock (Redis away) the guard still runs, but the memory is saved
        unlinked and ``links_pending`` is set: a memory with no links keeps the invariant.
        """
        vector = self.embedder.embed([draft.content])[0]
        try:
            with self.locks.hold(self.agent):
                outcome = self._save(draft, vector, force, link=True)
        except LockUnavailable:
            outcome = self._save(draft, vector, force, link=False)
        if outcome.saved is not None:
            self.closed_hours.drop(outcome.saved.timestamp)
            if self.journal is not None and not draft.is_private:
                self.journal.record(outcome.saved)
        return outcome

    def _save(self, draft: Draft, vector: Vector, force: bool, link: bool) -> RememberOutcome:
        nearest = self.store.search(vector, self.thresholds.max_links)
        near_miss: tuple[SearchHit | None, tuple[str, ...]] = (None, ())
        for hit in nearest if not force else []:
            verdict = compare(hit.memory.content, draft.content, hit.similarity, self.guard)
            if verdict.duplicate:
                return RememberOutcome(saved=None, duplicate_of=hit)
            if verdict.differences and near_miss[0] is None:
                near_miss = (hit, verdict.differences)
        close = tuple(hit for hit in nearest if hit.distance < self.thresholds.link) if link else ()
        memory = Memory(
            id=new_memory_id(),
            content=draft.content,
            timestamp=self.clock.now(),
            emotional_trace=draft.emotional_trace,
            importance=draft.importance,
            category=draft.category,
            tags=draft.tags,
            is_private=draft.is_private,
            linked_ids=tuple(_similar_link(hit.memory.id, hit) for hit in close),
        )
        self.store.add(memory, vector)
        self.store.replace_links(
            [hit.memory.with_link(_similar_link(memory.id, hit)) for hit in close]
        )
        return RememberOutcome(
            saved=memory,
            linked=close,
            links_pending=not link,
            near_miss=near_miss[0],
            differences=near_miss[1],
        )

    def link_pending(self, memory_id: str) -> int:
        """Make the auto-links a save without the lock left out; returns how many (job)."""
        with self.locks.hold(self.agent):
            found = self.store.with_vectors([memory_id])
            if not found:
                return 0
            memory, vector = found[0]
            nearest = self.store.search(vector, self.thresholds.max_links + 1)
            close = [
                hit
                for hit in nearest
                if hit.memory.id != memory_id and hit.distance < self.thresholds.link
            ][: self.thresholds.max_links]
            for hit in close:
                memory = memory.with_link(_similar_link(hit.memory.id, hit))
            others = [hit.memory.with_link(_similar_link(memory_id, hit)) for hit in close]
            self.store.replace_links([memory, *others])
        return len(close)

    def recall(
        self, query: str, n_results: int, where: MemoryFilter | None = None
    ) -> list[SearchHit]:
        """The memories nearest in meaning to ``query``, private ones included, with the
        exact rare terms of the query counted in (hybrid recall, see ``memory/lexical``)."""
        vector = self.embedder.embed([query])[0]
        terms = lexical_terms(query)
        if not terms:  # nothing to look up exactly: meaning alone decides
            return self.store.search(vector, n_results, where)
        hits = self.store.search(vector, max(n_results, RECALL_POOL), where)
        bonus = rare_matches({term: self._containing(term, where) for term in terms})
        seen = {hit.memory.id for hit in hits}
        for memory, stored in self.store.with_vectors([i for i in bonus if i not in seen]):
            hits.append(SearchHit(memory, float(1.0 - stored @ vector)))
        return fuse(hits, bonus, n_results)

    def _containing(self, term: str, where: MemoryFilter | None) -> list[str]:
        """Ids of memories holding ``term`` in any spelling (enough of them to judge rarity)."""
        found = (self.store.containing(form, where, RARE + 1) for form in spellings(term))
        return sorted({memory_id for ids in found for memory_id in ids})

    def get(self, memory_id: str) -> Memory:
        memory = self.store.get(memory_id)
        if memory is None:
            raise _memory_not_found(memory_id)
        return memory

    def forget(self, memory_id: str) -> Forgotten:
        """Delete a memory after removing the reverse link from every memory it links to.

        Without the agent's lock (Redis away) the memory is deleted at once and the reverse
        links are left to the ``unlink_memory`` job (``pending_targets``).
        """
        pending: tuple[str, ...] | None = None
        try:
            with self.locks.hold(self.agent):
                memory = self.get(memory_id)
                targets = self.store.get_many([link.target_id for link in memory.linked_ids])
                self.store.replace_links([target.without_link(memory_id) for target in targets])
                self.store.delete(memory_id)
        except LockUnavailable:
            memory = self.get(memory_id)
            self.store.delete(memory_id)
            pending = tuple(link.target_id for link in memory.linked_ids)
        self.closed_hours.drop(memory.timestamp)
        return Forgotten(memory, pending)

    def unlink_forgotten(self, memory_id: str, target_ids: Sequence[str]) -> int:
        """Remove links to a forgotten memory from ``target_ids``; returns how many (job)."""
        with self.locks.hold(self.agent):
            targets = [t for t in self.store.get_many(target_ids) if t.link_to(memory_id)]
            self.store.replace_links([target.without_link(memory_id) for target in targets])
        return len(targets)

    def link(
        self,
        source_id: str,
        target_id: str,
        link_type: LinkType,
        note: str = "",
        confidence: float = 0.8,
    ) -> tuple[Memory, Memory]:
        """Link two memories both ways; an existing link between them is replaced."""
        with self.locks.hold(self.agent):
            found = {m.id: m for m in self.store.get_many([source_id, target_id])}
            for wanted in (source_id, target_id):
                if wanted not in found:
                    raise _memory_not_found(wanted)
            source = found[source_id].with_link(Link(target_id, link_type, note, confidence))
            reverse = Link(source_id, REVERSE_LINK_TYPE[link_type], note, confidence)
            target = found[target_id].with_link(reverse)
            self.store.replace_links([source, target])
        return source, target

    def create_episode(
        self, summary: str, memory_ids: Sequence[str], importance: int = 3
    ) -> Episode:
        unique_ids = tuple(dict.fromkeys(memory_ids))
        with self.locks.hold(self.agent):
            members = self.store.get_many(unique_ids)
            missing = sorted(set(unique_ids) - {m.id for m in members})
            if missing:
                raise _memory_not_found(", ".join(missing))
            times = sorted(m.timestamp for m in members)
            episode = Episode(
                id=new_episode_id(),
                summary=summary,
                memory_ids=unique_ids,
                start_time=times[0],
                end_time=times[-1],
                importance=importance,
            )
            self.episodes.add(episode, self.embedder.embed([summary])[0])
        return episode

    def get_episode(self, episode_id: str) -> EpisodeView:
        """The episode with its surviving members; ids of forgotten memories are counted."""
        episode = self.episodes.get(episode_id)
        if episode is None:
            raise NotFound(
                f"Episode not found: {episode_id}. Check the id, or create one with create_episode."
            )
        found = {m.id: m for m in self.store.get_many(episode.memory_ids)}
        members = tuple(found[mid] for mid in episode.memory_ids if mid in found)
        return EpisodeView(episode, members, missing=len(episode.memory_ids) - len(members))

    def prune_episode_references(self) -> int:
        """Drop ids of forgotten memories from every episode; returns how many were dropped."""
        dropped = 0
        with self.locks.hold(self.agent):
            for episode in self.episodes.all():
                alive = self.store.existing_ids(episode.memory_ids)
                kept = [mid for mid in episode.memory_ids if mid in alive]
                if len(kept) < len(episode.memory_ids):
                    self.episodes.replace_members(episode.id, kept)
                    dropped += len(episode.memory_ids) - len(kept)
        return dropped

    def repair_links(self, whole_under_lock: bool = False) -> int:
        """Make every link two-way again after a crash between two writes; returns fixes.

        The whole-store read runs without the lock (it is slow on a large store); only the
        memories it found one-sided are re-read and fixed under the lock. After a Redis
        outage (``whole_under_lock``) the read runs under the lock too, so no write that
        straddled the outage can slip between the read and the fix.
        """
        if whole_under_lock:
            with self.locks.hold(self.agent):
                return self._mend(self._one_sided_suspects())
        suspects = self._one_sided_suspects()
        if not suspects:
            return 0
        with self.locks.hold(self.agent):
            return self._mend(suspects)

    def _one_sided_suspects(self) -> list[str]:
        memories = {m.id: m for batch, _ in self.store.batches(1_000) for m in batch}
        return sorted(
            {
                x
                for m in memories.values()
                for lk in m.linked_ids
                for x in (m.id, lk.target_id)
                if lk.target_id not in memories or memories[lk.target_id].link_to(m.id) is None
            }
        )

    def _mend(self, suspects: list[str]) -> int:
        """Under the lock: re-read the suspects and fix what is still one-sided."""
        if not suspects:
            return 0
        fresh = {m.id: m for m in self.store.get_many(suspects)}
        fixed, fixes = mend_one_sided_links(fresh, self.store.existing_ids)
        self.store.replace_links(list(fixed.values()))
        return fixes


def mend_one_sided_links(
    memories: dict[str, Memory], existing_ids: Callable[[Sequence[str]], set[str]]
) -> tuple[dict[str, Memory], int]:
    """Add each missing reverse link; drop links to memories that no longer exist."""
    changed: dict[str, Memory] = {}
    fixes = 0
    outside = sorted(
        {lk.target_id for m in memories.values() for lk in m.linked_ids} - set(memories)
    )
    alive = set(memories) | existing_ids(outside)
    for memory_id in sorted(memories):
        memory = changed.get(memory_id, memories[memory_id])
        for link in memory.linked_ids:
            if link.target_id not in alive:
                memory = memory.without_link(link.target_id)
                changed[memory_id] = memory
                fixes += 1
                continue
            target = changed.get(link.target_id, memories.get(link.target_id))
            if target is not None and target.link_to(memory_id) is None:
                back = Link(
                    memory_id, REVERSE_LINK_TYPE[link.link_type], link.note, link.confidence
                )
                changed[link.target_id] = target.with_link(back)
                fixes += 1
    return changed, fixes


def _similar_link(target_id: str, hit: SearchHit) -> Link:
    return Link(target_id, LinkType.SIMILAR, confidence=round(hit.similarity, 4))


def _memory_not_found(memory_id: str) -> NotFound:
    return NotFound(
        f"Memory not found: {memory_id}. Double-check the ID. "
        "Use recall to search for the memory you're looking for."
    )

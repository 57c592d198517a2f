"""One agent's memory, as the tools call it: guarded saves, links and episodes here, with
forgetting and its undoing (``lifecycle``) and recall (``recall``) from their modules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ego_mcp.errors import LockUnavailable, NotFound
from ego_mcp.logs import Plain
from ego_mcp.memory.guard import (
    Comparison,
    Verdict,
    compare,
    corrects,
    marked_as_correction,
    read_ahead,
)
from ego_mcp.memory.lifecycle import Lifecycle
from ego_mcp.memory.model import (
    Category,
    EmotionalTrace,
    Episode,
    Link,
    LinkType,
    Memory,
    SearchHit,
    new_episode_id,
    new_memory_id,
    reverse_link,
)
from ego_mcp.memory.parts import REPLAY_WINDOW, memory_not_found
from ego_mcp.memory.recall.context import CONTEXT_GAP
from ego_mcp.memory.recall.search import Recall

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector


logger = logging.getLogger(__name__)
# The kind a correction's note names when the agent said it (remember's ``supersedes``).
STATED_CORRECTION = "correction"


@dataclass(frozen=True)
class Draft:
    """A memory as the agent wants it saved, before it has an id and a time."""

    content: str
    emotional_trace: EmotionalTrace = field(default_factory=EmotionalTrace)
    importance: int = 3
    category: Category = Category.DAILY
    tags: tuple[str, ...] = ()
    is_private: bool = False
    # The memory the agent says this one corrects (``remember(supersedes=...)``).
    supersedes: str | None = None
    anticipated_at: datetime | None = None
    shared: bool = False  # remember(shared_with=...): lived with someone


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
    # Saved although this memory embeds alike: what differs (numbers, names, ...), and
    # whether only words do (a possible duplicate, linked, for consolidation to propose).
    near_miss: SearchHit | None = None
    differences: tuple[str, ...] = ()
    possible_duplicate: bool = False
    # The nearest memory states the same fact with this kind of fact otherwise (number,
    # time, person, place, name, outcome): the new one supersedes it (``guard.corrects``),
    # and the two are linked so.
    superseded: SearchHit | None = None
    corrects: str | None = None
    # The agent said which memory this corrects, but the lock could not be had (Redis
    # away): saved unlinked, and the answer says how to link it later.
    supersede_pending: str | None = None
    # A replayed call whose first try had saved this very memory: nothing new was written.
    already_saved: bool = False
    # Saved, but its workspace lines could not be written (the folder is not writable).
    workspace_failed: bool = False


@dataclass(frozen=True)
class EpisodeView:
    episode: Episode
    members: tuple[Memory, ...]
    missing: int


class MemoryService(Lifecycle, Recall):
    """One agent's memory: the save path, links and episodes; forgetting and recall come
    from ``Lifecycle`` and ``Recall``, over the same ``MemoryParts``."""

    def remember(
        self, draft: Draft, force: bool = False, replayed: bool = False
    ) -> RememberOutcome:
        """Save ``draft`` unless a near-duplicate exists (``force`` skips that check).

        Without the agent's lock (Redis away) the guard still runs, but the memory is saved
        unlinked and ``links_pending`` is set: a memory with no links keeps the invariant.
        A ``replayed`` call (sent again after a hand-over) whose text was saved in the last
        few minutes answers with that memory instead of saving it twice.
        """
        vector = self.embedder.embed([draft.content])[0]
        try:
            with self.locks.hold(self.agent):
                outcome = self._save(draft, vector, force, link=True, replayed=replayed)
        except LockUnavailable:
            outcome = self._save(draft, vector, force, link=False, replayed=replayed)
        if outcome.saved is not None and not outcome.already_saved:
            self.closed_hours.drop(outcome.saved.timestamp)
            if self.journal is not None and not draft.is_private:
                try:
                    self.journal.record(outcome.saved)
                except OSError as exc:  # the memory is saved: only its echo is missing
                    logger.warning("workspace sync failed (%s)", type(exc).__name__)
                    return replace(outcome, workspace_failed=True)
        return outcome

    def _save(
        self, draft: Draft, vector: Vector, force: bool, link: bool, replayed: bool = False
    ) -> RememberOutcome:
        nearest = self.store.search(vector, self.thresholds.max_links)
        stated = self._stated_correction(draft.supersedes, vector, nearest)
        first_try = self._first_try(nearest, draft.content) if replayed else None
        if first_try is not None:
            return RememberOutcome(saved=first_try, already_saved=True)
        near_miss: tuple[SearchHit | None, Comparison | None] = (None, None)
        nearest_distinct: SearchHit | None = None  # judged, and a fact differs
        # The texts the guard will read, parsed in one batch: cheaper than one by one.
        to_read = [hit for at, hit in enumerate(nearest) if hit.similarity >= self._gate(at)]
        if to_read and not force:
            read_ahead([draft.content, *(hit.memory.content for hit in to_read)])
        for rank, hit in enumerate(nearest if not force else []):
            gate = self._gate(rank)
            judged = compare(hit.memory.content, draft.content, hit.similarity, gate)
            if hit.similarity >= gate and logger.isEnabledFor(logging.DEBUG):
                logger.debug(
                    "guard: %s %.3f similar, %s (%s)",
                    Plain(hit.memory.id),
                    hit.similarity,
                    Plain(judged.verdict.value),
                    Plain(", ".join(d.partition(":")[0] for d in judged.differences) or "-"),
                )
            if judged.duplicate and (stated is None or hit.memory.id != stated.memory.id):
                return RememberOutcome(saved=None, duplicate_of=hit)
            if rank == 0 and judged.verdict is Verdict.DISTINCT and judged.differences:
                nearest_distinct = hit
            wide = hit.similarity < self.guard  # judged only for a restatement
            if judged.differences and near_miss[0] is None and not wide:
                near_miss = (hit, judged)
        nearest_distinct = nearest_distinct or self._said_to_correct(nearest, draft, force)
        possible = near_miss[1] is not None and near_miss[1].verdict is Verdict.POSSIBLE
        now = self.clock.now()
        nearest_distinct, corrected = _correction(nearest_distinct, stated, draft.content, now)
        if stated is not None:
            nearest = [stated, *(hit for hit in nearest if hit is not stated)]
        close = (
            tuple(
                hit
                for hit in nearest
                if hit.distance < self.thresholds.link_for(draft.content, hit.memory.content)
                or (possible and hit is near_miss[0])
                or (corrected and hit is nearest_distinct)
            )[: self.thresholds.max_links]
            if link
            else ()
        )
        # Both ends carry one note, so either end rebuilds the other (restore, repair).
        note = f"{corrected}, {now:%Y-%m-%d}"

        def link_to(target: SearchHit) -> Link:
            if corrected and target is nearest_distinct:
                return Link(target.memory.id, LinkType.SUPERSEDES, note, 1.0)
            return _similar_link(target.memory.id, target)

        def link_back(hit: SearchHit, memory_id: str) -> Link:
            if corrected and hit is nearest_distinct:
                return Link(memory_id, LinkType.SUPERSEDED_BY, note, 1.0)
            return _similar_link(memory_id, hit)

        memory = Memory(
            id=new_memory_id(),
            content=draft.content,
            timestamp=now,
            emotional_trace=draft.emotional_trace,
            importance=draft.importance,
            category=draft.category,
            tags=draft.tags,
            is_private=draft.is_private,
            linked_ids=tuple(link_to(hit) for hit in close),
            follows=self._latest_within_gap(now),
            anticipated_at=draft.anticipated_at,
            shared=draft.shared,
        )
        # Two writes: the linked memories' new link lists alone, since rewriting them
        # whole (embeddings too) costs twice as much at 4 links. A crash between the two
        # leaves links one-sided, which repair_links mends.
        self.store.add(memory, vector, new=True)
        self.latest_save = (memory.id, now)
        self.store.replace_links([hit.memory.with_link(link_back(hit, memory.id)) for hit in close])
        logger.debug(
            "saved %s: %d characters, %d nearest read, %d linked%s",
            Plain(memory.id),
            len(draft.content),
            len(nearest),
            len(close),
            Plain("" if link else " (links pending: no lock)"),
        )
        return RememberOutcome(
            saved=memory,
            linked=close,
            links_pending=not link,
            near_miss=near_miss[0],
            differences=near_miss[1].differences if near_miss[1] is not None else (),
            possible_duplicate=possible,
            superseded=nearest_distinct if corrected and link else None,
            corrects=corrected if link else None,
            supersede_pending=draft.supersedes if not link else None,
        )

    def _said_to_correct(
        self, nearest: Sequence[SearchHit], draft: Draft, force: bool
    ) -> SearchHit | None:
        """The nearest memory, closer than the link distance but not as close as the
        guard reads from, when the new text says it corrects it (a marker of correction,
        its words denied, a slip owned up to): a correction that says why the older
        memory was wrong embeds further from it than a restatement does. Judged as any
        candidate is."""
        if not nearest or force:
            return None
        hit, content = nearest[0], draft.content
        related = 1.0 - self.thresholds.link_for(content, hit.memory.content)
        if not related <= hit.similarity < self.nearest_guard:
            return None
        if not marked_as_correction(content, hit.memory.content):
            return None
        judged = compare(hit.memory.content, content, hit.similarity, related)
        return hit if judged.verdict is Verdict.DISTINCT and judged.differences else None

    def _gate(self, rank: int) -> float:
        """The similarity from which the hit of ``rank`` (0: the nearest) is judged."""
        return self.nearest_guard if rank == 0 else self.guard

    def _first_try(self, nearest: Sequence[SearchHit], content: str) -> Memory | None:
        """The memory a replayed call's first try saved, if it did."""
        since = self.clock.now() - REPLAY_WINDOW
        return next(
            (
                hit.memory
                for hit in nearest
                if hit.memory.content == content and hit.memory.timestamp >= since
            ),
            None,
        )

    def _stated_correction(
        self, memory_id: str | None, vector: Vector, nearest: Sequence[SearchHit]
    ) -> SearchHit | None:
        """The memory the agent says a save corrects, as a hit (its distance to the new
        text); raises NotFound, before anything is written, when it does not exist."""
        if memory_id is None:
            return None
        for hit in nearest:
            if hit.memory.id == memory_id:
                return hit
        found = self.store.with_vectors([memory_id])
        if not found:
            raise NotFound(
                f"supersedes names no memory: {memory_id}. Double-check the ID; recall "
                "finds the memory you mean."
            )
        memory, stored = found[0]
        return SearchHit(memory, 1.0 - float(vector @ stored))  # both of unit length

    def _latest_within_gap(self, now: datetime) -> str:
        """The id of this agent's latest memory if it was saved at most ``CONTEXT_GAP``
        before ``now``, else "". The store is asked at this process's first save, and
        on a shared store at every save, for what other processes saved since."""
        latest = self.latest_save
        if latest is None or self.shared_store:
            found = self.store.latest_since(now - CONTEXT_GAP if latest is None else latest[1])
            if found is not None and (latest is None or found[1] >= latest[1]):
                latest = found
        if latest is None:
            return ""
        memory_id, saved_at = latest
        return memory_id if timedelta(0) <= now - saved_at <= CONTEXT_GAP else ""

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
                if hit.memory.id != memory_id
                and hit.distance < self.thresholds.link_for(memory.content, hit.memory.content)
            ][: self.thresholds.max_links]
            for hit in close:
                memory = memory.with_link(_similar_link(hit.memory.id, hit))
            others = [hit.memory.with_link(_similar_link(memory_id, hit)) for hit in close]
            self.store.replace_links([memory, *others])
        return len(close)

    def mend_lexical(self, rebuild: bool = False) -> tuple[int, int]:
        """Make the lexical index hold exactly the stored memories (after a crash between
        the two writes, or a lost index); every memory again if ``rebuild``. Under the
        agent's lock; returns how many were indexed and how many removed."""
        with self.locks.hold(self.agent):
            return self.store.mend_lexical(rebuild)

    def lexical_in_step(self) -> bool:
        """Whether the lexical index may be trusted without mending (cheap)."""
        return self.store.lexical_in_step()

    def is_public(self, memory_id: str) -> bool:
        """Whether a public memory of this id exists (workspace cleanup asks)."""
        memory = self.store.get(memory_id)
        return memory is not None and not memory.is_private

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
                    raise memory_not_found(wanted)
            forward = Link(target_id, link_type, note, confidence)
            source = found[source_id].with_link(forward)
            target = found[target_id].with_link(reverse_link(source_id, forward))
            self.store.replace_links([source, target])
        return source, target

    def note_recalls(self, memory_ids: Sequence[str], day: int) -> int:
        """Count ``day`` as a day each memory was recalled (once a day; the
        ``note_recalls`` job); returns how many changed."""
        return self.store.note_recalls(memory_ids, day)

    def create_episode(
        self, summary: str, memory_ids: Sequence[str], importance: int = 3
    ) -> Episode:
        unique_ids = tuple(dict.fromkeys(memory_ids))
        with self.locks.hold(self.agent):
            members = self.store.get_many(unique_ids)
            missing = sorted(set(unique_ids) - {m.id for m in members})
            if missing:
                raise memory_not_found(", ".join(missing))
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
        targets = {
            memory_id: linked
            for batch in self.store.link_batches()
            for memory_id, linked in batch.items()
        }
        return sorted(
            {
                end
                for memory_id, linked in targets.items()
                for target_id in linked
                if memory_id not in targets.get(target_id, ())
                for end in (memory_id, target_id)
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
                changed[link.target_id] = target.with_link(reverse_link(memory_id, link))
                fixes += 1
    return changed, fixes


def _correction(
    nearest_distinct: SearchHit | None, stated: SearchHit | None, content: str, now: datetime
) -> tuple[SearchHit | None, str | None]:
    """The memory a save corrects, and the kind of fact it corrects, if any: the memory
    the agent names whatever the guard reads (the kind named when the guard finds one),
    else the nearest memory when it states the same fact with one fact otherwise."""
    target = stated or nearest_distinct
    if target is None:
        return None, None
    days_apart = (now.date() - target.memory.timestamp.date()).days
    kind = corrects(target.memory.content, content, days_apart)
    if stated is not None:
        return stated, kind or STATED_CORRECTION
    return target, kind


def _similar_link(target_id: str, hit: SearchHit) -> Link:
    return Link(target_id, LinkType.SIMILAR, confidence=round(hit.similarity, 4))

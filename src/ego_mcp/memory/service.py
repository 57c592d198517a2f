"""The memory lifecycle of one agent: guarded saves, recall, links, forget and episodes.

Every method is synchronous and may block (embedding, Chroma); the front end calls it
off the event loop. Link mutations run under the agent's lock so that the
bidirectional-link invariant holds when several threads or processes act at once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ego_mcp.clock import Clock
from ego_mcp.embedding.base import Embedder
from ego_mcp.errors import InvalidInput, LockUnavailable, NotFound
from ego_mcp.locks import AgentLocks
from ego_mcp.logs import Plain
from ego_mcp.memory.bm25 import Concept
from ego_mcp.memory.crosslingual import Dictionary, coverage_across, readings, translated_terms
from ego_mcp.memory.fusion import Ranked, rank
from ego_mcp.memory.guard import Comparison, Verdict, compare
from ego_mcp.memory.hours import ClosedHours
from ego_mcp.memory.japanese import is_japanese
from ego_mcp.memory.merge import (
    episode_members_after_merge,
    merged_memory,
    redirected,
    unmerged_memory,
)
from ego_mcp.memory.model import (
    Category,
    DeletedMemory,
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
from ego_mcp.memory.store import (
    DeletionLog,
    DepartedRecord,
    EpisodeStore,
    LexicalIndex,
    LexicalLookup,
    MemoryFilter,
    MemoryStore,
)
from ego_mcp.memory.terms import content_terms, terms

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

RECALL_POOL = 30  # candidates each half of recall brings (vectors, words)
_T = TypeVar("_T")
# Recall's lexical reads, run beside its vector search: one at a time per recall, so
# this many recalls at once overlap their reads (threads start only when needed).
_READS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="ego-recall")
REINDEX_BATCH = 500
UNDO_WINDOW = timedelta(days=7)
MERGE_TICK = timedelta(milliseconds=1)  # orders merges the clock did not tell apart
# A call sent again after a hand-over finds its first try's work done within this time.
REPLAY_WINDOW = timedelta(minutes=5)
FORGET = "forget"
MERGE = "merge_memories"

logger = logging.getLogger(__name__)


class Journal(Protocol):
    """Where public memories are echoed for humans (the workspace files)."""

    def record(self, memory: Memory) -> None:
        """Echo a memory just saved."""
        ...

    def rewrite(self, memory: Memory) -> None:
        """Show the memory's present text instead of its old lines; none if it is private."""
        ...


@dataclass(frozen=True)
class Thresholds:
    """Cosine distances. Below ``dedup`` a memory is a duplicate candidate (the guard's
    evidence rules decide); below ``link`` memories link; below ``merge`` consolidation
    proposes a merge. ``memory/thresholds.py`` has them per model."""

    dedup: float = 0.05
    link: float = 0.3
    merge: float = 0.10
    max_links: int = 5
    # Where a model places related memories depends on the languages of the pair:
    # (both Latin-script, both Japanese, one of each) -> link distance; None: ``link``.
    link_by_script: tuple[float, float, float] | None = None

    def link_for(self, first: str, second: str) -> float:
        """The link distance for two texts (``link`` unless calibrated by script)."""
        if self.link_by_script is None:
            return self.link
        both_latin, both_japanese, across = self.link_by_script
        scripts = {is_japanese(first), is_japanese(second)}
        if len(scripts) == 2:
            return across
        return both_japanese if scripts == {True} else both_latin


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
    # Saved although this memory embeds alike: what differs (numbers, names, ...), and
    # whether only words do (a possible duplicate, linked, for consolidation to propose).
    near_miss: SearchHit | None = None
    differences: tuple[str, ...] = ()
    possible_duplicate: bool = False
    # A replayed call whose first try had saved this very memory: nothing new was written.
    already_saved: bool = False
    # Saved, but its workspace lines could not be written (the folder is not writable).
    workspace_failed: bool = False


@dataclass(frozen=True)
class Forgotten:
    """A deleted memory. Forgotten without the lock, ``pending_targets`` (possibly empty)
    lists the memories that still link to it until the ``unlink_memory`` job runs."""

    memory: Memory
    pending_targets: tuple[str, ...] | None = None
    restorable_until: datetime | None = None


@dataclass(frozen=True)
class Merged:
    """The outcome of ``merge_memories``: the kept memory as it is now, the one removed,
    how many links moved to the kept one, and whether it became private by the merge."""

    memory: Memory
    removed: Memory
    links_moved: int
    episodes_changed: int
    became_private: bool
    restorable_until: datetime | None


@dataclass(frozen=True)
class Restored:
    """A memory back from the deletion log; ``links_lost`` counts links to memories that
    are gone since, ``merged_into`` names the memory it had been merged into."""

    memory: Memory
    deleted_at: datetime
    links_lost: int
    episodes: int
    merged_into: str | None
    unmerged: Memory | None = None  # the merge's kept memory, as it was before it


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
        deletion_log: DeletionLog | None = None,
        departed: DepartedRecord | None = None,
        undo_window: timedelta = UNDO_WINDOW,
        lexical: LexicalIndex | None = None,
        dictionary: Dictionary | None = None,
        overlap_reads: bool = False,
    ) -> None:
        self.agent = agent
        self.lexical = lexical
        self.dictionary = dictionary
        # Recall's lexical reads beside its vector search: worth it when each read is a
        # round trip to a server; in one process the threads only contend for the GIL.
        self.overlap_reads = overlap_reads
        self.store = store
        self.episodes = episodes
        self.embedder = embedder
        self.clock = clock
        self.locks = locks
        self.thresholds = thresholds
        self.journal = journal
        self.deletion_log = deletion_log
        self.departed = departed
        self.undo_window = undo_window
        self.closed_hours = ClosedHours()  # per-hour summaries other services keep

    @property
    def guard(self) -> float:
        """The similarity from which the nearest memory is a duplicate candidate."""
        return 1.0 - self.thresholds.dedup

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
        if replayed:
            since = self.clock.now() - REPLAY_WINDOW
            for hit in nearest:
                if hit.memory.content == draft.content and hit.memory.timestamp >= since:
                    return RememberOutcome(saved=hit.memory, already_saved=True)
        near_miss: tuple[SearchHit | None, Comparison | None] = (None, None)
        for hit in nearest if not force else []:
            judged = compare(hit.memory.content, draft.content, hit.similarity, self.guard)
            if hit.similarity >= self.guard and logger.isEnabledFor(logging.DEBUG):
                logger.debug(
                    "guard: %s %.3f similar, %s (%s)",
                    Plain(hit.memory.id),
                    hit.similarity,
                    Plain(judged.verdict.value),
                    Plain(", ".join(d.partition(":")[0] for d in judged.differences) or "-"),
                )
            if judged.duplicate:
                return RememberOutcome(saved=None, duplicate_of=hit)
            if judged.differences and near_miss[0] is None:
                near_miss = (hit, judged)
        possible = near_miss[1] is not None and near_miss[1].verdict is Verdict.POSSIBLE
        close = (
            tuple(
                hit
                for hit in nearest
                if hit.distance < self.thresholds.link_for(draft.content, hit.memory.content)
                or (possible and hit is near_miss[0])
            )[: self.thresholds.max_links]
            if link
            else ()
        )
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
        # Two writes: the linked memories' new link lists alone, since rewriting them
        # whole (embeddings too) costs twice as much at 4 links. A crash between the two
        # leaves links one-sided, which repair_links mends.
        self.store.add(memory, vector)
        self.store.replace_links(
            [hit.memory.with_link(_similar_link(memory.id, hit)) for hit in close]
        )
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
                if hit.memory.id != memory_id
                and hit.distance < self.thresholds.link_for(memory.content, hit.memory.content)
            ][: self.thresholds.max_links]
            for hit in close:
                memory = memory.with_link(_similar_link(hit.memory.id, hit))
            others = [hit.memory.with_link(_similar_link(memory_id, hit)) for hit in close]
            self.store.replace_links([memory, *others])
        return len(close)

    def recall(self, query: str, n_results: int, where: MemoryFilter | None = None) -> list[Ranked]:
        """The memories that best match ``query`` in meaning and in words (in each
        memory's own language: ``memory/crosslingual.py``), private ones included, none
        that matches neither (``memory/fusion.py``)."""
        started = time.perf_counter()
        if self.lexical is None:
            vector = self.embedder.embed([query])[0]
            found = rank(
                self.store.search(vector, max(n_results, RECALL_POOL), where), {}, n_results
            )
            _log_recall(found, 0, started)
            return found
        # The words' reads need the vectors' answer only when the memories are scored,
        # so they may run meanwhile (``overlap_reads``).
        lexical = self.lexical
        by_words = self._read(self._words, lexical, query)
        vector = self.embedder.embed([query])[0]
        hits = self.store.search(vector, max(n_results, RECALL_POOL), where)
        words = by_words.result()
        seen = {hit.memory.id for hit in hits}
        pool_terms = self._read(
            lexical.documents, [i for i in seen if i not in words.lookup.documents]
        )
        covered = words.coverage(words.lookup.documents)
        matched = words.matched(words.lookup.documents)
        best = sorted(
            (i for i in covered if i not in seen and covered[i] > 0), key=covered.__getitem__
        )
        extra = best[-RECALL_POOL:]  # the best matches by words that meaning missed
        for memory, stored in self.store.with_vectors(extra, where):
            hits.append(SearchHit(memory, float(1.0 - stored @ vector)))
        pooled = pool_terms.result()
        covered.update(words.coverage(pooled))
        matched |= words.matched(pooled)
        found = rank(hits, covered, n_results, matched)
        _log_recall(found, len(extra), started)
        return found

    def _read(self, read: Callable[..., _T], *args: Any) -> Future[_T]:
        """``read(*args)``, in a thread if reads overlap, else done now."""
        if self.overlap_reads:
            return _READS.submit(read, *args)
        done: Future[_T] = Future()
        done.set_result(read(*args))
        return done

    def _words(self, lexical: LexicalIndex, query: str) -> _QueryWords:
        """The query's terms, their readings in the other script, and what the lexical
        index knows of them (with the memories best matching them)."""
        query_terms = terms(query)
        read = readings(query_terms, self.dictionary)
        lookup = lexical.lookup(query_terms, RECALL_POOL, sorted(translated_terms(read)))
        # What can make a match on its own: the content words and their translations;
        # function words, and what "in" translates to, only add to a match.
        content = content_terms(query_terms)
        matching = content | translated_terms(readings(sorted(content), self.dictionary))
        return _QueryWords(query_terms, read, lookup, frozenset(matching))

    def reconcile_lexical(self, rebuild: bool = False) -> tuple[int, int]:
        """Make the lexical index hold exactly the stored memories (after a crash between
        the two writes, or a lost index); every memory again if ``rebuild``. Under the
        agent's lock; returns how many were indexed and how many removed."""
        if self.lexical is None:
            return 0, 0
        with self.locks.hold(self.agent):
            stored = {memory_id for page in self.store.ids() for memory_id in page}
            indexed = self.lexical.ids()
            extra = sorted(indexed - stored)
            missing = sorted(stored if rebuild else stored - indexed)
            self.lexical.remove(extra)
            for start in range(0, len(missing), REINDEX_BATCH):
                memories = self.store.get_many(missing[start : start + REINDEX_BATCH])
                self.lexical.put({m.id: terms(m.content) for m in memories})
            self.lexical.recount()
        return len(missing), len(extra)

    def lexical_in_step(self) -> bool:
        """Whether the lexical index counts as many memories as the store (cheap)."""
        return self.lexical is None or self.lexical.count() == self.store.count()

    def get(self, memory_id: str) -> Memory:
        memory = self.store.get(memory_id)
        if memory is None:
            raise _memory_not_found(memory_id)
        return memory

    def forget(self, memory_id: str, replayed: bool = False) -> Forgotten:
        """Delete a memory after logging it (for ``restore_memory``) and removing the
        reverse link from every memory it links to.

        Without the agent's lock (Redis away) the memory is logged and deleted at once and
        the reverse links are left to the ``unlink_memory`` job (``pending_targets``). A
        ``replayed`` call whose first try forgot the memory answers with that.
        """
        if replayed and not self.store.existing_ids([memory_id]):
            done = self._recently_forgotten(memory_id)
            if done is not None:
                return done
        pending: tuple[str, ...] | None = None
        try:
            with self.locks.hold(self.agent):
                memory = self.get(memory_id)
                until = self._log_deletion(memory, FORGET)
                targets = self.store.get_many([link.target_id for link in memory.linked_ids])
                self.store.replace_links([target.without_link(memory_id) for target in targets])
                self.store.delete(memory_id)
        except LockUnavailable:
            memory = self.get(memory_id)
            until = self._log_deletion(memory, FORGET)
            self.store.delete(memory_id)
            pending = tuple(link.target_id for link in memory.linked_ids)
        self.closed_hours.drop(memory.timestamp)
        return Forgotten(memory, pending, until)

    def _recently_forgotten(self, memory_id: str) -> Forgotten | None:
        entry = self.deletion_log.get(memory_id) if self.deletion_log is not None else None
        if entry is None or entry.deleted_at < self.clock.now() - REPLAY_WINDOW:
            return None
        return Forgotten(entry.memory, None, entry.deleted_at + self.undo_window)

    def _episodes_listing(self, memory_id: str) -> list[Episode]:
        return [episode for episode in self.episodes.all() if memory_id in episode.memory_ids]

    def _log_deletion(
        self,
        memory: Memory,
        tool: str,
        listing: Sequence[Episode] | None = None,
        kept: Memory | None = None,
    ) -> datetime | None:
        """Write the memory to the deletion log before it is deleted, with the episodes
        that list it (read here unless given) and, for a merge, the ``kept`` memory as it
        was; returns the end of its undo window (None without a log). The memory is noted
        as departed for good as well."""
        if self.departed is not None:
            self.departed.note([(memory.id, memory.content)])
        if self.deletion_log is None:
            return None
        now = self.clock.now()
        if kept is not None:
            # Merges into one memory are undone newest first (``_later_merges``): their
            # times order them even when the clock has not moved between them.
            earlier = [e.deleted_at for e in self._merges_into(kept.id)]
            now = max([now, *(t + MERGE_TICK for t in earlier)])
        if listing is None:
            listing = self._episodes_listing(memory.id)
        episode_ids = tuple(episode.id for episode in listing)
        added_to = tuple(e.id for e in listing if kept is not None and kept.id not in e.memory_ids)
        merged_into = kept.id if kept is not None else None
        entry = DeletedMemory(memory, now, tool, episode_ids, merged_into, kept, added_to)
        self.deletion_log.put(entry)
        return now + self.undo_window

    def merge(self, keep_id: str, remove_id: str, content: str | None) -> Merged:
        """Fold ``remove_id`` into ``keep_id``: the kept memory takes the new text (embedded
        again) if given, and every link and episode membership of the removed one; the
        removed one goes to the deletion log. Needs the agent's lock."""
        if keep_id == remove_id:
            raise InvalidInput("keep_id and remove_id must differ")
        with self.locks.hold(self.agent):
            found = {m.id: m for m in self.store.get_many([keep_id, remove_id])}
            for wanted in (keep_id, remove_id):
                if wanted not in found:
                    raise _memory_not_found(wanted)
            keep, remove = found[keep_id], found[remove_id]
            moved = [lk.target_id for lk in remove.linked_ids if lk.target_id != keep_id]
            targets = self.store.get_many(moved)
            gone = set(moved) - {target.id for target in targets}  # a link left dangling
            merged = merged_memory(keep, remove, content)
            merged = replace(
                merged, linked_ids=tuple(lk for lk in merged.linked_ids if lk.target_id not in gone)
            )
            vector = self.embedder.embed([content])[0] if content is not None else None
            listing = self._episodes_listing(remove_id)
            until = self._log_deletion(remove, MERGE, listing, kept=keep)
            self.store.rewrite(merged, vector)
            self.store.replace_links([redirected(t, merged, remove_id) for t in targets])
            self.store.delete(remove_id)
            for episode in listing:
                members = episode_members_after_merge(episode.memory_ids, keep_id, remove_id)
                self.episodes.replace_members(episode.id, members)
        self.closed_hours.drop(keep.timestamp)
        self.closed_hours.drop(remove.timestamp)
        if self.journal is not None and not keep.is_private:
            self.journal.rewrite(merged)
        return Merged(
            memory=merged,
            removed=remove,
            links_moved=len(targets),
            episodes_changed=len(listing),
            became_private=merged.is_private and not keep.is_private,
            restorable_until=until,
        )

    def restore(self, memory_id: str) -> Restored:
        """Bring a memory back from the deletion log within the undo window: same id, same
        time, its links re-made both ways to the memories that still exist, its episode
        memberships and (if public) its workspace lines back."""
        log = self._require_log()
        with self.locks.hold(self.agent):
            entry = log.get(memory_id)
            if self.store.existing_ids([memory_id]):
                if entry is not None:
                    log.remove(memory_id)
                if self.departed is not None:
                    self.departed.returned([memory_id])
                raise InvalidInput(f"{memory_id} is in memory already; there is nothing to restore")
            if entry is None:
                raise NotFound(
                    f"{memory_id} is not in the deletion log: it was never forgotten, or its "
                    "undo window passed and it was purged"
                )
            self._check_window(entry)
            later = self._later_merges(entry)
            if later:
                keep = entry.merged_into
                names = ", ".join(e.memory.id for e in reversed(later))
                raise InvalidInput(
                    f"{memory_id} was merged into {keep} before {names}: restore "
                    f"{'those' if len(later) > 1 else 'it'} first (newest first), so {keep} "
                    "keeps what every merge brought"
                )
            unmerged = self._unmerge(entry)
            targets = self.store.get_many([lk.target_id for lk in entry.memory.linked_ids])
            alive = {target.id for target in targets}
            kept = tuple(lk for lk in entry.memory.linked_ids if lk.target_id in alive)
            memory = replace(entry.memory, linked_ids=kept)  # links to survivors only
            lost = len(entry.memory.linked_ids) - len(kept)
            self.store.add(memory, self.embedder.embed([memory.content])[0])
            self.store.replace_links([target.linked_back(memory) for target in targets])
            episodes = self._rejoin_episodes(memory_id, entry.episode_ids)
            log.remove(memory_id)
            if self.departed is not None:
                self.departed.returned([memory_id])
        self.closed_hours.drop(memory.timestamp)
        if self.journal is not None and not memory.is_private:
            self.journal.rewrite(memory)
        if self.journal is not None and unmerged is not None:
            self.journal.rewrite(unmerged)
        return Restored(memory, entry.deleted_at, lost, episodes, entry.merged_into, unmerged)

    def _merges_into(self, keep_id: str) -> list[DeletedMemory]:
        """The merges into ``keep_id`` that can still be undone, oldest first."""
        log = self.deletion_log
        if log is None:
            return []
        return [e for e in log.merges_into(keep_id) if e.kept_before]

    def _later_merges(self, entry: DeletedMemory) -> list[DeletedMemory]:
        """Merges into the same memory after ``entry``'s: undoing ``entry`` first would
        give the kept memory back its text from before them, and lose what they brought."""
        if entry.merged_into is None or entry.kept_before is None:
            return []
        return [e for e in self._merges_into(entry.merged_into) if e.deleted_at > entry.deleted_at]

    def _unmerge(self, entry: DeletedMemory) -> Memory | None:
        """Give a merge's kept memory back its own text, privacy, importance, links and
        episodes (under the agent's lock); None when this was no merge or it is gone."""
        before = entry.kept_before
        current = self.store.get(before.id) if before is not None else None
        if before is None or current is None:
            return None
        wanted = [lk.target_id for lk in before.linked_ids]
        alive = {memory.id for memory in self.store.get_many(wanted)}
        rolled_back, dropped = unmerged_memory(current, before, entry.memory, alive)
        changed_text = rolled_back.content != current.content
        vector = self.embedder.embed([rolled_back.content])[0] if changed_text else None
        self.store.rewrite(rolled_back, vector)
        losing = [target.without_link(before.id) for target in self.store.get_many(dropped)]
        regaining = [
            target.linked_back(rolled_back) for target in self.store.get_many(sorted(alive))
        ]
        self.store.replace_links([*losing, *regaining])
        for episode_id in entry.keep_added_to:
            episode = self.episodes.get(episode_id)
            if episode is not None:
                members = [m for m in episode.memory_ids if m != before.id]
                self.episodes.replace_members(episode_id, members)
        self.closed_hours.drop(rolled_back.timestamp)
        return rolled_back

    def _require_log(self) -> DeletionLog:
        if self.deletion_log is None:
            raise NotFound("this store keeps no deletion log, so nothing can be restored")
        return self.deletion_log

    def _check_window(self, entry: DeletedMemory) -> None:
        closes = entry.deleted_at + self.undo_window
        if self.clock.now() > closes:
            days = self.undo_window.days
            raise InvalidInput(
                f"{entry.memory.id} was forgotten on {entry.deleted_at:%Y-%m-%d %H:%M} UTC; "
                f"it could be restored until {closes:%Y-%m-%d %H:%M} UTC "
                f"({days} days, EGO_MCP_FORGET_UNDO_DAYS) and is now past recall"
            )

    def _rejoin_episodes(self, memory_id: str, episode_ids: Sequence[str]) -> int:
        rejoined = 0
        for episode_id in episode_ids:
            episode = self.episodes.get(episode_id)
            if episode is None:
                continue
            if memory_id not in episode.memory_ids:
                self.episodes.replace_members(episode_id, [*episode.memory_ids, memory_id])
            rejoined += 1
        return rejoined

    def forgotten(self) -> list[DeletedMemory]:
        """The deletion log, oldest first."""
        return self._require_log().entries()

    def purge_deletion_log(self, everything: bool = False) -> list[str]:
        """Remove log entries whose undo window has closed (or all); returns their ids.
        Each is noted as departed first: an entry logged before that record existed, or
        brought in by an import, stays forgotten once its text is gone."""
        log = self._require_log()
        before = None if everything else self.clock.now() - self.undo_window
        leaving = [e for e in log.entries() if before is None or e.deleted_at < before]
        if self.departed is not None:
            self.departed.note([(e.memory.id, e.memory.content) for e in leaving])
        log.purge(before)
        return [e.memory.id for e in leaving]

    def is_public(self, memory_id: str) -> bool:
        """Whether a public memory of this id exists (workspace cleanup asks)."""
        memory = self.store.get(memory_id)
        return memory is not None and not memory.is_private

    def unlink_forgotten(self, memory_id: str, target_ids: Sequence[str]) -> int:
        """Remove links to a forgotten memory from ``target_ids``; returns how many (job).
        A memory restored since the job was queued is left alone: the restore made its
        links both ways again, and a stale job must not undo that."""
        with self.locks.hold(self.agent):
            if self.store.existing_ids([memory_id]):
                return 0
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
            forward = Link(target_id, link_type, note, confidence)
            source = found[source_id].with_link(forward)
            target = found[target_id].with_link(reverse_link(source_id, forward))
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


def _similar_link(target_id: str, hit: SearchHit) -> Link:
    return Link(target_id, LinkType.SIMILAR, confidence=round(hit.similarity, 4))


@dataclass(frozen=True)
class _QueryWords:
    """A query's words as recall scores them."""

    terms: list[str]
    read: dict[bool, list[Concept]]
    lookup: LexicalLookup
    matching: frozenset[str] = frozenset()

    def coverage(self, documents: Mapping[str, Sequence[str]]) -> dict[str, float]:
        found = self.lookup
        return coverage_across(self.terms, self.read, documents, found.frequencies, found.stats)

    def matched(self, documents: Mapping[str, Sequence[str]]) -> set[str]:
        """The documents that share a content word with the query (or its translation):
        one sharing only function words is no match by words, whatever they add to the
        rank of one that is."""
        return {i for i, held in documents.items() if self.matching.intersection(held)}


def _log_recall(found: list[Ranked], by_words: int, started: float) -> None:
    if not logger.isEnabledFor(logging.DEBUG):
        return  # recall is a hot path: no ids joined for a line nobody reads
    logger.debug(
        "recall: %d hits (%s), %d added by words, %.1f ms",
        len(found),
        Plain(
            " ".join(
                f"{item.hit.memory.id}:{item.hit.similarity:.2f}+{item.coverage:.2f}"
                for item in found
            )
        ),
        by_words,
        (time.perf_counter() - started) * 1000,
    )


def _memory_not_found(memory_id: str) -> NotFound:
    return NotFound(
        f"Memory not found: {memory_id}. Double-check the ID. "
        "Use recall to search for the memory you're looking for."
    )

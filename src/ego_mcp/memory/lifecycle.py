"""Forgetting and its undoing for one agent: ``forget``, ``merge_memories``, ``restore_memory``
and the purge of the deletion log.

A memory leaves the store only after it is written to the deletion log (its text, for
the undo window); the purge that ends its window notes it in the departed record (its id
and a hash, for good) before the entry goes, and ``import`` and ``migrate`` consult both,
so a forgotten memory is never brought back by either. Merges
into one memory are undone newest first, so the kept memory never loses what a later
merge brought.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ego_mcp.errors import InvalidInput, LockUnavailable, NotFound
from ego_mcp.memory.merge import (
    episode_members_after_merge,
    merged_memory,
    redirected,
    unmerged_memory,
)
from ego_mcp.memory.model import DeletedMemory, Episode, Memory
from ego_mcp.memory.parts import REPLAY_WINDOW, MemoryParts, memory_not_found
from ego_mcp.memory.store import DeletionLog

MERGE_TICK = timedelta(milliseconds=1)  # orders merges the clock did not tell apart
FORGET = "forget"
MERGE = "merge_memories"


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


class Lifecycle(MemoryParts):
    """How memories leave the store and come back."""

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
        self.left_store(memory_id)
        self.closed_hours.drop(memory.timestamp)
        return Forgotten(memory, pending, until)

    def _recently_forgotten(self, memory_id: str) -> Forgotten | None:
        entry = self.deletion_log.get(memory_id) if self.deletion_log is not None else None
        if entry is None or entry.deleted_at < self.clock.now() - REPLAY_WINDOW:
            return None
        return Forgotten(entry.memory, None, entry.deleted_at + self.undo_window)

    def episodes_listing(self, memory_id: str) -> list[Episode]:
        """The episodes that list ``memory_id``."""
        return self.episodes.listing(memory_id)

    def _log_deletion(
        self,
        memory: Memory,
        tool: str,
        listing: Sequence[Episode] | None = None,
        kept: Memory | None = None,
    ) -> datetime | None:
        """Write the memory to the deletion log before it is deleted, with the episodes
        that list it (read here unless given) and, for a merge, the ``kept`` memory as it
        was; returns the end of its undo window. Without a log the memory is noted as
        departed for good at once (with one, the purge notes it: one write fewer a
        forget) and None is returned."""
        if self.deletion_log is None:
            if self.departed is not None:
                self.departed.note([(memory.id, memory.content)])
            return None
        now = self.clock.now()
        if kept is not None:
            # Merges into one memory are undone newest first (``_later_merges``): their
            # times order them even when the clock has not moved between them.
            earlier = [e.deleted_at for e in self._merges_into(kept.id)]
            now = max([now, *(t + MERGE_TICK for t in earlier)])
        if listing is None:
            listing = self.episodes_listing(memory.id)
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
                    raise memory_not_found(wanted)
            keep, remove = found[keep_id], found[remove_id]
            moved = [lk.target_id for lk in remove.linked_ids if lk.target_id != keep_id]
            targets = self.store.get_many(moved)
            gone = set(moved) - {target.id for target in targets}  # a link left dangling
            merged = merged_memory(keep, remove, content)
            merged = replace(
                merged, linked_ids=tuple(lk for lk in merged.linked_ids if lk.target_id not in gone)
            )
            vector = self.embedder.embed([content])[0] if content is not None else None
            listing = self.episodes_listing(remove_id)
            until = self._log_deletion(remove, MERGE, listing, kept=keep)
            self.store.rewrite(merged, vector)
            self.store.replace_links([redirected(t, merged, remove_id) for t in targets])
            self.store.delete(remove_id)
            self.left_store(remove_id)
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
        # Exactly the entries read and noted: one a forget logs meanwhile (no noting of its
        # own) stays in the log, so it is never in neither.
        log.purge([e.memory.id for e in leaving])
        return [e.memory.id for e in leaving]

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

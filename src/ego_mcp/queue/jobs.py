"""Job functions: plain ``async def f(ctx, agent, ...ids)``, run by arq or in-process alike.

Each takes an agent name and ids, never memory content, and is idempotent: running it
twice, or on two workers at once, leaves the same result as running it once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Protocol, TypeVar

from ego_mcp.clock import Clock
from ego_mcp.ego.service import EgoService
from ego_mcp.heap import releasing_heap
from ego_mcp.memory.lifecycle import Forgotten, Merged
from ego_mcp.memory.service import MemoryService, RememberOutcome
from ego_mcp.queue.base import JobRequest
from ego_mcp.workspace import WorkspaceSync

JobContext = dict[str, Any]
JobFunction = Callable[..., Awaitable[Any]]
RUNTIME_KEY = "runtime"
T = TypeVar("T")


class JobRuntime(Protocol):
    """What jobs need from the process they run in."""

    def memory(self, agent: str) -> MemoryService: ...

    def workspace(self, agent: str) -> WorkspaceSync | None: ...

    def ego(self, agent: str) -> EgoService: ...

    def agents(self) -> list[str]: ...

    def reembed(self, agent: str) -> int: ...

    @property
    def clock(self) -> Clock: ...


def runtime_of(ctx: JobContext) -> JobRuntime:
    runtime: JobRuntime = ctx[RUNTIME_KEY]
    return runtime


async def _off_loop(work: Callable[[], T]) -> T:
    """Run ``work`` in a thread: opening the agent's service included (a first open may
    backfill or reconcile the word index for seconds), so a job never holds the event
    loop, and the worker's heartbeat keeps its in-progress mark alive meanwhile."""
    return await asyncio.to_thread(work)


async def _whole_store(work: Callable[[], T]) -> T:
    """Run a job that reads the whole store (or a whole window) off the loop, then give
    the heap it freed back to the system (in that thread), so the server does not keep
    it for good."""
    return await asyncio.to_thread(releasing_heap(work))


async def cleanup_workspace(ctx: JobContext, agent: str, memory_id: str) -> int:
    """Remove a forgotten memory's ``[id:...]`` lines; returns how many files changed.

    A memory restored before this ran is public again and keeps its lines.
    """
    runtime = runtime_of(ctx)

    def work() -> int:
        sync = runtime.workspace(agent)
        if sync is None:
            return 0
        return sync.remove_memory(memory_id, runtime.memory(agent).is_public)

    return await _off_loop(work)


async def consolidate(ctx: JobContext, agent: str) -> dict[str, object]:
    """Replay the last 24 h, strengthen links, store merge candidates (ids only)."""
    runtime = runtime_of(ctx)
    stats = await _whole_store(lambda: runtime.ego(agent).consolidate_now())
    return {"replay_events": stats.replay_events, "merge_candidates": len(stats.merge_candidates)}


async def scan_merge_candidates(ctx: JobContext, agent: str) -> dict[str, object]:
    """Near-duplicate pairs over the whole store, stored for the operator and the agent."""
    runtime = runtime_of(ctx)
    stats = await _whole_store(lambda: runtime.ego(agent).scan_merge_candidates())
    return {
        "scanned": stats.extra.get("scanned", 0),
        "merge_candidates": len(stats.merge_candidates),
    }


async def cleanup_episode_references(ctx: JobContext, agent: str) -> int:
    """Remove ids of forgotten memories from every episode; returns how many went."""
    runtime = runtime_of(ctx)
    return await _whole_store(lambda: runtime.memory(agent).prune_episode_references())


async def repair_links(ctx: JobContext, agent: str) -> int:
    """Restore two-way links a crash between two writes may have left one-sided, and mend
    the word index rows a failed write left unsettled (a Chroma server that went away
    mid-write) without waiting for the next open."""
    runtime = runtime_of(ctx)

    def work() -> int:
        memory = runtime.memory(agent)
        if not memory.lexical_in_step():
            memory.mend_lexical()
        return memory.repair_links()

    return await _whole_store(work)


async def link_memory(ctx: JobContext, agent: str, memory_id: str) -> int:
    """Make the auto-links of a memory saved while the agent's lock was out of reach."""
    runtime = runtime_of(ctx)
    return await _off_loop(lambda: runtime.memory(agent).link_pending(memory_id))


async def unlink_memory(ctx: JobContext, agent: str, memory_id: str, targets: str) -> int:
    """Remove links to a memory forgotten while the lock was out of reach (ids, comma-joined)."""
    ids = [target for target in targets.split(",") if target]
    runtime = runtime_of(ctx)
    return await _off_loop(lambda: runtime.memory(agent).unlink_forgotten(memory_id, ids))


async def note_recalls(ctx: JobContext, agent: str, memory_ids: str, day: str) -> int:
    """Count ``day`` (days since the epoch) as a day each memory (ids, comma-joined) was
    recalled; a memory already counted that day is not counted again, so a second run
    changes nothing. What fading and "precious" read (``memory/fading.py``)."""
    ids = [memory_id for memory_id in memory_ids.split(",") if memory_id]
    runtime = runtime_of(ctx)
    return await _off_loop(lambda: runtime.memory(agent).note_recalls(ids, int(day)))


async def repair_after_outage(ctx: JobContext, agent: str) -> int:
    """The whole-store link repair, under the lock, once Redis answers again.

    A write that held the lock when Redis went away can finish after an unlocked forget
    read the links it was about to change; this catches what ``unlink_memory`` cannot see.
    """
    runtime = runtime_of(ctx)
    return await _whole_store(lambda: runtime.memory(agent).repair_links(True))


async def purge_deletion_log(ctx: JobContext, agent: str) -> int:
    """Remove deletion-log entries whose undo window has closed; returns how many."""
    runtime = runtime_of(ctx)
    return len(await _whole_store(lambda: runtime.memory(agent).purge_deletion_log()))


async def reembed(ctx: JobContext, agent: str) -> int:
    """Re-embed the agent's store with the configured provider (batched, resumable)."""
    runtime = runtime_of(ctx)
    return await _whole_store(lambda: runtime.reembed(agent))


JOB_FUNCTIONS: dict[str, JobFunction] = {
    "cleanup_workspace": cleanup_workspace,
    "consolidate": consolidate,
    "scan_merge_candidates": scan_merge_candidates,
    "cleanup_episode_references": cleanup_episode_references,
    "repair_links": repair_links,
    "reembed": reembed,
    "link_memory": link_memory,
    "unlink_memory": unlink_memory,
    "repair_after_outage": repair_after_outage,
    "note_recalls": note_recalls,
    "purge_deletion_log": purge_deletion_log,
}


def jobs_after_forget(agent: str, forgotten: Forgotten, now: datetime) -> list[JobRequest]:
    """What to run once a memory is gone: links left pending (and one whole-store repair
    per minute of an outage), and its workspace lines (a private memory was never written
    anywhere)."""
    memory = forgotten.memory
    jobs = []
    if forgotten.pending_targets is not None:
        targets = ",".join(forgotten.pending_targets)
        jobs.append(
            JobRequest.for_event(
                "unlink_memory", agent, {"memory_id": memory.id, "targets": targets}
            )
        )
        jobs.append(JobRequest("repair_after_outage", agent, slot=f"{now:%Y-%m-%dT%H:%M}"))
    if not memory.is_private:
        jobs.append(JobRequest.for_event("cleanup_workspace", agent, {"memory_id": memory.id}))
    return jobs


def jobs_after_merge(agent: str, merged: Merged) -> list[JobRequest]:
    """The removed memory's workspace lines go (the kept one's were rewritten in place)."""
    if merged.removed.is_private:
        return []
    return [JobRequest.for_event("cleanup_workspace", agent, {"memory_id": merged.removed.id})]


def jobs_after_remember(agent: str, outcome: RememberOutcome) -> list[JobRequest]:
    """A memory saved without the agent's lock gets its links later."""
    if outcome.saved is None or not outcome.links_pending:
        return []
    return [JobRequest.for_event("link_memory", agent, {"memory_id": outcome.saved.id})]

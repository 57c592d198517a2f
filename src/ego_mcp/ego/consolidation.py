"""Consolidation: replay recent memories, strengthen co-activated links, find near-duplicates.

Seed 003 §B. Merge candidates are only proposed; the agent decides (recall, then forget).
The result keeps ids and distances only, so it can be stored anywhere (Redis included)
without carrying memory content.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ego_mcp.memory.fading import precious
from ego_mcp.memory.guard import CORRECTION_KINDS, Verdict, mergeable
from ego_mcp.memory.model import REVERSE_LINK_TYPE, Link, Links, LinkType, reverse_link
from ego_mcp.memory.service import MemoryService

CONFIDENCE_STEP = 0.05
WINDOW_PAGE = 500  # memories of the window read and queried at a time
# The newest memories of the window replayed in one run (the seeds' ``max_replay_events``;
# a 24-hour window rarely holds more). The merge scan covers the whole store apart.
MAX_REPLAY = 1_000
FILLED = 0.9  # a replay start is good enough once it takes this share of MAX_REPLAY
FIRST_SPAN = timedelta(minutes=1)
# Pairs read and judged by the guard per merge candidate proposed (some are distinct).
JUDGED_PER_CANDIDATE = 4
RESOLUTION = timedelta(seconds=1)


@dataclass(frozen=True)
class Correction:
    """A recent memory saved as correcting an older one (``supersedes``), for the agent to
    confirm: ids and the kind of fact only."""

    newer_id: str
    older_id: str
    kind: str


@dataclass(frozen=True)
class MergeCandidate:
    memory_a_id: str
    memory_b_id: str
    distance: float
    differences: tuple[str, ...] = ()  # what the guard saw differ (words only)


@dataclass(frozen=True)
class ConsolidationStats:
    replay_events: int
    coactivation_updates: int
    link_updates: int
    refreshed_memories: int
    merge_candidates: tuple[MergeCandidate, ...] = ()
    finished_at: str = ""
    corrections: tuple[Correction, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def to_document(self) -> dict[str, Any]:
        return {
            "replay_events": self.replay_events,
            "coactivation_updates": self.coactivation_updates,
            "link_updates": self.link_updates,
            "refreshed_memories": self.refreshed_memories,
            "merge_candidates": [
                {
                    "memory_a_id": c.memory_a_id,
                    "memory_b_id": c.memory_b_id,
                    "distance": c.distance,
                    # The kinds only ("wording", "leaves out"): the words themselves may be
                    # a private memory's, and this document is kept outside the store.
                    "differences": [d.partition(":")[0] for d in c.differences],
                }
                for c in self.merge_candidates
            ],
            "finished_at": self.finished_at,
            "corrections": [[c.newer_id, c.older_id, c.kind] for c in self.corrections],
            **self.extra,
        }

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> ConsolidationStats:
        known = {
            "replay_events",
            "coactivation_updates",
            "link_updates",
            "refreshed_memories",
            "merge_candidates",
            "finished_at",
            "corrections",
        }
        return cls(
            replay_events=int(document["replay_events"]),
            coactivation_updates=int(document["coactivation_updates"]),
            link_updates=int(document["link_updates"]),
            refreshed_memories=int(document["refreshed_memories"]),
            merge_candidates=tuple(
                MergeCandidate(
                    c["memory_a_id"],
                    c["memory_b_id"],
                    c["distance"],
                    tuple(c.get("differences", ())),
                )
                for c in document["merge_candidates"]
            ),
            finished_at=str(document.get("finished_at", "")),
            corrections=tuple(Correction(*c) for c in document.get("corrections", ())),
            extra={k: v for k, v in document.items() if k not in known},
        )


def merge_candidates(
    memory: MemoryService, pairs: dict[tuple[str, str], float], threshold: float, limit: int
) -> tuple[MergeCandidate, ...]:
    """The closest pairs under ``threshold``, each pair once, at most ``limit``, that the
    guard would not call distinct (``guard.mergeable``: the judgement ``remember`` uses),
    so a pair ``remember`` said differs in a fact is never proposed; nor is a pair with a
    precious memory (``memory/fading.py``). The closest ``JUDGED_PER_CANDIDATE`` times
    ``limit`` pairs are read (their texts) and judged."""
    close = closest(
        {pair: d for pair, d in pairs.items() if d < threshold}, limit * JUDGED_PER_CANDIDATE
    )
    wanted = sorted({memory_id for pair in close for memory_id in pair})
    texts = {
        found.id: found.content for found in memory.store.get_many(wanted) if not precious(found)
    }
    chosen: list[MergeCandidate] = []
    for (a, b), distance in close.items():
        if a not in texts or b not in texts:
            continue  # forgotten meanwhile, or precious
        judged = mergeable(texts[a], texts[b])
        if judged.verdict is not Verdict.DISTINCT:
            chosen.append(MergeCandidate(a, b, round(distance, 4), judged.differences))
        if len(chosen) == limit:
            break
    return tuple(chosen)


def closest(pairs: dict[tuple[str, str], float], limit: int) -> dict[tuple[str, str], float]:
    """The ``limit`` closest pairs, closest first (ties by id, so the choice is stable)."""
    ranked = heapq.nsmallest(limit, pairs.items(), key=lambda item: (item[1], item[0]))
    return dict(ranked)


def neighbour_pairs(
    memory_ids: list[str], rows: list[list[tuple[str, float]]]
) -> dict[tuple[str, str], float]:
    """Unordered pairs (sorted ids) of each memory with its neighbours."""
    pairs: dict[tuple[str, str], float] = {}
    for memory_id, row in zip(memory_ids, rows, strict=True):
        for other, distance in row:
            if other == memory_id:
                continue
            a, b = sorted((memory_id, other))
            pairs[(a, b)] = min(distance, pairs.get((a, b), 2.0))
    return pairs


def strengthen(
    links: Mapping[str, Links], pairs: list[tuple[str, str, float]]
) -> tuple[dict[str, Links], int, int]:
    """Bump or create ``similar`` links both ways, over each memory's link list; returns
    the link lists that changed and the counts (bumped: every co-activated pair). Each
    list is read into a map by target once, so a pair costs the same however many links
    its memories hold (a window's memories hold dozens)."""
    held: dict[str, dict[str, Link]] = {}

    def targets(memory_id: str) -> dict[str, Link]:
        if memory_id not in held:
            by_target: dict[str, Link] = {}
            for link in links[memory_id]:
                by_target.setdefault(link.target_id, link)  # a target listed twice: its first
            held[memory_id] = by_target
        return held[memory_id]

    bumped = created = 0
    for a, b, distance in pairs:
        if a not in links or b not in links:
            continue
        first, second = targets(a), targets(b)
        existing = first.get(b)
        if existing is None and a in second:  # one-sided: the other end's link, mirrored
            existing = reverse_link(b, second[a])
        if existing is None:
            confidence = round(max(0.0, 1.0 - distance), 4)
            first[b] = Link(b, LinkType.SIMILAR, confidence=confidence)
            second[a] = Link(a, LinkType.SIMILAR, confidence=confidence)
            created += 1
        else:
            confidence = round(min(1.0, existing.confidence + CONFIDENCE_STEP), 4)
            reverse = second.get(a) or Link(a, REVERSE_LINK_TYPE[existing.link_type])
            first[b] = Link(b, existing.link_type, existing.note, confidence)
            second[a] = Link(a, reverse.link_type, reverse.note, confidence)
            bumped += 1
    # A link already at full confidence is bumped to what it was: its list is not
    # rewritten (under repeated consolidations most of a window's lists are such).
    changed = {i: tuple(by_target.values()) for i, by_target in held.items()}
    return {i: kept for i, kept in changed.items() if set(kept) != set(links[i])}, bumped, created


def replay_start(
    count_since: Callable[[datetime, int], int], since: datetime, now: datetime, limit: int
) -> datetime:
    """Where the replay begins: ``since`` if at most ``limit`` memories were stored from
    then on, else a moment after which nearly ``limit`` were (the newest).

    ``count_since(moment, cap)`` counts up to ``cap``. The search widens back from ``now``
    (a minute, two, four, ...) and then halves the step it overshot, so most reads count
    a few recent memories: each read of a crowded window costs Chroma a scan.
    """
    if count_since(since, limit + 1) <= limit:
        return since
    enough = int(limit * FILLED)
    sparse, crowded = now, since  # at most ``limit`` from ``sparse`` on; more from ``crowded``
    in_sparse = 0
    span = FIRST_SPAN
    while now - span > since:
        count = count_since(now - span, limit + 1)
        if count > limit:
            crowded = now - span
            break
        sparse, in_sparse = now - span, count
        if in_sparse >= enough:
            return sparse
        span *= 2
    while sparse - crowded > RESOLUTION and in_sparse < enough:
        middle = crowded + (sparse - crowded) / 2
        count = count_since(middle, limit + 1)
        if count > limit:
            crowded = middle
        else:
            sparse, in_sparse = middle, count
    # Memories stamped with one instant cannot be told apart by time: take them from the
    # crowded side (the caller reads ``limit`` of them) rather than none.
    return sparse if in_sparse else crowded


def consolidate(
    memory: MemoryService,
    now: datetime,
    window_hours: int = 24,
    max_candidates: int = 5,
    max_replay: int | None = None,
) -> ConsolidationStats:
    """Run one consolidation over the newest ``max_replay`` memories (``MAX_REPLAY`` if
    not given) of the last ``window_hours``.

    Each replayed memory is queried for its nearest neighbours (as many as ``remember``
    links, and enough for the closest ``max_candidates`` pairs, see ``scan_store``): links
    among the replayed are strengthened, the closest pairs proposed. The cap keeps a run's
    time and memory flat however many memories the window holds: a 10,000-memory window
    read whole took 8 s and 50 MiB of peak memory, mostly in Chroma's own read buffers.
    """
    limit = MAX_REPLAY if max_replay is None else max_replay
    wanted = max(memory.thresholds.max_links, max_candidates) + 1
    # Only pairs close enough to link or to merge are kept, not every neighbour pair.
    cutoff = max(memory.thresholds.link, memory.thresholds.merge)
    start = replay_start(memory.store.count_since, now - timedelta(hours=window_hours), now, limit)
    recent_ids: set[str] = set()
    pairs: dict[tuple[str, str], float] = {}
    for page_ids, page_vectors in memory.store.vector_batches(WINDOW_PAGE, since=start):
        room = limit - len(recent_ids)
        memory_ids, vectors = page_ids[:room], page_vectors[:room]
        recent_ids.update(memory_ids)
        rows = memory.store.neighbour_ids(vectors, wanted)
        for pair, distance in neighbour_pairs(memory_ids, rows).items():
            if distance < cutoff:
                pairs[pair] = min(distance, pairs.get(pair, distance))
        if len(recent_ids) >= limit:
            break
    if len(recent_ids) < 2:
        return ConsolidationStats(len(recent_ids), 0, 0, 0, (), now.isoformat())
    coactivated = sorted(
        (a, b, d)
        for (a, b), d in pairs.items()
        if d < memory.thresholds.link and a in recent_ids and b in recent_ids
    )
    with memory.locks.hold(memory.agent):
        # One read of the replayed memories' links, under the lock: what is strengthened,
        # and (with the changes) where the corrections are.
        links = memory.store.links_of(sorted(recent_ids))
        changed, bumped, created = strengthen(links, coactivated)
        memory.store.write_links(changed)
    return ConsolidationStats(
        replay_events=len(recent_ids),
        coactivation_updates=bumped,
        link_updates=created,
        refreshed_memories=len(changed),
        merge_candidates=merge_candidates(memory, pairs, memory.thresholds.merge, max_candidates),
        finished_at=now.isoformat(),
        corrections=corrections({**links, **changed}),
    )


def _kind(note: str) -> str:
    """The kind of fact a correction's note names; a note the agent wrote ("link_memories")
    is not kept, since this result is stored outside the store."""
    kind = note.partition(",")[0]
    return kind if kind in CORRECTION_KINDS else "correction"


def corrections(links: Mapping[str, Links]) -> tuple[Correction, ...]:
    """The corrections among these memories' links: each memory that supersedes another,
    with the kind of fact the link's note names (``remember``'s "number, 2026-11-27")."""
    return tuple(
        Correction(memory_id, link.target_id, _kind(link.note))
        for memory_id, held in sorted(links.items())
        for link in held
        if link.link_type is LinkType.SUPERSEDES
    )


def scan_store(
    memory: MemoryService, now: datetime, batch_size: int = 500, max_candidates: int = 20
) -> ConsolidationStats:
    """A whole-store near-duplicate scan: each batch of stored embeddings is one query for
    its ``max_candidates + 1`` nearest (ids and distances only).

    That is enough for the closest ``max_candidates`` pairs of the whole store: if a pair
    (a, b) is among them, fewer than ``max_candidates`` memories are closer to a than b is,
    so b is in a's row (a itself takes one place). No pair that could be reported is missed.
    """
    pairs: dict[tuple[str, str], float] = {}
    scanned = 0
    for memory_ids, vectors in memory.store.vector_batches(batch_size):
        rows = memory.store.neighbour_ids(vectors, max_candidates + 1)
        close = neighbour_pairs(memory_ids, rows)
        pairs.update({k: d for k, d in close.items() if d < memory.thresholds.merge})
        # Only the closest so far can be reported: a diary of similar days has hundreds
        # of thousands of pairs under the threshold (858,000 in 10,000 memories).
        pairs = closest(pairs, max_candidates * JUDGED_PER_CANDIDATE)
        scanned += len(memory_ids)
    return ConsolidationStats(
        replay_events=0,
        coactivation_updates=0,
        link_updates=0,
        refreshed_memories=0,
        merge_candidates=merge_candidates(memory, pairs, memory.thresholds.merge, max_candidates),
        finished_at=now.isoformat(),
        extra={"scanned": scanned},
    )

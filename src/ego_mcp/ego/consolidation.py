"""Consolidation: replay recent memories, strengthen co-activated links, find near-duplicates.

Seed 003 §B. Merge candidates are only proposed; the agent decides (recall, then forget).
The result keeps ids and distances only, so it can be stored anywhere (Redis included)
without carrying memory content.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from ego_mcp.memory.model import REVERSE_LINK_TYPE, Link, LinkType, Memory, SearchHit
from ego_mcp.memory.service import MemoryService

CONFIDENCE_STEP = 0.05
SCAN_NEIGHBOURS = 4


@dataclass(frozen=True)
class MergeCandidate:
    memory_a_id: str
    memory_b_id: str
    distance: float


@dataclass(frozen=True)
class ConsolidationStats:
    replay_events: int
    coactivation_updates: int
    link_updates: int
    refreshed_memories: int
    merge_candidates: tuple[MergeCandidate, ...] = ()
    finished_at: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_document(self) -> dict[str, Any]:
        return {
            "replay_events": self.replay_events,
            "coactivation_updates": self.coactivation_updates,
            "link_updates": self.link_updates,
            "refreshed_memories": self.refreshed_memories,
            "merge_candidates": [
                {"memory_a_id": c.memory_a_id, "memory_b_id": c.memory_b_id, "distance": c.distance}
                for c in self.merge_candidates
            ],
            "finished_at": self.finished_at,
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
        }
        return cls(
            replay_events=int(document["replay_events"]),
            coactivation_updates=int(document["coactivation_updates"]),
            link_updates=int(document["link_updates"]),
            refreshed_memories=int(document["refreshed_memories"]),
            merge_candidates=tuple(MergeCandidate(**c) for c in document["merge_candidates"]),
            finished_at=str(document.get("finished_at", "")),
            extra={k: v for k, v in document.items() if k not in known},
        )


def merge_candidates(
    pairs: dict[tuple[str, str], float], threshold: float, limit: int
) -> tuple[MergeCandidate, ...]:
    """The closest pairs under ``threshold``, each pair once, at most ``limit``."""
    close = sorted((d, a, b) for (a, b), d in pairs.items() if d < threshold)
    return tuple(MergeCandidate(a, b, round(d, 4)) for d, a, b in close[:limit])


def neighbour_pairs(
    recent: list[Memory], hits: list[list[SearchHit]]
) -> dict[tuple[str, str], float]:
    """Unordered pairs (sorted ids) of each recent memory with its neighbours."""
    pairs: dict[tuple[str, str], float] = {}
    for memory, row in zip(recent, hits, strict=True):
        for hit in row:
            if hit.memory.id == memory.id:
                continue
            a, b = sorted((memory.id, hit.memory.id))
            pairs[(a, b)] = min(hit.distance, pairs.get((a, b), 2.0))
    return pairs


def strengthen(
    memories: dict[str, Memory], pairs: list[tuple[str, str, float]]
) -> tuple[dict[str, Memory], int, int]:
    """Bump or create ``similar`` links both ways; returns changed memories and counts."""
    changed: dict[str, Memory] = {}
    bumped = created = 0
    for a, b, distance in pairs:
        if a not in memories or b not in memories:
            continue
        first, second = changed.get(a, memories[a]), changed.get(b, memories[b])
        existing = first.link_to(b)
        if existing is None:
            confidence = round(max(0.0, 1.0 - distance), 4)
            first = first.with_link(Link(b, LinkType.SIMILAR, confidence=confidence))
            second = second.with_link(Link(a, LinkType.SIMILAR, confidence=confidence))
            created += 1
        else:
            confidence = round(min(1.0, existing.confidence + CONFIDENCE_STEP), 4)
            reverse = second.link_to(a) or Link(a, REVERSE_LINK_TYPE[existing.link_type])
            first = first.with_link(Link(b, existing.link_type, existing.note, confidence))
            second = second.with_link(Link(a, reverse.link_type, reverse.note, confidence))
            bumped += 1
        changed[a], changed[b] = first, second
    return changed, bumped, created


def consolidate(
    memory: MemoryService,
    now: datetime,
    window_hours: int = 24,
    max_candidates: int = 5,
) -> ConsolidationStats:
    """Run one consolidation over the memories of the last ``window_hours``."""
    window = memory.store.since(now - timedelta(hours=window_hours))
    if len(window) < 2:
        return ConsolidationStats(len(window), 0, 0, 0, (), now.isoformat())
    recent = [m for m, _ in window]
    hits = neighbours_under(memory, np.stack([v for _, v in window]), memory.thresholds.merge)
    pairs = neighbour_pairs(recent, hits)
    recent_ids = {m.id for m in recent}
    coactivated = sorted(
        (a, b, d)
        for (a, b), d in pairs.items()
        if d < memory.thresholds.link and a in recent_ids and b in recent_ids
    )
    with memory.locks.hold(memory.agent):
        involved = {x for a, b, _ in coactivated for x in (a, b)}
        fresh = {m.id: m for m in memory.store.get_many(sorted(involved))}
        changed, bumped, created = strengthen(fresh, coactivated)
        memory.store.replace_links(list(changed.values()))
    return ConsolidationStats(
        replay_events=len(recent),
        coactivation_updates=bumped,
        link_updates=created,
        refreshed_memories=len(changed),
        merge_candidates=merge_candidates(pairs, memory.thresholds.merge, max_candidates),
        finished_at=now.isoformat(),
    )


def neighbours_under(
    memory: MemoryService, vectors: np.ndarray[Any, Any], threshold: float
) -> list[list[SearchHit]]:
    """Each vector's neighbours, with every one closer than ``threshold`` among them.

    One batched query asks for a few; a row whose farthest is still under the threshold
    (a memory saved many times over) is asked again for twice as many, until it is not.
    """
    rows = memory.store.neighbours(vectors, SCAN_NEIGHBOURS)
    size = memory.store.count()
    for index in range(len(rows)):
        wanted = SCAN_NEIGHBOURS
        while len(rows[index]) == wanted and wanted < size and rows[index][-1].distance < threshold:
            wanted *= 2
            rows[index] = memory.store.neighbours(vectors[index : index + 1], wanted)[0]
    return rows


def scan_store(
    memory: MemoryService, now: datetime, batch_size: int = 500, max_candidates: int = 20
) -> ConsolidationStats:
    """A whole-store near-duplicate scan: each batch of stored embeddings is one query."""
    pairs: dict[tuple[str, str], float] = {}
    scanned = 0
    for memories, vectors in memory.store.batches(batch_size):
        hits = neighbours_under(memory, vectors, memory.thresholds.merge)
        close = neighbour_pairs(memories, hits)
        pairs.update({k: d for k, d in close.items() if d < memory.thresholds.merge})
        scanned += len(memories)
    return ConsolidationStats(
        replay_events=0,
        coactivation_updates=0,
        link_updates=0,
        refreshed_memories=0,
        merge_candidates=merge_candidates(pairs, memory.thresholds.merge, max_candidates),
        finished_at=now.isoformat(),
        extra={"scanned": scanned},
    )

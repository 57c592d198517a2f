"""Fading: how strongly a memory holds against time, and which memories are precious.

A memory's strength halves every ``half_life_days`` since it was last recalled (or
saved), and that half-life is longer for what is recalled on many days (the spacing
effect: retrieval spread over days strengthens a memory more than retrieval massed in one
sitting), important, or felt strongly. Recall weighs its score by the strength
(``Fade.factor``), never below ``1 - weight``, and never for an exact match: a memory
that holds every word of the query, or says the query in other words, is shown whatever
its age.

Precious memories, as upstream ego-mcp 1.7 names them: a moment lived with someone
(``remember(shared_with=...)``) that was felt strongly, and a small thing recalled on
many days. They fade no further than ``PRECIOUS_FLOOR`` and are never proposed for a
merge. A memory anticipating a moment still to come does not fade before it.

Pure functions over ``Memory``; the recall counts are kept by the ``note_recalls`` job.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from ego_mcp.memory.model import Memory

PRECIOUS_INTENSITY = 0.6  # a shared moment felt at least this strongly
PRECIOUS_RECALL_DAYS = 3  # a small thing brought up on at least this many days
PRECIOUS_IMPORTANCE = 2  # "small": importance at most this
PRECIOUS_FLOOR = 0.25
# Days of half-life each day of recall adds, up to the cap (upstream 1.7: 5 and 60).
DAYS_PER_RECALL_DAY = 5.0
MOST_RECALL_DAYS_ADDED = 60.0
# An exact match is not faded: all the query's words (BM25 coverage) or its meaning.
EXACT_COVERAGE = 0.99
EXACT_SIMILARITY = 0.9
SECONDS_PER_DAY = 86_400
MIDDLING_STRETCH = 1.5 * 1.5  # importance 3, intensity 0.5: the half-life as set


def day_number(moment: datetime) -> int:
    """Days since the epoch, UTC: the day a recall is counted on."""
    return int(moment.astimezone(UTC).timestamp() // SECONDS_PER_DAY)


def precious(memory: Memory) -> bool:
    """A shared moment felt strongly, or a small thing recalled on many days."""
    shared_peak = memory.shared and memory.emotional_trace.intensity >= PRECIOUS_INTENSITY
    trivia = memory.recall_days >= PRECIOUS_RECALL_DAYS and memory.importance <= PRECIOUS_IMPORTANCE
    return shared_peak or trivia


@dataclass(frozen=True)
class Fade:
    """How recall weighs age: ``half_life_days`` for a memory of middling importance and
    feeling never recalled, and ``weight``, the share of its score a wholly faded memory
    loses (0: nothing fades)."""

    half_life_days: float
    weight: float

    def strength(self, memory: Memory, now: datetime) -> float:
        """How well ``memory`` holds at ``now``, from 1 (fresh) towards 0."""
        if memory.anticipated_at is not None and memory.anticipated_at > now:
            return 1.0
        last = max(memory.timestamp.timestamp(), memory.recalled_on * SECONDS_PER_DAY)
        age_days = max(0.0, now.timestamp() - last) / SECONDS_PER_DAY
        recalled = min(memory.recall_days * DAYS_PER_RECALL_DAY, MOST_RECALL_DAYS_ADDED)
        # Importance 1..5 and intensity 0..1 each stretch the half-life up to twice.
        stretch = (1 + (memory.importance - 1) / 4) * (1 + memory.emotional_trace.intensity)
        half_life = (self.half_life_days + recalled) * stretch / MIDDLING_STRETCH
        held = float(0.5 ** (age_days / half_life))
        return max(held, PRECIOUS_FLOOR) if precious(memory) else held

    def factor(self, memory: Memory, now: datetime, coverage: float, similarity: float) -> float:
        """What recall multiplies a memory's score by: 1 for an exact match."""
        if coverage >= EXACT_COVERAGE or similarity >= EXACT_SIMILARITY:
            return 1.0
        return 1.0 - self.weight * (1.0 - self.strength(memory, now))

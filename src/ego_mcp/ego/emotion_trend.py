"""A layered summary of emotions over time that degrades gracefully with little data.

Each layer (recent days, this week, this month) is summed up as a ``Tally``: counts,
weights per emotion and the peak. Tallies of spans join into the tally of the whole, so
the summary of a month can be built from tallies of its hours (``ego/emotion_hours.py``)
and gives the same text as one built from the month's memories.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from ego_mcp.memory.model import EmotionalTrace, Memory

LAYERS = (("Recent days", 3), ("This week", 7), ("This month", 30))
MIN_FOR_LAYERS = 5
STEADY = 0.15


@dataclass
class Tally:
    """The emotions of a span of memories, in a form that adds up across spans."""

    count: int = 0
    weights: dict[str, float] = field(default_factory=dict)
    first_seen: dict[str, tuple[float, int]] = field(default_factory=dict)  # (time, place)
    peak: tuple[float, float, str] | None = None  # (intensity, time, emotion)
    valence_sum: float = 0.0
    # The memories added one by one, as (time, trace) in the order added: for the mood
    # shift, which splits memories by count, and for parts of an hour; ``absorb`` does
    # not carry them.
    traces: list[tuple[float, EmotionalTrace]] = field(default_factory=list)

    @classmethod
    def of(cls, memories: Iterable[Memory]) -> Tally:
        tally = cls()
        for memory in memories:
            tally.add(memory)
        return tally

    def add(self, memory: Memory) -> None:
        self.add_trace(memory.timestamp.timestamp(), memory.emotional_trace)

    def add_trace(self, moment: float, trace: EmotionalTrace) -> None:
        """Each memory counts by intensity, its secondary emotions half as much."""
        weight = 0.5 + trace.intensity
        names = [trace.primary.value, *(e.value for e in trace.secondary)]
        for place, name in enumerate(names):
            share = weight if place == 0 else weight / 2
            self.weights[name] = self.weights.get(name, 0.0) + share
            self.first_seen.setdefault(name, (moment, place))
        self.peak = _stronger(self.peak, (trace.intensity, moment, trace.primary.value))
        self.count += 1
        self.valence_sum += trace.valence
        self.traces.append((moment, trace))

    def absorb(self, other: Tally) -> None:
        """Add ``other``'s memories to this tally (``other`` is left as it is)."""
        for name, weight in other.weights.items():
            self.weights[name] = self.weights.get(name, 0.0) + weight
            seen = other.first_seen[name]
            if name not in self.first_seen or seen < self.first_seen[name]:
                self.first_seen[name] = seen
        self.peak = _stronger(self.peak, other.peak)
        self.count += other.count
        self.valence_sum += other.valence_sum

    def ranked(self) -> list[str]:
        """Emotions by weight; equal weights in the order they first appeared."""
        return sorted(self.weights, key=lambda n: (-round(self.weights[n], 9), self.first_seen[n]))


def _stronger(
    a: tuple[float, float, str] | None, b: tuple[float, float, str] | None
) -> tuple[float, float, str] | None:
    """The higher intensity; on a tie the earlier memory."""
    if a is None or b is None:
        return a or b
    return a if (a[0], -a[1]) >= (b[0], -b[1]) else b


def total(tallies: Iterable[Tally]) -> Tally:
    joined = Tally()
    for tally in tallies:
        joined.absorb(tally)
    return joined


def copy(tally: Tally) -> Tally:
    """A tally with the same sums (not the traces), to absorb more into."""
    return Tally(
        tally.count, dict(tally.weights), dict(tally.first_seen), tally.peak, tally.valence_sum
    )


def describe_layer(tally: Tally) -> str:
    ranked = tally.ranked()
    text = f"dominant {ranked[0]}"
    if len(ranked) > 1:
        text += f", undercurrent {ranked[1]}"
    assert tally.peak is not None
    intensity, moment, emotion = tally.peak
    day = datetime.fromtimestamp(moment, UTC)
    text += f"; peak {emotion} ({intensity:.1f}) on {day:%Y-%m-%d}"
    return text + f"; {tally.count} memories"


def shift_line(before: float, after: float) -> str:
    delta = after - before
    if abs(delta) < STEADY:
        return f"Mood has held steady (valence {before:+.2f} -> {after:+.2f})."
    direction = "brightened" if delta > 0 else "darkened"
    return f"Mood has {direction} (valence {before:+.2f} -> {after:+.2f})."


def valence_shift(memories: Sequence[Memory]) -> str | None:
    """How the mood moved from the older half of the memories to the newer half."""
    if len(memories) < 4:
        return None
    ordered = sorted(memories, key=lambda m: m.timestamp)
    half = len(ordered) // 2
    before = sum(m.emotional_trace.valence for m in ordered[:half]) / half
    after = sum(m.emotional_trace.valence for m in ordered[half:]) / (len(ordered) - half)
    return shift_line(before, after)


def few_memories(memories: Sequence[Memory]) -> str:
    if not memories:
        return "No emotional history yet: there are no memories from the last 30 days."
    lines = [f"Only {len(memories)} memories so far; too few for a trend:"]
    for memory in sorted(memories, key=lambda m: m.timestamp):
        trace = memory.emotional_trace
        day = f"{memory.timestamp:%Y-%m-%d}"
        lines.append(f"- {day}: {trace.primary.value} ({trace.intensity:.1f})")
    return "\n".join(lines)


def layered(layers: Sequence[tuple[str, Tally]], shift: str | None) -> str:
    """The summary from the tallies of the layers, narrowest first."""
    lines = []
    shown = 0
    for title, tally in layers:
        if not tally.count or tally.count == shown:
            continue  # a layer adds nothing when it holds the same memories as the last
        lines.append(f"{title}: {describe_layer(tally)}")
        shown = tally.count
    if shift:
        lines.append(shift)
    return "\n".join(lines)


def emotion_trend(memories: Sequence[Memory], now: datetime) -> str:
    """The summary text for ``memories`` of the last 30 days."""
    if len(memories) < MIN_FOR_LAYERS:
        return few_memories(memories)
    layers = [
        (title, Tally.of(m for m in memories if m.timestamp >= now - timedelta(days=days)))
        for title, days in LAYERS
    ]
    return layered(layers, valence_shift(memories))

"""A layered summary of emotions over time that degrades gracefully with little data."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from ego_mcp.memory.model import Memory

LAYERS = (("Recent days", 3), ("This week", 7), ("This month", 30))
MIN_FOR_LAYERS = 5


def weighted_emotions(memories: list[Memory]) -> list[str]:
    """Emotions ranked by weight: each memory counts by intensity, secondary emotions half."""
    weights: defaultdict[str, float] = defaultdict(float)
    for memory in memories:
        trace = memory.emotional_trace
        weights[trace.primary.value] += 0.5 + trace.intensity
        for secondary in trace.secondary:
            weights[secondary.value] += (0.5 + trace.intensity) / 2
    return sorted(weights, key=lambda name: -weights[name])


def describe_layer(memories: list[Memory]) -> str:
    ranked = weighted_emotions(memories)
    text = f"dominant {ranked[0]}"
    if len(ranked) > 1:
        text += f", undercurrent {ranked[1]}"
    peak = max(memories, key=lambda m: m.emotional_trace.intensity)
    text += (
        f"; peak {peak.emotional_trace.primary.value} ({peak.emotional_trace.intensity:.1f}) "
        f"on {peak.timestamp:%Y-%m-%d}"
    )
    return text + f"; {len(memories)} memories"


def valence_shift(memories: list[Memory]) -> str | None:
    """How the mood moved from the older half of the memories to the newer half."""
    if len(memories) < 4:
        return None
    ordered = sorted(memories, key=lambda m: m.timestamp)
    half = len(ordered) // 2
    before = sum(m.emotional_trace.valence for m in ordered[:half]) / half
    after = sum(m.emotional_trace.valence for m in ordered[half:]) / (len(ordered) - half)
    delta = after - before
    if abs(delta) < 0.15:
        return f"Mood has held steady (valence {before:+.2f} -> {after:+.2f})."
    direction = "brightened" if delta > 0 else "darkened"
    return f"Mood has {direction} (valence {before:+.2f} -> {after:+.2f})."


def emotion_trend(memories: list[Memory], now: datetime) -> str:
    """The summary text for ``memories`` of the last 30 days."""
    if not memories:
        return "No emotional history yet: there are no memories from the last 30 days."
    if len(memories) < MIN_FOR_LAYERS:
        lines = [f"Only {len(memories)} memories so far; too few for a trend:"]
        for memory in sorted(memories, key=lambda m: m.timestamp):
            trace = memory.emotional_trace
            lines.append(
                f"- {memory.timestamp:%Y-%m-%d}: {trace.primary.value} ({trace.intensity:.1f})"
            )
        return "\n".join(lines)
    lines = []
    shown = 0
    for title, days in LAYERS:
        layer = [m for m in memories if m.timestamp >= now - timedelta(days=days)]
        if not layer or len(layer) == shown:
            continue  # a layer adds nothing when it holds the same memories as the last
        lines.append(f"{title}: {describe_layer(layer)}")
        shown = len(layer)
    shift = valence_shift(memories)
    if shift:
        lines.append(shift)
    return "\n".join(lines)

"""The emotion trend degrades gracefully from no memories to a month of them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ego_mcp.ego.emotion_trend import emotion_trend
from ego_mcp.memory.model import Emotion, EmotionalTrace, Memory

NOW = datetime(2026, 2, 28, 12, 0, tzinfo=UTC)
CYCLE = [Emotion.HAPPY, Emotion.HAPPY, Emotion.CURIOUS, Emotion.ANXIOUS]


def memories(count: int) -> list[Memory]:
    """``count`` memories, one every 18 hours back from now, sadder in the past."""
    made = []
    for i in range(count):
        made.append(
            Memory(
                id=f"mem_{i:012x}",
                content=f"memory {i}",
                timestamp=NOW - timedelta(hours=18 * i),
                emotional_trace=EmotionalTrace(
                    primary=CYCLE[i % 4] if i < count // 2 else Emotion.SAD,
                    intensity=0.3 + (i % 5) / 10,
                    valence=0.6 if i < count // 2 else -0.5,
                ),
            )
        )
    return made


@pytest.mark.parametrize("count", [0, 3, 10, 20, 40])
def test_trend_at_every_size(count: int) -> None:
    text = emotion_trend(
        [m for m in memories(count) if m.timestamp >= NOW - timedelta(days=30)], NOW
    )
    if count == 0:
        assert text.startswith("No emotional history yet")
    elif count == 3:
        assert text.startswith("Only 3 memories so far") and text.count("\n- ") == 3
    else:
        assert text.startswith("Recent days: dominant happy")
        assert "undercurrent" in text and "peak" in text
        assert "Mood has brightened" in text
    if count >= 20:
        assert "This week:" in text
    if count == 40:
        assert "This month:" in text and "sad" in text.split("This month:")[1]

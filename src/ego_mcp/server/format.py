"""Small pure functions that build tool answers: ``data``, a ``---`` line, a scaffold."""

from __future__ import annotations

from datetime import datetime, timedelta

from ego_mcp.memory.model import LinkType, Memory, SearchHit
from ego_mcp.memory.recall.fusion import Ranked

SEPARATOR = "---"
# Largest first; the last (a minute) matches every age past "just now".
TIME_UNITS = (
    ("year", 31_536_000),
    ("month", 2_592_000),
    ("day", 86_400),
    ("hour", 3_600),
    ("minute", 60),
)


def compose(data: str, scaffold: str) -> str:
    return f"{data}\n\n{SEPARATOR}\n{scaffold}"


def relative_time(then: datetime, now: datetime) -> str:
    span = _span(now - then)
    return "just now" if span is None else f"{span} ago"


def time_until(then: datetime, now: datetime) -> str:
    """How far ahead ``then`` is, as relative_time says how far back: in 3 days."""
    span = _span(then - now)
    return "now" if span is None else f"in {span}"


def _span(gap: timedelta) -> str | None:
    """``gap`` in its largest whole unit (3 days, 1 hour); None under a minute."""
    seconds = int(gap.total_seconds())
    if seconds < 60:
        return None
    unit, size = next((unit, size) for unit, size in TIME_UNITS if seconds >= size)
    count = seconds // size
    return f"{count} {unit}{'s' if count != 1 else ''}"


def snippet(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def privacy_flag(memory: Memory) -> str:
    return "true" if memory.is_private else "false"


def hit_line(index: int, found: Ranked, limit: int = 200) -> str:
    """A recalled memory: its similarity in meaning, the share of the query's words it
    holds where it holds any, and the hit it was saved beside where one lent it rank."""
    memory = found.hit.memory
    trace = memory.emotional_trace
    # A term met often in a short memory scores past its share: the share shown is capped.
    words = f"words: {min(found.coverage, 1.0):.2f}, " if found.coverage > 0 else ""
    beside = f"saved beside: {found.lent.beside}, " if found.lent is not None else ""
    corrected = "".join(
        f"superseded by: {link.target_id}"
        + (f" ({snippet(link.note, 40)}), " if link.note else ", ")
        for link in memory.linked_ids
        if link.link_type is LinkType.SUPERSEDED_BY
    )
    return (
        f"{index}. [{memory.timestamp:%Y-%m-%d}] {memory.id}: {snippet(memory.content, limit)} "
        f"(emotion: {trace.primary.value}, importance: {memory.importance}, "
        f"similarity: {found.hit.similarity:.2f}, {words}{beside}{corrected}"
        f"private: {privacy_flag(memory)})"
    )


def walk_line(memory: Memory, limit: int = 120) -> str:
    """A memory as recall's explore mode shows it."""
    return (
        f"[{memory.timestamp:%Y-%m-%d}] {memory.id}: {snippet(memory.content, limit)} "
        f"(emotion: {memory.emotional_trace.primary.value}, private: {privacy_flag(memory)})"
    )


def shortfall(found: int, asked: int) -> list[str]:
    """The line, after the hits, saying recall found fewer memories than were asked for."""
    if found >= asked:
        return []
    return [f"Only {found} of the {asked} asked for match; nothing else is related."]


def related_line(hit: SearchHit, now: datetime) -> str:
    memory = hit.memory
    age = relative_time(memory.timestamp, now)
    return f"- [{age}] {snippet(memory.content, 120)} (similarity: {hit.similarity:.2f})"


def counted(number: int, one: str, many: str) -> str:
    """``number`` things as a person writes it: 1 memory, 2 memories."""
    return f"{number} {one if number == 1 else many}"

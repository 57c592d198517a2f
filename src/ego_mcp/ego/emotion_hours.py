"""The emotion trend of a busy month without reading the month on every call.

Hours that have ended are summed up once as ``Tally``s and kept in the memory service's
``ClosedHours`` (dropped when one of their memories is saved or forgotten). A call reads
only what is not summed up: the hour the month starts in, the hours the 3- and 7-day
layers start in, the hours not yet closed, and the one hour where the memories split into
an older and a newer half (for the mood shift). The text is the one ``emotion_trend``
gives from the month's memories.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ego_mcp.ego.emotion_trend import (
    LAYERS,
    MIN_FOR_LAYERS,
    Tally,
    few_memories,
    layered,
    shift_line,
)
from ego_mcp.memory.hours import HOUR_S, ClosedHours, hour_of
from ego_mcp.memory.model import Memory
from ego_mcp.memory.store import MemoryStore

MONTH_DAYS = LAYERS[-1][1]
SETTLE_S = 300  # an hour counts as closed this long after its end (several writers' clocks)
FEW_HOURS = 24  # up to this many missing hours are read one by one


def _start(hour: int) -> datetime:
    return datetime.fromtimestamp(hour * HOUR_S, UTC)


def _first_whole_hour(moment: datetime) -> int:
    return -int(-moment.timestamp() // HOUR_S)


class MonthOfHours:
    """The month's memories as a partial first hour, closed hours and a live tail."""

    def __init__(self, store: MemoryStore, hours: ClosedHours, now: datetime) -> None:
        self.store = store
        self.now = now
        self.start = now - timedelta(days=MONTH_DAYS)
        self.first = _first_whole_hour(self.start)
        self.last = int((now.timestamp() - SETTLE_S) // HOUR_S) - 1  # the last closed hour
        hours.keep_from(self.first)
        self.tallies = self._closed_tallies(hours)
        self.head = self._part_of_hour(self.start)
        self.tail = store.recent(_start(self.last + 1))

    def _part_of_hour(self, moment: datetime) -> list[Memory]:
        """The memories of ``moment``'s hour from ``moment`` on (none when it starts one:
        that hour is a whole hour of the span)."""
        if moment.timestamp() % HOUR_S == 0:
            return []
        return [m for m in self.store.in_hour(hour_of(moment)) if m.timestamp >= moment]

    def _closed_tallies(self, hours: ClosedHours) -> dict[int, Tally]:
        found = {h: hours.get(h) for h in range(self.first, self.last + 1)}
        missing = [h for h, tally in found.items() if not isinstance(tally, Tally)]
        fresh = {h: Tally() for h in missing}
        if len(missing) <= FEW_HOURS:  # after a forget, or hours closed since the last call
            for hour in missing:
                for memory in self.store.in_hour(hour):
                    fresh[hour].add(memory)
        else:  # the first call: one read from the oldest hour missing
            for memory in self.store.recent(_start(missing[0])):
                tally = fresh.get(hour_of(memory.timestamp))
                if tally is not None:
                    tally.add(memory)
        for hour, tally in fresh.items():
            hours.put(hour, tally)
            found[hour] = tally
        return {h: t for h, t in found.items() if isinstance(t, Tally)}

    @property
    def count(self) -> int:
        return len(self.head) + sum(t.count for t in self.tallies.values()) + len(self.tail)

    def layer(self, days: int) -> Tally:
        """The tally of the memories of the last ``days`` days."""
        if days == MONTH_DAYS:
            tally, first = Tally.of(self.head), self.first
        else:
            boundary = self.now - timedelta(days=days)
            tally, first = Tally.of(self._part_of_hour(boundary)), _first_whole_hour(boundary)
        for hour in range(first, self.last + 1):
            tally.absorb(self.tallies[hour])
        tally.absorb(Tally.of(self.tail))
        return tally

    def shift(self, total: Tally) -> str | None:
        """The mood of the older half of the month against the newer half."""
        if total.count < 4:
            return None
        half = total.count // 2
        older, _ = self._older_half(half)
        return shift_line(older / half, (total.valence_sum - older) / (total.count - half))

    def _older_half(self, half: int) -> tuple[float, int]:
        """(valence sum, count) of the ``half`` oldest memories."""
        valence, taken = _take(self.head, half, 0.0, 0)
        for hour in range(self.first, self.last + 1):
            tally = self.tallies[hour]
            if taken + tally.count <= half:
                valence, taken = valence + tally.valence_sum, taken + tally.count
                continue
            return _take(self.store.in_hour(hour), half, valence, taken)
        return _take(self.tail, half, valence, taken)


def _take(memories: list[Memory], half: int, valence: float, taken: int) -> tuple[float, int]:
    for memory in memories:
        if taken >= half:
            break
        valence, taken = valence + memory.emotional_trace.valence, taken + 1
    return valence, taken


def month_trend(store: MemoryStore, hours: ClosedHours, now: datetime) -> str:
    """``emotion_trend`` of the last 30 days, read hour by hour as described above."""
    month = MonthOfHours(store, hours, now)
    if month.count < MIN_FOR_LAYERS:
        return few_memories(store.recent(month.start))
    layers = [(title, month.layer(days)) for title, days in LAYERS]
    return layered(layers, month.shift(layers[-1][1]))

"""The emotion trend of a busy month without reading the month on every call.

Hours that have ended are summed up once as ``Tally``s (with each memory's time and
emotional trace, for the hours a window starts inside and for the mood shift) and kept in
the memory service's ``ClosedHours``, which drops an hour when one of its memories is
saved or forgotten. The sums of whole hours are kept too while no hour changes. A call
then reads only the memories of the hours not closed yet. The text is the one
``emotion_trend`` gives from the month's memories.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ego_mcp.ego.emotion_trend import (
    LAYERS,
    MIN_FOR_LAYERS,
    Tally,
    copy,
    few_memories,
    layered,
    shift_line,
    total,
)
from ego_mcp.memory.hours import HOUR_S, ClosedHours, hour_of
from ego_mcp.memory.model import EmotionalTrace
from ego_mcp.memory.store import MemoryStore

MONTH_DAYS = LAYERS[-1][1]
SETTLE_S = 300  # an hour counts as closed this long after its end (several writers' clocks)
FEW_HOURS = 24  # up to this many missing hours are read one by one


def _start(hour: int) -> datetime:
    return datetime.fromtimestamp(hour * HOUR_S, UTC)


class MonthOfHours:
    """The month's memories as closed hours (tallied once) and a tail read live."""

    def __init__(self, store: MemoryStore, hours: ClosedHours, now: datetime) -> None:
        self.now = now
        self.start = now - timedelta(days=MONTH_DAYS)
        self.first = hour_of(self.start)  # the month may start inside it
        self.last = int((now.timestamp() - SETTLE_S) // HOUR_S) - 1  # the last closed hour
        hours.keep_from(self.first)
        self.tallies = _closed_tallies(store, hours, range(self.first, self.last + 1))
        self.hours, self.version = hours, hours.version
        self.tail = store.recent(_start(self.last + 1))  # the one read of every call

    def _part_from(self, moment: datetime) -> list[tuple[float, EmotionalTrace]]:
        """The memories of ``moment``'s hour from ``moment`` on."""
        after = moment.timestamp()
        return [(t, trace) for t, trace in self.tallies[hour_of(moment)].traces if t >= after]

    @property
    def count(self) -> int:
        closed = sum(self.tallies[h].count for h in range(self.first + 1, self.last + 1))
        return len(self._part_from(self.start)) + closed + len(self.tail)

    def layer(self, days: int) -> Tally:
        """The tally of the memories of the last ``days`` days."""
        boundary = self.now - timedelta(days=days)
        tally = copy(self._whole_hours(hour_of(boundary) + 1))
        for moment, trace in self._part_from(boundary):
            tally.add_trace(moment, trace)
        tally.absorb(Tally.of(self.tail))
        return tally

    def _whole_hours(self, first: int) -> Tally:
        """The closed hours from ``first`` on, summed (kept while no hour changes)."""
        key = ("emotion layer", first, self.last)
        found = self.hours.derived(key, self.version)
        if isinstance(found, Tally):
            return found
        summed = total(self.tallies[h] for h in range(first, self.last + 1))
        self.hours.keep_derived(key, self.version, summed)
        return summed

    def shift(self, month: Tally) -> str | None:
        """The mood of the older half of the month against the newer half."""
        if month.count < 4:
            return None
        half = month.count // 2
        valences = [trace.valence for _, trace in self._part_from(self.start)]
        for hour in range(self.first + 1, self.last + 1):
            if len(valences) >= half:
                break
            valences.extend(trace.valence for _, trace in self.tallies[hour].traces)
        valences.extend(m.emotional_trace.valence for m in self.tail)
        older = sum(valences[:half])
        return shift_line(older / half, (month.valence_sum - older) / (month.count - half))


def _closed_tallies(store: MemoryStore, hours: ClosedHours, span: range) -> dict[int, Tally]:
    """The tallies of the hours of ``span``, reading those not tallied yet."""
    found = {h: hours.get(h) for h in span}
    missing = [h for h, tally in found.items() if not isinstance(tally, Tally)]
    if missing:
        fresh = {h: Tally() for h in missing}
        read_at = hours.version
        # A few hours (closed since the last call, or left by a forget) by their index;
        # the first call, one read from the oldest missing hour on.
        few = len(missing) <= FEW_HOURS
        for memory in store.in_hours(missing) if few else store.recent(_start(missing[0])):
            tally = fresh.get(hour_of(memory.timestamp))
            if tally is not None:
                tally.add(memory)
        hours.put_all(dict(fresh), read_at)  # used for this answer either way
        found.update(fresh)
    return {h: t for h, t in found.items() if isinstance(t, Tally)}


def month_trend(store: MemoryStore, hours: ClosedHours, now: datetime) -> str:
    """``emotion_trend`` of the last 30 days, read hour by hour as described above."""
    month = MonthOfHours(store, hours, now)
    if month.count < MIN_FOR_LAYERS:
        return few_memories(store.recent(month.start))
    layers = [(title, month.layer(days)) for title, days in LAYERS]
    return layered(layers, month.shift(layers[-1][1]))

"""Nine desires that rise along a sigmoid of the hours since each was last satisfied."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ego_mcp.errors import InvalidInput

# Hours after which a fully satisfied desire is back at level 0.5.
SATISFACTION_HOURS: dict[str, float] = {
    "information_hunger": 4,
    "social_thirst": 8,
    "cognitive_coherence": 12,
    "pattern_seeking": 24,
    "predictability": 24,
    "recognition": 12,
    "resonance": 12,
    "expression": 6,
    "curiosity": 4,
}
STEEPNESS = 4.0
REPEAT_WINDOW = timedelta(seconds=60)  # a satisfaction repeated this soon is not written again

# Tools that satisfy desires as a side effect: tool -> [(desire, quality)].
# forget is deliberately absent: deleting a memory is housekeeping, not a cognitive act.
IMPLICIT_SATISFACTION: dict[str, list[tuple[str, float]]] = {
    "recall": [("information_hunger", 0.4), ("curiosity", 0.3)],
    "search_memories": [("information_hunger", 0.4)],
    "remember": [("expression", 0.5)],
    "introspect": [("cognitive_coherence", 0.4)],
    "consider_them": [("social_thirst", 0.3), ("resonance", 0.3)],
    "update_relationship": [("social_thirst", 0.4)],
    "consolidate": [("cognitive_coherence", 0.5), ("pattern_seeking", 0.4)],
    "emotion_trend": [("pattern_seeking", 0.5)],
    "link_memories": [("pattern_seeking", 0.3)],
    "update_self": [("recognition", 0.3), ("predictability", 0.2)],
    "am_i_being_genuine": [("cognitive_coherence", 0.3)],
}
# Extra satisfaction that depends on what was remembered.
REMEMBER_BY_CATEGORY: dict[str, list[tuple[str, float]]] = {
    "introspection": [("cognitive_coherence", 0.6)],
    "conversation": [("social_thirst", 0.5)],
    "relationship": [("social_thirst", 0.4), ("resonance", 0.4)],
    "technical": [("information_hunger", 0.3)],
    "philosophical": [("curiosity", 0.4)],
}


def implicit_satisfactions(tool: str, arguments: Mapping[str, Any]) -> list[tuple[str, float]]:
    """What a successful call of ``tool`` satisfies."""
    found = list(IMPLICIT_SATISFACTION.get(tool, []))
    if tool == "remember":
        found += REMEMBER_BY_CATEGORY.get(str(arguments.get("category", "daily")), [])
    return found


@dataclass(frozen=True)
class Satisfaction:
    at: datetime
    quality: float = 1.0


def level(desire: str, last: Satisfaction, now: datetime) -> float:
    """0..1: ~0 right after a good satisfaction, 0.5 after the desire's hours, then ~1.

    A poor satisfaction (low quality) counts as if it happened earlier, so the desire
    returns sooner.
    """
    hours = max(0.0, (now - last.at).total_seconds() / 3600)
    period = SATISFACTION_HOURS[desire]
    effective = hours + (1.0 - last.quality) * period * 0.5
    return 1.0 / (1.0 + math.exp(-STEEPNESS * (effective / period - 1.0)))


def records(desire: str, last: Satisfaction, offered: Satisfaction) -> bool:
    """Whether ``offered`` replaces ``last``: not if it would leave the desire higher than
    it is now, nor if one at least as good was recorded moments before.

    A poor satisfaction counts as if it happened earlier, so right after a good one it
    could raise the level; satisfying a desire never does that. (Calls back to back,
    recall after recall, thus leave the document as it is.)
    """
    if offered.at - last.at < REPEAT_WINDOW and last.quality >= offered.quality:
        return False
    return level(desire, offered, offered.at) < level(desire, last, offered.at)


class SeenSatisfactions:
    """Each agent's last satisfactions as this process saw them in its desires document
    moments ago (within ``REPEAT_WINDOW``): enough to tell, without reading the document,
    that a satisfaction offered now would not be recorded. Tools called back to back then
    skip the read, the lock and the thread hop. Only a document older than what was seen
    (an import) could make this skip a satisfaction, and then only within the window."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], tuple[Satisfaction, datetime]] = {}

    def worth_offering(
        self, agent: str, wanted: Iterable[tuple[str, float]], now: datetime
    ) -> list[tuple[str, float]]:
        return [
            (desire, quality)
            for desire, quality in wanted
            if not self._settled(agent, desire, Satisfaction(now, quality))
        ]

    def saw(self, agent: str, last: Mapping[str, Satisfaction], now: datetime) -> None:
        for desire, satisfaction in last.items():
            self._seen[(agent, desire)] = (satisfaction, now)

    def _settled(self, agent: str, desire: str, offered: Satisfaction) -> bool:
        seen = self._seen.get((agent, desire))
        if seen is None:
            return False
        last, seen_at = seen
        fresh = timedelta(0) <= offered.at - seen_at < REPEAT_WINDOW
        return fresh and not records(desire, last, offered)


def word_for(value: float) -> str:
    if value < 0.35:
        return "low"
    return "mid" if value < 0.65 else "high"


def parse_desire(name: str) -> str:
    key = name.strip().lower()
    if key not in SATISFACTION_HOURS:
        raise InvalidInput("name must be one of: " + ", ".join(SATISFACTION_HOURS))
    return key


class Desires:
    """The desire state of one agent, as a document: {desire: {at, quality}}."""

    def __init__(self, document: Mapping[str, Any] | None, now: datetime) -> None:
        raw = dict(document or {})
        born = datetime.fromisoformat(raw.get("_created", now.isoformat()))
        self.created = born
        self.last: dict[str, Satisfaction] = {}
        for desire, period in SATISFACTION_HOURS.items():
            entry = raw.get(desire)
            if isinstance(entry, dict):
                self.last[desire] = Satisfaction(
                    datetime.fromisoformat(entry["at"]), float(entry.get("quality", 1.0))
                )
            else:
                # Never satisfied: it starts where a desire stands once its hours have
                # passed, at its sigmoid's midpoint (0.5), and rises from there.
                self.last[desire] = Satisfaction(born - timedelta(hours=period), 1.0)

    def levels(self, now: datetime) -> dict[str, float]:
        return {name: level(name, self.last[name], now) for name in SATISFACTION_HOURS}

    def strongest(self, now: datetime, limit: int | None = None) -> list[tuple[str, float]]:
        """Desires by level, highest first; equal levels by the shorter satisfaction
        period (the one that comes back sooner), then by name."""
        ranked = sorted(
            self.levels(now).items(),
            key=lambda item: (-round(item[1], 6), SATISFACTION_HOURS[item[0]], item[0]),
        )
        return ranked[:limit]

    def satisfy(self, desire: str, quality: float, now: datetime) -> bool:
        """Record a satisfaction unless ``records`` says no; True if recorded."""
        offered = Satisfaction(now, quality)
        if records(desire, self.last[desire], offered):
            self.last[desire] = offered
            return True
        return False

    def to_document(self) -> dict[str, Any]:
        document: dict[str, Any] = {"_created": self.created.isoformat()}
        for name, entry in self.last.items():
            document[name] = {"at": entry.at.isoformat(), "quality": entry.quality}
        return document

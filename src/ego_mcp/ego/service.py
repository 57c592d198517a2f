"""The ego of one agent: desires, self model, relationships and consolidation results."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from ego_mcp.clock import Clock
from ego_mcp.ego import relationships, self_model
from ego_mcp.ego.consolidation import ConsolidationStats, consolidate, scan_store
from ego_mcp.ego.desires import Desires, Satisfaction
from ego_mcp.ego.emotion_hours import month_trend
from ego_mcp.errors import DocumentsUnavailable, EgoError
from ego_mcp.memory.inputs import all_day
from ego_mcp.memory.model import Category, Memory
from ego_mcp.memory.recall.terms import is_japanese_term
from ego_mcp.memory.service import MemoryService
from ego_mcp.state.documents import DocumentStore

DESIRES = "desires"
SELF_MODEL = "self_model"
RELATIONSHIPS = "relationships"
# remember's anticipated_at: wake_up brings a memory up from a week before its moment to
# two days after it.
ANTICIPATION_AHEAD = timedelta(days=7)
ANTICIPATION_SINCE = timedelta(days=2)
ANTICIPATIONS_SHOWN = 3
CONSOLIDATION = "consolidation"
MERGE_SCAN = "merge_scan"
LAST_INTROSPECTION = "last_introspection"
INTROSPECTION_DAYS = 30
FIRST_WINDOW = timedelta(hours=1)  # latest_memories reads this far back first
WINDOW_GROWTH = 8


@dataclass(frozen=True)
class Person:
    name: str
    model: dict[str, Any]
    known: bool


class EgoService:
    """Reads and updates the agent's documents under its lock (read-modify-write)."""

    def __init__(
        self, memory: MemoryService, documents: DocumentStore, clock: Clock, companion: str
    ) -> None:
        self.memory = memory
        self.documents = documents
        self.clock = clock
        self.companion = companion

    def desires(self) -> Desires:
        """The desires; the first read records when they were born (their starting point)."""
        document = self.documents.load(DESIRES)
        if document is not None:
            return Desires(document, self.clock.now())
        with self.memory.locks.hold(self.memory.agent):
            document = self.documents.load(DESIRES)
            desires = Desires(document, self.clock.now())
            if document is None:
                self.documents.save(DESIRES, desires.to_document())
        return desires

    def satisfy(self, satisfactions: Iterable[tuple[str, float]]) -> dict[str, Satisfaction]:
        """Record what each satisfaction is worth; the last satisfaction of each desire
        named, as the document holds it now."""
        wanted = list(satisfactions)
        if not wanted:
            return {}
        now = self.clock.now()
        with self.memory.locks.hold(self.memory.agent):
            document = self.documents.load(DESIRES)
            desires = Desires(document, now)
            recorded = [desires.satisfy(desire, quality, now) for desire, quality in wanted]
            if any(recorded) or document is None:
                self.documents.save(DESIRES, desires.to_document())
        return {desire: desires.last[desire] for desire, _ in wanted}

    def self_model(self) -> dict[str, Any]:
        return self.documents.load(SELF_MODEL) or self_model.empty_self_model()

    def update_self(self, field: str, value: Any) -> str:
        with self.memory.locks.hold(self.memory.agent):
            model = self.self_model()
            change = self_model.apply_update(model, field, value, self.clock.now())
            self.documents.save(SELF_MODEL, model)
        return change

    def person(self, name: str | None) -> Person:
        """The person ``name`` (or an alias of theirs) names; the companion by default."""
        people = self.documents.load(RELATIONSHIPS) or {}
        who = relationships.resolve(
            people, relationships.person_name(name) if name else self.companion
        )
        known = people.get(who)
        return Person(who, known or relationships.new_person(who), known is not None)

    def anticipations(self) -> list[Memory]:
        """The memories whose anticipated moment is at most ``AHEAD`` away (soonest first),
        then those whose moment came at most ``SINCE`` before today (latest first),
        ``ANTICIPATIONS_SHOWN`` at most: what wake_up brings up."""
        now = self.clock.now()
        today = datetime.combine(now.date(), time.min, tzinfo=now.tzinfo)
        near = self.memory.store.anticipating(today - ANTICIPATION_SINCE, now + ANTICIPATION_AHEAD)
        coming = [m for m in near if not _has_come(m, now)]
        came = [m for m in reversed(near) if _has_come(m, now)]  # the latest first
        return (coming + came)[:ANTICIPATIONS_SHOWN]

    def people_named(self, text: str) -> list[list[str]]:
        """The names (name, then aliases) of each known person with aliases whom ``text``
        names by one of them: what recall looks for as well ("Ken" finds what was said
        of Kenji and 健二). None at all when the relationships cannot be read (Redis away, a
        damaged file): recall answers without them."""
        try:
            people = self.documents.load(RELATIONSHIPS) or {}
        except EgoError:
            return []
        named = (relationships.names_of(name, person) for name, person in people.items())
        return [
            names for names in named if len(names) > 1 and any(_mentions(text, n) for n in names)
        ]

    def update_relationship(self, name: str, field: str, value: Any) -> tuple[Person, str]:
        with self.memory.locks.hold(self.memory.agent):
            people = self.documents.load(RELATIONSHIPS) or {}
            who = relationships.resolve(people, relationships.person_name(name))
            model = people.get(who) or relationships.new_person(who)
            if field == "aliases":
                value = relationships.aliases(value, who, people, (self.companion,))
            change = relationships.apply_update(model, field, value, self.clock.now())
            people[who] = model
            self.documents.save(RELATIONSHIPS, people)
        return Person(who, model, True), change

    def kept_names(self, names: Sequence[str]) -> list[str]:
        """The names the people ``names`` name are kept under (``relationships.kept_names``)."""
        return relationships.kept_names(self.documents.load(RELATIONSHIPS) or {}, names)

    def share_episode(self, names: Sequence[str], episode_id: str) -> list[str]:
        """Add an episode to the shared history of each person ``names`` names (by name or
        alias; a new name is a new person), once each, in one write; their names as kept."""
        with self.memory.locks.hold(self.memory.agent):
            people = self.documents.load(RELATIONSHIPS) or {}
            kept = relationships.kept_names(people, names)
            for who in kept:
                model = people.get(who) or relationships.new_person(who)
                relationships.apply_update(model, "shared_episodes", episode_id, self.clock.now())
                people[who] = model
            self.documents.save(RELATIONSHIPS, people)
        return kept

    def emotion_trend(self) -> str:
        """The layered emotion summary of the last 30 days (see ``ego/emotion_hours``)."""
        return month_trend(self.memory.store, self.memory.closed_hours, self.clock.now())

    def latest_memories(
        self, count: int, days: int, category: Category | None = None
    ) -> list[Memory]:
        """The newest ``count`` memories of the last ``days`` days, oldest first.

        Read in widening windows (1 h, 8 h, 64 h, ...), so a store with thousands of
        memories a week is not read whole to show the last five.
        """
        now = self.clock.now()
        oldest = now - timedelta(days=days)
        window = FIRST_WINDOW
        while True:
            moment = max(now - window, oldest)
            found = self.memory.store.recent(moment, category)
            if len(found) >= count or moment == oldest:
                return found[-count:]
            window *= WINDOW_GROWTH

    def note_introspection(self, memory_id: str) -> None:
        """Remember which memory is the newest introspection (its id only)."""
        self.documents.save(LAST_INTROSPECTION, {"memory_id": memory_id})

    def last_introspection(self) -> Memory | None:
        """The newest introspection of the last 30 days: by the noted id (one read by id),
        else looked for in widening windows (and noted)."""
        oldest = self.clock.now() - timedelta(days=INTROSPECTION_DAYS)
        try:
            noted = (self.documents.load(LAST_INTROSPECTION) or {}).get("memory_id")
        except DocumentsUnavailable:
            noted = None  # the memories still tell (Redis away: the note is only a shortcut)
        found = self.memory.store.get(str(noted)) if noted else None
        if found is not None and found.category is Category.INTROSPECTION:
            return found if found.timestamp >= oldest else None
        thoughts = self.latest_memories(1, INTROSPECTION_DAYS, Category.INTROSPECTION)
        if thoughts:
            with suppress(DocumentsUnavailable):
                self.note_introspection(thoughts[-1].id)
        return thoughts[-1] if thoughts else None

    def consolidate_now(self) -> ConsolidationStats:
        stats = consolidate(self.memory, self.clock.now())
        self.documents.save(CONSOLIDATION, stats.to_document())
        return stats

    def scan_merge_candidates(self) -> ConsolidationStats:
        stats = scan_store(self.memory, self.clock.now())
        self.documents.save(MERGE_SCAN, stats.to_document())
        return stats

    def last_consolidation(self, fresh_for: timedelta) -> ConsolidationStats | None:
        """The stored result if it is fresh: recent, and no memory was saved after it."""
        document = self.documents.load(CONSOLIDATION)
        if document is None or not document.get("finished_at"):
            return None
        finished = datetime.fromisoformat(document["finished_at"])
        if self.clock.now() - finished > fresh_for or self.memory.store.has_since(finished):
            return None
        return ConsolidationStats.from_document(document)


def _mentions(text: str, name: str) -> bool:
    """Whether ``text`` names ``name``: as a whole word where the name is in a script that
    spaces its words (Ken is not in Kent, José not in Joséphine), anywhere in it for a
    name in Japanese script (健二は)."""
    folded, wanted = relationships.name_key(text), relationships.name_key(name)
    if is_japanese_term(wanted):
        return wanted in folded
    return any(
        not _spaced_letter(folded[found.start() - 1 : found.start()])
        and not _spaced_letter(folded[found.end() : found.end() + 1])
        for found in re.finditer(re.escape(wanted), folded)
    )


def _spaced_letter(char: str) -> bool:
    """Whether ``char`` is a letter or digit of a script that spaces its words (what
    would make a name part of a longer word: Kent, Joséphine; not Kenの)."""
    return char.isalnum() and not is_japanese_term(char)


def _has_come(memory: Memory, now: datetime) -> bool:
    """Whether a memory's anticipated moment has come: a day, once it is over."""
    when = memory.anticipated_at
    assert when is not None
    return when.date() < now.date() if all_day(when) else when <= now

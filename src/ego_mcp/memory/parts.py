"""What every part of one agent's memory works with: its stores, the model, the clock,
the agent's lock and the thresholds (``MemoryParts``); what each part does lives in its
own module (``lifecycle``: forget, merge, restore, purge; ``recall``; ``service``: the
save path and links, and the facade the tools call).

Every method is synchronous and may block (embedding, Chroma); the front end calls it
off the event loop. Link mutations run under the agent's lock so that the
bidirectional-link invariant holds when several threads or processes act at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from ego_mcp.clock import Clock
from ego_mcp.embedding.base import Embedder
from ego_mcp.errors import NotFound
from ego_mcp.locks import AgentLocks
from ego_mcp.memory.fading import Fade
from ego_mcp.memory.hours import ClosedHours
from ego_mcp.memory.japanese import is_japanese
from ego_mcp.memory.model import Memory
from ego_mcp.memory.recall.crosslingual import Dictionary
from ego_mcp.memory.store import (
    DeletionLog,
    DepartedRecord,
    EpisodeStore,
    LexicalIndex,
    MemoryStore,
)

UNDO_WINDOW = timedelta(days=7)
# A call sent again after a hand-over finds its first try's work done within this time.
REPLAY_WINDOW = timedelta(minutes=5)


class Journal(Protocol):
    """Where public memories are echoed for humans (the workspace files)."""

    def record(self, memory: Memory) -> None:
        """Echo a memory just saved."""
        ...

    def rewrite(self, memory: Memory) -> None:
        """Show the memory's present text instead of its old lines; none if it is private."""
        ...


@dataclass(frozen=True)
class Thresholds:
    """Cosine distances. Below ``dedup`` a memory is a duplicate candidate (the guard's
    evidence rules decide); below ``link`` memories link; below ``merge`` consolidation
    proposes a merge. ``memory/thresholds.py`` has them per model."""

    dedup: float = 0.05
    link: float = 0.3
    merge: float = 0.10
    max_links: int = 5
    # The nearest memory alone is a candidate from this wider distance: the judgement
    # decides, so the wider net costs one comparison a save, not five. None: ``dedup``.
    nearest: float | None = None
    # Where a model places related memories depends on the languages of the pair:
    # (both Latin-script, both Japanese, one of each) -> link distance; None: ``link``.
    link_by_script: tuple[float, float, float] | None = None

    def link_for(self, first: str, second: str) -> float:
        """The link distance for two texts (``link`` unless calibrated by script)."""
        if self.link_by_script is None:
            return self.link
        both_latin, both_japanese, across = self.link_by_script
        scripts = {is_japanese(first), is_japanese(second)}
        if len(scripts) == 2:
            return across
        return both_japanese if scripts == {True} else both_latin


class MemoryParts:
    """One agent's stores, model, clock, lock and thresholds, shared by its lifecycle,
    its recall and its save path."""

    def __init__(
        self,
        agent: str,
        store: MemoryStore,
        episodes: EpisodeStore,
        embedder: Embedder,
        clock: Clock,
        locks: AgentLocks,
        thresholds: Thresholds = Thresholds(),
        journal: Journal | None = None,
        deletion_log: DeletionLog | None = None,
        departed: DepartedRecord | None = None,
        undo_window: timedelta = UNDO_WINDOW,
        lexical: LexicalIndex | None = None,
        dictionary: Dictionary | None = None,
        reads_remote: bool = False,
        shared_store: bool = False,
        fade: Fade | None = None,
    ) -> None:
        self.agent = agent
        self.fade = fade  # how recall weighs age (memory/fading.py); None: it does not
        self.lexical = lexical
        self.dictionary = dictionary
        # Each read is a round trip to a server (a Chroma server): recall reads records
        # with its vector query and the scripts as its last lookup found them.
        self.reads_remote = reads_remote
        # On a server, the scripts the memories are written in as the last recall's
        # lookup read them (``memory/recall/search.py``); None until one has.
        self.scripts_seen: frozenset[bool] | None = None
        self.store = store
        self.episodes = episodes
        self.embedder = embedder
        self.clock = clock
        self.locks = locks
        self.thresholds = thresholds
        self.journal = journal
        self.deletion_log = deletion_log
        self.departed = departed
        self.undo_window = undo_window
        self.closed_hours = ClosedHours()  # per-hour summaries other services keep
        # Other processes write this agent's store too (a Chroma server): what this one
        # last saved may not be the agent's latest.
        self.shared_store = shared_store
        # The agent's latest save (id, time), which the next one follows; read from the
        # store at this process's first save, and again at every save on a shared store.
        self.latest_save: tuple[str, datetime] | None = None

    @property
    def guard(self) -> float:
        """The similarity from which a near memory is a duplicate candidate."""
        return 1.0 - self.thresholds.dedup

    @property
    def nearest_guard(self) -> float:
        """The similarity from which the nearest memory is a duplicate candidate."""
        nearest = self.thresholds.nearest
        return 1.0 - max(self.thresholds.dedup, nearest if nearest is not None else 0.0)

    def left_store(self, memory_id: str) -> None:
        """A memory was deleted: if it was the latest save, the next save asks the store
        which memory it follows."""
        if self.latest_save is not None and self.latest_save[0] == memory_id:
            self.latest_save = None

    def get(self, memory_id: str) -> Memory:
        memory = self.store.get(memory_id)
        if memory is None:
            raise memory_not_found(memory_id)
        return memory


def memory_not_found(memory_id: str) -> NotFound:
    return NotFound(
        f"Memory not found: {memory_id}. Double-check the ID. "
        "Use recall to search for the memory you're looking for."
    )

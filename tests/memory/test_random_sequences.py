"""Random sequences of everything that writes memories, against a model of what must hold.

Remember, forget, merge, restore, purge, export, import and re-embed run in a seeded
random order on the real store (embedded Chroma, the real model), with the agent's lock
going away and coming back (as Redis would) and the queue's follow-up jobs held back and
released at random points. A re-embed moves the store to the other of two models (the
real one under two names) and is now and then stopped once its copy is made, as a crash
would stop it; the old model then serves the store until a later run resumes it. After
every step that settles, and at the end:

- no memory that left the store (forgotten, merged away, purged) is in it, unless
  ``restore_memory`` brought it back; an import of an older export brings none back;
- no merged fact is lost: each live memory holds every fact the model says it holds;
- every link is two-way, once the held jobs have run;
- the word index holds exactly what a rebuild from the store would give;
- no memory follows itself or one saved after it (``Memory.follows``);
- the store's reads (through its record cache) give what the collection holds.

Saves pass ``force``: the guard is not what this walks (its tests are test_guard's).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ego_mcp.backup.exporter import export_agent
from ego_mcp.backup.importer import import_agent
from ego_mcp.clock import FixedClock
from ego_mcp.embedding.base import Embedder, EmbeddingSignature
from ego_mcp.errors import InvalidInput, LockUnavailable, NotFound
from ego_mcp.locks import AgentLocks
from ego_mcp.memory.recall.terms import terms
from ego_mcp.memory.service import Draft, MemoryService
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings
from tests.helpers import all_memories, assert_links_bidirectional

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

STEPS = 1_000  # per seed: two seeds, 2,000 steps in all
SUBJECTS = ("Master", "Aya", "Ken", "the neighbour", "Biscuit")
DEEDS = ("bought", "painted", "lost", "fixed", "borrowed", "found", "sold", "photographed")
THINGS = ("lamp", "bicycle", "umbrella", "teapot", "kite", "guitar", "map", "clock")


class Renamed:
    """A model under another name: a re-embed to it copies every memory, and the
    vectors, thresholds and links stay those of the model it wraps."""

    def __init__(self, inner: Embedder, suffix: str) -> None:
        self.inner = inner
        self.suffix = suffix

    @property
    def signature(self) -> EmbeddingSignature:
        inner = self.inner.signature
        return EmbeddingSignature(inner.provider, inner.model + self.suffix, inner.dimension)

    def embed(self, texts: Sequence[str]) -> Vector:
        return self.inner.embed(texts)


class Stopped(Exception):
    """A re-embed stopped after one of its steps, as a crash would stop it."""


class SwitchableLocks:
    """The agent's lock, which can be made unavailable as it is when Redis is away."""

    def __init__(self, inner: AgentLocks) -> None:
        self.inner = inner
        self.down = False

    def hold(self, agent: str) -> AbstractContextManager[None]:
        return self._hold(agent)

    @contextmanager
    def _hold(self, agent: str) -> Iterator[None]:
        if self.down:
            raise LockUnavailable("EGO_MCP_REDIS_URL: Redis did not answer (test)")
        with self.inner.hold(agent):
            yield


@dataclass
class Model:
    """What the store must hold: each live memory's facts, and what left it."""

    facts: dict[str, set[str]] = field(default_factory=dict)
    gone: set[str] = field(default_factory=set)
    # Facts of memories that left, by id, for when restore_memory brings them back;
    # for a merge, also the kept memory's facts before it (restored with it).
    left: dict[str, tuple[set[str], str | None, set[str] | None]] = field(default_factory=dict)
    held_jobs: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    exports: list[Path] = field(default_factory=list)
    made: int = 0


@dataclass
class Walk:
    """One random sequence: the store, the lock, the clock and the model beside them."""

    settings: Settings
    # The model serving the store first, the one the next re-embed moves it to second.
    models: tuple[Embedder, Embedder]
    clock: FixedClock
    rng: random.Random
    scratch: Path
    runtime: Runtime = field(init=False)
    memory: MemoryService = field(init=False)
    locks: SwitchableLocks = field(init=False)
    model: Model = field(default_factory=Model)
    reembeds: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.open(self.models[0])
        self.locks = SwitchableLocks(self.memory.locks)
        self.memory.locks = self.locks

    def open(self, embedder: Embedder, serving: bool = True) -> None:
        self.runtime = Runtime.open(self.settings, clock=self.clock, embedder=embedder)
        if serving:
            self.memory = self.runtime.memory("alice")

    def close(self) -> None:
        self.runtime.close()

    def step(self) -> None:
        actions = {
            "remember": self.remember, "forget": self.forget, "merge": self.merge,
            "restore": self.restore, "purge": self.purge, "export": self.export,
            "import": self.import_, "lock": self.switch_lock, "jobs": self.some_jobs,
            "reembed": self.reembed,
        }  # fmt: skip
        weights = (30, 12, 12, 12, 3, 3, 3, 8, 8, 1)
        chosen = self.rng.choices(list(actions), weights=weights)[0]
        # Half the steps within minutes of the last (saves in one sitting form a chain).
        minutes = self.rng.randint(1, 20) if self.rng.random() < 0.5 else self.rng.randint(1, 600)
        self.clock.set(self.clock.now() + timedelta(minutes=minutes))
        actions["remember" if len(self.model.facts) < 4 else chosen]()

    def remember(self) -> None:
        marker = f"F{self.model.made:05d}"
        self.model.made += 1
        text = (
            f"{self.rng.choice(SUBJECTS)} {self.rng.choice(DEEDS)} the "
            f"{self.rng.choice(THINGS)} tagged {marker} near the station."
        )
        outcome = self.memory.remember(Draft(content=text), force=True)
        assert outcome.saved is not None
        self.model.facts[outcome.saved.id] = {marker}
        if outcome.links_pending:
            self.model.held_jobs.append(("link", outcome.saved.id, ()))

    def forget(self) -> None:
        victim = self.rng.choice(sorted(self.model.facts))
        forgotten = self.memory.forget(victim)
        self.model.left[victim] = (self.model.facts.pop(victim), None, None)
        self.model.gone.add(victim)
        if forgotten.pending_targets:
            self.model.held_jobs.append(("unlink", victim, forgotten.pending_targets))

    def merge(self) -> None:
        keep_id, remove_id = self.rng.sample(sorted(self.model.facts), 2)
        keep, remove = self.memory.get(keep_id), self.memory.get(remove_id)
        try:
            self.memory.merge(keep_id, remove_id, f"{keep.content} {remove.content}")
        except LockUnavailable:
            return  # nothing is written without the lock
        facts = self.model.facts
        self.model.left[remove_id] = (facts.pop(remove_id), keep_id, set(facts[keep_id]))
        facts[keep_id] |= self.model.left[remove_id][0]
        self.model.gone.add(remove_id)

    def restore(self) -> None:
        if not self.model.left:
            return
        wanted = self.rng.choice(sorted(self.model.left))
        try:
            restored = self.memory.restore(wanted)
        except (LockUnavailable, InvalidInput, NotFound):
            return  # a later merge first, a closed window, or purged: nothing changed
        facts, kept_id, kept_before = self.model.left.pop(wanted)
        self.model.facts[wanted] = facts
        self.model.gone.discard(wanted)
        if kept_id is not None and kept_before is not None and restored.unmerged is not None:
            self.model.facts[kept_id] = kept_before

    def purge(self) -> None:
        if self.rng.random() < 0.5:
            self.clock.set(self.clock.now() + timedelta(days=8))
        for memory_id in self.memory.purge_deletion_log(everything=self.rng.random() < 0.3):
            self.model.left.pop(memory_id, None)

    def export(self) -> None:
        if not self.locks.down:
            out = self.scratch / f"export-{len(self.model.exports)}.jsonl.gz"
            export_agent(self.runtime, self.memory.agent, out)
            self.model.exports.append(out)

    def import_(self) -> None:
        if self.model.exports and not self.locks.down:
            import_agent(self.runtime, self.memory.agent, self.rng.choice(self.model.exports))

    def reembed(self) -> None:
        """Move the store to the other model; one run in three is stopped once its copy
        is made, and the old model serves on."""
        serving, other = self.models
        self.close()
        self.open(other, serving=False)  # the store is not its own yet
        stop_after = self.rng.choice(["copied memories", "copied episodes", None, None, None])

        def stop(step: str) -> None:
            if step == stop_after:
                raise Stopped(step)

        try:
            self.runtime.reembed("alice", after_step=stop)
        except Stopped:
            self.reembeds["stopped"] += 1
            self.close()
            self.open(serving)
        else:
            self.reembeds["done"] += 1
            self.models = (other, serving)
            self.memory = self.runtime.memory("alice")
        self.locks.inner = self.memory.locks
        self.memory.locks = self.locks

    def switch_lock(self) -> None:
        self.locks.down = not self.locks.down

    def some_jobs(self) -> None:
        if not self.locks.down:
            self.release(everything=False)

    def release(self, everything: bool) -> None:
        """Run some (or all) of the held jobs, as a worker would once it is back."""
        keep: list[tuple[str, str, tuple[str, ...]]] = []
        for job in self.model.held_jobs:
            if not everything and self.rng.random() < 0.5:
                keep.append(job)
                continue
            kind, memory_id, targets = job
            if kind == "link":
                self.memory.link_pending(memory_id)
            else:
                self.memory.unlink_forgotten(memory_id, targets)
        self.model.held_jobs = keep

    def settle(self) -> None:
        """The lock back and every held job run: the state a quiet store reaches."""
        self.locks.down = False
        self.release(everything=True)


def check(memory: MemoryService, model: Model, settled: bool) -> None:
    stored = all_memories(memory.store)
    assert not (set(stored) & model.gone), "a memory that left the store is back"
    assert set(stored) == set(model.facts)
    # what the store's reads give (from its record cache, where it holds them) is what
    # the collection holds
    assert {m.id: m for m in memory.store.get_many(sorted(stored))} == stored
    for memory_id, facts in model.facts.items():
        missing = [fact for fact in facts if fact not in stored[memory_id].content]
        assert not missing, f"{memory_id} lost {missing}"
    lexical = memory.lexical
    assert lexical is not None
    assert lexical.ids() == set(stored)
    indexed = lexical.documents(sorted(stored))
    for memory_id, held in stored.items():
        assert Counter(indexed[memory_id]) == Counter(terms(held.content)), memory_id
    for memory_id, held in stored.items():  # the chain of sittings runs back in time
        before = stored.get(held.follows)
        assert held.follows != memory_id
        assert before is None or before.timestamp <= held.timestamp, memory_id
    if settled:
        assert_links_bidirectional(memory.store)


@pytest.mark.parametrize("seed", [7, 2026])
def test_random_sequences_keep_every_invariant(
    seed: int, settings: Settings, embedder: Embedder, clock: FixedClock, tmp_path: Path
) -> None:
    models = (embedder, Renamed(embedder, "-renamed"))
    walk = Walk(settings, models, clock, random.Random(seed), tmp_path)
    try:
        for number in range(STEPS):
            walk.step()
            if number % 50 == 49:
                walk.settle()
                check(walk.memory, walk.model, settled=True)
            elif number % 10 == 0:
                check(walk.memory, walk.model, settled=False)
        walk.settle()
        check(walk.memory, walk.model, settled=True)
    finally:
        walk.close()
    assert walk.model.made > 100 and walk.model.gone, "the sequence exercised too little"
    assert walk.reembeds["done"] and walk.reembeds["stopped"], walk.reembeds

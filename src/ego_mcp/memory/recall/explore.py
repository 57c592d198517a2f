"""recall's explore mode: the memories around one, a breadth-first walk along its links.

Pure over a reader of memories by id, so the walk is tested without a store. A memory is
shown once, at the depth where the walk first met it, with the link that led there; the
walk stops at ``MAX_REACHED`` memories and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ego_mcp.memory.model import LinkType, Memory

MAX_DEPTH = 4
DEFAULT_DEPTH = 2
MAX_REACHED = 30  # memories besides the seed

Reader = Callable[[Sequence[str]], list[Memory]]


@dataclass(frozen=True)
class Reached:
    """A memory the walk met: through ``link_type`` held by ``via`` (the memory one step
    nearer the seed)."""

    memory: Memory
    link_type: LinkType
    via: str


@dataclass(frozen=True)
class Walk:
    seed: Memory
    levels: tuple[tuple[Reached, ...], ...]  # levels[0]: one link away
    links: int  # links among every memory shown, each pair once
    cut: bool  # more memories were linked than ``MAX_REACHED``

    @property
    def reached(self) -> int:
        return sum(len(level) for level in self.levels)


def walk(seed: Memory, depth: int, read: Reader, cap: int = MAX_REACHED) -> Walk:
    """The memories within ``depth`` links of ``seed``, nearest first (each level in the
    order its parents hold their links), at most ``cap`` of them."""
    shown: dict[str, Memory] = {seed.id: seed}
    levels: list[tuple[Reached, ...]] = []
    frontier = [seed]
    cut = False
    for _ in range(depth):
        steps = [
            (parent.id, link)
            for parent in frontier
            for link in parent.linked_ids
            if link.target_id not in shown
        ]
        wanted = list(dict.fromkeys(link.target_id for _, link in steps))
        if not wanted:
            break
        found = {memory.id: memory for memory in read(wanted)}  # a dangling link is skipped
        level: list[Reached] = []
        for parent_id, link in steps:
            memory = found.get(link.target_id)
            if memory is None or memory.id in shown:
                continue
            if len(shown) - 1 >= cap:
                cut = True
                break
            shown[memory.id] = memory
            level.append(Reached(memory, link.link_type, parent_id))
        if not level:
            break
        levels.append(tuple(level))
        frontier = [reached.memory for reached in level]
        if cut:
            break
    return Walk(seed, tuple(levels), _links_among(shown), cut)


def _links_among(shown: dict[str, Memory]) -> int:
    pairs = {
        frozenset((memory.id, link.target_id))
        for memory in shown.values()
        for link in memory.linked_ids
        if link.target_id in shown and link.target_id != memory.id
    }
    return len(pairs)

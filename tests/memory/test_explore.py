"""recall's explore walk, pure: levels, the cap, cycles and dangling links."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from ego_mcp.memory.model import Link, LinkType, Memory
from ego_mcp.memory.recall.explore import MAX_REACHED, walk

NOW = datetime(2026, 11, 27, tzinfo=UTC)


def graph(edges: list[tuple[str, str]], extra: Sequence[str] = ()) -> dict[str, Memory]:
    """Memories named by the ids in ``edges``, linked both ways (related)."""
    names = dict.fromkeys([*extra, *(x for edge in edges for x in edge)])
    memories = {name: Memory(name, name, NOW) for name in names}
    for a, b in edges:
        memories[a] = memories[a].with_link(Link(b, LinkType.LEADS_TO))
        memories[b] = memories[b].with_link(Link(a, LinkType.CAUSED_BY))
    return memories


def reader(memories: dict[str, Memory]):  # type: ignore[no-untyped-def]
    return lambda ids: [memories[i] for i in ids if i in memories]


def test_levels_follow_the_links_and_a_cycle_is_shown_once() -> None:
    memories = graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    found = walk(memories["a"], 3, reader(memories))
    levels = [[(r.memory.id, r.link_type, r.via) for r in level] for level in found.levels]
    assert levels == [
        [("b", LinkType.LEADS_TO, "a"), ("c", LinkType.CAUSED_BY, "a")],
        [("d", LinkType.LEADS_TO, "c")],
    ]
    assert found.links == 4 and not found.cut and found.reached == 3


def test_depth_bounds_the_walk() -> None:
    memories = graph([("a", "b"), ("b", "c"), ("c", "d")])
    assert [r.memory.id for r in walk(memories["a"], 1, reader(memories)).levels[0]] == ["b"]
    assert walk(memories["a"], 1, reader(memories)).links == 1  # a-b only: c is not shown


def test_the_walk_stops_at_the_cap_and_says_so() -> None:
    memories = graph([("hub", f"m{i:02d}") for i in range(MAX_REACHED + 5)])
    found = walk(memories["hub"], 2, reader(memories))
    assert found.reached == MAX_REACHED and found.cut
    small = walk(memories["hub"], 2, reader(memories), cap=MAX_REACHED + 5)
    assert small.reached == MAX_REACHED + 5 and not small.cut


def test_a_dangling_link_is_skipped() -> None:
    memories = graph([("a", "b"), ("a", "gone")])
    del memories["gone"]
    found = walk(memories["a"], 2, reader(memories))
    assert [r.memory.id for r in found.levels[0]] == ["b"] and found.links == 1


def test_dangling_links_do_not_count_against_the_cap() -> None:
    memories = graph([("hub", f"gone{i:02d}") for i in range(MAX_REACHED + 5)] + [("hub", "b")])
    for i in range(MAX_REACHED + 5):
        del memories[f"gone{i:02d}"]
    found = walk(memories["hub"], 2, reader(memories))
    assert found.reached == 1 and not found.cut

"""Consolidation finds planted near-duplicates, strengthens links, keeps them bidirectional."""

from __future__ import annotations

from datetime import timedelta

from ego_mcp.clock import FixedClock
from ego_mcp.ego.consolidation import consolidate
from ego_mcp.memory.service import Draft, MemoryService
from tests.helpers import assert_links_bidirectional, save

EVENT = "Today's conversation was fun. I learned a lot from Master."
REPHRASED = "Today's conversation was enjoyable. Master taught me many things."
OTHERS = [
    "The Rust compiler build failed because a linker flag was missing.",
    "I watched the rain on the window and thought about my childhood home.",
    "A cat slept on the warm hood of the car in the parking lot.",
]


def test_planted_pair_is_the_only_candidate_listed_once(
    memory: MemoryService, clock: FixedClock
) -> None:
    first = save(memory, EVENT)
    second = save(memory, REPHRASED)
    for text in OTHERS:
        save(memory, text)

    stats = consolidate(memory, clock.now())

    assert stats.replay_events == 5
    pairs = [{c.memory_a_id, c.memory_b_id} for c in stats.merge_candidates]
    assert pairs == [{first, second}]
    assert stats.merge_candidates[0].distance < memory.thresholds.merge
    assert_links_bidirectional(memory.store)


def test_coactivated_links_are_strengthened_both_ways(
    memory: MemoryService, clock: FixedClock
) -> None:
    first = save(memory, EVENT)
    second = save(memory, REPHRASED)
    before = memory.get(first).link_to(second)
    assert before is not None

    stats = consolidate(memory, clock.now())

    after_a, after_b = memory.get(first).link_to(second), memory.get(second).link_to(first)
    assert stats.coactivation_updates == 1
    assert after_a is not None and after_b is not None
    assert after_a.confidence == after_b.confidence == round(before.confidence + 0.05, 4)


def test_missing_links_are_created_and_old_memories_left_out(
    memory: MemoryService, clock: FixedClock
) -> None:
    old = save(memory, OTHERS[0])
    clock.set(clock.now() + timedelta(days=2))
    first = save(memory, "I walked by the river at dawn with Master.")
    second = memory.remember(
        Draft(content="At dawn Master and I walked along the river."), force=True
    ).saved
    assert second is not None
    memory.store.replace_links(
        [memory.get(first).without_link(second.id), second.without_link(first)]
    )

    stats = consolidate(memory, clock.now())

    assert stats.replay_events == 2 and stats.link_updates == 1
    assert memory.get(first).link_to(second.id) is not None
    assert memory.get(old).linked_ids == ()
    assert_links_bidirectional(memory.store)


def test_nothing_to_do_with_fewer_than_two_memories(
    memory: MemoryService, clock: FixedClock
) -> None:
    save(memory, EVENT)
    stats = consolidate(memory, clock.now())
    assert (stats.replay_events, stats.merge_candidates) == (1, ())

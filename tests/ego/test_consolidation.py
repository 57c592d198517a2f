"""Consolidation finds planted near-duplicates, strengthens links, keeps them bidirectional."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from ego_mcp.clock import FixedClock
from ego_mcp.ego import consolidation
from ego_mcp.ego.consolidation import consolidate, replay_start, strengthen
from ego_mcp.memory.model import Emotion, EmotionalTrace, Link, LinkType, find_link
from ego_mcp.memory.service import Draft, MemoryService
from tests.helpers import assert_links_bidirectional, save

EVENT = "Master said the line at the soba shop was enormous, but the noodles were excellent."
# The same memory reworded with WordNet's near words: a possible duplicate, merge material.
REPHRASED = "Master said the queue at the soba shop was huge, but the noodles were superb."
OTHERS = [
    "The Rust compiler build failed because a linker flag was missing.",
    "I watched the rain on the window and thought about my childhood home.",
    "A cat slept on the warm hood of the car in the parking lot.",
]


@pytest.mark.parametrize("page", [500, 2], ids=["one page", "pages of two"])
def test_planted_pair_is_the_only_candidate_listed_once(
    memory: MemoryService, clock: FixedClock, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    monkeypatch.setattr(consolidation, "WINDOW_PAGE", page)
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


def test_a_pair_judged_by_one_run_is_not_judged_again_by_the_next(
    memory: MemoryService, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ego_mcp.memory.guard import judgement

    first = save(memory, EVENT)
    second = save(memory, REPHRASED)
    consolidate(memory, clock.now())
    judged: list[object] = []
    judge = judgement.judge
    monkeypatch.setattr(judgement, "judge", lambda *a: (judged.append(a), judge(*a))[1])

    stats = consolidate(memory, clock.now())

    assert [{c.memory_a_id, c.memory_b_id} for c in stats.merge_candidates] == [{first, second}]
    assert judged == []


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


def test_links_at_full_confidence_are_not_written_again(
    memory: MemoryService, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs after a pair's link reached 1.0 count the pair but rewrite no link list."""
    first = save(memory, EVENT)
    second = save(memory, REPHRASED)
    for _ in range(21):  # 0.05 a run: any confidence reaches 1.0
        consolidate(memory, clock.now())
    link = memory.get(first).link_to(second)
    assert link is not None and link.confidence == 1.0
    written: list[set[str]] = []
    write_links = memory.store.write_links
    monkeypatch.setattr(
        memory.store, "write_links", lambda links: (written.append(set(links)), write_links(links))
    )

    stats = consolidate(memory, clock.now())

    assert stats.coactivation_updates == 1 and stats.refreshed_memories == 0
    assert written == [set()]
    assert memory.get(first).link_to(second) == link
    assert_links_bidirectional(memory.store)


def test_strengthen_returns_only_the_lists_it_changed() -> None:
    a, b, c = "mem_aaaaaaaaaaaa", "mem_bbbbbbbbbbbb", "mem_cccccccccccc"
    links = {
        a: (Link(b, LinkType.SIMILAR, confidence=1.0), Link(c, LinkType.SIMILAR, confidence=0.6)),
        b: (Link(a, LinkType.SIMILAR, confidence=1.0),),
        c: (Link(a, LinkType.SIMILAR, confidence=0.6),),
    }
    changed, bumped, created = strengthen(links, [(a, b, 0.1), (a, c, 0.3)])
    assert (bumped, created) == (2, 0)
    assert set(changed) == {a, c}
    assert find_link(changed[a], b) == links[a][0]
    assert find_link(changed[c], a) == Link(a, LinkType.SIMILAR, confidence=0.65)


@pytest.mark.parametrize("page", [500, 1], ids=["one page", "pages of one"])
def test_missing_links_are_created_and_old_memories_left_out(
    memory: MemoryService, clock: FixedClock, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    monkeypatch.setattr(consolidation, "WINDOW_PAGE", page)
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


def test_a_one_sided_caused_by_is_mirrored_as_leads_to() -> None:

    a, b = "mem_aaaaaaaaaaaa", "mem_bbbbbbbbbbbb"
    links = {a: (Link(b, LinkType.CAUSED_BY),), b: ()}
    changed, bumped, _ = strengthen(links, [(a, b, 0.2)])
    assert bumped == 1
    back = find_link(changed[b], a)
    assert back is not None and back.link_type is LinkType.LEADS_TO


def test_a_one_sided_correction_is_mirrored_not_made_similar() -> None:
    """The newer memory's supersedes link, its other end missing: strengthened as the
    correction it is, never replaced by a similar link."""
    older, newer = "mem_aaaaaaaaaaaa", "mem_bbbbbbbbbbbb"
    links = {older: (), newer: (Link(older, LinkType.SUPERSEDES, "time, 2026-12-07", 1.0),)}
    changed, bumped, created = strengthen(links, [(older, newer, 0.1)])
    assert (bumped, created) == (1, 0)
    assert changed[older] == (Link(newer, LinkType.SUPERSEDED_BY, "time, 2026-12-07", 1.0),)
    assert newer not in changed  # already as it should be


def test_a_target_listed_twice_is_read_by_its_first_link() -> None:
    a, b = "mem_aaaaaaaaaaaa", "mem_bbbbbbbbbbbb"
    links = {
        a: (Link(b, LinkType.SIMILAR, confidence=0.5), Link(b, LinkType.RELATED, confidence=0.9)),
        b: (Link(a, LinkType.SIMILAR, confidence=0.5),),
    }
    changed, _, _ = strengthen(links, [(a, b, 0.2)])
    assert changed[a] == (Link(b, LinkType.SIMILAR, confidence=0.55),)
    assert changed[b] == (Link(a, LinkType.SIMILAR, confidence=0.55),)


def test_three_near_identical_memories_and_racing_forgets(
    memory: MemoryService, clock: FixedClock
) -> None:
    """The seeds' case: one memory in several near-duplicate pairs; then forgets race."""
    text = "Blue Envelope #14 arrived today; the letter inside was about the old lighthouse."
    ids = [forced(memory, text) for _ in range(3)]
    stats = consolidate(memory, clock.now())
    pairs = {frozenset((c.memory_a_id, c.memory_b_id)) for c in stats.merge_candidates}
    assert pairs == {frozenset(p) for p in [(ids[0], ids[1]), (ids[0], ids[2]), (ids[1], ids[2])]}
    assert {m.id for m in memory.store.get_many([i for p in pairs for i in p])} == set(ids)

    victims = [
        forced(memory, f"Note {n}: the kettle clicked off at {n} past seven.") for n in range(30)
    ]
    errors: list[BaseException] = []

    def consolidate_many() -> None:
        try:
            for _ in range(100):
                consolidate(memory, clock.now())
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    racer = threading.Thread(target=consolidate_many)
    racer.start()
    for victim in victims:
        memory.forget(victim)
    racer.join()
    assert errors == []
    assert_links_bidirectional(memory.store)


def forced(memory: MemoryService, text: str) -> str:
    """Saved past the guard (these tests need near-identical memories)."""
    outcome = memory.remember(Draft(content=text), force=True)
    assert outcome.saved is not None
    return outcome.saved.id


def test_the_merge_scan_finds_every_pair_of_many_near_identical_memories(
    memory: MemoryService, clock: FixedClock
) -> None:
    from itertools import combinations

    from ego_mcp.ego.consolidation import scan_store

    text = "Blue Envelope #14 arrived today; the letter inside was about the old lighthouse."
    ids = [forced(memory, text) for _ in range(6)]
    for other in OTHERS:
        forced(memory, other)
    stats = scan_store(memory, clock.now(), batch_size=4, max_candidates=100)
    found = {frozenset((c.memory_a_id, c.memory_b_id)) for c in stats.merge_candidates}
    assert found == {frozenset(pair) for pair in combinations(ids, 2)}  # all 15, no others


def test_a_crowded_window_replays_only_its_newest_memories(
    memory: MemoryService, clock: FixedClock
) -> None:
    """The cap: a window holding more than ``max_replay`` memories replays the newest."""
    letter = "Blue Envelope #14 arrived today; the letter inside was about the old lighthouse."
    older = {forced(memory, letter), forced(memory, letter)}
    clock.set(clock.now() + timedelta(hours=2))
    newer = {forced(memory, EVENT), forced(memory, REPHRASED)}

    capped = consolidate(memory, clock.now(), max_replay=2)
    whole = consolidate(memory, clock.now())

    assert capped.replay_events == 2 and whole.replay_events == 4
    assert [{c.memory_a_id, c.memory_b_id} for c in capped.merge_candidates] == [newer]
    assert {frozenset((c.memory_a_id, c.memory_b_id)) for c in whole.merge_candidates} == {
        frozenset(older),
        frozenset(newer),
    }
    assert_links_bidirectional(memory.store)


def counter(stamps: list[datetime]) -> Callable[[datetime, int], int]:
    """``count_since`` over a list of timestamps."""
    return lambda moment, cap: min(cap, sum(1 for s in stamps if s >= moment))


NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
DAY_AGO = NOW - timedelta(hours=24)


@pytest.mark.parametrize(
    "stamps",
    [
        [NOW - timedelta(seconds=0.3 * n) for n in range(10_000)],  # a burst: 50 min
        [NOW - timedelta(seconds=8.64 * n) for n in range(10_000)],  # a steady day
        [NOW - timedelta(hours=h % 24, seconds=n) for h, n in enumerate(range(5_000))],
    ],
    ids=["burst", "steady", "uneven"],
)
def test_the_replay_starts_where_nearly_the_limit_remains(stamps: list[datetime]) -> None:
    count = counter(stamps)
    start = replay_start(count, DAY_AGO, NOW, 1_000)
    replayed = [s for s in stamps if s >= start]
    assert 900 <= len(replayed) <= 1_000
    assert min(replayed) >= max(s for s in stamps if s not in replayed)  # the newest


def test_a_window_within_the_limit_is_replayed_whole() -> None:
    stamps = [NOW - timedelta(minutes=n) for n in range(999)] + [DAY_AGO - timedelta(hours=1)]
    assert replay_start(counter(stamps), DAY_AGO, NOW, 1_000) == DAY_AGO


def test_memories_of_one_instant_are_taken_rather_than_none() -> None:
    """Bulk-saved memories can share a timestamp: time cannot pick the newest among them."""
    stamps = [NOW - timedelta(hours=3)] * 5_000
    start = replay_start(counter(stamps), DAY_AGO, NOW, 1_000)
    assert start <= stamps[0]


def test_the_merge_scan_keeps_only_the_closest_pairs_across_batches(
    memory: MemoryService, clock: FixedClock
) -> None:
    """Pruned to the closest after every batch, the scan reports what a scan that kept
    every pair would report first."""
    from ego_mcp.ego.consolidation import scan_store

    text = "Blue Envelope #14 arrived today; the letter inside was about the old lighthouse."
    for n in range(6):
        forced(memory, text if n % 2 else text.replace("old", "ancient"))
    for other in OTHERS:
        forced(memory, other)
    every = scan_store(memory, clock.now(), batch_size=2, max_candidates=100)
    closest = scan_store(memory, clock.now(), batch_size=2, max_candidates=4)
    assert len(every.merge_candidates) == 15
    distances = [c.distance for c in every.merge_candidates]
    assert distances == sorted(distances)
    assert closest.merge_candidates == every.merge_candidates[:4]


def test_consolidate_never_proposes_a_pair_the_guard_calls_distinct(
    memory: MemoryService, clock: FixedClock
) -> None:
    """The judgement of remember is the judgement of the merge proposals: a pair that
    differs in a fact (a place name, a number) is not listed; one whose words alone
    differ is, with what differs."""
    hokkaido = save(memory, "夏休みにマスターと北海道でキャンプをする予定だ。")
    nagano = save(memory, "夏休みにマスターと長野でキャンプをする予定だ。")
    fourteen = save(memory, "Blue Envelope #14 arrived from Master's aunt today.")
    fifteen = save(memory, "Blue Envelope #15 arrived from Master's aunt today.")
    sofa = save(memory, "Master bought a new grey sofa for the living room.")
    couch = save(memory, "Master bought a new grey couch for the living room.")
    line = save(memory, "The line at the new bakery was enormous, but the bread was excellent.")
    queue = save(memory, "The queue at the new bakery was huge, but the bread was superb.")

    stats = consolidate(memory, clock.now())

    listed = {frozenset((c.memory_a_id, c.memory_b_id)): c for c in stats.merge_candidates}
    assert frozenset((hokkaido, nagano)) not in listed
    assert frozenset((fourteen, fifteen)) not in listed
    assert listed[frozenset((sofa, couch))].differences == ()  # synonyms: the same memory
    assert "wording: " in "; ".join(listed[frozenset((line, queue))].differences)


def test_a_stored_result_keeps_the_kinds_of_difference_never_the_words(
    memory: MemoryService, clock: FixedClock
) -> None:
    """The result document lives outside the store (Redis, when set): a private memory's
    words must not go there; the answer works them out again from the texts."""
    line = save(memory, "The line at the new bakery was enormous, but the bread was excellent.")
    queue = save(memory, "The queue at the new bakery was huge, but the bread was superb.")
    stats = consolidate(memory, clock.now())
    document = stats.to_document()
    stored = [
        c
        for c in document["merge_candidates"]
        if {c["memory_a_id"], c["memory_b_id"]} == {line, queue}
    ]
    assert stored and stored[0]["differences"] == ["wording"]
    assert "enormous" not in str(document) and "bakery" not in str(document)


def test_a_precious_memory_is_never_proposed_for_a_merge(
    memory: MemoryService, clock: FixedClock
) -> None:
    """A moment shared with someone and felt strongly (remember(shared_with=...)) stays
    as it is, however close a rewording of it comes (memory/fading.py)."""
    felt = EmotionalTrace(primary=Emotion.MOVED, intensity=0.8)
    plain = save(memory, EVENT, emotional_trace=felt)
    rephrased = save(memory, REPHRASED)
    proposed = consolidate(memory, clock.now()).merge_candidates
    assert [{c.memory_a_id, c.memory_b_id} for c in proposed] == [{plain, rephrased}]
    memory.forget(plain)
    shared = save(memory, EVENT, shared=True, emotional_trace=felt)
    assert memory.store.get(shared).shared  # type: ignore[union-attr]
    assert consolidate(memory, clock.now()).merge_candidates == ()

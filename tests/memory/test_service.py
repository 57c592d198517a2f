"""The memory lifecycle against real Chroma and the real model."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ego_mcp.clock import FixedClock
from ego_mcp.errors import NotFound
from ego_mcp.memory.model import Category, Emotion, EmotionalTrace, Link, LinkType, Memory
from ego_mcp.memory.service import Draft, MemoryService, mend_one_sided_links
from ego_mcp.memory.store import MemoryFilter
from tests.helpers import assert_links_bidirectional, save, snapshot

EVENT = "Master said the line at the soba shop was enormous, but the noodles were excellent."
EVENT_AGAIN = "Master said the line at the soba shop was enormous, but the noodles were excellent!"
EVENT_REPHRASED = "Master said the queue at the soba shop was huge, but the noodles were superb."
UNRELATED = "The Rust compiler build failed because a linker flag was missing."


def test_dedup_guard_refuses_a_near_duplicate_and_writes_nothing(memory: MemoryService) -> None:
    first = save(memory, EVENT)
    before = snapshot(memory.store)

    outcome = memory.remember(Draft(content=EVENT_AGAIN))

    assert outcome.saved is None
    assert outcome.duplicate_of is not None
    assert outcome.duplicate_of.memory.id == first
    assert outcome.duplicate_of.distance < memory.thresholds.dedup
    assert snapshot(memory.store) == before


def test_the_nearest_memory_is_judged_from_the_wider_distance(memory: MemoryService) -> None:
    """A restatement the model places further off (a word in kana, not kanji) is refused
    when it is the nearest memory; a distinct one there is saved without a "similar"
    note."""
    first = save(memory, "マスターは新しい眼鏡を買った。")
    save(memory, "Master bought a new kettle for the office.")

    refused = memory.remember(Draft(content="マスターは新しいめがねを買った。"))
    assert refused.duplicate_of is not None and refused.duplicate_of.memory.id == first
    assert memory.thresholds.dedup < refused.duplicate_of.distance < 0.35

    saved = memory.remember(Draft(content="マスターは新しい傘をなくした。"))
    assert saved.saved is not None and saved.near_miss is None


def test_distinct_memories_are_saved(memory: MemoryService) -> None:
    save(memory, EVENT)
    save(memory, EVENT_REPHRASED)  # close (distance ~0.09) but above the 0.05 guard
    save(memory, UNRELATED)
    assert memory.store.count() == 3


def test_force_saves_a_near_duplicate(memory: MemoryService) -> None:
    save(memory, EVENT)
    outcome = memory.remember(Draft(content=EVENT_AGAIN), force=True)
    assert outcome.saved is not None
    assert memory.store.count() == 2


def test_auto_links_are_bidirectional_and_only_to_close_memories(memory: MemoryService) -> None:
    first = save(memory, EVENT)
    unrelated = save(memory, UNRELATED)
    second = save(memory, EVENT_REPHRASED)

    saved = memory.get(second)
    assert [link.target_id for link in saved.linked_ids] == [first]
    assert saved.linked_ids[0].link_type is LinkType.SIMILAR
    back = memory.get(first).link_to(second)
    assert back is not None and back.link_type is LinkType.SIMILAR
    assert memory.get(unrelated).linked_ids == ()
    assert assert_links_bidirectional(memory.store) == 2


def test_forget_removes_reverse_links_from_every_linked_memory(memory: MemoryService) -> None:
    hub = save(memory, "I watched the sunset over the sea with Master.")
    spokes = [
        save(memory, "The sunset over the sea was orange and calm."),
        save(memory, "Watching the sea at sunset with Master felt peaceful."),
        save(memory, "Master and I sat by the sea until the sun went down."),
    ]
    unrelated = save(memory, UNRELATED)
    for spoke in spokes:
        if memory.get(hub).link_to(spoke) is None:
            memory.link(hub, spoke, LinkType.RELATED)
    untouched_before = memory.get(unrelated)

    forgotten = memory.forget(hub).memory

    assert forgotten.id == hub
    assert memory.store.get(hub) is None
    for spoke in spokes:
        assert memory.get(spoke).link_to(hub) is None
    assert memory.get(unrelated) == untouched_before
    assert_links_bidirectional(memory.store)


def test_forget_unknown_id_raises_and_writes_nothing(memory: MemoryService) -> None:
    save(memory, EVENT)
    before = snapshot(memory.store)
    with pytest.raises(NotFound, match="Memory not found: mem_000000000000"):
        memory.forget("mem_000000000000")
    assert snapshot(memory.store) == before


def test_link_memories_sets_the_reverse_type(memory: MemoryService) -> None:
    cause = save(memory, "I stayed up all night reading about black holes.")
    effect = save(memory, UNRELATED)
    source, _ = memory.link(effect, cause, LinkType.CAUSED_BY, note="tired")
    assert source.link_to(cause) is not None
    back = memory.get(cause).link_to(effect)
    assert back is not None and back.link_type is LinkType.LEADS_TO and back.note == "tired"
    assert_links_bidirectional(memory.store)


def test_get_episode_counts_forgotten_members(memory: MemoryService, clock: FixedClock) -> None:
    first = save(memory, EVENT)
    clock.set(clock.now() + timedelta(hours=2))
    second = save(memory, UNRELATED)
    episode = memory.create_episode("A long day with Master", [first, second], importance=4)
    assert episode.end_time - episode.start_time == timedelta(hours=2)

    memory.forget(first)
    view = memory.get_episode(episode.id)

    assert [m.id for m in view.members] == [second]
    assert view.missing == 1


def test_create_episode_with_unknown_member_writes_nothing(memory: MemoryService) -> None:
    first = save(memory, EVENT)
    with pytest.raises(NotFound, match="mem_000000000000"):
        memory.create_episode("summary", [first, "mem_000000000000"])
    assert memory.episodes.all() == []


def test_recall_filters_by_emotion_and_date(memory: MemoryService, clock: FixedClock) -> None:

    save(memory, EVENT, emotional_trace=EmotionalTrace(primary=Emotion.HAPPY))
    clock.set(clock.now() + timedelta(days=3))
    later = save(memory, EVENT_REPHRASED, emotional_trace=EmotionalTrace(primary=Emotion.SAD))

    sad = memory.recall("soba shop with Master", 5, MemoryFilter(emotion=Emotion.SAD))
    recent = memory.recall("soba shop", 5, MemoryFilter(date_from=clock.now() - timedelta(days=1)))

    assert [hit.memory.id for hit in sad] == [later]
    assert [hit.memory.id for hit in recent] == [later]


def test_concurrent_remembers_keep_links_bidirectional(memory: MemoryService) -> None:
    sentences = [f"Memory {i} about walking the dog in the park on a sunny day" for i in range(24)]
    errors: list[BaseException] = []

    def worker(chunk: list[str]) -> None:
        try:
            for sentence in chunk:
                memory.remember(Draft(content=sentence), force=True)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(sentences[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert memory.store.count() == 24
    assert assert_links_bidirectional(memory.store) > 0


def test_store_reads_what_an_older_version_wrote(memory: MemoryService, tmp_path: Path) -> None:
    vector = memory.embedder.embed(["legacy"])
    collection = memory.store._collection  # type: ignore[attr-defined]
    collection.add(
        ids=["mem_0000000000aa", "mem_0000000000bb"],
        embeddings=vector.repeat(2, axis=0),
        documents=["old public", "old private"],
        metadatas=[
            {"timestamp": "2025-01-01T00:00:00", "linked_ids": "[]"},
            {"timestamp": "2025-01-01T00:00:00", "is_private": "true", "linked_ids": "[]"},
        ],
    )
    assert memory.get("mem_0000000000aa").is_private is False
    assert memory.get("mem_0000000000bb").is_private is True


def test_repair_links_restores_two_way_links_after_a_torn_write(memory: MemoryService) -> None:
    first = save(memory, EVENT)
    second = save(memory, EVENT_REPHRASED)
    third = save(memory, UNRELATED)
    memory.link(first, third, LinkType.CAUSED_BY)
    # As if a crash struck between the two writes of a save, and a delete ran without cleanup.
    memory.store.replace_links([memory.get(second).without_link(first)])
    memory.store.delete(third)

    assert memory.repair_links() == 2
    assert memory.repair_links() == 0

    back = memory.get(second).link_to(first)
    assert back is not None and back.link_type is LinkType.SIMILAR
    assert memory.get(first).link_to(third) is None
    assert_links_bidirectional(memory.store)


@pytest.mark.parametrize("first_id", ["mem_aaaaaaaaaaaa", "mem_cccccccccccc"])
def test_mend_one_sided_links_in_either_processing_order(first_id: str) -> None:
    moment = datetime(2026, 2, 21, tzinfo=UTC)
    second_id, dead_id = "mem_bbbbbbbbbbbb", "mem_dddddddddddd"
    first = Memory(
        first_id, "a", moment, linked_ids=(Link(second_id, LinkType.CAUSED_BY), Link(dead_id))
    )
    second = Memory(second_id, "b", moment)

    changed, fixes = mend_one_sided_links({first_id: first, second_id: second}, lambda ids: set())

    assert fixes == 2
    assert [lk.target_id for lk in changed[first_id].linked_ids] == [second_id]
    back = changed[second_id].link_to(first_id)
    assert back is not None and back.link_type is LinkType.LEADS_TO


HYBRID_STORE = [
    "The log tool crashed again on a malformed timestamp; ticket LOG-131 tracks it.",
    "The log tool crashed on an empty line; ticket LOG-88 tracks that one.",
    "The log tool was slow on big files, so I added a buffer.",
    "Master's dog Biscuit chewed through a headphone cable.",
    "佐藤さんがマスターに新しいカメラを見せてくれた。",
    "マスターと一緒に新しいカメラの使い方を調べた。",
]


def test_recall_finds_the_exact_rare_term_first(memory: MemoryService) -> None:
    ids = [save(memory, text) for text in HYBRID_STORE]
    assert memory.recall("LOG-131", 1)[0].memory.id == ids[0]
    assert memory.recall("LOG-88", 1)[0].memory.id == ids[1]
    assert memory.recall("佐藤さん", 1)[0].memory.id == ids[4]
    # A paraphrase and a crosslingual query rank by meaning, as before.
    assert memory.recall("the dog destroyed a cable by chewing it", 1)[0].memory.id == ids[3]
    assert memory.recall("犬がケーブルをかじった", 1)[0].memory.id == ids[3]
    # Lexical matches obey the filters too.
    no_match = MemoryFilter(category=Category.DREAM)
    assert memory.recall("LOG-131", 3, no_match) == []


def test_a_save_without_the_lock_gets_its_links_from_the_pending_job(
    memory: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from contextlib import contextmanager

    from ego_mcp.errors import LockUnavailable

    first = save(memory, EVENT)
    locks = memory.locks

    class Away:
        @contextmanager
        def hold(self, agent: str) -> Iterator[None]:
            raise LockUnavailable("EGO_MCP_REDIS_URL: away")
            yield  # pragma: no cover

    monkeypatch.setattr(memory, "locks", Away())
    outcome = memory.remember(Draft(content=EVENT_REPHRASED), force=True)
    assert outcome.saved is not None and outcome.links_pending and outcome.linked == ()
    assert memory.get(outcome.saved.id).linked_ids == ()

    monkeypatch.setattr(memory, "locks", locks)
    assert memory.link_pending(outcome.saved.id) == 1
    assert memory.get(outcome.saved.id).link_to(first) is not None
    assert assert_links_bidirectional(memory.store) == 2

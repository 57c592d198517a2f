"""The embedded store's record cache holds what the collection holds, with reads and
writes at once."""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from ego_mcp.memory.model import Link, LinkType, Memory
from ego_mcp.profiles import AgentProfile
from ego_mcp.runtime import Runtime
from ego_mcp.store.chroma import ChromaMemoryStore, collection_name
from ego_mcp.store.record_cache import RecordCache
from tests.conftest import START
from tests.helpers import all_memories


def memory(number: int, content: str = "") -> Memory:
    return Memory(f"mem_{number:012x}", content or f"memory {number}", START)


def test_a_read_a_write_overlapped_is_not_kept() -> None:
    cache = RecordCache()
    seen = cache.generation()  # a read starts
    token, _ = cache.before_write([memory(1).id])  # a write starts and ends meanwhile
    cache.after_write([memory(1).id], token)
    cache.offer([memory(1, "as read before the write")], seen)
    assert cache.held([memory(1).id]) == {}


def test_a_read_within_a_write_is_replaced_by_what_the_write_left() -> None:
    cache = RecordCache()
    token, _ = cache.before_write([memory(1).id])
    cache.offer([memory(1, "read while the write ran")], cache.generation())
    after = memory(1, "as written")
    cache.after_write([memory(1).id], token, {after.id: after})
    assert cache.held([after.id]) == {after.id: after}
    cache.offer([memory(2, "read while the write ran")], token)  # the write is over
    assert cache.held([memory(2).id]) == {}


def test_two_writes_at_once_leave_neither_version() -> None:
    cache = RecordCache()
    first, _ = cache.before_write([memory(1).id])
    second, _ = cache.before_write([memory(1).id])
    for token, text in ((second, "second"), (first, "first")):  # which landed last is unknown
        cache.after_write([memory(1).id], token, {memory(1).id: memory(1, text)})
    assert cache.held([memory(1).id]) == {}


def test_a_failed_write_leaves_its_memories_out() -> None:
    cache = RecordCache()
    cache.offer([memory(1)], cache.generation())
    token, held = cache.before_write([memory(1).id])
    assert held == {memory(1).id: memory(1)}
    cache.after_write([memory(1).id], token, None)
    assert cache.held([memory(1).id]) == {}


def test_the_least_lately_used_go_first() -> None:
    cache = RecordCache(capacity=3)
    cache.offer([memory(n) for n in range(3)], cache.generation())
    cache.held([memory(0).id])  # used: memory 1 is now the least lately used
    cache.offer([memory(3)], cache.generation())
    assert set(cache.held([memory(n).id for n in range(4)])) == {memory(n).id for n in (0, 2, 3)}


def test_the_text_held_is_bounded_too() -> None:
    cache = RecordCache(characters=25)
    cache.offer([memory(n, "ten chars.") for n in range(3)], cache.generation())
    assert set(cache.held([memory(n).id for n in range(3)])) == {memory(1).id, memory(2).id}
    cache.offer([memory(1, "twenty-one characters")], cache.generation())  # replaced
    assert set(cache.held([memory(n).id for n in range(3)])) == {memory(1).id}


def test_each_write_keeps_the_cache_what_the_collection_holds(runtime: Runtime) -> None:
    store = runtime.memory("default").store
    live = runtime.chroma.client.get_collection(collection_name("default", "memories"))
    uncached = ChromaMemoryStore(live)
    first, second = memory(1, "Aya planted tulips."), memory(2, "Ken fixed the fence.")
    vectors = runtime.embedder.embed([first.content, second.content])
    store.add_many([first, second], vectors, new=True)

    def agrees() -> bool:
        ids = [first.id, second.id]
        return {m.id: m for m in store.get_many(ids)} == {m.id: m for m in uncached.get_many(ids)}

    assert agrees()
    # an add naming a stored id (not new): Chroma keeps the record it has
    store.add(replace(first, content="Aya planted roses."), vectors[0])
    assert agrees() and store.get(first.id) == first
    store.write_links({first.id: (Link(second.id, LinkType.RELATED, confidence=0.71234),)})
    assert agrees()
    assert store.note_recalls([first.id], day=20_000) == 1
    assert agrees()
    store.rewrite(replace(second, content="Ken mended the fence.", importance=5), vectors[1])
    assert agrees()
    store.delete(first.id)
    assert agrees() and store.get(first.id) is None


def test_threads_reading_and_writing_at_once_leave_it_true(runtime: Runtime) -> None:
    store = runtime.memory("default").store
    memories = [memory(n) for n in range(40)]
    store.add_many(memories, runtime.embedder.embed([m.content for m in memories]), new=True)
    ids = [m.id for m in memories]
    stop = threading.Event()
    failures: list[BaseException] = []

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for step in range(60):
                chosen = rng.sample(ids, 3)
                weight = rng.random()  # rounded to 4 places where stored
                store.write_links({i: (Link(ids[step % 40], confidence=weight),) for i in chosen})
        except BaseException as exc:
            failures.append(exc)

    def reader(seed: int) -> None:
        rng = random.Random(seed)
        try:
            while not stop.is_set():
                store.get_many(rng.sample(ids, 8))
        except BaseException as exc:
            failures.append(exc)

    readers = [threading.Thread(target=reader, args=(n,)) for n in range(3)]
    writers = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
    for thread in [*readers, *writers]:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in readers:
        thread.join()
    assert not failures
    assert {m.id: m for m in store.get_many(ids)} == all_memories(store)


def test_a_service_rebuilt_for_a_new_profile_shares_the_cache_of_the_one_before(
    runtime: Runtime, tmp_path: Path
) -> None:
    """A window with another workspace rebuilds the agent's service while a job or a call
    may still hold the one before: both stores tell one cache, so neither reads what the
    other changed as it was (nor writes a stale link list back)."""
    before = runtime.memory("guest")
    first, second = memory(1, "Aya planted tulips."), memory(2, "Ken fixed the fence.")
    vectors = runtime.embedder.embed([first.content, second.content])
    before.store.add_many([first, second], vectors, new=True)
    before.link(first.id, second.id, LinkType.RELATED)
    runtime.profiles.adopt("guest", AgentProfile(tmp_path / "elsewhere", "Master"))
    after = runtime.memory("guest")
    assert after is not before
    assert [lk.target_id for lk in after.get(first.id).linked_ids] == [second.id]
    before.forget(second.id)
    assert after.get(first.id).linked_ids == ()
    assert after.store.get(second.id) is None


def test_a_write_whose_result_cannot_be_kept_still_stands(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """What a write leaves is worked out after Chroma took it: if that fails, the write
    is not reported failed; its memories are left out of the cache and read again."""
    from ego_mcp.store import chroma

    store = runtime.memory("default").store
    first, second = memory(1, "Aya planted tulips."), memory(2, "Ken fixed the fence.")
    store.add_many([first, second], runtime.embedder.embed([first.content, second.content]))
    store.get_many([first.id])  # held

    def broken(*_: object) -> dict[str, Memory]:
        raise ValueError("unreadable")

    monkeypatch.setattr(chroma, "_relinked", broken)
    store.write_links({first.id: (Link(second.id),)})
    assert [lk.target_id for lk in store.get(first.id).linked_ids] == [second.id]
    assert "ValueError" in caplog.text and "tulips" not in caplog.text

"""The pure merge rules, and merge/forget/restore in the service without the agent's lock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest

from ego_mcp.errors import LockUnavailable
from ego_mcp.memory.merge import (
    episode_members_after_merge,
    merged_links,
    merged_memory,
    redirected,
)
from ego_mcp.memory.model import Link, LinkType, Memory
from ego_mcp.memory.service import MemoryService
from tests.helpers import assert_links_bidirectional, save, snapshot

T0 = datetime(2026, 2, 21, 9, 0, tzinfo=UTC)


def stub(memory_id: str, *links: Link, private: bool = False, importance: int = 3) -> Memory:
    return Memory(
        memory_id,
        f"text of {memory_id}",
        T0,
        importance=importance,
        is_private=private,
        linked_ids=links,
    )


def test_merged_links_drop_the_pair_and_keep_the_stronger_link_per_target() -> None:
    keep = stub(
        "k",
        Link("r", LinkType.SIMILAR, confidence=0.9),
        Link("t", LinkType.RELATED, confidence=0.4),
    )
    remove = stub(
        "r",
        Link("k", LinkType.SIMILAR, confidence=0.9),
        Link("t", LinkType.CAUSED_BY, "why", confidence=0.7),
        Link("u", LinkType.LEADS_TO, confidence=0.2),
    )
    assert merged_links(keep, remove) == (
        Link("t", LinkType.CAUSED_BY, "why", confidence=0.7),
        Link("u", LinkType.LEADS_TO, confidence=0.2),
    )


def test_an_equal_confidence_keeps_the_kept_memory_s_own_link() -> None:
    keep = stub("k", Link("t", LinkType.RELATED, "mine", confidence=0.5))
    remove = stub("r", Link("t", LinkType.LEADS_TO, "theirs", confidence=0.5))
    assert merged_links(keep, remove) == (Link("t", LinkType.RELATED, "mine", confidence=0.5),)


def test_merged_memory_is_private_if_either_was_and_keeps_the_higher_importance() -> None:
    keep = stub("k", importance=2)
    remove = stub("r", private=True, importance=4)
    merged = merged_memory(keep, remove, None)
    assert (merged.content, merged.timestamp, merged.importance, merged.is_private) == (
        "text of k",
        T0,
        4,
        True,
    )
    assert merged_memory(keep, stub("r"), "new words").content == "new words"


def test_redirected_points_the_target_back_at_the_kept_memory_reversed() -> None:
    keep = stub("k", Link("t", LinkType.CAUSED_BY, "why", confidence=0.7))
    target = stub("t", Link("r", LinkType.LEADS_TO, confidence=0.7), Link("x"))
    assert redirected(target, keep, "r").linked_ids == (
        Link("x"),
        Link("k", LinkType.LEADS_TO, "why", confidence=0.7),
    )


def test_episode_members_swap_once_in_place() -> None:
    assert episode_members_after_merge(["a", "r", "b", "k"], "k", "r") == ("a", "k", "b")
    assert episode_members_after_merge(["a"], "k", "r") == ("a",)


class Away:
    """The agent's lock out of reach, as when Redis does not answer."""

    @contextmanager
    def hold(self, agent: str) -> Iterator[None]:
        raise LockUnavailable("EGO_MCP_REDIS_URL: away")
        yield  # pragma: no cover


def test_without_the_lock_merge_is_refused_whole_and_forget_stays_restorable(
    memory: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = save(memory, "We baked bread on Sunday morning.")
    second = save(memory, "On Sunday morning we baked a loaf of bread.")
    before = snapshot(memory.store)
    locks = memory.locks
    monkeypatch.setattr(memory, "locks", Away())

    with pytest.raises(LockUnavailable, match="EGO_MCP_REDIS_URL"):
        memory.merge(first, second, "Sunday bread.")
    assert snapshot(memory.store) == before and memory.forgotten() == []

    forgotten = memory.forget(second)
    assert forgotten.pending_targets == (first,)
    assert [entry.memory.id for entry in memory.forgotten()] == [second]

    monkeypatch.setattr(memory, "locks", locks)
    memory.unlink_forgotten(second, [first])
    memory.restore(second)
    assert memory.get(second).link_to(first) is not None
    assert assert_links_bidirectional(memory.store) == 2

"""The episodes that list a memory are found by a filter on each episode's member list,
not by reading every episode: a forget or a merge stays as fast at 3,000 episodes as at
none. Episodes an older version wrote without the list get it when the store opens."""

from __future__ import annotations

import json
from pathlib import Path

from ego_mcp.clock import FixedClock
from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from ego_mcp.store.chroma import ChromaEpisodeStore, collection_name
from ego_mcp.store.codec import MEMBER_INDEX, MEMBERS_KEPT
from tests.helpers import save


def test_a_forget_finds_the_episodes_listing_the_memory_and_a_restore_puts_it_back(
    runtime: Runtime,
) -> None:
    memory = runtime.memory("default")
    ids = [save(memory, f"Master planted {plant} by the fence.") for plant in ("tulips", "mint")]
    both = memory.create_episode("The garden, spring", ids)
    alone = memory.create_episode("The tulips", ids[:1])
    memory.create_episode("The mint", ids[1:])
    assert {e.id for e in memory.episodes.listing(ids[0])} == {both.id, alone.id}

    memory.forget(ids[0])
    entry = memory.deletion_log.get(ids[0]) if memory.deletion_log else None
    assert entry is not None and set(entry.episode_ids) == {both.id, alone.id}
    memory.prune_episode_references()  # the worker's cleanup: "The tulips" lists nobody now
    assert memory.episodes.listing(ids[0]) == []
    assert memory.episodes.get(alone.id) is not None
    assert memory.episodes.get(alone.id).memory_ids == ()  # type: ignore[union-attr]

    memory.restore(ids[0])
    assert {e.id for e in memory.episodes.listing(ids[0])} == {both.id, alone.id}


def test_episodes_written_without_the_list_get_it_at_the_next_open(
    tmp_path: Path, embedder: LocalMultilingualUSE, clock: FixedClock
) -> None:
    """An older version's episodes (no list, no mark), even one written after this
    version had given every episode its list, are found at the next open by one read
    and given it; meanwhile the episodes are read whole."""
    settings = load_settings(data_dir=tmp_path / "data")
    first = Runtime.open(settings, clock=clock, embedder=embedder)
    memory = first.memory(settings.agent)
    ids = [save(memory, f"Ken and Master hiked up Mt. {name}.") for name in ("Takao", "Mitake")]
    episode = memory.create_episode("Hikes with Ken", ids)
    assert isinstance(memory.episodes, ChromaEpisodeStore) and memory.episodes.indexed
    # As an older version writes it, after this one indexed the store.
    collection = first.chroma.client.get_collection(
        collection_name(settings.agent, "episodes"), embedding_function=None
    )
    collection.update(ids=[episode.id], metadatas=[{MEMBER_INDEX: None, MEMBERS_KEPT: None}])
    unindexed = ChromaEpisodeStore(collection)
    assert not unindexed.indexed
    assert [e.id for e in unindexed.listing(ids[1])] == [episode.id]  # read whole, meanwhile
    first.close()

    second = Runtime.open(settings, clock=clock, embedder=embedder)
    try:
        reopened = second.memory(settings.agent)
        assert isinstance(reopened.episodes, ChromaEpisodeStore) and reopened.episodes.indexed
        stored = second.chroma.client.get_collection(
            collection_name(settings.agent, "episodes"), embedding_function=None
        ).get(ids=[episode.id], include=["metadatas"])["metadatas"][0]
        assert stored[MEMBER_INDEX] == json.loads(stored["memory_ids"]) == ids
        assert [e.id for e in reopened.episodes.listing(ids[1])] == [episode.id]
    finally:
        second.close()


def test_a_list_left_stale_by_a_change_between_read_and_write_is_written_again(
    runtime: Runtime,
) -> None:
    """``index_members`` takes no lock: a list that differs from the members (a change
    that landed between its read and its write) is found by its next pass."""
    memory = runtime.memory("default")
    ids = [save(memory, f"Emi baked {thing} with Master.") for thing in ("bread", "scones")]
    episode = memory.create_episode("Baking", ids)
    collection = runtime.chroma.client.get_collection(
        collection_name("default", "episodes"), embedding_function=None
    )
    collection.update(ids=[episode.id], metadatas=[{MEMBER_INDEX: ids[:1]}])  # stale list
    store = ChromaEpisodeStore(collection)
    assert store.index_members() == 1
    assert [e.id for e in store.listing(ids[1])] == [episode.id]
    assert store.index_members() == 0

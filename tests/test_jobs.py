"""Job functions against real Chroma and the model: idempotent, ids in, results out."""

from __future__ import annotations

import pytest

from ego_mcp.memory.service import MemoryService
from ego_mcp.queue.jobs import (
    RUNTIME_KEY,
    cleanup_episode_references,
    consolidate,
    scan_merge_candidates,
)
from ego_mcp.runtime import Runtime
from tests.helpers import assert_links_bidirectional, save

pytestmark = pytest.mark.anyio

PAIR = (
    "Master said the line at the soba shop was enormous, but the noodles were excellent.",
    "Master said the queue at the soba shop was huge, but the noodles were superb.",
)
OTHERS = (
    "The Rust compiler build failed because a linker flag was missing.",
    "A cat slept on the warm hood of the car in the parking lot.",
)


async def test_whole_store_scan_finds_old_and_new_pairs_once(
    runtime: Runtime, memory: MemoryService
) -> None:
    ids = [save(memory, text) for text in (*PAIR, *OTHERS)]
    ctx = {RUNTIME_KEY: runtime}

    first = await scan_merge_candidates(ctx, memory.agent)
    second = await scan_merge_candidates(ctx, memory.agent)

    assert first == second == {"scanned": 4, "merge_candidates": 1}
    stored = runtime.ego(memory.agent).documents.load("merge_scan")
    assert stored is not None
    pair = stored["merge_candidates"][0]
    assert {pair["memory_a_id"], pair["memory_b_id"]} == set(ids[:2])
    assert "soba" not in str(stored)  # ids and distances only, never content


async def test_consolidate_job_twice_keeps_links_bidirectional(
    runtime: Runtime, memory: MemoryService
) -> None:
    for text in (*PAIR, *OTHERS):
        save(memory, text)
    ctx = {RUNTIME_KEY: runtime}
    assert (await consolidate(ctx, memory.agent))["merge_candidates"] == 1
    await consolidate(ctx, memory.agent)
    assert_links_bidirectional(memory.store)


async def test_episode_reference_cleanup_is_idempotent(
    runtime: Runtime, memory: MemoryService
) -> None:
    kept, gone = save(memory, PAIR[0]), save(memory, OTHERS[0])
    episode = memory.create_episode("a day", [kept, gone])
    memory.forget(gone)
    ctx = {RUNTIME_KEY: runtime}

    assert await cleanup_episode_references(ctx, memory.agent) == 1
    assert await cleanup_episode_references(ctx, memory.agent) == 0

    stored = memory.episodes.get(episode.id)
    assert stored is not None and stored.memory_ids == (kept,)
    assert memory.get_episode(episode.id).missing == 0

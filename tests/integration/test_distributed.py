"""A front end and workers sharing a real redis-server and a real Chroma server."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import chromadb
import pytest
import redis
from arq.connections import RedisSettings, create_pool
from chromadb.config import Settings as ChromaSettings
from mcp import Client, StdioServerParameters

from ego_mcp.embedding.base import EmbeddingSignature
from ego_mcp.embedding.multilingual import DIMENSION, MODEL_NAME
from ego_mcp.store.chroma import ChromaMemoryStore, collection_name, open_collection
from ego_mcp.store.deletion_log import ChromaDeletionLog, open_deletion_log
from tests.helpers import assert_links_bidirectional, text_of
from tests.integration.conftest import RedisServer, service_env, start_worker

pytestmark = [pytest.mark.anyio, pytest.mark.redis]

PAIR = (
    "Master said the line at the soba shop was enormous, but the noodles were excellent.",
    "Master said the queue at the soba shop was huge, but the noodles were superb.",
)
SECRET = "I hid the letter from Master inside the blue teapot on the shelf."


def saved_id(answer: str) -> str:
    assert answer.startswith("Saved (id: "), answer
    return answer[len("Saved (id: ") :][:16]


async def wait_for(check: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.2)


def workspace_text(tmp_path: Path) -> str:
    return "".join(p.read_text() for p in sorted((tmp_path / "workspace").rglob("*.md")))


def front_end(env: dict[str, str]) -> Client:
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    return Client(params, read_timeout_seconds=60)


def chroma_client(chroma_url: str) -> Any:
    host, port = chroma_url.removeprefix("http://").split(":")
    return chromadb.HttpClient(
        host=host, port=int(port), settings=ChromaSettings(anonymized_telemetry=False)
    )


def memory_store(chroma_url: str, agent: str = "default") -> ChromaMemoryStore:
    signature = EmbeddingSignature("local", MODEL_NAME, DIMENSION)  # the default model
    name = collection_name(agent, "memories")
    return ChromaMemoryStore(open_collection(chroma_client(chroma_url), name, signature))


def deletion_log(chroma_url: str, agent: str = "default") -> ChromaDeletionLog:
    return open_deletion_log(chroma_client(chroma_url), agent)


def redis_dump(url: str) -> bytes:
    client = redis.Redis.from_url(url)
    everything = b""
    for key in client.scan_iter("*"):
        everything += key + (client.dump(key) or b"")
    client.close()
    return everything


async def test_forget_cleanup_scheduled_consolidation_and_no_content_in_redis(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    env = service_env(tmp_path, redis_server.url, chroma_url)
    worker = start_worker(env, tmp_path / "worker.log")
    try:
        async with front_end(env) as client:
            first = saved_id(text_of(await client.call_tool("remember", {"content": PAIR[0]})))
            planted = {"content": PAIR[1], "force": True}  # a rephrasing, past the guard
            second = saved_id(text_of(await client.call_tool("remember", planted)))
            private = {"content": SECRET, "private": True}
            saved_id(text_of(await client.call_tool("remember", private)))
            assert f"[id:{first}]" in workspace_text(tmp_path)

            forgotten = await client.call_tool("forget", {"memory_id": first})
            assert text_of(forgotten).startswith(f"Forgot (id: {first}")
            await wait_for(lambda: f"[id:{first}]" not in workspace_text(tmp_path))
            assert f"[id:{second}]" in workspace_text(tmp_path)

            again = {"content": PAIR[0], "force": True}
            third = saved_id(text_of(await client.call_tool("remember", again)))
            pool = await create_pool(RedisSettings.from_dsn(redis_server.url))
            await pool.enqueue_job("cron:consolidate", _job_id="test-cron-consolidate")
            status = redis.Redis.from_url(redis_server.url)
            await wait_for(lambda: status.hexists("ego:last-success", "consolidate:default"))
            await pool.aclose()

            answer = text_of(await client.call_tool("consolidate", {}))
            assert "Found 1 near-duplicate pair(s):" in answer
            assert third in answer and second in answer
            status.close()

            shown = subprocess.run(
                [sys.executable, "-m", "ego_mcp", "queue", "--json"],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
                check=True,
            )
            queue = json.loads(shown.stdout)
            assert set(queue["last_success"]["default"]) >= {"cleanup_workspace", "consolidate"}
            assert queue["failed"] == []
        assert SECRET.encode() not in redis_dump(redis_server.url)
        assert b"teapot" not in redis_dump(redis_server.url)
        assert SECRET not in workspace_text(tmp_path)
        assert "teapot" not in (tmp_path / "worker.log").read_text()
    finally:
        worker.terminate()
        worker.wait(timeout=30)


async def test_two_workers_and_a_front_end_keep_links_bidirectional(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    env = service_env(tmp_path, redis_server.url, chroma_url)
    workers = [start_worker(env, tmp_path / f"worker{i}.log") for i in range(2)]
    try:
        async with front_end(env) as client:
            topics = ["the river at dawn", "the stars over the sea", "a red kite in the wind"]
            ids = []
            for i in range(12):
                text = f"Master and I talked about {topics[i % 3]} (moment {i})."
                saved = await client.call_tool("remember", {"content": text, "force": True})
                ids.append(saved_id(text_of(saved)))
            pool = await create_pool(RedisSettings.from_dsn(redis_server.url))
            for slot in range(6):  # as if the cron fired on both workers, several times
                await pool.enqueue_job(
                    "consolidate", agent="default", _job_id=f"consolidate:default:{slot}"
                )
            for i in range(12, 20):  # the front end keeps linking meanwhile
                text = f"Master and I talked about {topics[i % 3]} again (moment {i})."
                await client.call_tool("remember", {"content": text, "force": True})
            for keep, remove in ((ids[0], ids[3]), (ids[1], ids[4])):  # and merging
                merged = await client.call_tool(
                    "merge_memories", {"keep_id": keep, "remove_id": remove}
                )
                assert text_of(merged).startswith(f"Merged {remove} into {keep}")
            restored = await client.call_tool("restore_memory", {"memory_id": ids[3]})
            assert not restored.is_error, text_of(restored)
            status = redis.Redis.from_url(redis_server.url)
            await wait_for(
                lambda: (
                    status.zcard("arq:queue") == 0
                    and not list(status.scan_iter("arq:in-progress:*"))
                )
            )
            status.close()
            await pool.aclose()
        store = memory_store(chroma_url)
        assert store.count() == 19  # 20 saved, 2 merged away, 1 restored
        assert assert_links_bidirectional(store) > 0
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=30)


async def test_killing_redis_mid_run_loses_no_cleanup(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    """Redis goes away: saving and forgetting go on, their link work waits, nothing is lost."""
    env = service_env(tmp_path, redis_server.url, chroma_url)
    worker = None
    try:
        async with front_end(env) as client:
            kept = saved_id(text_of(await client.call_tool("remember", {"content": PAIR[0]})))
            doomed_text = "The kite string snapped in the wind."
            doomed = saved_id(text_of(await client.call_tool("remember", {"content": doomed_text})))
            forgotten = await client.call_tool("forget", {"memory_id": doomed})
            assert not forgotten.is_error, text_of(forgotten)

            redis_server.stop()  # the cleanup job is queued and no worker has run it yet
            answer = await client.call_tool("recall", {"context": "kite"})
            assert not answer.is_error  # the front end keeps answering
            saved = text_of(await client.call_tool("remember", {"content": PAIR[1], "force": True}))
            assert "Links pending" in saved and "EGO_MCP_REDIS_URL" in saved
            rephrased = saved_id(saved)
            gone = text_of(await client.call_tool("forget", {"memory_id": kept}))
            assert gone.startswith("Forgot"), gone
            redis_server.start()

            worker = start_worker(env, tmp_path / "worker.log")
            await wait_for(lambda: f"[id:{doomed}]" not in workspace_text(tmp_path), seconds=90)
            await wait_for(lambda: f"[id:{kept}]" not in workspace_text(tmp_path), seconds=90)
            assert f"[id:{rephrased}]" in workspace_text(tmp_path)
        store = memory_store(chroma_url)
        assert set(store.existing_ids([kept, doomed, rephrased])) == {rephrased}
        assert_links_bidirectional(store)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)


async def test_hybrid_recall_against_a_chroma_server(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    from tests.memory.test_service import HYBRID_STORE

    env = service_env(tmp_path, redis_server.url, chroma_url)
    async with front_end(env) as client:
        ids = [
            saved_id(text_of(await client.call_tool("remember", {"content": t, "force": True})))
            for t in HYBRID_STORE
        ]
        for query, expected in (("LOG-131", ids[0]), ("佐藤さん", ids[4])):
            answer = text_of(await client.call_tool("recall", {"context": query, "n_results": 3}))
            assert answer.splitlines()[1].startswith("1. ") and expected in answer.splitlines()[1]
        found = text_of(await client.call_tool("search_memories", {"query": "LOG-88"}))
        assert ids[1] in found.splitlines()[1]
        # Tags are filtered by the server's Chroma too ($contains on a list).
        tagged = saved_id(
            text_of(
                await client.call_tool(
                    "remember", {"content": "LOG-131 again, on the night shift.", "tags": ["Ops"]}
                )
            )
        )
        query = {"context": "LOG-131", "n_results": 5, "tags": ["ops"]}
        only = text_of(await client.call_tool("recall", query))
        hits = [line for line in only.splitlines() if line.startswith(("1. ", "2. "))]
        assert len(hits) == 1 and tagged in hits[0]
    # A day of recall is counted on the server's records once, beside what they hold.
    store = memory_store(chroma_url)
    assert store.note_recalls([tagged, "mem_0123456789ab"], 20_000) == 1
    assert store.note_recalls([tagged], 20_000) == 0
    counted = store.get(tagged)
    assert counted is not None and (counted.recall_days, counted.tags) == (1, ("Ops",))


async def test_the_worker_purges_only_expired_deletion_log_entries(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    env = service_env(tmp_path, redis_server.url, chroma_url)
    worker = start_worker(env, tmp_path / "worker.log")
    try:
        async with front_end(env) as client:
            fresh = saved_id(text_of(await client.call_tool("remember", {"content": PAIR[0]})))
            await client.call_tool("forget", {"memory_id": fresh})
            log = deletion_log(chroma_url)
            entry = log.get(fresh)
            assert entry is not None
            old = replace(entry.memory, id="mem_0123456789ab")
            log.put(replace(entry, memory=old, deleted_at=datetime.now(UTC) - timedelta(days=8)))
            assert {e.memory.id for e in log.entries()} == {fresh, "mem_0123456789ab"}

            pool = await create_pool(RedisSettings.from_dsn(redis_server.url))
            await pool.enqueue_job("cron:purge_deletion_log", _job_id="test-cron-purge")
            status = redis.Redis.from_url(redis_server.url)
            await wait_for(lambda: status.hexists("ego:last-success", "purge_deletion_log:default"))
            await pool.aclose()
            status.close()

            assert [e.memory.id for e in log.entries()] == [fresh]
            restored = await client.call_tool("restore_memory", {"memory_id": fresh})
            assert text_of(restored).startswith(f"Restored (id: {fresh}")
    finally:
        worker.terminate()
        worker.wait(timeout=30)


async def test_a_memory_removed_again_after_a_restore_loses_its_workspace_lines(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    """arq keeps a finished job's result for an hour: a second removal of the same memory
    must still get a cleanup of its own (forget, restore, forget; merge, restore, forget)."""
    env = service_env(tmp_path, redis_server.url, chroma_url)
    worker = start_worker(env, tmp_path / "worker.log")
    try:
        async with front_end(env) as client:

            async def call(tool: str, **arguments: Any) -> str:
                result = await client.call_tool(tool, arguments)
                assert not result.is_error, text_of(result)
                return text_of(result)

            kept = saved_id(await call("remember", content=PAIR[0], force=True))
            again = saved_id(await call("remember", content=PAIR[1], force=True))
            for memory_id, first_removal in (
                (kept, {"tool": "forget", "memory_id": kept}),
                (again, {"tool": "merge_memories", "keep_id": kept, "remove_id": again}),
            ):
                if memory_id == again:
                    await call("restore_memory", memory_id=kept)
                tool = first_removal.pop("tool")
                await call(tool, **first_removal)
                await wait_for(lambda m=memory_id: f"[id:{m}]" not in workspace_text(tmp_path))
                await call("restore_memory", memory_id=memory_id)
                assert f"[id:{memory_id}]" in workspace_text(tmp_path)
                await call("forget", memory_id=memory_id)
                await wait_for(lambda m=memory_id: f"[id:{m}]" not in workspace_text(tmp_path))
    finally:
        worker.terminate()
        worker.wait(timeout=30)


async def test_one_front_ends_remember_is_found_by_the_others_keyword_recall(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    """Two front ends and a worker on one Chroma server: the lexical index is the
    server's, so a word one front end saved is found by the other's recall at once, and a
    memory one saved and the other forgot is gone for both."""
    from ego_mcp.store.lexical_chroma import open_chroma_lexical

    env_a = service_env(
        tmp_path, redis_server.url, chroma_url, EGO_MCP_DATA_DIR=str(tmp_path / "a")
    )
    env_b = service_env(
        tmp_path, redis_server.url, chroma_url, EGO_MCP_DATA_DIR=str(tmp_path / "b")
    )
    worker = start_worker(env_a, tmp_path / "worker.log")
    try:
        async with front_end(env_a) as a, front_end(env_b) as b:
            for text in PAIR:
                await b.call_tool("remember", {"content": text, "force": True})
            saved = {
                word: saved_id(text_of(await a.call_tool("remember", {"content": text})))
                for word, text in (
                    ("LOG-4471", "The nightly job failed on LOG-4471: the parser choked on a tab."),
                    ("秋葉原", "マスターと秋葉原で古い真空管ラジオを探した。"),
                )
            }
            for word, memory_id in saved.items():
                answer = text_of(await b.call_tool("recall", {"context": word, "n_results": 3}))
                top = answer.splitlines()[1]
                assert memory_id in top and "words: " in top, answer
            await b.call_tool("forget", {"memory_id": saved["LOG-4471"]})
            answer = text_of(await a.call_tool("recall", {"context": "LOG-4471", "n_results": 3}))
            assert saved["LOG-4471"] not in answer
            # a store on a server keeps no record of its own (an embedded one may): the
            # memory a saved, b forgot, is gone for a
            again = await a.call_tool("forget", {"memory_id": saved["LOG-4471"]})
            assert text_of(again).startswith("Memory not found"), text_of(again)
        lexical = open_chroma_lexical(chroma_client(chroma_url), "default")
        stored = {m for page in memory_store(chroma_url).ids() for m in page}
        assert lexical.ids() == stored and len(stored) == 3
    finally:
        worker.terminate()
        worker.wait(timeout=30)

"""Faults caused with real processes: Redis and the Chroma server stop and come back.

Two stdio front ends and two workers share a real redis-server and `chroma run`. Every
tool keeps answering (a one-line reason naming the setting, never an internal error),
nothing is lost, and once the fault is gone the link invariant holds over the whole store.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
import redis
from arq.connections import RedisSettings, create_pool
from arq.jobs import Job
from mcp import Client

from ego_mcp.queue.base import JobRequest
from tests.helpers import text_of
from tests.integration.conftest import ChromaServer, RedisServer, service_env, start_worker
from tests.integration.test_distributed import (
    front_end,
    memory_store,
    saved_id,
    wait_for,
    workspace_text,
)

pytestmark = [pytest.mark.anyio, pytest.mark.redis]
OUTAGE_SECONDS = 30
TOPICS = ["harbour", "violin", "orchard", "lantern", "glacier", "bakery", "comet", "meadow"]


@dataclass
class Ledger:
    """What the clients were told: saved, forgotten, linked, and every answer's text."""

    saved: set[str] = field(default_factory=set)
    forgotten: set[str] = field(default_factory=set)
    links: set[tuple[str, str]] = field(default_factory=set)
    answers: list[tuple[str, bool, str]] = field(default_factory=list)

    def note(self, tool: str, is_error: bool, text: str) -> None:
        self.answers.append((tool, is_error, text))


async def call(client: Client, ledger: Ledger, tool: str, **arguments: object) -> str | None:
    result = await client.call_tool(tool, arguments)
    text = text_of(result)
    ledger.note(tool, result.is_error, text)
    return None if result.is_error else text


async def mixed_load(client: Client, ledger: Ledger, name: str, until: float) -> None:
    """remember (introspections too) / recall / forget / link / consolidate / wake_up /
    emotion_trend, back to back."""
    rng = random.Random(name)
    mine: list[str] = []
    n = 0
    # Past ``until`` until a link_memories call has held (on a slow machine the few calls
    # outside the outage may include none), for at most a minute more.
    while time.monotonic() < until or (not ledger.links and time.monotonic() < until + 60):
        n += 1
        topic = rng.choice(TOPICS)
        saved = await call(
            client,
            ledger,
            "remember",
            content=f"{name} note {n}: thinking about the {topic} and what it meant ({n * 7}).",
            private=n % 5 == 0,
            category="introspection" if n % 7 == 0 else "daily",  # noted for wake_up
        )
        if saved is not None and saved.startswith("Saved"):
            mine.append(saved_id(saved))
            ledger.saved.add(mine[-1])
        await call(client, ledger, "recall", context=f"the {topic}")
        if len(mine) >= 3 and n % 3 == 0:
            victim = mine.pop(rng.randrange(len(mine)))
            if await call(client, ledger, "forget", memory_id=victim) is not None:
                ledger.forgotten.add(victim)
        if len(mine) >= 2 and n % 4 == 0:
            a, b = rng.sample(mine, 2)
            if await call(client, ledger, "link_memories", source_id=a, target_id=b) is not None:
                ledger.links.add((a, b))
        if n % 6 == 0:
            await call(client, ledger, "consolidate")
        if n % 5 == 0:
            await call(client, ledger, "wake_up")
            await call(client, ledger, "emotion_trend")


def assert_whole(chroma_url: str, ledger: Ledger) -> None:
    """0 lost, 0 one-sided, 0 dangling; every explicit link between survivors stands."""
    store = memory_store(chroma_url)
    alive = ledger.saved - ledger.forgotten
    assert store.existing_ids(sorted(ledger.saved)) == alive
    memories = {m.id: m for m in store.get_many(sorted(alive))}
    for memory in memories.values():
        for link in memory.linked_ids:
            assert link.target_id in alive, f"{memory.id} -> forgotten {link.target_id}"
            back = memories[link.target_id].link_to(memory.id)
            assert back is not None, f"one-sided {memory.id} -> {link.target_id}"
    for a, b in ledger.links:
        if a in alive and b in alive:
            assert memories[a].link_to(b) is not None, f"lost link {a} -> {b}"


def invariant_holds(chroma_url: str, ledger: Ledger) -> bool:
    try:
        assert_whole(chroma_url, ledger)
    except AssertionError:
        return False
    return True


async def test_redis_stopped_for_30_s_under_two_front_ends_and_two_workers(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    env = service_env(
        tmp_path, redis_server.url, chroma_url, EGO_MCP_LOG_FILE=str(tmp_path / "front.log")
    )
    workers = [start_worker(env, tmp_path / f"worker-{i}.log") for i in range(2)]
    ledger = Ledger()
    try:
        async with front_end(env) as first, front_end(env) as second:
            start = time.monotonic()
            until = start + 3 + OUTAGE_SECONDS + 5

            async def outage() -> None:
                await anyio.sleep(3)
                redis_server.stop()
                await anyio.sleep(OUTAGE_SECONDS)
                redis_server.start()

            async with anyio.create_task_group() as group:
                group.start_soon(outage)
                group.start_soon(mixed_load, first, ledger, "nova", until)
                group.start_soon(mixed_load, second, ledger, "sol", until)
            back = time.monotonic()

            # Within a minute of Redis returning, pending link work is done everywhere.
            try:
                await wait_for(lambda: invariant_holds(chroma_url, ledger), seconds=60)
            except AssertionError:
                assert_whole(chroma_url, ledger)  # says which part does not hold
                raise
            settled = time.monotonic() - back
            public_gone = [m for m in ledger.forgotten if m not in workspace_text(tmp_path)]
            await wait_for(
                lambda: all(f"[id:{m}]" not in workspace_text(tmp_path) for m in ledger.forgotten),
                seconds=60,
            )
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=30)

    crashes = [(tool, text) for tool, _, text in ledger.answers if "internal error" in text]
    assert crashes == []
    # A refusal is one line naming the setting behind it (Redis, or Chroma when a write
    # races a delete on the server), never an internal error.
    refusals = [(tool, text) for tool, error, text in ledger.answers if error]
    assert all(
        "\n" not in text and ("EGO_MCP_REDIS_URL" in text or "EGO_MCP_CHROMA_URL" in text)
        for _, text in refusals
    ), refusals
    pending = [text for tool, _, text in ledger.answers if "Links pending" in text]
    assert pending, "the outage was not seen by any save or forget"
    assert len(ledger.saved) > 20 and ledger.forgotten and ledger.links
    assert_whole(chroma_url, ledger)
    print(f"settled {settled:.1f}s after Redis returned; {len(public_gone)} cleanups checked")  # noqa: T201


async def test_chroma_server_stopped_and_restarted(
    tmp_path: Path, redis_server: RedisServer, chroma_server: ChromaServer
) -> None:
    env = service_env(tmp_path, redis_server.url, chroma_server.url)
    ledger = Ledger()
    async with front_end(env) as client:
        for topic in TOPICS[:5]:
            answer = await call(
                client, ledger, "remember", content=f"Before the fault I wrote about the {topic}."
            )
            assert answer is not None
            ledger.saved.add(saved_id(answer))

        chroma_server.stop()
        for tool, arguments in [
            ("remember", {"content": "During the fault."}),
            ("recall", {"context": "fault"}),
            ("forget", {"memory_id": sorted(ledger.saved)[0]}),
            ("wake_up", {}),
            ("introspect", {}),
        ]:
            result = await client.call_tool(tool, arguments)
            assert result.is_error, (tool, text_of(result))
            assert "EGO_MCP_CHROMA_URL" in text_of(result), text_of(result)
            assert "\n" not in text_of(result)

        chroma_server.start()
        answer = await call(client, ledger, "remember", content="After the fault, all is well.")
        assert answer is not None and answer.startswith("Saved")
        ledger.saved.add(saved_id(answer))
        recalled = await call(client, ledger, "recall", context="before the fault", n_results=5)
        assert recalled is not None
    assert_whole(chroma_server.url, ledger)


async def test_jobs_of_a_killed_worker_run_again_on_another(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    """kill -9 a worker while it holds jobs: another worker runs every one within 60 s."""
    env = service_env(tmp_path, redis_server.url, chroma_url)
    client = redis.Redis.from_url(redis_server.url)
    # Jobs that take the agent's lock wait while the test holds it: the worker is mid-job.
    held = client.lock("ego:lock:default", timeout=120)
    assert held.acquire()
    jobs = [JobRequest("repair_after_outage", "default", slot=f"s{n}") for n in range(4)] + [
        JobRequest("cleanup_episode_references", "default", slot=f"s{n}") for n in range(4)
    ]
    pool = await create_pool(RedisSettings.from_dsn(redis_server.url))
    doomed = start_worker(env, tmp_path / "doomed.log")
    survivor = None
    try:
        for job in jobs:
            await pool.enqueue_job(job.function, _job_id=job.job_id, **job.kwargs())
        await wait_for(lambda: len(list(client.scan_iter("arq:in-progress:*"))) == len(jobs))
        survivor = await kill_and_take_over(doomed, held, env, tmp_path, client, jobs)
        for job in jobs:
            result = await Job(job.job_id, pool).result_info()
            assert result is not None and result.success, job.job_id
    finally:
        await pool.aclose()
        client.close()
        for worker in (doomed, survivor):
            if worker is not None and worker.poll() is None:
                worker.terminate()
                worker.wait(timeout=30)


def test_a_held_lock_is_renewed_and_a_dead_holders_lock_expires(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    from ego_mcp.locks import RedisAgentLocks

    client = redis.Redis.from_url(redis_server.url)
    locks = RedisAgentLocks(client, timeout=1.0, wait=0.1)
    with locks.hold("nova"):
        time.sleep(2.5)  # well past the timeout: renewed, still ours
        assert client.exists("ego:lock:nova")
    assert not client.exists("ego:lock:nova")

    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import redis, time; from ego_mcp.locks import RedisAgentLocks\n"
            f"locks = RedisAgentLocks(redis.Redis.from_url('{redis_server.url}'), timeout=2)\n"
            "with locks.hold('nova'):\n    print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    killed_at = time.monotonic()
    while client.exists("ego:lock:nova"):
        assert time.monotonic() - killed_at < 10, "a dead holder's lock did not expire"
        time.sleep(0.1)
    with RedisAgentLocks(client, timeout=2, wait=1).hold("nova"):
        pass
    client.close()


async def test_reembed_refuses_while_a_front_end_of_the_agent_is_live(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    from ego_mcp.errors import StoreUnavailable
    from ego_mcp.runtime import Runtime
    from ego_mcp.settings import load_settings
    from tests.conftest import model_dir

    env = service_env(tmp_path, redis_server.url, chroma_url)
    settings = load_settings(
        data_dir=tmp_path / "data",
        redis_url=redis_server.url,
        chroma_url=chroma_url,
        embedding_model_dir=model_dir(),
    )
    async with front_end(env) as client:
        await call(client, Ledger(), "remember", content="A front end is here.")
        runtime = Runtime.open(settings)
        try:
            with pytest.raises(StoreUnavailable, match="1 live front end"):
                runtime.reembed("default")
        finally:
            runtime.close()
    runtime = Runtime.open(settings)
    try:
        assert runtime.reembed("default") == 0  # gone: allowed, and nothing to do
    finally:
        runtime.close()


async def kill_and_take_over(
    doomed: subprocess.Popen[bytes],
    held: Any,
    env: dict[str, str],
    tmp_path: Path,
    client: redis.Redis,
    jobs: list[JobRequest],
) -> subprocess.Popen[bytes]:
    """kill -9 ``doomed``, free the lock its jobs wait for, start another worker and wait
    (60 s at most) until every job has a result; returns the new worker."""
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=10)
    held.release()
    killed_at = time.monotonic()
    survivor = start_worker(env, tmp_path / "survivor.log")

    def all_done() -> bool:
        return all(client.exists(f"arq:result:{job.job_id}") for job in jobs)

    await wait_for(all_done, seconds=60)
    print(f"all jobs done {time.monotonic() - killed_at:.1f}s after the kill")  # noqa: T201
    return survivor


@pytest.mark.parametrize("delay", [0.0, 0.05])
async def test_jobs_a_worker_picked_up_just_before_it_was_killed_run_again(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str, delay: float
) -> None:
    """kill -9 a worker ``delay`` s after it picked jobs up, before their heartbeats may
    have started: arq's mark at pick-up must not hold them for five minutes."""
    env = service_env(tmp_path, redis_server.url, chroma_url)
    client = redis.Redis.from_url(redis_server.url)
    held = client.lock("ego:lock:default", timeout=120)  # the jobs wait for it, mid-job
    assert held.acquire()
    jobs = [JobRequest("repair_after_outage", "default", slot=f"p{n}") for n in range(4)]
    pool = await create_pool(RedisSettings.from_dsn(redis_server.url))
    doomed = start_worker(env, tmp_path / "doomed.log")
    survivor = None
    try:
        await wait_for(lambda: bool(client.exists("arq:queue:health-check")))  # polling now
        for job in jobs:
            await pool.enqueue_job(job.function, _job_id=job.job_id, **job.kwargs())
        deadline = time.monotonic() + 30
        while not any(True for _ in client.scan_iter("arq:in-progress:*")):
            assert time.monotonic() < deadline, "the worker picked nothing up"
        time.sleep(delay)
        survivor = await kill_and_take_over(doomed, held, env, tmp_path, client, jobs)
    finally:
        await pool.aclose()
        client.close()
        for worker in (doomed, survivor):
            if worker is not None and worker.poll() is None:
                worker.terminate()
                worker.wait(timeout=30)

"""The per-agent Redis lock on a real redis-server (it runs Lua)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
import redis

from ego_mcp.clock import FixedClock
from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.errors import LockUnavailable, StoreUnavailable
from ego_mcp.locks import RedisAgentLocks
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings
from tests.helpers import assert_links_bidirectional, save, snapshot
from tests.integration.conftest import RedisServer

pytestmark = pytest.mark.redis


def test_lock_excludes_a_second_holder_until_released(redis_server: RedisServer) -> None:
    locks_a = RedisAgentLocks(redis.Redis.from_url(redis_server.url))
    locks_b = RedisAgentLocks(redis.Redis.from_url(redis_server.url), wait=0.2)
    order: list[str] = []
    inside = threading.Event()

    def hold_a() -> None:
        with locks_a.hold("nova"):
            order.append("a in")
            inside.set()
            time.sleep(0.6)
            order.append("a out")

    thread = threading.Thread(target=hold_a)
    thread.start()
    inside.wait(5)
    with pytest.raises(StoreUnavailable, match="agent nova is busy"), locks_b.hold("nova"):
        order.append("b too early")
    with locks_b.hold("luna"):
        order.append("other agent is free")
    thread.join()
    with locks_b.hold("nova"):
        order.append("b in")
    assert order == ["a in", "other agent is free", "a out", "b in"]


def test_redis_down_is_a_clear_error(redis_server: RedisServer) -> None:
    locks = RedisAgentLocks(redis.Redis.from_url(redis_server.url, socket_connect_timeout=1))
    redis_server.stop()
    with pytest.raises(StoreUnavailable, match="EGO_MCP_REDIS_URL"), locks.hold("nova"):
        pass


def test_with_redis_stopped_merge_is_refused_whole_and_forget_restorable(
    redis_server: RedisServer,
    settings: Settings,
    embedder: LocalMultilingualUSE,
    clock: FixedClock,
) -> None:
    """A real redis-server stopped under the agent's lock: ``merge_memories`` writes
    nothing and names the setting; ``forget`` goes on and leaves its unlinking to a job;
    once Redis is back that job and ``restore_memory`` make the links two-way again."""
    client = redis.Redis.from_url(redis_server.url, socket_timeout=1, socket_connect_timeout=1)
    runtime = Runtime.open(settings, clock=clock, embedder=embedder, locks=RedisAgentLocks(client))
    try:
        memory = runtime.memory(settings.agent)
        first = save(memory, "We baked bread on Sunday morning.")
        second = save(memory, "On Sunday morning we baked a loaf of bread.")
        assert memory.get(second).link_to(first) is not None
        before = snapshot(memory.store)
        redis_server.stop()

        with pytest.raises(LockUnavailable, match="EGO_MCP_REDIS_URL"):
            memory.merge(first, second, "Sunday bread.")
        assert snapshot(memory.store) == before and memory.forgotten() == []

        forgotten = memory.forget(second)
        assert forgotten.pending_targets == (first,)

        redis_server.start()
        memory.unlink_forgotten(second, [first])
        assert memory.get(first).link_to(second) is None
        memory.restore(second)
        assert memory.get(second).link_to(first) is not None
        assert assert_links_bidirectional(memory.store) == 2
    finally:
        runtime.close()


def test_threads_of_one_process_take_turns_and_a_long_wait_is_busy(
    redis_server: RedisServer,
) -> None:
    """One process's threads queue for the agent among themselves before asking Redis:
    never two inside at once, every one served, and one that waits past ``wait`` in
    that queue is told the agent is busy."""
    client = redis.Redis.from_url(redis_server.url)
    locks = RedisAgentLocks(client, wait=10)
    inside: list[int] = []
    most = [0]
    served: list[int] = []
    guard = threading.Lock()

    def hold(number: int) -> None:
        with locks.hold("nova"):
            with guard:
                inside.append(number)
                most[0] = max(most[0], len(inside))
            time.sleep(0.02)
            with guard:
                inside.remove(number)
                served.append(number)

    threads = [threading.Thread(target=hold, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1 and sorted(served) == list(range(8))
    assert not client.exists("ego:lock:nova")

    impatient = RedisAgentLocks(client, wait=0.2)
    held = threading.Event()
    release = threading.Event()

    def hold_long() -> None:
        with impatient.hold("nova"):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold_long)
    holder.start()
    held.wait(5)
    with pytest.raises(StoreUnavailable, match="agent nova is busy"), impatient.hold("nova"):
        pass
    release.set()
    holder.join()
    with impatient.hold("nova"):
        assert client.exists("ego:lock:nova")
    client.close()


CONTENDER = """
import sys, threading, time
import redis
from ego_mcp.locks import RedisAgentLocks

locks = RedisAgentLocks(redis.Redis.from_url(sys.argv[1]))
threads, holds, lost = int(sys.argv[2]), [0], [0]
print("ready", flush=True)
sys.stdin.readline()
end = time.monotonic() + 3.0

def work():
    while time.monotonic() < end:
        try:
            with locks.hold("nova"):
                time.sleep(0.03)
                holds[0] += 1
        except Exception:
            lost[0] += 1

running = [threading.Thread(target=work) for _ in range(threads)]
for thread in running:
    thread.start()
for thread in running:
    thread.join()
print(holds[0], lost[0], flush=True)
"""


def test_processes_share_the_lock_while_one_hands_it_from_thread_to_thread(
    redis_server: RedisServer,
) -> None:
    """Three processes want one agent at once, two of them from four threads each:
    a process whose threads pass the hold among themselves does not keep out the others,
    which ask Redis between its holds (each gets a share, none is told it is busy): a
    thread handed the agent by another of its process asks at a random moment of the
    poll's interval, as the other processes' asking falls."""
    contenders = [
        subprocess.Popen(
            [sys.executable, "-c", CONTENDER, redis_server.url, str(threads)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for threads in (4, 4, 1)
    ]
    for process in contenders:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    for process in contenders:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    results = [process.communicate(timeout=60)[0].split() for process in contenders]
    holds = [int(held) for held, _ in results]
    assert [int(lost) for _, lost in results] == [0, 0, 0]
    # No order is promised (a 4-thread process got 7-17% of the holds in runs on a busy
    # host, the 1-thread one up to 89%), only that none is shut out: with a 0.3 s poll
    # one process took 98 of 103 holds, another 1.
    assert min(holds) >= sum(holds) // 30, holds

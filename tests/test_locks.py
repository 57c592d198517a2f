"""The Redis agent lock's queue within one process, against a stand-in client whose
lock hangs and then fails, as a Redis host that stopped answering does (the lock on a
real redis-server: tests/integration/test_redis_lock.py)."""

from __future__ import annotations

import threading
import time
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError

from ego_mcp.errors import LockUnavailable
from ego_mcp.locks import RedisAgentLocks


class HangingRedis:
    """Each lock's acquire takes ``hang`` seconds, then fails or succeeds; it counts how
    many acquires were under way at once."""

    def __init__(self, hang: float, fails: bool) -> None:
        self.hang = hang
        self.fails = fails
        self.asking = 0
        self.most_asking = 0
        self.asks = 0
        self._guard = threading.Lock()

    def lock(self, name: str, **options: Any) -> HangingLock:
        return HangingLock(self)


class HangingLock:
    def __init__(self, client: HangingRedis) -> None:
        self.client = client

    def acquire(self) -> bool:
        with self.client._guard:
            self.client.asks += 1
            self.client.asking += 1
            self.client.most_asking = max(self.client.most_asking, self.client.asking)
        time.sleep(self.client.hang)
        with self.client._guard:
            self.client.asking -= 1
        if self.client.fails:
            raise RedisConnectionError("no route to host")
        return True

    def reacquire(self) -> None:
        return None

    def release(self) -> None:
        return None


def hold_each(locks: RedisAgentLocks, threads: int) -> list[str]:
    outcomes: list[str] = []

    def hold() -> None:
        try:
            with locks.hold("nova"):
                outcomes.append("held")
        except LockUnavailable as exc:
            outcomes.append(f"unavailable: {exc}")
        except Exception as exc:  # the test reports whatever else it was
            outcomes.append(f"{type(exc).__name__}: {exc}")

    running = [threading.Thread(target=hold) for _ in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    return outcomes


def test_threads_queued_behind_a_hanging_redis_are_told_it_is_away_not_busy() -> None:
    """Redis hangs a second before failing: the first thread's failure reaches those
    waiting behind it, each told Redis is away (remember and forget then go on without
    the lock) without asking it again, none "busy" after the others' timeouts added up."""
    client = HangingRedis(hang=1.0, fails=True)
    locks = RedisAgentLocks(client, wait=2.5)
    outcomes = hold_each(locks, threads=5)
    assert len(outcomes) == 5
    assert all(o.startswith("unavailable: EGO_MCP_REDIS_URL") for o in outcomes), outcomes
    assert all("ConnectionError" in o for o in outcomes), outcomes
    assert client.asks == 1
    # A thread that comes after the failure asks Redis again; once it answers, the
    # failure is behind every later waiter.
    client.fails = False
    assert hold_each(locks, threads=2) == ["held", "held"]
    assert client.asks == 3


def test_only_one_thread_of_a_process_asks_redis_at_a_time() -> None:
    client = HangingRedis(hang=0.02, fails=False)
    outcomes = hold_each(RedisAgentLocks(client, wait=10), threads=6)
    assert outcomes == ["held"] * 6
    assert client.most_asking == 1

"""Per-agent locks around read-modify-write of links and episodes.

Embedded mode needs only a thread lock; distributed mode backs the same interface with
a Redis lock so front ends and workers on several machines take turns.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any, Protocol


class AgentLocks(Protocol):
    def hold(self, agent: str) -> AbstractContextManager[None]:
        """Block until this process holds ``agent``'s lock; release on exit."""
        ...


# How often a process waiting for another process's hold asks Redis again (redis-py's
# default is 0.1 s: under 24 clients each hand-over then idled for tens of milliseconds).
# Only one thread of a process asks at a time, so asking often costs little.
REDIS_POLL_S = 0.005
# How often a thread queued behind another of its process checks whether Redis has failed
# the one ahead of it meanwhile: then it is told so at once (``LockUnavailable``, which
# remember and forget answer without the lock), not after every thread ahead has waited
# out its own connection timeout.
QUEUE_CHECK_S = 0.25


class RedisAgentLocks:
    """Locks shared by every process that talks to the same Redis (front ends and workers).

    The threads of one process queue on a lock of their own first, so a hold passes from
    one thread to the next as soon as it is released, and only the thread at the head of
    the queue asks Redis (every ``REDIS_POLL_S`` while another process holds it); when
    Redis fails one of them, those queued behind it since are told so too. A held lock is
    renewed every third of its timeout by a small thread, so a long job keeps it, and a
    holder that dies loses it within ``timeout`` seconds. ``wait`` bounds the whole wait,
    in the queue and for Redis.
    """

    def __init__(self, client: Any, timeout: float = 15.0, wait: float = 30.0) -> None:
        self._client = client
        self._timeout = timeout
        self._wait = wait
        self._in_process = _Queues()
        # When Redis last failed a thread of this process (time.monotonic()), and how.
        self._redis_failed: tuple[float, str] = (float("-inf"), "")

    @contextmanager
    def hold(self, agent: str) -> Iterator[None]:
        from ego_mcp.errors import LockUnavailable

        queued_at = time.monotonic()
        deadline = queued_at + self._wait
        queue = self._in_process.of(agent)
        while not queue.acquire(timeout=max(0.0, min(QUEUE_CHECK_S, deadline - time.monotonic()))):
            failed_at, error = self._redis_failed
            if failed_at >= queued_at:
                raise LockUnavailable(_REDIS_AWAY.format(error=error))
            if time.monotonic() >= deadline:
                raise _busy(agent)
        try:
            with self._held_in_redis(agent, max(0.0, deadline - time.monotonic())):
                yield
        finally:
            queue.release()

    @contextmanager
    def _held_in_redis(self, agent: str, wait: float) -> Iterator[None]:
        from redis.exceptions import LockError, RedisError

        from ego_mcp.errors import LockUnavailable

        lock = self._client.lock(
            f"ego:lock:{agent}",
            timeout=self._timeout,
            sleep=REDIS_POLL_S,
            blocking_timeout=wait,
            thread_local=False,  # the renewing thread must see the token
        )
        try:
            acquired = lock.acquire()
        except RedisError as exc:
            self._redis_failed = (time.monotonic(), type(exc).__name__)
            raise LockUnavailable(_REDIS_AWAY.format(error=type(exc).__name__)) from None
        if not acquired:
            raise _busy(agent)
        done = threading.Event()
        renewer = threading.Thread(
            target=_renew, args=(lock, self._timeout / 3, done), name="ego-lock", daemon=True
        )
        renewer.start()
        try:
            yield
        finally:
            done.set()
            renewer.join()
            # LockError: it expired while held; the timeout bounds a crashed holder, not us.
            # RedisError: Redis went away meanwhile; the lock expires on its own.
            with suppress(LockError, RedisError):
                lock.release()


_REDIS_AWAY = (
    "EGO_MCP_REDIS_URL: Redis did not answer ({error}), so the agent's lock cannot be "
    "taken; try again when it is back"
)


def _busy(agent: str) -> Exception:
    from ego_mcp.errors import StoreUnavailable

    return StoreUnavailable(f"agent {agent} is busy (lock held elsewhere); try again shortly")


def _renew(lock: Any, every: float, done: threading.Event) -> None:
    """Reset the lock's time to live until ``done``; stop quietly if it cannot."""
    from redis.exceptions import LockError, RedisError

    while not done.wait(every):
        try:
            lock.reacquire()
        except (LockError, RedisError):
            return


class _Queues:
    """One plain lock per agent for the threads of this process."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}

    def of(self, agent: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(agent, threading.Lock())


class LocalAgentLocks:
    """Locks shared by the threads of one process."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}

    @contextmanager
    def hold(self, agent: str) -> Iterator[None]:
        with self._guard:
            lock = self._locks.setdefault(agent, threading.RLock())
        with lock:
            yield

"""Per-agent locks around read-modify-write of links and episodes.

Embedded mode needs only a thread lock; distributed mode backs the same interface with
a Redis lock so front ends and workers on several machines take turns.
"""

from __future__ import annotations

import random
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
# How often a thread waiting behind another of its process checks whether Redis has
# failed the one ahead of it meanwhile: then it is told so at once (``LockUnavailable``,
# which remember and forget answer without the lock), not after every thread ahead has
# waited out its own connection timeout.
WAITING_CHECK_S = 0.25


class RedisAgentLocks:
    """Locks shared by every process that talks to the same Redis (front ends and workers).

    The threads of one process first take a lock of their own for the agent (a plain
    lock: no order among them), so only one of them asks Redis at a time (every
    ``REDIS_POLL_S`` while another process holds it); a thread handed the agent by
    another of its process asks at a random moment of that interval, so that other
    processes waiting get their turns too. When Redis fails the one asking, the threads
    that were waiting for the agent then are told so too, unless a later ask has
    succeeded. A held lock is renewed every third of its timeout by a small thread, so a
    long job keeps it, and a holder that dies loses it within ``timeout`` seconds.
    ``wait`` bounds the whole wait, for the process's own lock and for Redis.
    """

    def __init__(self, client: Any, timeout: float = 15.0, wait: float = 30.0) -> None:
        self._client = client
        self._timeout = timeout
        self._wait = wait
        self._in_process = _AgentsInProcess()

    @contextmanager
    def hold(self, agent: str) -> Iterator[None]:
        from ego_mcp.errors import LockUnavailable

        waiting_since = time.monotonic()
        deadline = waiting_since + self._wait
        own = self._in_process.lock(agent)
        waited = not own.acquire(blocking=False)
        while waited and not own.acquire(
            timeout=max(0.0, min(WAITING_CHECK_S, deadline - time.monotonic()))
        ):
            failure = self._in_process.failed_since(agent, waiting_since)
            if failure is not None:
                raise LockUnavailable(_REDIS_AWAY.format(error=failure))
            if time.monotonic() >= deadline:
                raise _busy(agent)
        try:
            failure = self._in_process.failed_since(agent, waiting_since)
            if failure is not None:  # Redis failed the thread this one waited behind
                raise LockUnavailable(_REDIS_AWAY.format(error=failure))
            if waited:
                # Handed on by a thread of this process: ask Redis at a moment of the
                # poll's interval drawn at random, as another process's asking falls,
                # so that the threads of one process do not pass the agent among
                # themselves while other processes wait.
                time.sleep(random.uniform(0.0, REDIS_POLL_S))
            with self._held_in_redis(agent, max(0.0, deadline - time.monotonic())):
                yield
        finally:
            own.release()

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
            self._in_process.asked(agent, type(exc).__name__)
            raise LockUnavailable(_REDIS_AWAY.format(error=type(exc).__name__)) from None
        self._in_process.asked(agent, "")
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


class _AgentsInProcess:
    """For each agent, the lock this process's threads take before asking Redis, and
    how Redis last answered one of them (when, and the error's name, "" if it did)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._answers: dict[str, tuple[float, str]] = {}

    def lock(self, agent: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(agent, threading.Lock())

    def asked(self, agent: str, error: str) -> None:
        with self._guard:
            self._answers[agent] = (time.monotonic(), error)

    def failed_since(self, agent: str, moment: float) -> str | None:
        """The error Redis last answered for ``agent`` with, if that was after
        ``moment``; None if it has not failed since (or answered since)."""
        with self._guard:
            at, error = self._answers.get(agent, (float("-inf"), ""))
        return error if error and at >= moment else None


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

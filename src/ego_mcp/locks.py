"""Per-agent locks around read-modify-write of links and episodes.

Embedded mode needs only a thread lock; distributed mode backs the same interface with
a Redis lock so front ends and workers on several machines take turns.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any, Protocol


class AgentLocks(Protocol):
    def hold(self, agent: str) -> AbstractContextManager[None]:
        """Block until this process holds ``agent``'s lock; release on exit."""
        ...


class RedisAgentLocks:
    """Locks shared by every process that talks to the same Redis (front ends and workers)."""

    def __init__(self, client: Any, timeout: float = 60.0, wait: float = 30.0) -> None:
        self._client = client
        self._timeout = timeout
        self._wait = wait

    @contextmanager
    def hold(self, agent: str) -> Iterator[None]:
        from redis.exceptions import LockError, RedisError

        from ego_mcp.errors import LockUnavailable, StoreUnavailable

        lock = self._client.lock(
            f"ego:lock:{agent}", timeout=self._timeout, blocking_timeout=self._wait
        )
        try:
            acquired = lock.acquire()
        except RedisError as exc:
            raise LockUnavailable(
                f"EGO_MCP_REDIS_URL: Redis did not answer ({type(exc).__name__}), so the "
                "agent's lock cannot be taken; try again when it is back"
            ) from None
        if not acquired:
            raise StoreUnavailable(
                f"agent {agent} is busy (lock held elsewhere); try again shortly"
            )
        try:
            yield
        finally:
            # LockError: it expired while held; the timeout bounds a crashed holder, not us.
            # RedisError: Redis went away meanwhile; the lock expires on its own.
            with suppress(LockError, RedisError):
                lock.release()


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

"""Per-agent locks around read-modify-write of links and episodes.

Embedded mode needs only a thread lock; distributed mode backs the same interface with
a Redis lock so front ends and workers on several machines take turns.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol


class AgentLocks(Protocol):
    def hold(self, agent: str) -> AbstractContextManager[None]:
        """Block until this process holds ``agent``'s lock; release on exit."""
        ...


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

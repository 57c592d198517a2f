"""Whole-window reads in a front end: in one thread of their own, one at a time, and
shared by those who ask for the same one at once.

Several sessions of an agent (or many agents on one HTTP front end) may each call
``consolidate`` while memories are being saved, so no stored result is fresh and every
call reads the agent's window (up to 1,000 memories with their vectors, about 50 MiB at
its peak). Run in whichever worker thread was free, each read left its peak in that
thread's glibc arena: under 24 clients a front end grew from 270 to 490 MiB in 4,000
writes. In one thread the peak is paid once; one at a time, it is one window's; and a
call for the same agent while its read runs takes that read's result.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class WindowReads:
    """Runs keyed blocking work in one thread; a caller whose key is running shares it."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ego-window")
        self._running: dict[Hashable, asyncio.Future[Any]] = {}

    async def run(self, key: Hashable, work: Callable[[], T]) -> T:
        running = self._running.get(key)
        if running is None:
            running = asyncio.get_running_loop().run_in_executor(self._thread, work)
            self._running[key] = running
            running.add_done_callback(lambda _: self._running.pop(key, None))
        result: T = await asyncio.shield(running)
        return result

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)

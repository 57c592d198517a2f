"""Values worked out from the memories of one closed hour, kept in this process.

A summary of a busy month (thousands of memories) need not read the month again on every
call: the memories of an hour that has ended do not change, except when one of them is
forgotten, or a memory is saved with that hour's time. ``MemoryService`` drops an hour's
value on both; what a value is belongs to its user (the emotion trend's tallies).
"""

from __future__ import annotations

import threading
from datetime import datetime

HOUR_S = 3600


def hour_of(moment: datetime) -> int:
    return int(moment.timestamp() // HOUR_S)


class ClosedHours:
    def __init__(self) -> None:
        self._values: dict[int, object] = {}
        self._lock = threading.Lock()

    def get(self, hour: int) -> object | None:
        with self._lock:
            return self._values.get(hour)

    def put(self, hour: int, value: object) -> None:
        with self._lock:
            self._values[hour] = value

    def drop(self, moment: datetime) -> None:
        """A memory of ``moment``'s hour was saved or forgotten: its value is stale."""
        with self._lock:
            self._values.pop(hour_of(moment), None)

    def keep_from(self, hour: int) -> None:
        """Forget values of hours before ``hour`` (out of every window now)."""
        with self._lock:
            for old in [h for h in self._values if h < hour]:
                del self._values[old]

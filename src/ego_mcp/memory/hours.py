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
    """Hour -> value; ``version`` changes whenever a value comes or goes, so values
    derived from several hours (``derived``) are kept only while it holds."""

    def __init__(self) -> None:
        self._values: dict[int, object] = {}
        self._derived: dict[object, tuple[int, object]] = {}
        self._lock = threading.Lock()
        self.version = 0

    def get(self, hour: int) -> object | None:
        with self._lock:
            return self._values.get(hour)

    def put_all(self, values: dict[int, object], read_at: int) -> bool:
        """Keep ``values``, worked out from a read begun at version ``read_at``, unless a
        value came or went since (a forget may have landed mid-read); False if not kept."""
        with self._lock:
            if self.version != read_at:
                return False
            self._values.update(values)
            self.version += 1
            return True

    def drop(self, moment: datetime) -> None:
        """A memory of ``moment``'s hour was saved or forgotten: its value is stale."""
        with self._lock:
            if self._values.pop(hour_of(moment), None) is not None:
                self.version += 1

    def keep_from(self, hour: int) -> None:
        """Forget values of hours before ``hour`` (out of every window now)."""
        with self._lock:
            old = [h for h in self._values if h < hour]
            for gone in old:
                del self._values[gone]
            self.version += bool(old)

    def derived(self, key: object, version: int) -> object | None:
        """A value derived from several hours at ``version``, if the hours are unchanged."""
        with self._lock:
            found = self._derived.get(key)
            return found[1] if found is not None and found[0] == version else None

    def keep_derived(self, key: object, version: int, value: object) -> None:
        with self._lock:
            self._derived = {k: v for k, v in self._derived.items() if v[0] == version}
            self._derived[key] = (version, value)

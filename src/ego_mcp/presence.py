"""Live front ends announce themselves in Redis, so a re-embed can refuse to run under them.

Each front end of an agent keeps ``ego:frontend:{agent}:{token}`` alive (30 s at a time,
renewed every 10 s by a small thread); a killed one disappears within 30 s.
"""

from __future__ import annotations

import secrets
import threading
from contextlib import suppress
from typing import Any

TTL_MS = 30_000
EVERY_SECONDS = 10.0


def presence_pattern(agent: str) -> str:
    return f"ego:frontend:{agent}:*"


def live_front_ends(client: Any, agent: str) -> int:
    return sum(1 for _ in client.scan_iter(presence_pattern(agent)))


class PresenceBeacon:
    """Keeps this front end's key alive until stopped."""

    def __init__(self, client: Any, agent: str) -> None:
        self._client = client
        self._key = f"ego:frontend:{agent}:{secrets.token_hex(6)}"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ego-presence", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        from redis.exceptions import RedisError

        self._stop.set()
        self._thread.join(timeout=2)
        with suppress(RedisError, OSError):
            self._client.delete(self._key)

    def _run(self) -> None:
        from redis.exceptions import RedisError

        while True:
            with suppress(RedisError, OSError):
                self._client.set(self._key, b"1", px=TTL_MS)
            if self._stop.wait(EVERY_SECONDS):
                return

"""An exclusive lock file that keeps a second process out of an embedded Chroma directory."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from ego_mcp.errors import StoreHeld

LOCK_NAME = ".ego-mcp.lock"


class DirectoryLock:
    """Held for the life of the process that opened the directory; released on close or exit.

    The file holds the holder's pid while it is held and is emptied on a clean release, so
    the next holder knows whether the last one was killed (``previous_holder_died``) and
    may have left a write half done.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._handle: IO[str] | None = None
        self.previous_holder_died = False

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise StoreHeld(
                f"the embedded store {self.path.parent} is already open in another process "
                f"(pid {holder}); run one process per EGO_MCP_DATA_DIR, or set "
                "EGO_MCP_CHROMA_URL to share a Chroma server",
                holder,
            ) from None
        handle.seek(0)
        self.previous_holder_died = bool(handle.read().strip())
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle = handle

    def is_held(self) -> bool:
        """Whether another process holds the lock now (a probe: it may change at once)."""
        if not self.path.exists():
            return False
        with self.path.open("a+") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        return False

    def release(self) -> None:
        if self._handle is not None:
            self._handle.seek(0)
            self._handle.truncate()  # empty: released cleanly
            self._handle.flush()
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None

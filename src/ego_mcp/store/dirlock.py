"""An exclusive lock file that keeps a second process out of an embedded Chroma directory."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from ego_mcp.errors import StoreUnavailable

LOCK_NAME = ".ego-mcp.lock"


class DirectoryLock:
    """Held for the life of the process that opened the directory; released on close or exit."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._handle: IO[str] | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise StoreUnavailable(
                f"the embedded store {self.path.parent} is already open in another process "
                f"(pid {holder}); run one process per EGO_MCP_DATA_DIR, or set "
                "EGO_MCP_CHROMA_URL to share a Chroma server"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None

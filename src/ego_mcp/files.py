"""Crash-safe file writes shared by the workspace sync and the state documents."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str, new_mode: int = 0o644) -> None:
    """Write to a temp file beside ``path``, fsync, then rename over it.

    A crash leaves either the old file or the new one, never half of either. A symlink
    is followed (its target is replaced, the link stays), an existing file keeps its
    mode, and a new file gets ``new_mode``.
    """
    target = path.resolve() if path.is_symlink() else path
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else new_mode
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise

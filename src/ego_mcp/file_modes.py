"""Files only the user who runs ego-mcp can read: the store holds private memories and the
deletion log, and the logs name agents. Folders 0700, files 0600."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

PRIVATE_UMASK = 0o077  # nothing new for the group or others


def create_private() -> None:
    """Make every file and folder this process creates from now on private to its user."""
    os.umask(PRIVATE_UMASK)


# What ego-mcp keeps in a data dir; nothing else there is touched (it may be any folder).
OURS = (
    "chroma",
    "state",
    "lexical",
    "forgotten",
    "replies.sqlite3",
    "replies.sqlite3-wal",
    "replies.sqlite3-shm",
    "ego-mcp.sock",
)


def private_folder(folder: Path) -> None:
    """Create the data dir ``folder`` (0700) if need be, and take from what ego-mcp keeps
    in it (``OURS``, whole), and from the folder itself if it holds nothing else, what
    the group and others could read (a data dir an older version made 0755)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    kept = [folder / name for name in OURS]
    below = [path for top in kept if top.is_dir() for path in top.rglob("*")]
    # The folder itself only when it is ego-mcp's alone: a data dir set to a folder the
    # user shares (their home, a project) keeps its mode.
    try:
        own = [folder] if all(child.name in OURS for child in folder.iterdir()) else []
    except OSError:
        own = []
    for path in (*own, *kept, *below):
        with contextlib.suppress(OSError):  # not ours, or gone meanwhile
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode) or not stat.S_IMODE(info.st_mode) & PRIVATE_UMASK:
                continue
            os.chmod(path, stat.S_IMODE(info.st_mode) & ~PRIVATE_UMASK)


def private_file(path: Path) -> None:
    """Create ``path`` (0600) if need be, and make an existing one 0600."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    os.chmod(path, 0o600)

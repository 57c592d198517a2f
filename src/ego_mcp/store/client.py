"""Builds the Chroma client the settings ask for, with telemetry off."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ego_mcp.errors import StoreUnavailable
from ego_mcp.file_modes import private_folder
from ego_mcp.settings import Settings
from ego_mcp.store.dirlock import DirectoryLock


@dataclass
class ChromaHandle:
    """A Chroma client and, in embedded mode, the lock that makes it ours alone."""

    client: Any
    lock: DirectoryLock | None

    def close(self) -> None:
        if self.lock is not None:
            self.lock.release()


def chroma_directory(settings: Settings) -> Path:
    """Where the embedded ChromaDB (and its directory lock) lives."""
    return settings.data_dir / "chroma"


def lock_directory(settings: Settings) -> DirectoryLock:
    """Take the embedded store's directory lock (``StoreHeld`` when another process has it).
    The data dir is made private to this user (0700, files 0600) first."""
    lock = DirectoryLock(chroma_directory(settings))
    try:
        private_folder(settings.data_dir)
        lock.acquire()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise StoreUnavailable(
            f"EGO_MCP_DATA_DIR: cannot use {settings.data_dir} ({reason})"
        ) from None
    return lock


def check_writable(directory: Path) -> None:
    """A store this user cannot write (copied from another user, a read-only file) is
    refused at start in one line, not on every tool call."""
    for path in (directory, directory / "chroma.sqlite3"):
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            raise StoreUnavailable(
                f"EGO_MCP_DATA_DIR: {path} cannot be read and written by this user "
                f"(uid {os.getuid()}); give it back to this user, or use another data dir"
            )


def open_chroma(settings: Settings, held: DirectoryLock | None = None) -> ChromaHandle:
    """The Chroma client: of the server at ``EGO_MCP_CHROMA_URL``, else of the embedded
    store, under its directory lock (``held`` if the caller took it already)."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_url is not None:
        url = urlparse(settings.chroma_url)
        try:
            client = chromadb.HttpClient(
                host=url.hostname or "localhost",
                port=url.port or (443 if url.scheme == "https" else 8000),
                ssl=url.scheme == "https",
                settings=chroma_settings,
            )
            client.heartbeat()
        except Exception as exc:
            raise StoreUnavailable(
                f"EGO_MCP_CHROMA_URL: cannot reach the Chroma server ({type(exc).__name__})"
            ) from None
        return ChromaHandle(client, None)

    lock = held or lock_directory(settings)
    try:
        check_writable(chroma_directory(settings))
        client = chromadb.PersistentClient(
            path=str(chroma_directory(settings)), settings=chroma_settings
        )
    except Exception:
        if held is None:  # a lock the caller took is the caller's to release
            lock.release()
        raise
    return ChromaHandle(client, lock)

"""The agents file (``EGO_MCP_AGENTS_FILE``): which bearer token selects which agent.

It keeps a SHA-256 of each token, never the token: ``ego-mcp agents add NAME`` makes a
random token, stores its hash and prints the token once. Tokens are 256 random bits, so a
plain hash is as hard to reverse as the token is to guess. The HTTP front end rereads the
file when it changes, so an agent added or removed takes effect without a restart.

    {"version": 1, "agents": {"nova": {"sha256": "9f86d0...", "added": "2026-11-22T09:00:00Z"}}}
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ego_mcp.errors import ConfigError
from ego_mcp.files import write_atomically
from ego_mcp.settings import AGENT_NAME_PATTERN
from ego_mcp.store.agent_files import twin

VERSION = 1
SETTING = "EGO_MCP_AGENTS_FILE"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class AgentTokens:
    """Agent name -> SHA-256 of its token."""

    hashes: dict[str, str]

    def agent_for(self, token: str) -> str | None:
        """The agent whose token this is; every entry is compared, in constant time."""
        wanted = token_hash(token)
        found = None
        for agent, stored in self.hashes.items():
            if hmac.compare_digest(wanted, stored):
                found = agent
        return found


def parse(text: str, path: Path) -> AgentTokens:
    """The tokens of an agents file's text; a malformed file is a ConfigError naming it."""
    try:
        document = json.loads(text)
        agents = document["agents"]
        hashes = {str(name): str(entry["sha256"]) for name, entry in agents.items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ConfigError(
            f'{SETTING}: {path} is not an agents file (JSON with an "agents" object); '
            "create it with `ego-mcp agents add NAME`"
        ) from None
    for name, digest in hashes.items():
        if not AGENT_NAME_PATTERN.match(name) or len(digest) != 64:
            raise ConfigError(f"{SETTING}: {path} has a bad entry for agent {name!r}")
    return AgentTokens(hashes)


def read(path: Path) -> AgentTokens:
    try:
        return parse(path.read_text(encoding="utf-8"), path)
    except FileNotFoundError:
        raise ConfigError(
            f"{SETTING}: {path} does not exist; create it with `ego-mcp agents add NAME`"
        ) from None


def _document(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"version": VERSION, "agents": {}}
    text = path.read_text(encoding="utf-8")
    parse(text, path)  # refuse to rewrite a file we cannot read
    document: dict[str, Any] = json.loads(text)
    return document


def add_agent(path: Path, agent: str) -> str:
    """Add ``agent`` with a new token; returns the token (shown once, never stored)."""
    document = _document(path)
    other = twin(agent, set(document["agents"]))
    if other is not None:
        raise ConfigError(
            f"agent {agent} differs from {other}, in {path} already, only in case: their "
            "files would be one on a file system that ignores case"
        )
    if agent in document["agents"]:
        raise ConfigError(
            f"agent {agent} is in {path} already; `ego-mcp agents remove {agent}` first to "
            "give it a new token"
        )
    token = secrets.token_urlsafe(32)
    added = datetime.now(UTC).isoformat(timespec="seconds")
    document["agents"][agent] = {"sha256": token_hash(token), "added": added}
    write_atomically(path, json.dumps(document, indent=1) + "\n", new_mode=0o600)
    return token


def remove_agent(path: Path, agent: str) -> None:
    document = _document(path)
    if agent not in document["agents"]:
        raise ConfigError(f"agent {agent} is not in {path}")
    del document["agents"][agent]
    write_atomically(path, json.dumps(document, indent=1) + "\n", new_mode=0o600)


class AgentsFile:
    """The agents file as the HTTP front end reads it: again whenever it changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._tokens = read(path)
        self._stamp = self._current_stamp()

    def tokens(self) -> AgentTokens:
        """The current tokens; a file made unreadable meanwhile keeps the last good ones."""
        stamp = self._current_stamp()
        with self._lock:
            if stamp is not None and stamp != self._stamp:
                try:
                    self._tokens = read(self.path)
                except ConfigError:
                    pass  # mid-edit or broken: keep serving with what we had
                else:
                    self._stamp = stamp
            return self._tokens

    def _current_stamp(self) -> tuple[int, int] | None:
        try:
            status = os.stat(self.path)
        except OSError:
            return None
        return status.st_mtime_ns, status.st_size

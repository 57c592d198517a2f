"""The relay's first line to the holder: who its client is, and what the holder must agree on.

A relay is another ``ego-mcp serve`` on the same data dir, started with its own
settings. It is served as itself: its ``EGO_MCP_AGENT``, its workspace and its companion
(``AgentProfile``). Settings of the whole process (the embedding model, Redis, the
thresholds and schedules) cannot differ between two windows served by one process, so a
mismatch is refused in one line naming the variable. Pure: no sockets here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ego_mcp.profiles import AgentProfile
from ego_mcp.server.sharing.replay import parse
from ego_mcp.settings import Settings

PROTOCOL_KEY = "ego-mcp/relay"
VERSION = 1


def _hashed(value: object) -> str:
    """A value compared but never sent as it is (a URL may carry a password)."""
    return hashlib.sha256(str(value).encode()).hexdigest()


# Settings of the process that serves every window: variable -> its value as compared.
PROCESS_SETTINGS: dict[str, Callable[[Settings], str]] = {
    "EGO_MCP_EMBEDDING_PROVIDER": lambda s: s.embedding_provider,
    "EGO_MCP_EMBEDDING_MODEL": lambda s: s.resolved_embedding_model,
    "EGO_MCP_REDIS_URL": lambda s: "unset" if s.redis_url is None else _hashed(s.redis_url),
    "EGO_MCP_DEDUP_THRESHOLD": lambda s: str(s.dedup_threshold or "default"),
    "EGO_MCP_MERGE_THRESHOLD": lambda s: str(s.merge_threshold or "default"),
    "EGO_MCP_LINK_THRESHOLD": lambda s: str(s.link_threshold or "default"),
    "EGO_MCP_FORGET_UNDO_DAYS": lambda s: str(s.forget_undo_days),
    "EGO_MCP_CONSOLIDATE_EVERY_HOURS": lambda s: str(s.consolidate_every_hours),
    "EGO_MCP_MERGE_SCAN_HOUR_UTC": lambda s: str(s.merge_scan_hour_utc),
    "EGO_MCP_EPISODE_CLEANUP_EVERY_HOURS": lambda s: str(s.episode_cleanup_every_hours),
}
SHOWN = {"EGO_MCP_EMBEDDING_PROVIDER", "EGO_MCP_EMBEDDING_MODEL"}  # safe to quote


@dataclass(frozen=True)
class Hello:
    """What a relay says of itself before its client's first line."""

    session: str  # the relay's own id for its client's session (replies are keyed by it)
    agent: str
    workspace: str | None
    companion_name: str
    process: dict[str, str] = field(default_factory=dict)
    # An operator's command (``backup.command``) for the holder to run, in place of a
    # session: ``ego-mcp export`` or ``import`` while a server holds the store.
    command: dict[str, Any] | None = None

    @classmethod
    def of(cls, settings: Settings, session: str) -> Hello:
        workspace = settings.workspace_for(settings.agent)
        return cls(
            session=session,
            agent=settings.agent,
            workspace=str(workspace.resolve()) if workspace is not None else None,
            companion_name=settings.companion_name,
            process={name: read(settings) for name, read in PROCESS_SETTINGS.items()},
        )

    @property
    def profile(self) -> AgentProfile:
        workspace = Path(self.workspace) if self.workspace is not None else None
        return AgentProfile(workspace, self.companion_name)

    def line(self) -> str:
        body = {
            PROTOCOL_KEY: VERSION,
            "session": self.session,
            "agent": self.agent,
            "workspace": self.workspace,
            "companion_name": self.companion_name,
            "process": self.process,
        }
        if self.command is not None:
            body["command"] = self.command
        return json.dumps(body) + "\n"

    @classmethod
    def parse(cls, line: str) -> Hello | None:
        """The hello in ``line``; None for anything else (an older relay's first line)."""
        body = parse(line)
        if body is None or body.get(PROTOCOL_KEY) != VERSION:
            return None
        try:
            return cls(
                session=str(body["session"]),
                agent=str(body["agent"]),
                workspace=None if body["workspace"] is None else str(body["workspace"]),
                companion_name=str(body["companion_name"]),
                process={str(k): str(v) for k, v in dict(body["process"]).items()},
                command=dict(body["command"]) if body.get("command") is not None else None,
            )
        except (KeyError, TypeError, ValueError):
            return None


def welcome_line() -> str:
    return json.dumps({PROTOCOL_KEY: VERSION, "welcome": True}) + "\n"


def refusal_line(reason: str) -> str:
    return json.dumps({PROTOCOL_KEY: VERSION, "refused": reason}) + "\n"


def answer_of(line: str) -> str | None:
    """The holder's answer to a hello: None when welcome, else the reason it refused."""
    body = parse(line)
    if body is None or PROTOCOL_KEY not in body:
        return "the process holding the store did not answer as this version of ego-mcp does"
    if body.get("welcome") is True:
        return None
    return str(body.get("refused") or "refused without a reason")


def process_mismatch(own: Settings, hello: Hello, holder_pid: int) -> str | None:
    """Why ``hello``'s window cannot be served by a process with ``own`` settings."""
    for name, read in PROCESS_SETTINGS.items():
        ours, theirs = read(own), hello.process.get(name)
        if ours == theirs:
            continue
        # Read by the window: the holder's value, then its own.
        values = f" (the holder: {ours}; this window: {theirs})" if name in SHOWN else ""
        return (
            f"{name} differs from the process that holds the store (pid {holder_pid}){values}; "
            f"start every ego-mcp serve on this EGO_MCP_DATA_DIR with the same {name}"
        )
    return None


class LiveSessions:
    """The agents served now and the profile each is served with: two windows of one
    agent must agree on its workspace and companion."""

    def __init__(self, own_agent: str, own_profile: AgentProfile) -> None:
        self._profiles: dict[str, AgentProfile] = {own_agent: own_profile}
        self._counts: dict[str, int] = {own_agent: 1}

    def admit(self, hello: Hello) -> str | None:
        """Register ``hello``'s session; why not, if its agent is served otherwise now."""
        current = self._profiles.get(hello.agent)
        if current is not None and self._counts.get(hello.agent, 0) > 0:
            if current.workspace != hello.profile.workspace:
                return _profile_refusal(hello.agent, "EGO_MCP_WORKSPACE_DIR")
            if current.companion_name != hello.companion_name:
                return _profile_refusal(hello.agent, "EGO_MCP_COMPANION_NAME")
        self._profiles[hello.agent] = hello.profile
        self._counts[hello.agent] = self._counts.get(hello.agent, 0) + 1
        return None

    def leave(self, agent: str) -> None:
        self._counts[agent] = max(0, self._counts.get(agent, 0) - 1)


def _profile_refusal(agent: str, variable: str) -> str:
    return (
        f"agent {agent} is served now by another window on this data dir with another "
        f"{variable}; give the windows of one EGO_MCP_AGENT the same {variable}, "
        "or this window another EGO_MCP_AGENT"
    )

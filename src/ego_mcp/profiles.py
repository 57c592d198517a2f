"""Who each agent is served as: its workspace folder and its companion's name.

A process serves its own ``EGO_MCP_AGENT`` with its own settings. A stdio server holding
an embedded store also serves the other windows on that data dir (``server.sharing``),
each as the agent, workspace and companion *that window* was started with: their
profiles are adopted here, and every per-agent part (workspace sync, the ego service)
reads them from here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ego_mcp.settings import Settings


@dataclass(frozen=True)
class AgentProfile:
    """What a front end serves an agent with, besides the shared store."""

    workspace: Path | None
    companion_name: str

    @classmethod
    def of(cls, settings: Settings, agent: str) -> AgentProfile:
        workspace = settings.workspace_for(agent)
        # Resolved, as a window's hello gives it: one folder compares equal however named.
        return cls(workspace.resolve() if workspace is not None else None, settings.companion_name)


class AgentProfiles:
    """The agents this process serves and the profile of each (thread-safe)."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._adopted: dict[str, AgentProfile] = {}
        self._guard = threading.Lock()
        self._listeners: list[Callable[[str], None]] = []

    def on_change(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(agent)`` whenever an agent's profile changes."""
        self._listeners.append(listener)

    def profile(self, agent: str) -> AgentProfile:
        """The adopted profile of ``agent``, else the one its settings give."""
        with self._guard:
            adopted = self._adopted.get(agent)
        return adopted if adopted is not None else AgentProfile.of(self._settings, agent)

    def adopt(self, agent: str, profile: AgentProfile) -> None:
        """Serve ``agent`` with ``profile`` from now on."""
        with self._guard:
            before = self._adopted.get(agent)
            self._adopted[agent] = profile
        if (before or AgentProfile.of(self._settings, agent)) != profile:
            for listener in self._listeners:
                listener(agent)

    def agents(self) -> list[str]:
        """Our own agent and every agent adopted since start (their jobs run here too)."""
        with self._guard:
            adopted = set(self._adopted)
        return sorted(adopted | {self._settings.agent})

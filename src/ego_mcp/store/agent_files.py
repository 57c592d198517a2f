"""The files an embedded store keeps for each agent, named by the agent: its lexical index
(``lexical/<agent>.sqlite3``), its deletion log (``forgotten/<agent>.sqlite3``) and its
state documents (``state/<agent>/``).

Two agent names that differ only in case (Nova, nova) would share those files on a file
system that ignores case (macOS's and Windows' by default): one agent would read the
other's index, log and documents. So an agent whose name another agent's files spell
otherwise is refused with the name that holds them, on every file system alike (a data
dir copied from Linux to a Mac must not start sharing). Chroma's collections and Redis
keys tell case apart and need no such care.
"""

from __future__ import annotations

from pathlib import Path

from ego_mcp.errors import ConfigError

FOLDERS = ("lexical", "forgotten", "state")


def spelled_otherwise(data_dir: Path, agent: str) -> str | None:
    """The name of another agent whose files in ``data_dir`` differ from ``agent``'s only
    in case, if there is one (agent names hold no dot: ``Nova.sqlite3-wal`` is Nova's)."""
    wanted = agent.casefold()
    for folder in FOLDERS:
        try:
            entries = sorted((data_dir / folder).iterdir())
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            owner = entry.name.split(".", 1)[0]
            if owner != agent and owner.casefold() == wanted:
                return owner
    return None


def claim(data_dir: Path, agent: str) -> None:
    """Refuse ``agent`` if another agent's files spell its name otherwise."""
    other = spelled_otherwise(data_dir, agent)
    if other is not None:
        raise ConfigError(
            f"EGO_MCP_AGENT: agent {agent!r} differs from agent {other!r} only in case, and "
            f"their files in {data_dir} would be one on a file system that ignores case; "
            f"use {other!r} or another name"
        )


def clashing(names: list[str]) -> tuple[str, str] | None:
    """Two of ``names`` that differ only in case, if any."""
    seen: dict[str, str] = {}
    for name in names:
        first = seen.setdefault(name.casefold(), name)
        if first != name:
            return first, name
    return None

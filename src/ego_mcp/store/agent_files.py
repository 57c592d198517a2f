"""The files an embedded store keeps for each agent, named by the agent: its lexical index
(``lexical/<agent>.sqlite3``), its deletion log (``forgotten/<agent>.sqlite3``) and its
state documents (``state/<agent>/``).

Two agent names that differ only in case (Nova, nova) would share those files on a file
system that ignores case (macOS's and Windows' by default): one agent would read the
other's index, log and documents. So an agent with no files of its own yet, whose name
another agent's files spell otherwise, is refused with the name that holds them, on every
file system alike. An agent whose files are there under its own spelling goes on (a data
dir from a file system that tells case apart may hold both; refusing either would lock
its memories away). Chroma's collections and Redis keys tell case apart and need no such
care.
"""

from __future__ import annotations

from pathlib import Path

from ego_mcp.errors import ConfigError

FOLDERS = ("lexical", "forgotten", "state")


def owners(data_dir: Path, agent: str) -> set[str]:
    """The agents whose files in ``data_dir`` are named as ``agent`` is in any case (agent
    names hold no dot: ``Nova.sqlite3-wal`` is Nova's)."""
    found: set[str] = set()
    for folder in FOLDERS:
        try:
            entries = list((data_dir / folder).iterdir())
        except (FileNotFoundError, NotADirectoryError):
            continue
        found.update(
            owner
            for owner in (entry.name.split(".", 1)[0] for entry in entries)
            if owner.casefold() == agent.casefold()
        )
    return found


def spelled_otherwise(data_dir: Path, agent: str) -> str | None:
    """Another agent whose files differ from ``agent``'s only in case, when ``agent`` has
    no files of its own in ``data_dir``."""
    found = owners(data_dir, agent)
    return None if agent in found or not found else min(found)


def claim(data_dir: Path, agent: str, claimed: set[str] | frozenset[str] = frozenset()) -> None:
    """Refuse ``agent`` if another agent's files spell its name otherwise, or another agent
    this process serves (``claimed``) does, before either has files."""
    other = spelled_otherwise(data_dir, agent)
    if other is None:
        twins = clashing([*sorted(claimed), agent])
        other = twins[0] if twins is not None and twins[1] == agent else None
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

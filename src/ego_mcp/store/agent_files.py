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


def claim(data_dir: Path, agent: str, claimed: set[str] | frozenset[str] = frozenset()) -> None:
    """Refuse ``agent`` if another agent's files spell its name otherwise, or another agent
    this process serves (``claimed``) does, before either has files."""
    found = owners(data_dir, agent)
    if agent in found:
        return  # its own files are there: it goes on, whoever else is spelled alike
    other = min(found) if found else twin(agent, claimed)
    if other is not None:
        raise ConfigError(
            f"EGO_MCP_AGENT: agent {agent!r} differs from agent {other!r} only in case, and "
            f"their files in {data_dir} would be one on a file system that ignores case; "
            f"use {other!r} or another name"
        )


def twin(name: str, names: set[str] | frozenset[str]) -> str | None:
    """The one of ``names`` that differs from ``name`` only in case, if any."""
    return min((n for n in names if n != name and n.casefold() == name.casefold()), default=None)

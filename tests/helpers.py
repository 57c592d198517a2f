"""Checks shared by tests: the link invariant over a whole store, store snapshots."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from ego_mcp.memory.model import REVERSE_LINK_TYPE, Memory
from ego_mcp.memory.service import Draft, MemoryService
from ego_mcp.memory.store import MemoryStore
from ego_mcp.settings import Settings


def all_memories(store: MemoryStore) -> dict[str, Memory]:
    found: dict[str, Memory] = {}
    for memories, _ in store.batches(500):
        found.update({m.id: m for m in memories})
    return found


def assert_links_bidirectional(store: MemoryStore, mirrored: bool = True) -> int:
    """Every link A->B has B->A and points at a memory that exists, and the link back is
    of the mirrored type (``mirrored``: data ego-mcp wrote; upstream's own data keeps the
    types it had); returns the link count."""
    memories = all_memories(store)
    links = 0
    for memory in memories.values():
        for link in memory.linked_ids:
            assert link.target_id in memories, f"{memory.id} links to missing {link.target_id}"
            back = memories[link.target_id].link_to(memory.id)
            assert back is not None, f"{link.target_id} lacks the link back to {memory.id}"
            mirror = REVERSE_LINK_TYPE[link.link_type]
            assert not mirrored or back.link_type is mirror, f"{back} is no {mirror}"
            links += 1
    return links


def snapshot(store: MemoryStore) -> dict[str, Memory]:
    """Everything the store holds, for before/after comparisons."""
    return all_memories(store)


def save(memory: MemoryService, content: str, force: bool = True, **fields: object) -> str:
    """Remember ``content`` (past the guard unless ``force=False``); returns its id."""
    outcome = memory.remember(Draft(content=content, **fields), force=force)  # type: ignore[arg-type]
    assert outcome.saved is not None, f"not saved: {content}"
    return outcome.saved.id


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def text_of(result: object) -> str:
    """The text of an MCP tool result."""
    return str(result.content[0].text)  # type: ignore[attr-defined]


def run_cli(
    env: dict[str, str], *arguments: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``ego-mcp ARGUMENTS`` as a user runs it, in a subprocess with ``env`` (stdin a pipe
    that closes at once, as a client's would)."""
    return subprocess.run(
        [sys.executable, "-m", "ego_mcp", *arguments],
        env=env,
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def cli_output(env: dict[str, str], *arguments: str, timeout: float = 120) -> str:
    """The standard output of ``ego-mcp ARGUMENTS``, which must succeed."""
    done = run_cli(env, *arguments, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


def memory_id_in(text: str) -> str:
    """The first memory id a tool answer mentions."""
    start = text.index("mem_")
    return text[start : start + 16]


def workspace_text(settings: Settings) -> str:
    """Everything the agent's workspace files hold, file after file."""
    root = settings.workspace_for(settings.agent)
    assert root is not None
    return "".join(p.read_text() for p in sorted(Path(root).rglob("*.md")))


def run_ego_mcp(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``ego-mcp ARGS`` as a user runs it, in ``env``; its output, whatever its exit."""
    return subprocess.run(
        [sys.executable, "-m", "ego_mcp", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )

"""Workspace sync: public memories echoed into Markdown files an agent's humans can read.

Every line written carries ``[id:mem_...]`` so that ``forget`` can remove it later.
Private memories never reach this module's writers. Appends and removals take an
exclusive file lock on the workspace so a front end and a worker never interleave.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ego_mcp.files import write_atomically
from ego_mcp.memory.model import Category, Memory

CURATED_CATEGORIES = frozenset(
    {Category.SELF_DISCOVERY, Category.LESSON, Category.RELATIONSHIP, Category.PHILOSOPHICAL}
)
CURATED_MIN_IMPORTANCE = 4
DAILY_LOG_GLOB = "????-??-??.md"
MONOLOGUE_NAME = "inner-monologue-latest.md"


def marker(memory_id: str) -> str:
    return f"[id:{memory_id}]"


def one_line(content: str) -> str:
    """Collapse a memory onto one line so its marker removes all of it."""
    return " ".join(content.split())


def is_curated(memory: Memory) -> bool:
    return memory.importance >= CURATED_MIN_IMPORTANCE or memory.category in CURATED_CATEGORIES


def daily_entry(memory: Memory) -> str:
    stamp = memory.timestamp.strftime("%H:%M")
    tone = f"{memory.emotional_trace.primary.value}/{memory.category.value}"
    return f"- {stamp} [{tone}] {one_line(memory.content)} {marker(memory.id)}\n"


def curated_entry(memory: Memory) -> str:
    day = memory.timestamp.strftime("%Y-%m-%d")
    return f"- {day} [{memory.category.value}] {one_line(memory.content)} {marker(memory.id)}\n"


def without_marker(text: str, memory_id: str) -> str | None:
    """``text`` with every line holding the memory's marker removed; None if it had none."""
    tag = marker(memory_id)
    if tag not in text:
        return None
    return "".join(line for line in text.splitlines(keepends=True) if tag not in line)


def workspace_problem(root: Path) -> str | None:
    """Why the workspace folder cannot be written, or None: it (and its ``memory``
    folder) is created if missing; its parent must exist and be writable."""
    try:
        (root / "memory").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"{root} cannot be created ({exc.strerror or type(exc).__name__})"
    if not os.access(root, os.W_OK) or not os.access(root / "memory", os.W_OK):
        return f"{root} is not writable"
    return None


class WorkspaceSync:
    """Writes into ``root/memory/YYYY-MM-DD.md``, ``root/MEMORY.md`` and the latest monologue."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.memory_dir = root / "memory"
        self.curated_file = root / "MEMORY.md"
        self.monologue_file = self.memory_dir / MONOLOGUE_NAME

    def record(self, memory: Memory) -> None:
        """Echo a memory just saved: its day's log, MEMORY.md if curated, the monologue."""
        if memory.is_private:
            return  # a second guard: callers already skip private memories
        with self._locked():
            self._append(memory, monologue=True)

    def rewrite(self, memory: Memory) -> None:
        """Replace the memory's lines by its present text, or remove them if it is now
        private (``merge_memories``, ``restore_memory``). The monologue is rewritten only
        if it showed this memory or shows none."""
        with self._locked():
            monologue = self._monologue_shows(memory.id)
            self._remove(memory.id)
            if not memory.is_private:
                self._append(memory, monologue)

    def remove_memory(self, memory_id: str, keep_if: Callable[[str], bool] | None = None) -> int:
        """Remove the memory's lines from every file; returns how many files changed.

        ``keep_if`` is asked under the workspace lock: a memory restored before this
        cleanup ran keeps the lines its restore wrote.
        """
        with self._locked():
            if keep_if is not None and keep_if(memory_id):
                return 0
            return self._remove(memory_id)

    def _append(self, memory: Memory, monologue: bool) -> None:
        daily = self.memory_dir / f"{memory.timestamp.strftime('%Y-%m-%d')}.md"
        header = f"# {memory.timestamp.strftime('%Y-%m-%d')}\n\n"
        _append(daily, daily_entry(memory), header)
        if is_curated(memory):
            _append(self.curated_file, curated_entry(memory), "# MEMORY\n\n")
        if monologue and memory.category is Category.INTROSPECTION:
            body = f"# Inner monologue\n\n{one_line(memory.content)} {marker(memory.id)}\n"
            write_atomically(self.monologue_file, body)

    def _remove(self, memory_id: str) -> int:
        changed = 0
        for path in self._synced_files():
            cleaned = without_marker(path.read_text(encoding="utf-8"), memory_id)
            if cleaned is not None:
                write_atomically(path, cleaned)
                changed += 1
        return changed

    def _monologue_shows(self, memory_id: str) -> bool:
        """Whether the monologue file shows this memory, or no memory at all."""
        if not self.monologue_file.is_file():
            return True
        text = self.monologue_file.read_text(encoding="utf-8")
        return marker(memory_id) in text or "[id:" not in text

    def _synced_files(self) -> Iterator[Path]:
        if self.memory_dir.is_dir():
            yield from sorted(self.memory_dir.glob(DAILY_LOG_GLOB))
        for path in (self.curated_file, self.monologue_file):
            if path.is_file():
                yield path

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.memory_dir.mkdir(parents=True, exist_ok=True)
        with (self.root / ".ego-mcp-sync.lock").open("a") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _append(path: Path, line: str, header: str) -> None:
    new_file = not path.exists()
    with path.open("a", encoding="utf-8") as handle:
        if new_file:
            handle.write(header)
        handle.write(line)

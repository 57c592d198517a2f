"""``ego-mcp export``: an agent's whole inner life written to one file, consistently.

Everything is read under the agent's lock (a thread lock in embedded mode, the Redis lock
otherwise), so no front end or worker changes the agent in between: the file is the
agent at one moment, its links two-way and every link's target in the file. The records
go to a scratch file beside the output first; the header, which counts them, is written
before them into the final file, which replaces the output at once (0600, like the store).
"""

from __future__ import annotations

import gzip
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ego_mcp.backup.format import (
    DOCUMENTS,
    Header,
    counted,
    deleted_line,
    document_line,
    episode_line,
    memory_line,
)
from ego_mcp.memory.model import DeletedMemory, Memory

if TYPE_CHECKING:
    from ego_mcp.runtime import Runtime

Progress = Callable[[int, int], None]
PAGE = 500  # memories read a time


@dataclass
class ExportSummary:
    agent: str
    path: Path
    counts: dict[str, int] = field(default_factory=dict)
    private_left_out: int = 0
    holds_private: bool = False

    def render(self) -> str:
        counts = ", ".join(counted(kind, n) for kind, n in self.counts.items())
        lines = [f"exported agent {self.agent} to {self.path}: {counts}"]
        if self.private_left_out:
            lines.append(f"left out {self.private_left_out} private memories (--exclude-private)")
        if self.holds_private:
            lines.append(
                "the file holds private memories: it is readable by you alone (0600); "
                "keep it as you keep the store, or export with --exclude-private"
            )
        return "\n".join(lines)


def export_agent(
    runtime: Runtime,
    agent: str,
    out: Path,
    exclude_private: bool = False,
    progress: Progress | None = None,
) -> ExportSummary:
    """Write ``agent`` to ``out`` (gzip if it ends in ``.gz``); see the module docstring."""
    service = runtime.memory(agent)
    documents = runtime.documents(agent)
    summary = ExportSummary(agent, out)
    with service.locks.hold(agent), _scratch(out) as body:
        ids = sorted(i for page in service.store.ids() for i in page)
        kept = _public_ids(service.store.get_many, ids) if exclude_private else set(ids)
        left_out = set(ids) - kept
        summary.private_left_out = len(left_out)
        written = 0
        for start in range(0, len(ids), PAGE):
            for memory in service.store.get_many(ids[start : start + PAGE]):
                if memory.id in kept:
                    body.write(memory_line(_linked_within(memory, kept, left_out)))
                    summary.holds_private |= memory.is_private
                    written += 1
            if progress is not None:
                progress(min(start + PAGE, len(ids)), len(ids))
        summary.counts["memory"] = written
        episodes = service.episodes.all()
        for episode in episodes:
            members = tuple(i for i in episode.memory_ids if i in kept or i not in ids)
            body.write(episode_line(replace(episode, memory_ids=members)))
        summary.counts["episode"] = len(episodes)
        summary.counts["document"] = 0
        for name in DOCUMENTS:
            content = documents.load(name)
            if content is not None:
                body.write(document_line(name, content))
                summary.counts["document"] += 1
        now = runtime.clock.now()
        entries = [
            entry
            for entry in (service.forgotten() if service.deletion_log is not None else [])
            if entry.deleted_at + service.undo_window >= now
            and not (exclude_private and _holds_private(entry))
        ]
        for entry in entries:
            body.write(deleted_line(entry))
            summary.holds_private |= _holds_private(entry)
        summary.counts["deleted"] = len(entries)
        header = Header(agent, now, dict(summary.counts), summary.private_left_out)
        _publish(out, header, body)
    return summary


def _public_ids(read: Callable[[list[str]], list[Memory]], ids: list[str]) -> set[str]:
    return {
        memory.id
        for start in range(0, len(ids), PAGE)
        for memory in read(ids[start : start + PAGE])
        if not memory.is_private
    }


def _linked_within(memory: Memory, kept: set[str], left_out: set[str]) -> Memory:
    """``memory`` with only its links to memories the file holds, following none if it
    followed one left out (a private memory)."""
    links = tuple(link for link in memory.linked_ids if link.target_id in kept)
    follows = "" if memory.follows in left_out else memory.follows
    if len(links) == len(memory.linked_ids) and follows == memory.follows:
        return memory
    return replace(memory, linked_ids=links, follows=follows)


def _holds_private(entry: DeletedMemory) -> bool:
    return entry.memory.is_private or (
        entry.kept_before is not None and entry.kept_before.is_private
    )


@contextmanager
def _scratch(out: Path) -> Iterator[_Lines]:
    """A scratch file beside ``out`` for the records, removed when done."""
    with tempfile.NamedTemporaryFile(dir=out.parent, prefix=f".{out.name}.") as handle:
        yield _Lines(handle)


class _Lines:
    """Text lines written to a binary file as UTF-8."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw

    def write(self, line: str) -> None:
        self.raw.write(line.encode("utf-8"))


def _publish(out: Path, header: Header, body: _Lines) -> None:
    """The header then ``body``'s records into a new file (0600) that replaces ``out``.
    The file is made beside ``out`` under a name nobody can guess, created by this call
    (``mkstemp``: O_CREAT | O_EXCL, never through a link someone planted in a shared
    folder), then renamed over ``out``."""
    body.raw.flush()
    descriptor, name = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".new")
    final = Path(name)
    try:
        with os.fdopen(descriptor, "wb") as raw:
            os.fchmod(raw.fileno(), 0o600)
            if out.name.endswith(".gz"):
                with gzip.GzipFile(fileobj=raw, mode="wb") as packed:
                    _copy(header, body, packed)
            else:
                _copy(header, body, raw)
        os.replace(final, out)
    except BaseException:
        final.unlink(missing_ok=True)
        raise


def _copy(header: Header, body: _Lines, target: IO[bytes] | gzip.GzipFile) -> None:
    target.write(header.line().encode("utf-8"))
    body.raw.seek(0)
    shutil.copyfileobj(body.raw, target)

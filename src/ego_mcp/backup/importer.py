"""``ego-mcp import``: an export file into an agent, empty or not, in either mode.

The whole file is read and checked first, so a malformed line (or a file of another
format version) writes nothing. Then, a batch at a time: memories the agent has already
(same id) are left as they are, and memories it forgot stay forgotten (its deletion log
lists them, or its record of what departed for good does, after the log's entry was
purged; ``--include-forgotten`` brings the latter back);
the rest are embedded with the configured model and saved with their ids, times and
links. A last pass under the agent's lock makes every link two-way (a memory that was
in the agent before gets the link back) and drops links to memories that are not there.
Episodes, documents and deletion-log entries the agent lacks are added; what it has is
kept. A second run imports nothing.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ego_mcp.backup.format import RECORD_NAMES, Header, Record, parse_record
from ego_mcp.errors import InvalidInput
from ego_mcp.memory.model import DeletedMemory, Episode, Memory, reverse_link

if TYPE_CHECKING:
    from ego_mcp.memory.service import MemoryService
    from ego_mcp.memory.store import Vector
    from ego_mcp.runtime import Runtime

Progress = Callable[[int, int], None]
BATCH = 500


@dataclass
class ImportSummary:
    agent: str
    source: Path
    found: dict[str, int] = field(default_factory=dict)
    imported: dict[str, int] = field(default_factory=dict)
    already_there: int = 0
    stayed_forgotten: int = 0
    links_mended: int = 0

    def render(self) -> str:
        kinds = ("memory", "episode", "document", "deleted")
        rows = [f"imported {self.source} into agent {self.agent}"]
        for kind in kinds:
            rows.append(
                f"  {RECORD_NAMES[kind][1]:22s}"
                f"{self.imported.get(kind, 0):>8} of {self.found.get(kind, 0)}"
            )
        rows.append(f"  memories it had already {self.already_there:>8}")
        rows.append(f"  forgotten there, kept so{self.stayed_forgotten:>8}")
        rows.append(f"  links made two-way      {self.links_mended:>8}")
        return "\n".join(rows)


def read_header(source: Path) -> Header:
    return Header.parse(next(_lines(source), ""))


def import_agent(
    runtime: Runtime,
    agent: str,
    source: Path,
    progress: Progress | None = None,
    include_forgotten: bool = False,
) -> ImportSummary:
    """Import ``source`` into ``agent``; see the module docstring."""
    summary = ImportSummary(agent, source)
    rest = _check(source, summary)
    service = runtime.memory(agent)
    imported: list[Memory] = []
    total = summary.found.get("memory", 0)
    # Two stages that overlap on two cores: a batch is embedded in a thread while the
    # one before it is written (each took about half of a 10,000-memory import).
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ego-import") as embedding:
        waiting: tuple[list[Memory], Future[Vector]] | None = None
        for batch in _memory_batches(source):
            fresh = _new_to(service, batch, summary, include_forgotten)
            embedded = embedding.submit(runtime.embedder.embed, [m.content for m in fresh])
            if waiting is not None:
                imported.extend(_write(service, *waiting))
                if progress is not None:
                    progress(len(imported) + summary.already_there, total)
            waiting = (fresh, embedded)
        if waiting is not None:
            imported.extend(_write(service, *waiting))
    if progress is not None:
        progress(total, total)
    if include_forgotten and service.departed is not None:  # asked back: no longer departed
        service.departed.returned([memory.id for memory in imported])
    summary.links_mended = _two_way(service, imported)
    summary.imported["memory"] = len(imported)
    _add_the_rest(runtime, service, rest, summary)
    return summary


def _check(source: Path, summary: ImportSummary) -> list[Record]:
    """Parse every line and count the records against the header: nothing is written
    from a malformed or incomplete file. Returns the records other than memories (few and
    small), so that only the memories are read again."""
    lines = _lines(source)
    header = Header.parse(next(lines, ""))
    rest: list[Record] = []
    for number, line in enumerate(lines, start=2):
        if line.strip():
            record = parse_record(line, number)
            kind = _kind(record)
            summary.found[kind] = summary.found.get(kind, 0) + 1
            if kind != "memory":
                rest.append(record)
    for kind, count in header.counts.items():
        if summary.found.get(kind, 0) != count:
            raise InvalidInput(
                f"FILE: its header counts {count} {kind} records but it holds "
                f"{summary.found.get(kind, 0)}: the file is incomplete; nothing was imported"
            )
    return rest


def _kind(record: Record) -> str:
    if isinstance(record, Memory):
        return "memory"
    if isinstance(record, Episode):
        return "episode"
    if isinstance(record, DeletedMemory):
        return "deleted"
    return "document"


def _records(source: Path) -> Iterator[Record]:
    lines = _lines(source)
    next(lines, "")
    for number, line in enumerate(lines, start=2):
        if line.strip():
            yield parse_record(line, number)


def _memory_batches(source: Path) -> Iterator[list[Memory]]:
    batch: list[Memory] = []
    for record in _records(source):
        if isinstance(record, Memory):
            batch.append(record)
            if len(batch) == BATCH:
                yield batch
                batch = []
    if batch:
        yield batch


def _new_to(
    service: MemoryService, batch: list[Memory], summary: ImportSummary, include_forgotten: bool
) -> list[Memory]:
    """The memories of ``batch`` the agent neither has nor forgot (in its deletion log, or
    in its record of what departed for good, unless ``include_forgotten``)."""
    ids = [m.id for m in batch]
    present = service.store.existing_ids(ids)
    absent = [i for i in ids if i not in present]
    forgotten = service.deletion_log.logged_ids(absent) if service.deletion_log else set()
    if service.departed is not None and not include_forgotten:
        forgotten |= service.departed.known(absent)
    summary.already_there += len(present)
    summary.stayed_forgotten += len(forgotten)
    return [m for m in batch if m.id not in present and m.id not in forgotten]


def _write(service: MemoryService, fresh: list[Memory], embedded: Future[Vector]) -> list[Memory]:
    """Save ``fresh`` with its vectors under the agent's lock (but those saved meanwhile)."""
    vectors = embedded.result()
    if not fresh:
        return []
    with service.locks.hold(service.agent):
        again = service.store.existing_ids([m.id for m in fresh])
        keep = [i for i, m in enumerate(fresh) if m.id not in again]
        kept = [fresh[i] for i in keep]
        service.store.add_many(kept, vectors[keep])
    return kept


def _two_way(service: MemoryService, imported: list[Memory]) -> int:
    """Under the lock: drop the imported memories' links to memories not in the agent, and
    give each memory linked from an imported one the link back; how many were changed."""
    if not imported:
        return 0
    with service.locks.hold(service.agent):
        targets = sorted({lk.target_id for m in imported for lk in m.linked_ids})
        there = {m.id: m for m in service.store.get_many(targets)}
        changed: dict[str, Memory] = {}
        for memory in imported:
            kept = tuple(lk for lk in memory.linked_ids if lk.target_id in there)
            if len(kept) != len(memory.linked_ids):
                changed[memory.id] = replace(memory, linked_ids=kept)
            for link in kept:
                target = changed.get(link.target_id, there[link.target_id])
                if target.link_to(memory.id) is None:
                    changed[target.id] = target.with_link(reverse_link(memory.id, link))
        service.store.replace_links(list(changed.values()))
    return len(changed)


def _add_the_rest(
    runtime: Runtime, service: MemoryService, rest: list[Record], summary: ImportSummary
) -> None:
    """Episodes, documents and deletion-log entries the agent lacks."""
    documents = runtime.documents(service.agent)
    now = runtime.clock.now()
    counts = {"episode": 0, "document": 0, "deleted": 0}
    for record in rest:
        if isinstance(record, Episode) and service.episodes.get(record.id) is None:
            service.episodes.add(record, runtime.embedder.embed([record.summary])[0])
            counts["episode"] += 1
        elif isinstance(record, tuple) and documents.load(record[0]) is None:
            documents.save(*record)
            counts["document"] += 1
        elif isinstance(record, DeletedMemory) and _restorable(service, record, now):
            assert service.deletion_log is not None
            service.deletion_log.put(record)
            counts["deleted"] += 1
    summary.imported.update(counts)


def _restorable(service: MemoryService, entry: DeletedMemory, now: datetime) -> bool:
    """Whether the agent should get ``entry``: in its undo window, the memory neither in
    the agent nor in its deletion log."""
    log = service.deletion_log
    if log is None or entry.deleted_at + service.undo_window < now:
        return False
    memory_id = entry.memory.id
    return not service.store.existing_ids([memory_id]) and not log.logged_ids([memory_id])


def _lines(source: Path) -> Iterator[str]:
    """The lines of ``source``, gunzipped if it ends in ``.gz``. A file that cannot be read
    (missing, not gzip, not UTF-8, cut short) is ``InvalidInput`` naming it; errors of the
    code that consumes the lines are its own."""
    try:
        if source.name.endswith(".gz"):
            with gzip.open(source, "rt", encoding="utf-8") as packed:
                yield from packed
        else:
            with source.open(encoding="utf-8") as plain:
                yield from plain
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise InvalidInput(f"FILE: cannot read {source} ({reason}); nothing was imported") from None

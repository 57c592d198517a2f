"""``ego-mcp migrate``: import an upstream ego-mcp data dir into one agent of ours.

Non-destructive: upstream's files are only read, and its Chroma dir is read from a copy
(unless it is our own data dir, whose client we already hold; its collections are then
only read). Resumable and idempotent: memories and episodes keep their ids and are added
only when absent, links are made two-way by the same repair that mends crashes, and the
state documents are merged so that a second run changes nothing. A memory imported once
is noted for good (``ImportRecord``): forgotten or merged away since, it is not brought
back, even after its deletion-log entry is purged.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ego_mcp.ego.service import DESIRES, RELATIONSHIPS, SELF_MODEL
from ego_mcp.memory.model import Memory
from ego_mcp.memory.store import MemoryStore
from ego_mcp.migrate.upstream import (
    EPISODES,
    MEMORIES,
    Oddities,
    episode_from_upstream,
    memory_from_upstream,
    merge_desires,
    merge_relationships,
    merge_self_model,
)
from ego_mcp.runtime import Runtime
from ego_mcp.store.chroma import WRITE_BATCH, collection_names, pages
from ego_mcp.store.import_record import ImportRecord

if TYPE_CHECKING:
    from ego_mcp.memory.service import MemoryService

Progress = Callable[[int, int], None]
UPSTREAM_DOCUMENTS = {
    DESIRES: Path("desires.json"),
    SELF_MODEL: Path("self_model.json"),
    RELATIONSHIPS: Path("relationships") / "models.json",
}


@dataclass
class MigrationSummary:
    memories_found: int = 0
    memories_imported: int = 0
    memories_gone: int = 0  # imported before, then forgotten or merged away: not again
    links_mended: int = 0
    episodes_found: int = 0
    episodes_imported: int = 0
    documents_merged: list[str] = field(default_factory=list)
    oddities: Oddities = field(default_factory=Oddities)

    def render(self, source: Path, agent: str) -> str:
        lines = [
            f"Imported from {source} into agent {agent}:",
            f"  memories  {self.memories_imported} new of {self.memories_found} "
            f"({self.memories_found - self.memories_imported - self.memories_gone} already "
            f"here, {self.memories_gone} forgotten or merged away since an earlier import)",
            f"  links     {self.links_mended} made two-way or dropped as dangling",
            f"  episodes  {self.episodes_imported} new of {self.episodes_found}",
            "  documents "
            + (", ".join(self.documents_merged) if self.documents_merged else "nothing new"),
        ]
        if self.oddities:
            odd = ", ".join(f"{name}: {count}" for name, count in sorted(self.oddities.items()))
            lines.append(f"  replaced by defaults (unknown values): {odd}")
        if self.memories_imported == 0 and not self.documents_merged:
            lines.append("Nothing new to import: the agent already has all of it.")
        return "\n".join(lines)


def has_upstream_data(source: Path) -> bool:
    """Whether ``source`` holds anything upstream ego-mcp wrote: its memory collection in
    the Chroma folder (read from SQLite, read-only: nothing is created) or a document."""
    if any((source / relative).is_file() for relative in UPSTREAM_DOCUMENTS.values()):
        return True
    database = source / "chroma" / "chroma.sqlite3"
    if not database.is_file():
        return False
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as connection:
            found = connection.execute(
                "SELECT 1 FROM collections WHERE name IN (?, ?)", (MEMORIES, EPISODES)
            ).fetchone()
    except sqlite3.Error:
        return False
    return found is not None


def upstream_memory_count(client: Any) -> int:
    """How many memories upstream's collection holds in this Chroma (0 when it has none)."""
    collection = _collection(client, MEMORIES)
    return 0 if collection is None else int(collection.count())


def upstream_waiting(runtime: Runtime, agent: str) -> int:
    """Upstream memories in our own embedded store while the agent has none (else 0)."""
    if runtime.settings.chroma_url is not None or runtime.memory(agent).store.count() > 0:
        return 0
    return upstream_memory_count(runtime.chroma.client)


@contextmanager
def upstream_chroma(source: Path, runtime: Runtime) -> Iterator[Any]:
    """A client on upstream's Chroma dir: ours if it is our data dir, else a private copy."""
    ours = runtime.settings.data_dir.resolve()
    if source.resolve() == ours and runtime.settings.chroma_url is None:
        yield runtime.chroma.client
        return
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    with tempfile.TemporaryDirectory(prefix="ego-migrate-") as scratch:
        copy = Path(scratch) / "chroma"
        shutil.copytree(source / "chroma", copy)
        yield chromadb.PersistentClient(
            path=str(copy), settings=ChromaSettings(anonymized_telemetry=False)
        )


def _pages(collection: Any) -> Iterator[tuple[list[str], list[str | None], list[Any]]]:
    for page in pages(collection, ["documents", "metadatas"]):
        yield page["ids"], page["documents"], page["metadatas"]


def _collection(client: Any, name: str) -> Any | None:
    if name not in collection_names(client):
        return None
    return client.get_collection(name, embedding_function=None)


def migrate(
    runtime: Runtime, agent: str, source: Path, progress: Progress | None = None
) -> MigrationSummary:
    """Import ``source`` (an upstream data dir) into ``agent``; see the module docstring."""
    if not (source / "chroma").is_dir():
        from ego_mcp.errors import ConfigError

        raise ConfigError(f"--from: {source} holds no upstream data (no chroma folder)")
    summary = MigrationSummary()
    with upstream_chroma(source, runtime) as client:
        _import_memories(runtime, agent, client, summary, progress)
        _import_episodes(runtime, agent, client, summary)
    summary.links_mended = runtime.memory(agent).repair_links()
    _merge_documents(runtime, agent, source, summary)
    return summary


def _import_memories(
    runtime: Runtime, agent: str, client: Any, summary: MigrationSummary, progress: Progress | None
) -> None:
    collection = _collection(client, MEMORIES)
    if collection is None:
        return
    service = runtime.memory(agent)
    record = ImportRecord.open(runtime.chroma.client, agent)
    now = runtime.clock.now()
    total = int(collection.count())
    done = 0
    fresh: list[Memory] = []  # read, not yet written: written WRITE_BATCH at a time
    for ids, documents, metadatas in _pages(collection):
        summary.memories_found += len(ids)
        present = service.store.existing_ids(ids)
        record.note(sorted(present))  # here already: imported by a run before the record
        gone = _gone(service, record, [i for i in ids if i not in present])
        summary.memories_gone += len(gone)
        fresh.extend(
            memory
            for mid, doc, meta in zip(ids, documents, metadatas, strict=True)
            if mid not in present
            and mid not in gone
            and (memory := memory_from_upstream(mid, doc, meta or {}, now, summary.oddities))
        )
        if len(fresh) >= WRITE_BATCH:
            summary.memories_imported += _add(runtime, service.store, record, fresh)
            fresh = []
        done += len(ids)
        if progress is not None:
            progress(done, total)
    summary.memories_imported += _add(runtime, service.store, record, fresh)


def _gone(service: MemoryService, record: ImportRecord, absent: list[str]) -> set[str]:
    """Of the ids not in the store, those imported before or forgotten (merged) since."""
    log = service.deletion_log
    logged = log.logged_ids(absent) if log is not None else set()
    departed = service.departed.known(absent) if service.departed is not None else set()
    return logged | departed | record.known(absent)


def _add(runtime: Runtime, store: MemoryStore, record: ImportRecord, memories: list[Memory]) -> int:
    """``memories`` embedded and added in one write, then noted as imported; how many."""
    if memories:
        store.add_many(memories, runtime.embedder.embed([m.content for m in memories]))
        record.note([m.id for m in memories])
    return len(memories)


def _import_episodes(runtime: Runtime, agent: str, client: Any, summary: MigrationSummary) -> None:
    collection = _collection(client, EPISODES)
    if collection is None:
        return
    episodes = runtime.memory(agent).episodes
    now = runtime.clock.now()
    for ids, documents, metadatas in _pages(collection):
        summary.episodes_found += len(ids)
        for eid, doc, meta in zip(ids, documents, metadatas, strict=True):
            episode = episode_from_upstream(eid, doc, meta or {}, now, summary.oddities)
            if episode is None or episodes.get(episode.id) is not None:
                continue
            episodes.add(episode, runtime.embedder.embed([episode.summary])[0])
            summary.episodes_imported += 1


def _read_json(path: Path, summary: MigrationSummary) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    try:
        value = json.loads(path.read_bytes())
    except (OSError, ValueError):
        summary.oddities[f"unreadable {path.name}"] += 1
        return None
    return value if isinstance(value, dict) else None


def _merge_documents(runtime: Runtime, agent: str, source: Path, summary: MigrationSummary) -> None:
    documents = runtime.documents(agent)
    now = runtime.clock.now()
    for name, relative in UPSTREAM_DOCUMENTS.items():
        upstream = _read_json(source / relative, summary)
        if upstream is None:
            continue
        with runtime.locks.hold(agent):
            ours = documents.load(name)
            if name == DESIRES:
                merged = merge_desires(ours, upstream)
            elif name == SELF_MODEL:
                merged = merge_self_model(ours, upstream, now)
            else:
                merged = merge_relationships(ours, upstream, now)
            if merged != (ours or {}):
                documents.save(name, merged)
                summary.documents_merged.append(name)

"""`ego-mcp migrate` on a data dir written by upstream ego-mcp 0.2.3 (../shared/fixtures)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import chromadb
import pytest
from chromadb.config import Settings as ChromaSettings
from mcp import Client, StdioServerParameters

from ego_mcp.ego.service import DESIRES, RELATIONSHIPS, SELF_MODEL
from ego_mcp.embedding.local import LocalMiniLM
from ego_mcp.memory.model import LinkType, Memory
from ego_mcp.memory.store import MemoryFilter
from ego_mcp.migrate import importer
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from ego_mcp.store.chroma import ChromaMemoryStore
from ego_mcp.store.chroma import pages as store_pages
from ego_mcp.store.lexical_sqlite import SqliteLexicalIndex, lexical_path
from tests.conftest import REPO_ROOT, model_dir, model_env
from tests.helpers import all_memories, assert_links_bidirectional, cli_output, text_of

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

FIXTURE = REPO_ROOT.parent / "shared" / "fixtures" / "upstream-0.2.3"
MANIFEST = json.loads((FIXTURE / "manifest.json").read_text()) if FIXTURE.is_dir() else {}
pytestmark = pytest.mark.skipif(not FIXTURE.is_dir(), reason="../shared/fixtures is not beside us")


def fingerprint(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def upstream_records(data: Path) -> dict[str, dict[str, object]]:
    """The memory records of an upstream data dir, read from a copy: opening a Chroma dir
    writes to it, and the fixtures must stay as upstream wrote them."""
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(data / "chroma", Path(scratch) / "chroma")
        client = chromadb.PersistentClient(
            path=str(Path(scratch) / "chroma"), settings=ChromaSettings(anonymized_telemetry=False)
        )
        found = client.get_collection("ego_memories", embedding_function=None).get()
        client.clear_system_cache()
    return {
        mid: {"document": doc, **(meta or {})}
        for mid, doc, meta in zip(found["ids"], found["documents"], found["metadatas"], strict=True)
    }


def run_migrate(env: dict[str, str], *arguments: str) -> str:
    return cli_output(env, "migrate", *arguments, timeout=300)


def environment(tmp_path: Path, data_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(data_dir),
        **model_env(),
        "EGO_MCP_WORKSPACE_DIR": str(tmp_path / "workspace"),
    }


def test_migrate_imports_everything_and_leaves_upstream_untouched(
    tmp_path: Path, embedder: LocalMiniLM
) -> None:
    upstream = tmp_path / "upstream"
    shutil.copytree(FIXTURE / "data", upstream)
    before = fingerprint(upstream)
    originals = upstream_records(FIXTURE / "data")
    env = environment(tmp_path, tmp_path / "ours")

    first = run_migrate(env, "--from", str(upstream), "--agent", "nova")
    assert "memories  15 new of 15" in first and "episodes  1 new of 1" in first
    second = run_migrate(env, "--from", str(upstream), "--agent", "nova")
    assert "memories  0 new of 15" in second and "Nothing new to import" in second
    assert fingerprint(upstream) == before
    # migrate itself indexed every memory's words (read before an open could reconcile).
    index = SqliteLexicalIndex(lexical_path(tmp_path / "ours", "nova"))
    assert index.ids() == {m["id"] for m in MANIFEST["memories"]}
    index.close()

    settings = load_settings(data_dir=tmp_path / "ours", embedding_model_dir=model_dir())
    runtime = Runtime.open(settings, embedder=embedder)
    try:
        memory = runtime.memory("nova")
        imported = all_memories(memory.store)
        assert set(imported) == {m["id"] for m in MANIFEST["memories"]}
        for expected in MANIFEST["memories"]:
            got = imported[expected["id"]]
            assert got.content == expected["content"]
            assert got.emotional_trace.primary.value == expected["emotion"]
            assert (got.importance, got.category.value) == (
                expected["importance"],
                expected["category"],
            )
            assert got.is_private is expected["private"]
            old = datetime.fromisoformat(str(originals[got.id]["timestamp"]))
            assert got.timestamp == old  # the old dates are kept, not the import time
        assert assert_links_bidirectional(memory.store, mirrored=False) > 0  # upstream's types
        for source, target, kind in MANIFEST["explicit_links"]:
            link = imported[source].link_to(target)
            assert link is not None and link.link_type == LinkType(kind)
        episode = memory.episodes.get(MANIFEST["episode"])
        assert episode is not None and episode.summary == "The Blue Envelope letters"
        assert len(episode.memory_ids) == 3

        # A paraphrase finds its memory; the old dates take part in date filters.
        hits = memory.recall("the cat pushed a cup of tea off the table", 1)
        assert hits[0].memory.id == "mem_3630dc071112"
        march = MemoryFilter(date_to=datetime(2026, 3, 20, tzinfo=UTC))
        assert [h.memory.id for h in memory.recall("snow", 5, march)] == ["mem_1bd64b6c731e"]

        documents = runtime.documents("nova")
        self_model = documents.load(SELF_MODEL) or {}
        assert self_model["preferences"] == {"tea": "genmaicha"}
        assert "learn the violin" in self_model["current_goals"]
        people = documents.load(RELATIONSHIPS) or {}
        assert people["Master"]["trust_level"] == 0.9
        assert "cafe talk" in people["Matsumoto"]["shared_episodes"]
        desires = documents.load(DESIRES) or {}
        upstream_desires = json.loads((upstream / "desires.json").read_text())
        assert datetime.fromisoformat(desires["curiosity"]["at"]) == datetime.fromisoformat(
            upstream_desires["curiosity"]["last_satisfied"]
        )
    finally:
        runtime.close()


def test_migrate_reads_in_pages_and_writes_in_batches_across_them(
    tmp_path: Path, embedder: LocalMiniLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 15 memories read 4 at a time and written once 10 are waiting: 12, then the last 3.
    monkeypatch.setattr(importer, "pages", partial(store_pages, size=4))
    monkeypatch.setattr(importer, "WRITE_BATCH", 10)
    writes: list[int] = []
    add_many = ChromaMemoryStore.add_many

    def counted(store: ChromaMemoryStore, memories: Sequence[Memory], vectors: Vector) -> None:
        writes.append(len(memories))
        add_many(store, memories, vectors)

    monkeypatch.setattr(ChromaMemoryStore, "add_many", counted)
    settings = load_settings(data_dir=tmp_path / "ours", embedding_model_dir=model_dir())
    runtime = Runtime.open(settings, embedder=embedder)
    try:
        summary = importer.migrate(runtime, "nova", FIXTURE / "data")
        assert (summary.memories_found, summary.memories_imported) == (15, 15)
        assert writes == [12, 3]
        memory = runtime.memory("nova")
        assert set(all_memories(memory.store)) == {m["id"] for m in MANIFEST["memories"]}
        assert assert_links_bidirectional(memory.store, mirrored=False) > 0  # upstream's types
        again = importer.migrate(runtime, "nova", FIXTURE / "data")
        assert again.memories_imported == 0 and writes == [12, 3]
    finally:
        runtime.close()


@pytest.mark.anyio
@pytest.mark.e2e
async def test_server_on_an_upstream_data_dir_points_to_migrate(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE / "data", data)
    upstream_files = {
        name: (data / name).read_bytes() for name in ("desires.json", "self_model.json")
    }
    env = {**environment(tmp_path, data), "EGO_MCP_LOG_FILE": str(tmp_path / "server.log")}
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    async with Client(params, read_timeout_seconds=60) as client:
        first = text_of(await client.call_tool("wake_up", {}))
        again = text_of(await client.call_tool("wake_up", {}))
    assert "15 memories from upstream ego-mcp" in first and "ego-mcp migrate" in first
    assert "ego-mcp migrate" not in again  # said once
    assert "run `ego-mcp migrate`" in (tmp_path / "server.log").read_text()

    assert "memories  15 new of 15" in run_migrate(env)  # --from defaults to the data dir
    async with Client(params, read_timeout_seconds=60) as client:
        woken = text_of(await client.call_tool("wake_up", {}))
        recalled = text_of(await client.call_tool("recall", {"context": "Blue Envelope"}))
    assert "ego-mcp migrate" not in woken and "mem_a58176f66340" in recalled
    assert {name: (data / name).read_bytes() for name in upstream_files} == upstream_files
    assert upstream_records(data) == upstream_records(FIXTURE / "data")

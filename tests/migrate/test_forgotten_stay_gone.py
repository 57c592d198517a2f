"""A second ``migrate`` never brings back what the agent forgot or merged away since the
first, even once the deletion log is purged (the import record), on real Chroma."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import chromadb
from chromadb.config import Settings as ChromaSettings

from ego_mcp.migrate.importer import has_upstream_data, migrate
from ego_mcp.runtime import Runtime
from tests.helpers import all_memories, run_cli

TEXTS = {
    "mem_00000000000a": "We climbed the lighthouse stairs and counted two hundred steps.",
    "mem_00000000000b": "The bakery on the corner sold out of melon bread by nine.",
    "mem_00000000000c": "At the bakery the melon bread was gone before nine o'clock.",
    "mem_00000000000d": "Master taught me a card game with very confusing rules.",
}


def upstream_dir(folder: Path) -> Path:
    """An upstream 0.2.3 data dir with ``TEXTS`` (its Chroma folder: what migrate reads)."""
    client = chromadb.PersistentClient(
        path=str(folder / "chroma"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    collection = client.create_collection("ego_memories", embedding_function=None)
    stamp = datetime(2026, 1, 5, 12, tzinfo=UTC).isoformat()
    collection.add(
        ids=list(TEXTS),
        documents=list(TEXTS.values()),
        embeddings=[[1.0, float(i)] for i in range(len(TEXTS))],
        metadatas=[{"timestamp": stamp, "emotion": "happy"} for _ in TEXTS],
    )
    return folder


def test_migrate_again_brings_back_nothing_forgotten_or_merged(
    tmp_path: Path, runtime: Runtime
) -> None:
    source = upstream_dir(tmp_path / "upstream")
    first = migrate(runtime, "nova", source)
    assert first.memories_imported == 4
    memory = runtime.memory("nova")
    memory.forget("mem_00000000000a")
    memory.merge("mem_00000000000b", "mem_00000000000c", None)

    again = migrate(runtime, "nova", source)
    memory.purge_deletion_log(everything=True)  # past the undo window: the log forgets
    after_purge = migrate(runtime, "nova", source)

    for summary in (again, after_purge):
        assert (summary.memories_imported, summary.memories_gone) == (0, 2)
        assert "2 forgotten or merged away since an earlier import" in summary.render(
            source, "nova"
        )
    assert set(all_memories(memory.store)) == {"mem_00000000000b", "mem_00000000000d"}


def test_memories_imported_before_the_record_existed_count_as_imported(
    tmp_path: Path, runtime: Runtime
) -> None:
    """A store migrated by an earlier version: what is there is noted on the next run."""
    source = upstream_dir(tmp_path / "upstream")
    migrate(runtime, "nova", source)
    runtime.chroma.client.delete_collection("ego-nova-imported")  # as an older version left it
    migrate(runtime, "nova", source)
    memory = runtime.memory("nova")
    memory.forget("mem_00000000000d")
    memory.purge_deletion_log(everything=True)

    assert migrate(runtime, "nova", source).memories_imported == 0


def test_migrate_from_a_dir_without_upstream_data_says_so_and_creates_nothing(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "not-upstream"
    empty.mkdir()
    env = {**os.environ, "EGO_MCP_DATA_DIR": str(tmp_path / "ours")}
    for source in (empty, tmp_path / "ours"):  # a folder of nothing; the default data dir
        done = run_cli(env, "migrate", "--from", str(source))
        assert done.returncode == 2
        assert "holds no upstream ego-mcp data" in done.stderr
        assert "Nothing new to import" not in done.stdout
    assert not (tmp_path / "ours").exists()
    assert list(empty.iterdir()) == []


def test_upstream_data_is_told_by_its_collection_or_its_documents(tmp_path: Path) -> None:
    assert has_upstream_data(upstream_dir(tmp_path / "upstream"))
    documents_only = tmp_path / "documents-only"
    documents_only.mkdir()
    (documents_only / "desires.json").write_text("{}")
    assert has_upstream_data(documents_only)
    assert not has_upstream_data(tmp_path / "nothing")

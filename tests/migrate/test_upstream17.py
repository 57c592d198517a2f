"""`ego-mcp migrate` on a data dir written by upstream ego-mcp 1.7.0's own code
(tests/fixtures/upstream-1.7, made by its make_fixture.py): every memory with its tags,
valence, arousal and anticipated moment, every link and episode, and each person with
their aliases; twice without duplicates, upstream's files unchanged."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.memory.model import LinkType
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from tests.conftest import REPO_ROOT
from tests.helpers import all_memories, assert_links_bidirectional, cli_output
from tests.test_migrate import fingerprint, upstream_records

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "upstream-1.7"
MANIFEST = json.loads((FIXTURE / "manifest.json").read_text(encoding="utf-8"))


def test_a_17_data_dir_is_imported_whole_and_left_untouched(
    tmp_path: Path, embedder: LocalMultilingualUSE
) -> None:
    pristine = fingerprint(FIXTURE / "data")
    upstream = tmp_path / "upstream"
    shutil.copytree(FIXTURE / "data", upstream)
    before = fingerprint(upstream)
    env = {**os.environ, "EGO_MCP_DATA_DIR": str(tmp_path / "ours"),
           "EGO_MCP_WORKSPACE_DIR": str(tmp_path / "workspace")}  # fmt: skip
    env.pop("EGO_MCP_EMBEDDING_MODEL", None)

    first = cli_output(env, "migrate", "--from", str(upstream), "--agent", "nova", timeout=300)
    assert "memories  7 new of 7" in first and "episodes  3 new of 3" in first
    second = cli_output(env, "migrate", "--from", str(upstream), "--agent", "nova", timeout=300)
    assert "memories  0 new of 7" in second and "Nothing new to import" in second
    assert fingerprint(upstream) == before

    stored = upstream_records(FIXTURE / "data")  # read from a copy
    secret = MANIFEST["memories"]["secret"]
    assert (stored[secret["id"]]["valence"], stored[secret["id"]]["arousal"]) == (-0.4, 0.6)
    runtime = Runtime.open(load_settings(data_dir=tmp_path / "ours"), embedder=embedder)
    try:
        memory = runtime.memory("nova")
        imported = all_memories(memory.store)
        assert len(imported) == 7
        for expected in MANIFEST["memories"].values():
            got = imported[expected["id"]]
            assert got.content == expected["content"]
            assert got.tags == tuple(expected.get("tags", ()))
            assert got.is_private is expected.get("private", False)
            assert got.shared is ("shared_with" in expected)  # 1.7's involved_person_ids
            trace, theirs = got.emotional_trace, stored[expected["id"]]
            assert trace.primary.value == expected["emotion"]
            assert (trace.intensity, trace.valence, trace.arousal) == (
                theirs["intensity"],
                theirs["valence"],
                theirs["arousal"],
            )
        recital = imported[MANIFEST["memories"]["recital"]["id"]]
        assert recital.anticipated_at == datetime(2026, 12, 20, 18, tzinfo=UTC)
        assert assert_links_bidirectional(memory.store, mirrored=False) >= 2
        for source, target, kind in MANIFEST["explicit_links"]:
            link = imported[source].link_to(target)
            assert link is not None and link.link_type is LinkType(kind)
        episodes = {e.id: e for e in memory.episodes.all()}
        shared = {e for made in MANIFEST["shared_episodes"].values() for e in made}
        assert set(episodes) == {MANIFEST["episode"], *shared}
        cello = episodes[MANIFEST["episode"]]
        assert cello.memory_ids == (
            MANIFEST["memories"]["cello"]["id"],
            MANIFEST["memories"]["recital"]["id"],
        )
        # The tags filter and the person's aliases work on what was imported.
        from ego_mcp.memory.store import MemoryFilter

        tagged = memory.recall("cello", 5, MemoryFilter(tags=("cello",)))
        assert {hit.memory.id for hit in tagged} == {
            MANIFEST["memories"]["cello"]["id"],
            MANIFEST["memories"]["recital"]["id"],
        }
        ego = runtime.ego("nova")
        for name in ("Kenji", "Ken", "健二", "ken"):
            person = ego.person(name)
            assert person.name == "Kenji" and person.known, name
        assert person.model["aliases"] == ["Ken", "健二"]
        assert "plays the cello" in person.model["known_facts"]
    finally:
        runtime.close()
    assert fingerprint(FIXTURE / "data") == pristine  # the fixture itself, as upstream wrote it

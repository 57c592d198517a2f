"""Export and import across modes with real processes: embedded to a Chroma server and
back; the CLI while a stdio server holds the embedded store; export while two front ends
write and a worker consolidates."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import stat
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from ego_mcp.backup.exporter import export_agent
from ego_mcp.backup.importer import import_agent
from ego_mcp.runtime import Runtime
from ego_mcp.settings import load_settings
from tests.backup.inner_life import FORGOTTEN, PRIVATE, PUBLIC, build, read
from tests.conftest import model_env
from tests.helpers import assert_links_bidirectional, run_ego_mcp, text_of
from tests.integration.conftest import RedisServer, service_env, start_worker


@pytest.mark.redis
def test_embedded_to_a_chroma_server_and_back(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    embedded = Runtime.open(load_settings(data_dir=tmp_path / "here"))
    served = Runtime.open(
        load_settings(
            data_dir=tmp_path / "there", chroma_url=chroma_url, redis_url=redis_server.url
        ),
        embedder=embedded.embedder,
    )
    back = Runtime.open(load_settings(data_dir=tmp_path / "back"), embedder=embedded.embedder)
    try:
        ids = build(embedded, "alice")
        to_server, to_back = tmp_path / "1.jsonl.gz", tmp_path / "2.jsonl"
        export_agent(embedded, "alice", to_server)
        import_agent(served, "alice", to_server)
        export_agent(served, "alice", to_back)
        import_agent(back, "carol", to_back)

        original = read(embedded, "alice")
        assert read(served, "alice") == original == read(back, "carol")
        for runtime, agent in ((served, "alice"), (back, "carol")):
            memory = runtime.memory(agent)
            assert assert_links_bidirectional(memory.store) > 0
            found = memory.recall("herons standing in the river early in the morning", 2)
            assert found[0].memory.id in {ids[PUBLIC[0]], ids[PUBLIC[1]]}
            restored = memory.restore(original.deleted[0].memory.id)
            assert restored.memory.content == FORGOTTEN
    finally:
        for runtime in (embedded, served, back):
            runtime.close()


@pytest.mark.anyio
async def test_export_and_import_while_a_server_holds_the_embedded_store(tmp_path: Path) -> None:
    env = {
        **os.environ,
        **model_env(),
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_AGENT": "alice",
        "EGO_MCP_LOG_LEVEL": "DEBUG",
        "EGO_MCP_LOG_FILE": str(tmp_path / "server.log"),
    }
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    async with Client(params, read_timeout_seconds=60) as client:
        for text in (*PUBLIC, PRIVATE):
            arguments = {"content": text, "force": True, "private": text == PRIVATE}
            await client.call_tool("remember", arguments)
        out = tmp_path / "alice.jsonl"
        cli_env = {**env, "EGO_MCP_LOG_FILE": str(tmp_path / "cli.log")}
        exported = await asyncio.to_thread(run_ego_mcp, cli_env, "export", "--out", str(out))
        assert exported.returncode == 0, exported.stderr
        assert "holds private memories" in exported.stdout
        assert stat.S_IMODE(out.stat().st_mode) == 0o600
        public = tmp_path / "public.jsonl.gz"
        await asyncio.to_thread(
            run_ego_mcp, cli_env, "export", "--exclude-private", "--out", str(public)
        )
        assert "PRIVATE-MARKER" not in gzip.decompress(public.read_bytes()).decode()

        imported = await asyncio.to_thread(
            run_ego_mcp, cli_env, "import", str(out), "--agent", "bob"
        )
        assert imported.returncode == 0, imported.stderr
        assert "imported" in imported.stdout and "5 of 5" in imported.stdout
        again = await asyncio.to_thread(run_ego_mcp, cli_env, "import", str(out), "--agent", "bob")
        assert "0 of 5" in again.stdout
        newer = tmp_path / "newer.jsonl"
        newer.write_text(out.read_text().replace('"version": 1', '"version": 7', 1))
        refused = await asyncio.to_thread(run_ego_mcp, cli_env, "import", str(newer))
        assert refused.returncode == 2 and "version 7" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
        answer = text_of(await client.call_tool("recall", {"context": "LOG-131"}))
        assert "LOG-131" in answer.splitlines()[1]
    written = "".join(p.read_text() for p in tmp_path.glob("*.log"))
    assert "PRIVATE-MARKER" not in written and "herons" not in written


@pytest.mark.anyio
@pytest.mark.redis
async def test_export_under_load_is_consistent(
    tmp_path: Path, redis_server: RedisServer, chroma_url: str
) -> None:
    """Two front ends save and link, a worker consolidates, and exports run meanwhile:
    every file has its links two-way and every link's target in the file."""
    env = service_env(tmp_path, redis_server.url, chroma_url, EGO_MCP_DATA_DIR=str(tmp_path / "a"))
    env_b = {**env, "EGO_MCP_DATA_DIR": str(tmp_path / "b")}
    worker = start_worker(env, tmp_path / "worker.log")
    stop = asyncio.Event()

    async def write(params: StdioServerParameters, tag: str) -> int:
        saved = 0
        async with Client(params, read_timeout_seconds=60) as client:
            while not stop.is_set():
                text = f"{tag} walked by the river and saw heron number {saved}."
                await client.call_tool("remember", {"content": text, "force": True})
                if saved % 5 == 4:
                    await client.call_tool("consolidate", {})
                saved += 1
        return saved

    def front(e: dict[str, str]) -> StdioServerParameters:
        return StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=e)

    try:
        writers = [
            asyncio.create_task(write(front(env), "Aoi")),
            asyncio.create_task(write(front(env_b), "Master")),
        ]
        await asyncio.sleep(8)
        files = []
        for number in range(3):
            out = tmp_path / f"export-{number}.jsonl"
            done = await asyncio.to_thread(run_ego_mcp, env, "export", "--out", str(out))
            assert done.returncode == 0, done.stderr
            files.append(out)
        stop.set()
        saved = await asyncio.gather(*writers)
        assert min(saved) > 3
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    for out in files:
        memories = {}
        for line in out.read_text().splitlines()[1:]:
            record = json.loads(line)
            if record["type"] == "memory":
                memories[record["id"]] = {link["target"] for link in record["links"]}
        assert memories and any(memories.values())
        for memory_id, targets in memories.items():
            for target in targets:
                assert target in memories, f"{memory_id} links to {target}, not in the file"
                assert memory_id in memories[target], f"{target} lacks the link back"

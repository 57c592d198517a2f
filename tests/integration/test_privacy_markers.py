"""Every string a client sends carries a unique marker; afterwards we grep all a run wrote.

Real processes at ``EGO_MCP_LOG_LEVEL=DEBUG``: the stdio front end in embedded mode, and in
distributed mode a front end with a worker (``ego-mcp worker``; the plain arq invocations
are in test_arq_entry.py) on a real redis-server and Chroma server. A
marker may appear only in the workspace lines of the public memory it belongs to (and,
in distributed mode, in the state documents that hold a self-model or relationship value,
which is where that data lives). Logs, job payloads and results never hold one.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
from mcp import Client, StdioServerParameters

from tests.conftest import model_env
from tests.helpers import cli_output, text_of
from tests.integration.test_distributed import saved_id

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


@dataclass
class Markers:
    """Markers by where they may legitimately end up."""

    public: dict[str, str] = field(default_factory=dict)  # marker -> memory id
    documents: set[str] = field(default_factory=set)  # self model / relationship values
    nowhere: set[str] = field(default_factory=set)  # private text, queries, errors, ...
    private: set[str] = field(default_factory=set)  # the text of private memories (in nowhere)

    def new(self, kind: str) -> str:
        """A fresh marker; ``public`` ones are filed with their memory id by the caller."""
        marker = f"zq{secrets.token_hex(5)}"
        if kind == "documents":
            self.documents.add(marker)
        elif kind in ("nowhere", "private"):
            self.nowhere.add(marker)
        if kind == "private":
            self.private.add(marker)
        return marker

    def unpublish(self, marker: str) -> None:
        """A public text whose workspace lines were removed or rewritten: nowhere now."""
        self.public.pop(marker, None)
        self.nowhere.add(marker)

    def all(self) -> set[str]:
        return set(self.public) | self.documents | self.nowhere


async def use(client: Client, tool: str, expect_error: bool = False, **arguments: object) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error == expect_error, (tool, text_of(result))
    return text_of(result)


async def exercise_every_tool(client: Client, markers: Markers) -> list[str]:
    """Calls all 19 tools with markers in every string; returns the ids of the public
    memories whose workspace lines a cleanup job removes."""

    def nowhere() -> str:
        return markers.new("nowhere")

    kept_marker, gone_marker = markers.new("public"), markers.new("public")
    public = saved_id(
        await use(
            client,
            "remember",
            content=f"Walked by the canal at dusk {kept_marker} and counted the boats.",
            body_state={"legs": f"tired {nowhere()}"},
            emotion="contentment",
        )
    )
    gone = saved_id(
        await use(client, "remember", content=f"Lost my umbrella at the station {gone_marker}.")
    )
    markers.public.update({kept_marker: public, gone_marker: gone})
    secret = f"I never told Master about the cracked mug {markers.new('private')} in the cupboard."
    private = saved_id(
        await use(
            client,
            "remember",
            content=secret,
            private=True,
            secondary=["sad"],
            body_state={f"throat{nowhere()}": f"tight {nowhere()}"},
        )
    )
    await use(client, "remember", content=secret, private="true")  # the duplicate answer
    await use(client, "remember", True, content=f"x {nowhere()}", private="on")
    await use(client, "remember", True, content=f"x {nowhere()}", privte=True)
    await use(client, "remember", True, content=f"x {nowhere()}", emotion=f"calm {nowhere()}")
    await use(client, "recall", context=secret)
    await use(client, "recall", context=f"canal {nowhere()}", emotion_filter="contentment")
    await use(client, "search_memories", query=f"umbrella {nowhere()}", category_filter="daily")
    await use(client, "link_memories", source_id=public, target_id=private, note=f"why {nowhere()}")
    episode = await use(
        client, "create_episode", summary=f"An evening {nowhere()}", memory_ids=[public, private]
    )
    await use(client, "get_episode", episode_id=episode[episode.index("ep_") :][:15])
    person = markers.new("documents")
    await use(
        client,
        "update_relationship",
        person=person,
        field="known_facts",
        value=f"likes canals {markers.new('documents')}",
    )
    await use(client, "consider_them", person=person)
    await use(client, "update_self", field="growth_log", value=f"grew {markers.new('documents')}")
    await use(client, "update_self", field="new_question", value=f"why {markers.new('documents')}?")
    await use(client, "satisfy_desire", name="curiosity", quality=0.5)
    for tool in ("wake_up", "feel_desires", "introspect", "am_i_being_genuine", "emotion_trend"):
        await use(client, tool)
    await use(client, "consolidate")
    await use(client, "forget", memory_id=gone)
    await use(client, "forget", memory_id=private)
    await use(client, "restore_memory", memory_id=private)
    await use(client, "forget", memory_id=private)
    await use(client, "restore_memory", True, memory_id="mem_000000000000")
    # Once forgotten, the memory's workspace lines go too: its marker belongs nowhere now.
    markers.unpublish(gone_marker)
    return [gone, *await merge_both_ways(client, markers, public, kept_marker)]


async def merge_both_ways(
    client: Client, markers: Markers, public: str, public_marker: str
) -> list[str]:
    """A public twin merged into ``public`` with new text, and a private memory merged
    into another public one (which turns private); returns the merged-away public id."""
    twin_marker, merged_marker = markers.new("public"), markers.new("public")
    twin = saved_id(
        await use(
            client, "remember", content=f"By the canal again {twin_marker} at dusk.", force=True
        )
    )
    await use(
        client,
        "merge_memories",
        keep_id=public,
        remove_id=twin,
        merged_content=f"Walked by the canal at dusk twice {merged_marker}, counting boats.",
    )
    markers.public[merged_marker] = public
    markers.unpublish(public_marker)
    opened_marker = markers.new("public")
    opened = saved_id(
        await use(client, "remember", content=f"Told the neighbour about roses {opened_marker}.")
    )
    hidden = saved_id(
        await use(
            client,
            "remember",
            content=f"Hid the spare key {markers.new('private')} from Master.",
            private=True,
        )
    )
    answer = await use(
        client,
        "merge_memories",
        keep_id=opened,
        remove_id=hidden,
        merged_content=f"Roses, and the key {markers.new('private')} I hid.",
    )
    assert f"{opened} is private now" in answer
    markers.unpublish(opened_marker)
    return [twin]


def stdio_client(env: dict[str, str]) -> Client:
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    return Client(params, read_timeout_seconds=60)


def files_under(root: Path) -> Iterator[Path]:
    yield from (p for p in root.rglob("*") if p.is_file()) if root.exists() else ()


def assert_workspace_holds_only_public_lines(workspace: Path, markers: Markers) -> None:
    for path in files_under(workspace):
        for line in path.read_text().splitlines():
            for marker in markers.all():
                if marker in line:
                    memory_id = markers.public.get(marker)
                    assert memory_id is not None and f"[id:{memory_id}]" in line, (path, line)


def assert_public_lines_present(workspace: Path, markers: Markers) -> None:
    """The grep found something to find: public memories did reach the workspace."""
    text = "".join(p.read_text() for p in files_under(workspace))
    assert markers.public and all(marker in text for marker in markers.public)


def assert_absent(markers: set[str], blobs: dict[str, bytes]) -> None:
    for name, blob in blobs.items():
        for marker in markers:
            assert marker.encode() not in blob, f"{marker} found in {name}"


def redis_contents(url: str) -> dict[str, bytes]:
    """Every key with its value, read by type (DUMP would compress long strings)."""
    client = redis.Redis.from_url(url)
    found: dict[str, bytes] = {}
    for key in client.scan_iter("*"):
        kind = client.type(key).decode()
        if kind == "string":
            value = client.get(key) or b""
        elif kind == "hash":
            value = b"\n".join(k + b"=" + v for k, v in client.hgetall(key).items())
        elif kind == "list":
            value = b"\n".join(client.lrange(key, 0, -1))
        elif kind == "set":
            value = b"\n".join(client.smembers(key))
        elif kind == "zset":
            value = b"\n".join(client.zrange(key, 0, -1))
        else:
            value = b""
        found[f"redis {key.decode(errors='replace')}"] = key + b"\n" + value
    client.close()
    return found


def logs_of(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in folder.glob("*.log")}


async def test_embedded_run_writes_no_marker_outside_public_workspace_lines(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_WORKSPACE_DIR": str(tmp_path / "workspace"),
        **model_env(),
        "EGO_MCP_LOG_LEVEL": "DEBUG",
        "EGO_MCP_LOG_FILE": str(tmp_path / "server.log"),
    }
    markers = Markers()
    async with stdio_client(env) as client:
        await exercise_every_tool(client, markers)
    # A restart: the first recall quoting a private memory comes from a fresh process.
    async with stdio_client(env) as client:
        await use(client, "recall", context=f"cracked mug {markers.new('nowhere')} cupboard")
    listed = {
        " ".join(arguments): cli_output(env, "forgotten", *arguments)
        for arguments in ([], ["--json"], ["purge"])
    }
    logs = logs_of(tmp_path)
    assert b"tool call remember" in logs[str(tmp_path / "server.log")]
    assert_absent(markers.all(), logs)
    assert "(private)" in listed[""] and '"snippet": null' in listed["--json"]
    assert "purged 0 deletion-log entries" in listed["purge"]  # none is past its window yet
    assert_absent(markers.private, {name: out.encode() for name, out in listed.items()})
    assert_workspace_holds_only_public_lines(tmp_path / "workspace", markers)
    assert_public_lines_present(tmp_path / "workspace", markers)

"""One HTTP front end, three agents from an agents file: real processes, the SDK's client.

Each agent sees only its own data through every tool; a token of one agent reaches
nothing of another's, even with the other's ids; bad tokens are 401s that say why; no
token reaches a log.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from ego_mcp.embedding.base import Embedder
from tests.conftest import model_env
from tests.helpers import cli_output, free_port, memory_id_in, text_of

pytestmark = pytest.mark.anyio
AGENTS = ("nova", "orion", "vega")
COLOUR = {"nova": "amber", "orion": "cobalt", "vega": "sienna"}  # in each agent's texts
PERSON = {"nova": "Kai", "orion": "Mira", "vega": "Tomo"}


@dataclass
class Deployment:
    url: str
    tokens: dict[str, str]
    root: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes]


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    port = free_port()
    env = {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_WORKSPACE_DIR": str(tmp_path / "workspace" / "{agent}"),
        **model_env(),
        "EGO_MCP_TRANSPORT": "http",
        "EGO_MCP_HTTP_PORT": str(port),
        "EGO_MCP_AGENTS_FILE": str(tmp_path / "agents.json"),
        "EGO_MCP_LOG_FILE": str(tmp_path / "server.log"),
    }
    tokens = {agent: cli_output(env, "agents", "add", agent).strip() for agent in AGENTS}
    with (tmp_path / "stderr.log").open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "ego_mcp", "serve"], env=env, stderr=stderr
        )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.1)
        yield Deployment(url, tokens, tmp_path, env, process)
    finally:
        process.terminate()
        process.wait(timeout=30)


@asynccontextmanager
async def agent_client(deployment: Deployment, agent: str) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {deployment.tokens[agent]}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(deployment.url, http_client=http)) as client,
    ):
        yield client


async def use(client: Client, tool: str, **arguments: object) -> tuple[bool, str]:
    result = await client.call_tool(tool, arguments)
    return bool(result.is_error), text_of(result)


async def test_each_agent_sees_only_its_own_data(deployment: Deployment) -> None:
    ids = {agent: await fill(deployment, agent) for agent in AGENTS}

    for agent in AGENTS:
        others = [other for other in AGENTS if other != agent]
        async with agent_client(deployment, agent) as client:
            answers = [
                (await use(client, tool, **arguments))[1]
                for tool, arguments in (
                    ("recall", {"context": "lighthouse harbour night", "n_results": 10}),
                    ("search_memories", {"query": "private worry winter"}),
                    ("wake_up", {}),
                    ("introspect", {}),
                    ("emotion_trend", {}),
                )
            ]
            assert ids[agent]["saved"] in answers[0] and COLOUR[agent] in answers[0]
            for other in others:
                answers += await try_the_ids_of(client, ids[agent], ids[other])
                answers.append((await use(client, "consider_them", person=PERSON[other]))[1])
            for answer in answers:
                assert not any(COLOUR[other] in answer for other in others), (agent, answer)

    for agent in AGENTS:  # nothing of one agent was changed by the others' attempts
        async with agent_client(deployment, agent) as client:
            refused, shown = await use(client, "get_episode", episode_id=ids[agent]["episode"])
            assert not refused and ids[agent]["saved"] in shown
            refused, back = await use(client, "restore_memory", memory_id=ids[agent]["gone"])
            assert not refused, back
            _, person = await use(client, "consider_them", person=PERSON[agent])
            assert f"likes {COLOUR[agent]} tea" in person
        workspace = deployment.root / "workspace" / agent
        text = "".join(p.read_text() for p in workspace.rglob("*.md"))
        assert f"The {COLOUR[agent]} lighthouse" in text and "private" not in text
        assert not any(COLOUR[other] in text for other in AGENTS if other != agent)

    logged = (deployment.root / "server.log").read_text()
    logged += (deployment.root / "stderr.log").read_text()
    assert "tool call remember" in logged
    assert not any(token in logged for token in deployment.tokens.values())


async def fill(deployment: Deployment, agent: str) -> dict[str, str]:
    """The agent's memories (public, private, forgotten), an episode and a person."""
    colour = COLOUR[agent]
    async with agent_client(deployment, agent) as client:
        public = f"The {colour} lighthouse blinked over the harbour at night."
        saved = memory_id_in((await use(client, "remember", content=public))[1])
        secret = f"A private {colour} worry about the long winter."
        hidden = memory_id_in((await use(client, "remember", content=secret, private=True))[1])
        lost = f"Lost a {colour} glove on the tram."
        gone = memory_id_in((await use(client, "remember", content=lost, force=True))[1])
        await use(client, "forget", memory_id=gone)
        _, episode = await use(client, "create_episode", summary="Night", memory_ids=[saved])
        await use(
            client,
            "update_relationship",
            person=PERSON[agent],
            field="known_facts",
            value=f"likes {colour} tea",
        )
    return {
        "saved": saved,
        "hidden": hidden,
        "gone": gone,
        "episode": episode[episode.index("ep_") :][:15],
    }


async def try_the_ids_of(client: Client, mine: dict[str, str], theirs: dict[str, str]) -> list[str]:
    """Every tool that takes an id, given another agent's ids: each must be refused."""
    calls: list[tuple[str, dict[str, object]]] = [
        ("forget", {"memory_id": theirs["saved"]}),
        ("restore_memory", {"memory_id": theirs["gone"]}),
        ("get_episode", {"episode_id": theirs["episode"]}),
        ("link_memories", {"source_id": mine["saved"], "target_id": theirs["hidden"]}),
        ("create_episode", {"summary": "x", "memory_ids": [theirs["hidden"]]}),
        ("merge_memories", {"keep_id": mine["saved"], "remove_id": theirs["saved"]}),
        ("merge_memories", {"keep_id": theirs["saved"], "remove_id": mine["saved"]}),
    ]
    answers = []
    for tool, arguments in calls:
        refused, answer = await use(client, tool, **arguments)
        assert refused, (tool, answer)
        answers.append(answer)
    return answers


async def test_bad_tokens_are_401s_that_say_why_and_are_logged_without_the_token(
    deployment: Deployment,
) -> None:
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    cases = {
        "missing": ({}, "missing bearer token"),
        "empty": ({"Authorization": "Bearer"}, "the bearer token is empty"),
        "scheme": ({"Authorization": "Basic dXNlcg=="}, "is not 'Bearer <token>'"),
        "wrong": ({"Authorization": "Bearer not-a-real-token-zq91"}, "not valid for this server"),
    }
    for headers, reason in cases.values():
        response = httpx.post(deployment.url, json=ping, headers=headers)
        assert response.status_code == 401
        assert reason in response.json()["error_description"]
        challenge = response.headers["www-authenticate"]
        assert "resource_metadata" not in challenge
        assert 'error_description="' in challenge and reason in challenge  # clients show it
    discovery = httpx.get(deployment.url.replace("/mcp", "/.well-known/oauth-protected-resource"))
    assert discovery.status_code == 404 and "no OAuth" in discovery.json()["error_description"]

    started = time.monotonic()
    headers = {"Authorization": "Bearer not-a-real-token-zq91"}
    with anyio.fail_after(15):
        async with httpx2.AsyncClient(headers=headers, timeout=10) as http:
            with pytest.raises(Exception) as refused:
                async with Client(streamable_http_client(deployment.url, http_client=http)):
                    pass
    assert "error response" in repr(refused.value)  # the SDK's words for the 401
    assert time.monotonic() - started < 15  # at once, no discovery loop

    logged = (deployment.root / "server.log").read_text()
    assert logged.count("refused a request from 127.0.0.1:") >= 5
    assert "not valid for this server" in logged and "zq91" not in logged
    assert not any(token in logged for token in deployment.tokens.values())


async def test_an_agent_added_while_the_server_runs_can_connect(deployment: Deployment) -> None:
    deployment.tokens["lyra"] = cli_output(deployment.env, "agents", "add", "lyra").strip()
    async with agent_client(deployment, "lyra") as client:
        refused, answer = await use(client, "remember", content="Lyra's first memory.")
        assert not refused and answer.startswith("Saved (id: mem_")
    cli_output(deployment.env, "agents", "remove", "lyra")
    response = httpx.post(
        deployment.url,
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={"Authorization": f"Bearer {deployment.tokens['lyra']}"},
    )
    assert response.status_code == 401


def mcporter() -> str | None:
    """mcporter (npm), as .ci/run installs it, or on PATH."""
    return shutil.which("mcporter")


@pytest.mark.skipif(
    mcporter() is None, reason="mcporter (npm) is not installed; .ci/run installs it"
)
def test_mcporter_reports_unauthorized_at_once_and_lists_tools_with_a_token(
    deployment: Deployment,
) -> None:
    def listing(*headers: str) -> tuple[float, str]:
        started = time.monotonic()
        done = subprocess.run(
            [str(mcporter()), "list", "--http-url", deployment.url, "--allow-http", "--json",
             *(part for header in headers for part in ("--header", header))],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        return time.monotonic() - started, done.stdout

    for headers in ((), ("Authorization=Bearer not-a-real-token-zq91",)):
        elapsed, output = listing(*headers)
        report = json.loads(output)
        assert report["status"] == "auth" and report["issue"]["statusCode"] == 401, output
        assert elapsed < 20  # no discovery loop, no timeout
    elapsed, output = listing(f"Authorization=Bearer {deployment.tokens['nova']}")
    assert json.loads(output)["status"] == "ok", output
    assert "remember" in output


async def test_clients_at_once_on_one_embedded_front_end_keep_every_link_two_way(
    deployment: Deployment, embedder: Embedder
) -> None:
    """Four sessions of one agent save, link, forget, merge and restore at once, so the
    front end's threads read and write its memories together (through the embedded store's
    record cache); once it stops, every link in the store is two-way and points at a
    memory that is there."""
    from ego_mcp.runtime import Runtime
    from ego_mcp.settings import load_settings
    from tests.helpers import assert_links_bidirectional

    async def session(number: int, saved: list[str]) -> None:
        async with agent_client(deployment, "nova") as client:
            mine: list[str] = []
            for index in range(12):
                text = f"Window {number} noted the amber kite, flight {index} over the bay."
                failed, answer = await use(client, "remember", content=text, force=True)
                assert not failed, answer
                mine.append(memory_id_in(answer))
                saved.append(mine[-1])
                if index % 3 == 2 and len(saved) > 4:  # a link to another window's memory
                    other = saved[(number * 5 + index) % len(saved)]
                    if other != mine[-1]:
                        await use(client, "link_memories", source_id=mine[-1], target_id=other)
                if index % 4 == 3:
                    gone = mine.pop(0)
                    failed, answer = await use(client, "forget", memory_id=gone)
                    if number % 2 == 0 and not failed:  # and now and then take it back
                        await use(client, "restore_memory", memory_id=gone)
                        mine.append(gone)
            if len(mine) >= 2:
                await use(client, "merge_memories", keep_id=mine[0], remove_id=mine[1])

    saved: list[str] = []
    async with anyio.create_task_group() as group:
        for number in range(4):
            group.start_soon(session, number, saved)
    async with agent_client(deployment, "nova") as client:  # which strengthens links too
        await use(client, "consolidate")
    deployment.process.terminate()  # the front end holds the store until it stops
    deployment.process.wait(timeout=30)
    settings = load_settings(data_dir=deployment.root / "data", agent="nova")
    runtime = Runtime.open(settings, embedder=embedder)
    try:
        assert assert_links_bidirectional(runtime.memory("nova").store) > 0
    finally:
        runtime.close()

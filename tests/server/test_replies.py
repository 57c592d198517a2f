"""A request sent again after a hand-over of the store: every state-changing tool answers
it with its first try's answer and changes nothing more (the reply journal), over a real
server session on raw JSON-RPC lines, against real Chroma and the model."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.server.stdio import stdio_server

from ego_mcp.server.app import create_server
from ego_mcp.server.context import AppContext
from ego_mcp.server.replies import ReplyJournal
from ego_mcp.server.sharing.replay import mark_replayed
from ego_mcp.settings import Settings
from tests.helpers import memory_id_in

pytestmark = pytest.mark.anyio
SESSION = "window-1"


class Lines:
    """The client side of a session: lines in, answers out, matched by id."""

    def __init__(self) -> None:
        self.send, self._receive = anyio.create_memory_object_stream[str](100)
        self.answers: dict[Any, dict[str, Any]] = {}
        self._arrived = anyio.Event()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._receive.__aiter__()

    async def write(self, text: str) -> None:
        message = json.loads(text)
        if "id" in message and "method" not in message:
            self.answers[message["id"]] = message
            self._arrived.set()

    async def flush(self) -> None:
        return None

    async def request(self, line: str, request_id: int) -> dict[str, Any]:
        self.answers.pop(request_id, None)
        await self.send.send(line)
        while request_id not in self.answers:
            self._arrived = anyio.Event()
            await self._arrived.wait()
        return self.answers[request_id]


def call_line(request_id: int, tool: str, **arguments: Any) -> str:
    params = {"name": tool, "arguments": arguments}
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    return json.dumps(body) + "\n"


def answer_text(answer: dict[str, Any]) -> str:
    return str(answer["result"]["content"][0]["text"])


def state_of(app: AppContext, settings: Settings) -> dict[str, Any]:
    """Everything the agent's store and documents hold, for before/after comparison."""
    state: dict[str, Any] = {}
    for collection in app.runtime.chroma.client.list_collections():
        got = collection.get(include=["documents", "metadatas"])
        state[collection.name] = sorted(
            zip(
                got["ids"],
                got["documents"] or [],
                [json.dumps(m, sort_keys=True) for m in got["metadatas"] or []],
                strict=False,
            )
        )
    for path in sorted((settings.data_dir / "state").rglob("*.json")):
        state[str(path)] = path.read_text()
    return state


@pytest.fixture
async def session(settings: Settings, app: AppContext) -> AsyncIterator[Lines]:
    replies = ReplyJournal.open(settings.data_dir)
    server = create_server(settings, app, replies=replies)
    lines = Lines()
    async with anyio.create_task_group() as group:

        async def serve() -> None:
            async with stdio_server(stdin=lines, stdout=lines) as (read, write):  # type: ignore[arg-type]
                await server.serve_streams(read, write, app.for_session(app.agent, SESSION))

        group.start_soon(serve)
        init = {"protocolVersion": "2025-06-18", "capabilities": {}}
        init["clientInfo"] = {"name": "test", "version": "0"}
        body = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}
        await lines.request(json.dumps(body) + "\n", 0)
        await lines.send.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        yield lines
        group.cancel_scope.cancel()
    replies.close()


async def test_every_state_changing_tool_answers_a_replay_once(
    session: Lines, app: AppContext, settings: Settings
) -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("remember", {"content": "I walked the dog by the river at dawn.", "force": True}),
        ("remember", {"content": "Master baked bread and it burned a bit.", "force": True}),
    ]
    answers: list[str] = []
    request_id = 10
    for tool, arguments in calls:
        request_id += 1
        line = call_line(request_id, tool, **arguments)
        answers.append(answer_text(await session.request(line, request_id)))
    walk, bread = (memory_id_in(text) for text in answers)
    changing: list[tuple[str, dict[str, Any]]] = [
        ("link_memories", {"source_id": walk, "target_id": bread, "link_type": "related"}),
        ("create_episode", {"summary": "A morning", "memory_ids": [walk, bread]}),
        ("merge_memories", {"keep_id": walk, "remove_id": bread, "merged_content": "Both."}),
        ("restore_memory", {"memory_id": bread}),
        ("forget", {"memory_id": bread}),
        ("satisfy_desire", {"name": "curiosity", "quality": 0.9}),
        ("update_relationship", {"person": "Master", "field": "known_facts", "value": "bakes"}),
        ("update_self", {"field": "current_goals", "value": "walk more"}),
        ("consolidate", {}),
        ("wake_up", {}),
        ("remember", {"content": "A third, new memory about the sea.", "force": True}),
    ]
    for tool, arguments in changing:
        request_id += 1
        line = call_line(request_id, tool, **arguments)
        answer = await session.request(line, request_id)
        assert "error" not in answer, (tool, answer)
        before = state_of(app, settings)

        again = await session.request(mark_replayed(line), request_id)

        assert again["result"] == answer["result"], tool  # the first try's answer
        assert state_of(app, settings) == before, tool  # and nothing done twice


async def test_a_replay_of_a_call_cut_off_midway_is_not_done_again(
    session: Lines, app: AppContext, settings: Settings
) -> None:
    ids = []
    for request_id, text in ((1, "The kettle whistled at noon."), (2, "Snow fell on the roof.")):
        line = call_line(request_id, "remember", content=text, force=True)
        ids.append(memory_id_in(answer_text(await session.request(line, request_id))))
    journal = ReplyJournal.open(settings.data_dir)
    journal.begin(f"{SESSION}/3")  # the first try began, then its holder was killed
    journal.close()
    before = state_of(app, settings)
    line = call_line(3, "merge_memories", keep_id=ids[0], remove_id=ids[1])

    answer = await session.request(mark_replayed(line), 3)

    assert answer["result"]["isError"] is True
    assert "was cut off" in answer_text(answer)
    assert state_of(app, settings) == before


async def test_a_replay_the_journal_never_saw_runs_as_a_first_try(
    session: Lines, app: AppContext
) -> None:
    line = call_line(5, "remember", content="The lighthouse blinked twice.", force=True)
    answer = await session.request(mark_replayed(line), 5)
    assert answer_text(answer).startswith("Saved (id: mem_")
    again = await session.request(mark_replayed(line), 5)  # a second hand-over: journaled
    assert again["result"] == answer["result"]
    assert app.memory.store.count() == 1


def test_the_journal_file_is_for_this_user_only(tmp_path: Path) -> None:
    ReplyJournal.open(tmp_path).close()
    assert (tmp_path / "replies.sqlite3").stat().st_mode & 0o077 == 0


async def test_a_shared_memory_sent_again_after_a_cut_off_makes_no_second_episode(
    session: Lines, app: AppContext, settings: Settings
) -> None:
    """The first try saved and shared, then its holder was killed before answering: the
    call sent again finds the memory and its episode, and makes neither again."""
    arguments = {"content": "Watched the harbour lights with Ken.", "shared_with": "Ken"}
    first = answer_text(await session.request(call_line(7, "remember", **arguments), 7))
    assert "Shared with Ken: episode ep_" in first
    journal = ReplyJournal.open(settings.data_dir)
    journal.begin(f"{SESSION}/8")
    journal.close()

    again = await session.request(mark_replayed(call_line(8, "remember", **arguments)), 8)

    assert "made when this call first ran" in answer_text(again)
    assert app.memory.store.count() == 1 and len(app.memory.episodes.all()) == 1
    people = app.runtime.documents(app.agent).load("relationships")
    assert people is not None and len(people["Ken"]["shared_episodes"]) == 1

"""The relay passes whole lines only: a holder that dies mid-answer leaves the call in
flight, to be replayed whole, never half an answer glued to the next one."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from ego_mcp.server.sharing.relay import relay
from ego_mcp.server.sharing.replay import SessionLog

pytestmark = pytest.mark.anyio

CALL = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {}}) + "\n"
ANSWER = json.dumps({"jsonrpc": "2.0", "id": 7, "result": {"content": []}}) + "\n"


class Collected:
    """The client's stdout."""

    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        return None


class ClientLines:
    """The client's stdin: one call, then open until the test ends."""

    def __init__(self) -> None:
        self.sent = False

    def __aiter__(self) -> ClientLines:
        return self

    async def __anext__(self) -> str:
        if not self.sent:
            self.sent = True
            return CALL
        await asyncio.sleep(3600)
        raise StopAsyncIteration


async def relayed(tmp_path: Path, holder: Any) -> tuple[Collected, SessionLog, bool]:
    """One call relayed to ``holder`` (a real Unix socket server): what the client got,
    the session's log, and whether the client closed first."""
    path = tmp_path / "holder.sock"
    server = await asyncio.start_unix_server(holder, path=str(path))
    async with server:
        connection = await asyncio.open_unix_connection(str(path))
        out, log = Collected(), SessionLog()
        client_closed = await relay(connection, ClientLines(), out, log, [], set())
    return out, log, client_closed


async def test_a_holder_dying_mid_answer_hands_the_client_nothing(tmp_path: Path) -> None:
    async def holder(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(ANSWER[: len(ANSWER) // 2].encode())  # then the process dies
        await writer.drain()
        writer.close()

    out, log, client_closed = await relayed(tmp_path, holder)

    assert client_closed is False  # the holder went: the window takes over and replays
    assert out.data == b""
    assert "7" in str(log.in_flight)  # still awaited: replayed whole after the hand-over


async def test_whole_answers_pass(tmp_path: Path) -> None:
    async def holder(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(ANSWER.encode())
        await writer.drain()
        writer.close()

    out, log, _ = await relayed(tmp_path, holder)

    assert out.data == ANSWER.encode()
    assert log.in_flight == {}

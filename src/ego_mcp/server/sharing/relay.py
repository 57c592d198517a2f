"""A relay: this window's client lines to the holder's socket, and its answers back."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ego_mcp.server.sharing.guest_socket import Streams
from ego_mcp.server.sharing.replay import LineWriter, SessionLog
from ego_mcp.server.stdio import EventLoopLines


async def relay(
    connection: Streams,
    lines: Any,
    writer: Any,
    log: SessionLog,
    replay: list[str],
    dropped: set[str],
) -> bool:
    """Pass lines both ways, ``replay`` first, until the client closes stdin (True) or
    the holder goes (False)."""
    upstream_reader, upstream = connection
    try:
        for line in replay:
            upstream.write(line.encode())
        await upstream.drain()
    except (ConnectionError, OSError):
        upstream.close()
        return False  # gone again before we could say anything
    answers = LineWriter(writer, dropped, log)
    client_closed = False

    async def to_holder() -> None:
        nonlocal client_closed
        async for line in lines:
            log.from_client(line)
            upstream.write(line.encode())
            await upstream.drain()
        client_closed = True
        upstream.write_eof()

    async def from_holder() -> None:
        async for line in EventLoopLines(upstream_reader):
            if not line.endswith("\n"):
                return  # the holder died mid-answer: the call stays in flight, replayed whole
            await answers.write(line)
            await answers.flush()

    sending = asyncio.create_task(to_holder())
    try:
        await from_holder()
    except (ConnectionError, OSError):
        pass
    finally:
        if not client_closed:
            sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError, OSError):
            await sending
        upstream.close()
    return client_closed

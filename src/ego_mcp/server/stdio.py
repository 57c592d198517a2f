"""The stdio transport, stoppable: SIGINT or SIGTERM ends the session at once.

The SDK reads stdin in a worker thread, so a Ctrl-C waits for the next line (Enter) and
then unwinds with a traceback. Here stdin is read by the event loop itself (a pipe or a
terminal), so cancelling the session on a signal takes effect immediately, and the
lifespan's shutdown (pending jobs run or go to Redis) still runs.
"""

from __future__ import annotations

import asyncio
import os
import signal
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.stdio import stdio_server

MAX_LINE_BYTES = 64 * 1024 * 1024


class EventLoopLines:
    """stdin as an async iterator of text lines, read without a thread."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> EventLoopLines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


@asynccontextmanager
async def event_loop_stdin() -> AsyncIterator[EventLoopLines | None]:
    """stdin read by the loop when it is a pipe or a terminal; None (the SDK's way) else."""
    mode = os.fstat(0).st_mode
    if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)):
        yield None
        return
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", closefd=False)
    )
    try:
        yield EventLoopLines(reader)
    finally:
        transport.close()
        os.set_blocking(0, True)  # a terminal is shared with the shell that started us


async def cancel_on_signal(scope: anyio.CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for _ in signals:
            scope.cancel()
            return


async def run_stdio(lowlevel: Any) -> None:
    """Serve one stdio session with ``lowlevel`` (the SDK's low-level server)."""
    async with anyio.create_task_group() as group:
        group.start_soon(cancel_on_signal, group.cancel_scope)
        async with event_loop_stdin() as lines, stdio_server(stdin=lines) as (read, write):  # type: ignore[arg-type]
            await lowlevel.run(read, write, lowlevel.create_initialization_options())
        group.cancel_scope.cancel()


class BlockingLines:
    """Lines of a file the event loop cannot watch (a regular file, /dev/null), each read
    in a thread."""

    def __init__(self, fd: int) -> None:
        self._file = os.fdopen(fd, "rb", closefd=False)

    def __aiter__(self) -> BlockingLines:
        return self

    async def __anext__(self) -> str:
        line = await anyio.to_thread.run_sync(self._file.readline)
        if not line:
            raise StopAsyncIteration
        return bytes(line).decode("utf-8", errors="replace")


class BlockingWriter:
    """``write``/``drain`` over a file the event loop cannot watch, written in a thread."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._pending = bytearray()

    def write(self, data: bytes) -> None:
        self._pending += data

    async def drain(self) -> None:
        data, self._pending = bytes(self._pending), bytearray()
        while data:
            written = await anyio.to_thread.run_sync(os.write, self._fd, data)
            data = data[written:]


async def std_streams() -> tuple[Any, Any]:
    """stdin and the protocol's stdout, read and written by the event loop (in threads
    where it cannot watch them). Stray writes to fd 1 (a library's print) go to stderr
    from here on, so they cannot corrupt the protocol."""
    loop = asyncio.get_running_loop()
    lines: Any
    reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
    try:
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", closefd=False)
        )
        lines = EventLoopLines(reader)
    except (OSError, ValueError):
        lines = BlockingLines(0)
    wire = os.dup(1)
    os.dup2(2, 1)
    writer: Any
    try:
        transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.streams.FlowControlMixin(loop), os.fdopen(wire, "wb")
        )
        writer = asyncio.StreamWriter(transport, protocol, None, loop)
    except (OSError, ValueError):
        writer = BlockingWriter(wire)
    return lines, writer

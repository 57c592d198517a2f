"""One embedded store, any number of local stdio clients.

The embedded store is opened by one process only (the directory lock). The first
``ego-mcp serve`` on a data dir holds it: it serves its own client over stdio and, on a
Unix socket in the data dir (``ego-mcp.sock``, mode 0600, peers of another user
refused), a session for every other ``ego-mcp serve`` on that dir. Those others are
relays: they pass their client's lines to the socket and the answers back, and keep
the little a new holder needs (:class:`SessionLog`).

When the holder exits (or is killed), its socket closes and its lock is released; each
relay tries the lock. The one that gets it opens the store and serves its own client
in-process, after replaying the client's ``initialize`` (its answer, already given,
is dropped) and every request still unanswered; the others connect to the new holder's
socket and replay the same way. A request in flight at the hand-over is sent again, so
it is answered once; a ``remember`` that the old holder had already saved meets the
near-duplicate guard instead of being saved twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import stat
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.stdio import stdio_server

from ego_mcp.errors import StoreHeld
from ego_mcp.server.app import create_server, running_once_open
from ego_mcp.server.context import REPLAYED_META_KEY, OpeningApp
from ego_mcp.server.stdio import MAX_LINE_BYTES, EventLoopLines, cancel_on_signal
from ego_mcp.settings import Settings
from ego_mcp.store.client import chroma_directory
from ego_mcp.store.dirlock import DirectoryLock

logger = logging.getLogger(__name__)
SOCKET_NAME = "ego-mcp.sock"

CONNECT_SECONDS = 10.0  # how long a relay looks for a new holder's socket
POLL_SECONDS = 0.1


def socket_path(settings: Settings) -> Path:
    return settings.data_dir / SOCKET_NAME


def _key(message_id: object) -> str:
    return json.dumps(message_id)


class SessionLog:
    """What a relay remembers of its client's session: the handshake, and the requests
    that have no answer yet (pure bookkeeping over JSON-RPC lines)."""

    def __init__(self) -> None:
        self.initialize: str | None = None
        self.initialized: str | None = None
        self.in_flight: dict[str, str] = {}  # request id -> the request's line
        self._initialize_id: str | None = None

    def from_client(self, line: str) -> None:
        message = _parse(line)
        if message is None or "method" not in message:
            return
        if message["method"] == "notifications/initialized":
            self.initialized = line
        if "id" in message:
            self.in_flight[_key(message["id"])] = line
            if message["method"] == "initialize":
                self.initialize, self._initialize_id = line, _key(message["id"])

    def from_server(self, line: str) -> None:
        message = _parse(line)
        if message is None or "method" in message or "id" not in message:
            return
        self.in_flight.pop(_key(message["id"]), None)

    @property
    def initialize_answered(self) -> bool:
        return self.initialize is not None and self._initialize_id not in self.in_flight

    def replay(self) -> tuple[list[str], set[str]]:
        """The lines a new holder must read first, and the ids whose answers the client
        has had already (to be dropped)."""
        lines: list[str] = []
        dropped: set[str] = set()
        if self.initialize is not None and self.initialize_answered:
            lines.append(self.initialize)
            dropped.add(self._initialize_id or "")
            if self.initialized is not None:
                lines.append(self.initialized)
        for key, line in self.in_flight.items():  # an unanswered initialize comes again here
            lines.append(line if key == self._initialize_id else mark_replayed(line))
        return lines, dropped


def mark_replayed(line: str) -> str:
    """A request sent again after a hand-over, marked so that a tool whose first try may
    have been done (``remember``, ``forget``) answers with that instead of doing it twice."""
    message = _parse(line)
    if message is None:
        return line
    params = message.setdefault("params", {})
    if isinstance(params, dict):
        params.setdefault("_meta", {})[REPLAYED_META_KEY] = True
    return json.dumps(message) + "\n"


def _parse(line: str) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


class LineWriter:
    """The text stream ``stdio_server`` writes to, over an asyncio writer, dropping the
    answers a client has had already and telling ``log`` what went out."""

    def __init__(
        self,
        writer: Any,
        dropped: set[str] | None = None,
        log: SessionLog | None = None,
    ) -> None:
        self._writer = writer
        self._dropped = set(dropped or ())
        self._log = log

    async def write(self, text: str) -> None:
        if self._dropped:
            message = _parse(text)
            if message is not None and "method" not in message:
                key = _key(message.get("id"))
                if key in self._dropped:
                    self._dropped.discard(key)
                    return
        if self._log is not None:
            self._log.from_server(text)
        self._writer.write(text.encode())

    async def flush(self) -> None:
        await self._writer.drain()


class ReplayedLines:
    """The client's lines as a server session reads them: the replay first, then the
    live stream, each noted in ``log``."""

    def __init__(self, replay: list[str], live: EventLoopLines, log: SessionLog) -> None:
        self._replay = list(replay)
        self._live = live
        self._log = log

    def __aiter__(self) -> ReplayedLines:
        return self

    async def __anext__(self) -> str:
        if self._replay:
            return self._replay.pop(0)
        line = await self._live.__anext__()
        self._log.from_client(line)
        return line


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


def store_is_held(settings: Settings) -> bool:
    """Whether another process holds the embedded store now (a probe)."""
    return DirectoryLock(chroma_directory(settings)).is_held()


def can_relay(settings: Settings) -> bool:
    """Only an embedded store over stdio is shared this way (a Chroma server is shared by
    itself; an HTTP server already takes many clients)."""
    return settings.transport == "stdio" and settings.chroma_url is None


async def serve_shared(
    settings: Settings, started: Callable[[], None], opened: OpeningApp | None
) -> None:
    """Serve this process's stdio client: as the holder of the store when the lock is
    free (``opened``: the store this process began to open before the protocol), else as
    a relay to the holder, taking over when it goes. ``started`` is called each time this
    process holds the store."""
    lines, writer = await std_streams()
    try:
        await _serve_client(settings, started, opened, lines, writer)
    finally:
        with contextlib.suppress(OSError):
            os.set_blocking(0, True)  # a terminal is shared with the shell that started us


async def _serve_client(
    settings: Settings,
    started: Callable[[], None],
    opened: OpeningApp | None,
    lines: Any,
    writer: Any,
) -> None:
    log = SessionLog()
    replay: list[str] = []
    dropped: set[str] = set()
    async with anyio.create_task_group() as group:
        group.start_soon(cancel_on_signal, group.cancel_scope)
        while True:
            if opened is not None or not store_is_held(settings):
                own = ReplayedLines(replay, lines, log)
                answers = LineWriter(writer, dropped, log)
                if await hold_store(settings, own, answers, started, opened):
                    break
                opened = None
            connection = await _connect(settings)
            if connection is None:
                continue  # no holder answers: try the lock again
            logger.info("relaying this session to the process that holds the store")
            if await _relay(connection, lines, writer, log, replay, dropped):
                break  # our client closed its stdin
            replay, dropped = log.replay()
            logger.info("the store's holder went away; taking over or joining the next")
        group.cancel_scope.cancel()


async def _connect(settings: Settings) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection to the holder's socket; None when the lock came free meanwhile. A
    holder that opens no socket in time (``migrate``, ``reembed``, an HTTP server) is
    ``StoreHeld``, naming it."""
    path = socket_path(settings)
    deadline = asyncio.get_running_loop().time() + CONNECT_SECONDS
    while asyncio.get_running_loop().time() < deadline:
        try:
            return await asyncio.open_unix_connection(str(path), limit=MAX_LINE_BYTES)
        except OSError:
            await asyncio.sleep(POLL_SECONDS)
            if not await anyio.to_thread.run_sync(store_is_held, settings):
                return None  # the lock is free: take it instead of waiting
    lock = DirectoryLock(chroma_directory(settings))
    holder = lock.path.read_text().strip() if lock.path.exists() else "unknown"
    raise StoreHeld(
        f"the embedded store {lock.path.parent} is held by pid {holder}, which takes no "
        "sessions (ego-mcp migrate, reembed or an HTTP server?); try again when it is done"
    )


async def _relay(
    connection: tuple[asyncio.StreamReader, asyncio.StreamWriter],
    lines: EventLoopLines,
    writer: asyncio.StreamWriter,
    log: SessionLog,
    replay: list[str],
    dropped: set[str],
) -> bool:
    """Pass lines both ways until the client closes stdin (True) or the holder goes
    (False)."""
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


class GuestListener:
    """The holder's socket: one server session (``run_session(read, write)``) per relay
    that connects; connections from another user are refused."""

    def __init__(self, path: Path, run_session: Callable[[Any, Any], Any]) -> None:
        self._path = path
        self._run_session = run_session
        self._server: asyncio.Server | None = None
        self._sessions: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self._path.unlink()  # left by a holder that was killed: we hold the lock now
        self._server = await asyncio.start_unix_server(
            self._accept, str(self._path), limit=MAX_LINE_BYTES
        )
        os.chmod(self._path, stat.S_IRUSR | stat.S_IWUSR)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._sessions):
            task.cancel()
        await asyncio.gather(*self._sessions, return_exceptions=True)
        with contextlib.suppress(FileNotFoundError):
            self._path.unlink()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("socket")
        if peer is not None and _peer_uid(peer) != os.getuid():
            logger.warning("refused a local connection from another user")
            writer.close()
            return
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)
        try:
            async with stdio_server(stdin=EventLoopLines(reader), stdout=LineWriter(writer)) as (  # type: ignore[arg-type]
                read,
                write,
            ):
                await self._run_session(read, write)
        except (ConnectionError, OSError):
            pass
        finally:
            self._sessions.discard(task)
            writer.close()


def _peer_uid(peer: socket.socket) -> int:
    credentials = peer.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return int(uid)


async def hold_store(
    settings: Settings,
    lines: Any,
    writer: Any,
    started: Callable[[], None],
    opened: OpeningApp | None = None,
) -> bool:
    """Open the store (unless ``opened``) and serve our client (``lines``/``writer``) and
    every relay until our client closes; False if another process took the lock first.
    Sessions start while the store and the model are still opening; tool calls wait."""
    app = opened
    if app is None:
        try:
            app = OpeningApp.start(settings)
        except StoreHeld:
            return False
    started()
    server = create_server(settings, app, guest=True)  # every session shares ``app``
    listener = GuestListener(socket_path(settings), server.serve_streams)
    try:
        async with running_once_open(app):
            await listener.start()
            try:
                async with stdio_server(stdin=lines, stdout=writer) as (read, write):
                    await server.serve_streams(read, write)
            finally:
                # The relays go before the jobs drain: nothing they asked for is left out.
                with anyio.CancelScope(shield=True):
                    await listener.stop()
    finally:
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(app.close)
    return True

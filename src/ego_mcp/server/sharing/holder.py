"""The lifecycle of a stdio server on an embedded store: hold the store, or relay to the
process that holds it, and take over when that process goes.

The first ``ego-mcp serve`` on a data dir takes the store's directory lock and serves its
own client, and on its socket (``guest_socket``) a session for every other ``ego-mcp
serve`` on that dir, each served as the agent, workspace and companion that window was
started with (``hello``). When the holder exits or is killed, each relay tries the lock;
the one that gets it serves its own client in-process after replaying the handshake and
the unanswered requests (``replay``), and the others join it the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import uuid
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.stdio import stdio_server

from ego_mcp.errors import StoreHeld
from ego_mcp.logs import Plain
from ego_mcp.profiles import AgentProfile, AgentProfiles
from ego_mcp.server.app import EgoServer, create_server, running_once_open
from ego_mcp.server.context import OpeningApp
from ego_mcp.server.replies import ReplyJournal
from ego_mcp.server.sharing.commands import serve_command
from ego_mcp.server.sharing.guest_socket import (
    GuestListener,
    Streams,
    join,
    socket_path,
    why_no_relay,
)
from ego_mcp.server.sharing.hello import Hello, LiveSessions, process_mismatch
from ego_mcp.server.sharing.relay import relay
from ego_mcp.server.sharing.replay import LineWriter, ReplayedLines, SessionLog
from ego_mcp.server.stdio import EventLoopLines, cancel_on_signal, std_streams
from ego_mcp.settings import Settings
from ego_mcp.store.client import chroma_directory
from ego_mcp.store.dirlock import DirectoryLock

logger = logging.getLogger(__name__)
CONNECT_SECONDS = 10.0  # how long a relay looks for a new holder's socket
POLL_SECONDS = 0.1


def can_relay(settings: Settings) -> bool:
    """Whether this server shares its store with other windows: only an embedded store
    over stdio (a Chroma server is shared by itself; an HTTP server takes many clients
    already), on a platform and data dir where the socket is safe."""
    if settings.transport != "stdio" or settings.chroma_url is not None:
        return False
    reason = why_no_relay(settings)
    if reason is not None:
        logger.info("one window per data dir: %s", Plain(reason))
    return reason is None


def store_is_held(settings: Settings) -> bool:
    """Whether another process holds the embedded store now (a probe)."""
    return DirectoryLock(chroma_directory(settings)).is_held()


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
    hello = Hello.of(settings, session=uuid.uuid4().hex)
    log = SessionLog()
    replay: list[str] = []
    dropped: set[str] = set()
    async with anyio.create_task_group() as group:
        group.start_soon(cancel_on_signal, group.cancel_scope)
        while True:
            if opened is not None or not store_is_held(settings):
                own = ReplayedLines(replay, lines, log)
                answers = LineWriter(writer, dropped, log)
                if await hold_store(settings, hello, own, answers, started, opened):
                    break
                opened = None
            connection = await _connect(settings, hello)
            if connection is None:
                continue  # no holder answers: try the lock again
            logger.info("relaying this session to the process that holds the store")
            if await relay(connection, lines, writer, log, replay, dropped):
                break  # our client closed its stdin
            replay, dropped = log.replay()
            logger.info("the store's holder went away; taking over or joining the next")
        group.cancel_scope.cancel()


async def _connect(settings: Settings, hello: Hello) -> Streams | None:
    """A connection to the holder's socket, introduced; None when the lock came free
    meanwhile. A holder that opens no socket in time (``migrate``, ``reembed``, an HTTP
    server) is ``StoreHeld``, naming it; a holder that refuses us, its one-line reason."""
    path = socket_path(settings)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CONNECT_SECONDS
    while path is not None and loop.time() < deadline:
        try:
            return await join(path, hello)
        except OSError:  # ConnectionError included: gone before it answered
            await asyncio.sleep(POLL_SECONDS)
            if not await anyio.to_thread.run_sync(store_is_held, settings):
                return None  # the lock is free: take it instead of waiting
    raise store_held(settings)


def store_held(settings: Settings) -> StoreHeld:
    lock = DirectoryLock(chroma_directory(settings))
    holder = lock.path.read_text().strip() if lock.path.exists() else "unknown"
    return StoreHeld(
        f"the embedded store {lock.path.parent} is held by pid {holder}, which takes no "
        "sessions (ego-mcp migrate, reembed or an HTTP server?); try again when it is done"
    )


class Guests:
    """The holder's side of the hello: which windows it serves, and as whom."""

    def __init__(self, settings: Settings, profiles: AgentProfiles) -> None:
        self._settings = settings
        self._profiles = profiles
        self._live = LiveSessions(settings.agent, AgentProfile.of(settings, settings.agent))

    def admit(self, hello: Hello) -> str | None:
        reason = process_mismatch(self._settings, hello, os.getpid())
        if reason is None and hello.command is None:  # a command is no window
            reason = self._live.admit(hello)
            if reason is None:
                self._profiles.adopt(hello.agent, hello.profile)
        return reason

    def leave(self, hello: Hello) -> None:
        if hello.command is None:
            self._live.leave(hello.agent)


async def hold_store(
    settings: Settings,
    hello: Hello,
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
    guests = Guests(settings, app.profiles)
    try:
        replies = ReplyJournal.open(settings.data_dir)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(app.close)
        raise
    server = create_server(settings, replies=replies)

    async def run_guest(guest: Hello, reader: asyncio.StreamReader, out: Any) -> None:
        if guest.command is not None:
            await serve_command(app, guest.command, out)
            return
        try:
            streams = stdio_server(stdin=EventLoopLines(reader), stdout=LineWriter(out))  # type: ignore[arg-type]
            async with streams as (read, write):
                await server.serve_streams(read, write, app.for_session(guest.agent, guest.session))
        finally:
            guests.leave(guest)

    path = socket_path(settings)
    listener = (
        GuestListener(path, guests.admit, run_guest, guests.leave) if path is not None else None
    )
    try:
        async with running_once_open(app):
            if listener is not None:
                await listener.start()
            try:
                await _serve_own(server, app, hello, lines, writer)
            finally:
                # The relays go before the jobs drain: nothing they asked for is left out.
                with anyio.CancelScope(shield=True):
                    if listener is not None:
                        await listener.stop()
    finally:
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(app.close)
            replies.close()
    return True


async def _serve_own(
    server: EgoServer, app: OpeningApp, hello: Hello, lines: Any, writer: Any
) -> None:
    async with stdio_server(stdin=lines, stdout=writer) as (read, write):
        await server.serve_streams(read, write, app.for_session(hello.agent, hello.session))

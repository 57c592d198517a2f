"""The holder's Unix socket: where it is, who may connect, and the hello on each side.

The socket lives in the data dir (``ego-mcp.sock``) when its path fits a socket address,
else in a per-user folder of the temporary dir, named by a hash of the data dir. It is
mode 0600 and a peer of another user is refused (``SO_PEERCRED``). Where neither place
can be used, or the platform has no peer check, there is no relay: one process per data
dir, and a second one is refused naming the holder.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import socket
import stat
import struct
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from ego_mcp.errors import ConfigError
from ego_mcp.server.sharing.hello import Hello, answer_of, refusal_line, welcome_line
from ego_mcp.server.stdio import MAX_LINE_BYTES
from ego_mcp.settings import Settings

logger = logging.getLogger(__name__)
SOCKET_NAME = "ego-mcp.sock"
# sun_path holds 108 bytes on Linux and 104 on the BSDs and macOS, the final NUL included.
MAX_SOCKET_PATH_BYTES = 103
HELLO_SECONDS = 10.0

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
# Admits a hello: the reason it is refused, or None (and then the session runs).
Admit = Callable[[Hello], str | None]
RunSession = Callable[[Hello, asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
# Counts an admitted window out again.
Leave = Callable[[Hello], None]


def fits(path: Path) -> bool:
    return len(os.fsencode(path)) <= MAX_SOCKET_PATH_BYTES


def socket_path(settings: Settings) -> Path | None:
    """Where the holder of ``settings.data_dir`` listens; None where no safe place fits.
    Decided on the data dir's real path, so every spelling of it (a link, a relative
    path) finds the same socket."""
    real = settings.data_dir.resolve()
    beside = real / SOCKET_NAME
    if fits(beside):
        return beside
    digest = hashlib.sha256(os.fsencode(real)).hexdigest()[:24]
    folder = Path(tempfile.gettempdir()) / f"ego-mcp-{os.getuid()}"
    path = folder / f"{digest}.sock"
    if not fits(path) or not ours_alone(folder):
        return None
    return path


def ours_alone(folder: Path) -> bool:
    """Make ``folder`` (0700) if need be; whether it is ours alone, not a link."""
    with contextlib.suppress(FileExistsError, OSError):
        folder.mkdir(mode=0o700)
    try:
        info = folder.lstat()
    except OSError:
        return False
    mine = info.st_uid == os.getuid() and stat.S_ISDIR(info.st_mode)
    return mine and stat.S_IMODE(info.st_mode) & 0o077 == 0


def peer_check_available() -> bool:
    """Whether this platform tells a Unix socket's peer user (``SO_PEERCRED``)."""
    return hasattr(socket, "SO_PEERCRED")


def peer_uid(peer: socket.socket) -> int:
    option = socket.SO_PEERCRED  # type: ignore[attr-defined,unused-ignore]
    credentials = peer.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return int(uid)


def why_no_relay(settings: Settings) -> str | None:
    """Why this platform or data dir cannot share the store between windows, or None."""
    if not peer_check_available():
        return "this platform cannot check a local socket's peer user"
    if socket_path(settings) is None:
        return "no private place fits the sharing socket's path"
    return None


class GuestListener:
    """The holder's socket: reads each relay's hello, admits it or refuses it in one line,
    and runs one server session per admitted relay."""

    def __init__(
        self, path: Path, admit: Admit, run_session: RunSession, leave: Leave | None = None
    ) -> None:
        self._path = path
        self._admit = admit
        self._run_session = run_session
        self._leave = leave
        self._server: asyncio.Server | None = None
        self._sessions: set[asyncio.Task[None]] = set()

    async def start(self) -> bool:
        """Listen; False (logged) where the socket cannot be made: no window joins then."""
        with contextlib.suppress(FileNotFoundError):
            self._path.unlink()  # left by a holder that was killed: we hold the lock now
        try:
            self._server = await asyncio.start_unix_server(
                self._accept, str(self._path), limit=MAX_LINE_BYTES
            )
            os.chmod(self._path, stat.S_IRUSR | stat.S_IWUSR)
        except OSError as exc:
            logger.warning("no sharing socket (%s): other windows cannot join", type(exc).__name__)
            return False
        return True

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._sessions):
            task.cancel()
        await asyncio.gather(*self._sessions, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(FileNotFoundError):
                self._path.unlink()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._sessions.add(task)
        try:
            hello = await self._greet(reader, writer)
            if hello is not None:
                await self._welcome(hello, writer)
                await self._run_session(hello, reader, writer)
        except (ConnectionError, OSError, TimeoutError):
            pass
        finally:
            self._sessions.discard(task)
            writer.close()

    async def _greet(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> Hello | None:
        peer = writer.get_extra_info("socket")
        if peer is None or peer_uid(peer) != os.getuid():
            logger.warning("refused a local connection from another user")
            return None
        line = await asyncio.wait_for(reader.readline(), HELLO_SECONDS)
        hello = Hello.parse(line.decode("utf-8", errors="replace"))
        reason = (
            "this window runs another version of ego-mcp than the process holding the store"
            if hello is None
            else self._admit(hello)
        )
        if reason is not None:
            writer.write(refusal_line(reason).encode())
            await writer.drain()
            logger.warning("refused a window on this data dir (its settings differ)")
            return None
        return hello

    async def _welcome(self, hello: Hello, writer: asyncio.StreamWriter) -> None:
        """Tell an admitted window so; one that drops before hearing it is counted out
        again (its session never starts, so the session's own end cannot do it)."""
        writer.write(welcome_line().encode())
        try:
            await writer.drain()
        except (ConnectionError, OSError):
            if self._leave is not None:
                self._leave(hello)
            raise


async def join(path: Path, hello: Hello) -> Streams:
    """Connect to the holder at ``path`` and introduce ourselves; ``ConfigError`` with
    the holder's one-line reason if it refuses; ``OSError`` if nobody listens."""
    reader, writer = await asyncio.open_unix_connection(str(path), limit=MAX_LINE_BYTES)
    try:
        writer.write(hello.line().encode())
        await writer.drain()
        answer = await asyncio.wait_for(reader.readline(), HELLO_SECONDS)
    except (OSError, TimeoutError) as exc:
        writer.close()
        raise ConnectionError("the holder went before it answered") from exc
    if not answer:
        writer.close()
        raise ConnectionError("the holder closed the connection")
    reason = answer_of(answer.decode("utf-8", errors="replace"))
    if reason is not None:
        writer.close()
        raise ConfigError(reason)
    return reader, writer

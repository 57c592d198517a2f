"""Operator commands run by the process that holds an embedded store.

While an ``ego-mcp serve`` holds the store, no other process may open it, so ``ego-mcp
export`` and ``import`` join the holder's socket (same user only, as a window does) with
a hello that carries the command instead of a session. The holder checks the process
settings as for a window (the same embedding model above all), runs the command with its
own store and locks, and answers a line per progress step, then one with the summary or
the one-line reason it failed. Memory text never crosses the socket.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import anyio.to_thread

from ego_mcp.backup.command import BackupCommand, run
from ego_mcp.errors import EgoError
from ego_mcp.server.context import OpeningApp
from ego_mcp.server.sharing.guest_socket import join, socket_path
from ego_mcp.server.sharing.hello import Hello
from ego_mcp.settings import Settings

Progress = Callable[[int, int], None]


async def serve_command(app: OpeningApp, body: dict[str, Any], out: asyncio.StreamWriter) -> None:
    """The holder's side: run the command of a hello and answer on ``out``."""
    loop = asyncio.get_running_loop()

    def send(answer: dict[str, Any]) -> None:
        out.write((json.dumps(answer) + "\n").encode())

    def progress(done: int, total: int) -> None:
        loop.call_soon_threadsafe(send, {"progress": [done, total]})

    try:
        command = BackupCommand.from_dict(body)
        context = await app.ready()
        summary = await anyio.to_thread.run_sync(run, context.runtime, command, progress)
        send({"done": summary})
    except EgoError as exc:
        send({"failed": str(exc)})
    except (KeyError, TypeError, ValueError):
        send({"failed": "the holder of the store did not understand this command"})
    await out.drain()


async def run_at_holder(
    settings: Settings, command: BackupCommand, progress: Progress | None = None
) -> str | None:
    """The client's side: ``command`` run by the process holding the store; its summary.
    None when no holder listens (the store may be free, or held by a process that takes
    no sessions)."""
    path = socket_path(settings)
    if path is None:
        return None
    hello = replace(Hello.of(settings, uuid.uuid4().hex), command=command.as_dict())
    try:
        reader, writer = await join(path, hello)
    except OSError:
        return None
    try:
        while line := await reader.readline():
            answer = json.loads(line)
            if "progress" in answer and progress is not None:
                progress(*answer["progress"])
            elif "done" in answer:
                return str(answer["done"])
            elif "failed" in answer:
                raise _Failed(str(answer["failed"]))
        raise _Failed("the process holding the store went away before it was done")
    finally:
        writer.close()


class _Failed(EgoError):
    """The holder's one-line reason (already written for the operator)."""

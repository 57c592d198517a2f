"""JSON-RPC bookkeeping of a relayed session: what a new holder must be told after a
hand-over (the handshake, the requests still unanswered), and the streams that replay it.

Pure over JSON-RPC lines, apart from the two stream adapters at the end.
"""

from __future__ import annotations

import json
from typing import Any

from ego_mcp.server.context import REPLAYED_META_KEY
from ego_mcp.server.stdio import EventLoopLines

CANCELLED = "notifications/cancelled"


def request_key(message_id: object) -> str:
    return json.dumps(message_id)


def parse(line: str) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


class SessionLog:
    """What a relay remembers of its client's session: the handshake, and the requests
    that have no answer yet. A request the client cancelled is no longer awaited."""

    def __init__(self) -> None:
        self.initialize: str | None = None
        self.initialized: str | None = None
        self.in_flight: dict[str, str] = {}  # request id -> the request's line
        self._initialize_id: str | None = None

    def from_client(self, line: str) -> None:
        message = parse(line)
        if message is None or "method" not in message:
            return
        method = message["method"]
        if method == "notifications/initialized":
            self.initialized = line
        elif method == CANCELLED:
            params = message.get("params")
            if isinstance(params, dict) and "requestId" in params:
                self.in_flight.pop(request_key(params["requestId"]), None)
        if "id" in message:
            self.in_flight[request_key(message["id"])] = line
            if method == "initialize":
                self.initialize, self._initialize_id = line, request_key(message["id"])

    def from_server(self, line: str) -> None:
        message = parse(line)
        if message is None or "method" in message or "id" not in message:
            return
        self.in_flight.pop(request_key(message["id"]), None)

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
    """A request sent again after a hand-over, marked so that the new holder answers it
    from the first try's journal where that try got under way (``server.replies``)."""
    message = parse(line)
    if message is None:
        return line
    params = message.setdefault("params", {})
    if isinstance(params, dict):
        params.setdefault("_meta", {})[REPLAYED_META_KEY] = True
    return json.dumps(message) + "\n"


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
            message = parse(text)
            if message is not None and "method" not in message:
                key = request_key(message.get("id"))
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

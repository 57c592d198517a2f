"""The operator's endpoints, one set for every process: ``/metrics``, ``/healthz``,
``/readyz`` and (where a queue status is known) the status page ``/``.

``respond`` is the routing; the HTTP front end serves it beside ``/mcp`` (before the token
check: these carry no content), a worker or a stdio front end on ``EGO_MCP_METRICS_PORT``
through :class:`OpsServer`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ego_mcp.observe.metrics import CONTENT_TYPE, exposition
from ego_mcp.observe.status_page import render_status_page

OPS_PATHS = frozenset({"/metrics", "/healthz", "/readyz"})
IN_PROCESS_INDEX = (
    "ego-mcp: /metrics (Prometheus), /healthz, /readyz.\n"
    "No queue page: jobs run in-process in this server (EGO_MCP_REDIS_URL is unset).\n"
)
Readiness = Callable[[], dict[str, str]]  # part -> "ok" or the reason it is not
QueueStatus = Callable[[], dict[str, Any]]


@dataclass(frozen=True)
class Response:
    status: int
    content_type: str
    body: bytes


def _json(status: int, document: dict[str, Any]) -> Response:
    return Response(status, "application/json", json.dumps(document).encode())


def respond(path: str, readiness: Readiness, queue_status: QueueStatus | None) -> Response | None:
    """The answer to ``GET path``, or None if it is not one of these endpoints."""
    if path == "/metrics":
        return Response(200, CONTENT_TYPE, exposition())
    if path == "/healthz":
        return _json(200, {"status": "alive"})
    if path == "/readyz":
        parts = readiness()
        ready = all(state == "ok" for state in parts.values())
        return _json(200 if ready else 503, {"ready": ready, **parts})
    if path == "/" and queue_status is not None:
        try:
            page = render_status_page(queue_status(), datetime.now(UTC))
        except Exception:
            return _json(503, {"error": "EGO_MCP_REDIS_URL: the queue cannot be read now"})
        return Response(200, "text/html; charset=utf-8", page.encode())
    if path == "/":
        return Response(200, "text/plain; charset=utf-8", IN_PROCESS_INDEX.encode())
    return None


class OpsServer:
    """``respond`` on its own port, in a thread (a worker's event loop is arq's)."""

    def __init__(
        self, host: str, port: int, readiness: Readiness, queue_status: QueueStatus | None
    ) -> None:
        def answer(path: str) -> Response | None:
            return respond(path, readiness, queue_status)

        self._server = ThreadingHTTPServer((host, port), _handler(answer))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="ego-ops", daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _handler(answer: Callable[[str], Response | None]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            response = answer(self.path.split("?", 1)[0])
            if response is None:
                response = _json(404, {"error": "not found"})
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
            self.end_headers()
            self.wfile.write(response.body)

        def log_message(self, format: str, *args: Any) -> None:
            """Silent: a request line is free text from the network."""

    return Handler

"""The streamable HTTP transport, behind bearer tokens: one token for one agent
(``EGO_MCP_HTTP_TOKEN``), or an agents file whose tokens each select an agent
(``EGO_MCP_AGENTS_FILE``).

The server has no OAuth, and says so: ``/.well-known/*`` discovery answers 404, and a
refused request is a 401 whose body names what is wrong, so a client stops at
"unauthorized" instead of looping through discovery. Each refusal is logged with the
client's address and the reason, never the token.
"""

from __future__ import annotations

import errno
import hmac
import ipaddress
import json
import logging
import socket
from collections.abc import Callable
from functools import partial
from typing import Any

import anyio.to_thread
import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from ego_mcp.agents_file import AgentsFile
from ego_mcp.errors import ConfigError
from ego_mcp.logs import Plain
from ego_mcp.observe.endpoints import OPS_PATHS, Response, respond
from ego_mcp.observe.probe import readiness
from ego_mcp.runtime import Runtime
from ego_mcp.server.app import EgoServer
from ego_mcp.server.context import AGENT_SCOPE_KEY
from ego_mcp.settings import Settings

logger = logging.getLogger(__name__)
TokenCheck = Callable[[str], str | None]  # bearer token -> agent, or None
NO_OAUTH = (
    "this server has no OAuth: send 'Authorization: Bearer <token>' "
    "(EGO_MCP_HTTP_TOKEN, or a token from `ego-mcp agents add NAME`)"
)


def authorise(header: bytes | None, check: TokenCheck) -> tuple[str | None, str]:
    """The agent an ``Authorization`` header selects, or None and why not."""
    if header is None:
        return None, "missing bearer token: send 'Authorization: Bearer <token>'"
    scheme, _, token = header.decode("latin-1").strip().partition(" ")
    if scheme.lower() != "bearer":
        return None, "the Authorization header is not 'Bearer <token>'"
    if not token.strip():
        return None, "the bearer token is empty"
    agent = check(token.strip())
    if agent is None:
        return None, "the bearer token is not valid for this server"
    return agent, ""


def single_token(token: str, agent: str) -> TokenCheck:
    expected = token.encode()

    def check(sent: str) -> str | None:
        return agent if hmac.compare_digest(sent.encode(), expected) else None

    return check


def file_tokens(agents: AgentsFile) -> TokenCheck:
    return lambda sent: agents.tokens().agent_for(sent)


class BearerTokenGuard:
    """ASGI middleware: a request with a valid bearer token goes on, with its agent in
    the scope (``AGENT_SCOPE_KEY``); anything else is refused here."""

    def __init__(self, app: ASGIApp, check: TokenCheck, hint: str) -> None:
        self._app = app
        self._check = check
        self._hint = hint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        if str(scope.get("path", "")).startswith("/.well-known/"):
            await _json(send, 404, {"error": "not_found", "error_description": NO_OAUTH})
            return
        header = dict(scope.get("headers", [])).get(b"authorization")
        agent, reason = authorise(header, self._check)
        if agent is None:
            logger.warning("refused a request from %s: %s", Plain(_address(scope)), Plain(reason))
            # The reason goes in the challenge too: clients that retry without the header
            # (mcporter's OAuth fallback) or show only the status still show it.
            challenge = 'Bearer realm="ego-mcp"'
            if header is not None:
                challenge += ', error="invalid_token"'
            challenge += f', error_description="{reason.replace(chr(34), chr(39))}"'
            body = {"error": "unauthorized", "error_description": reason, "hint": self._hint}
            await _json(send, 401, body, [(b"www-authenticate", challenge.encode("latin-1"))])
            return
        scope[AGENT_SCOPE_KEY] = agent
        await self._app(scope, receive, send)


class OpsRoutes:
    """ASGI middleware: the operator's endpoints answered here, before any token is asked
    for (they carry no content); everything else goes on."""

    def __init__(self, app: ASGIApp, answer: Callable[[str], Response | None]) -> None:
        self._app = app
        self._answer = answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] == "http" and path in OPS_PATHS:
            response = await anyio.to_thread.run_sync(self._answer, path)
            if response is not None:
                await _send(send, response)
                return
        await self._app(scope, receive, send)


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "unknown"


async def _json(
    send: Send,
    status: int,
    body: dict[str, str],
    extra_headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    await _send(
        send, Response(status, "application/json", json.dumps(body).encode()), extra_headers
    )


async def _send(
    send: Send, response: Response, extra_headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    headers = [(b"content-type", response.content_type.encode()), *(extra_headers or [])]
    await send({"type": "http.response.start", "status": response.status, "headers": headers})
    await send({"type": "http.response.body", "body": response.body})


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


FILE_HINT = "each agent has its own token: `ego-mcp agents add NAME` prints a new one"
SINGLE_HINT = "the token is the server's EGO_MCP_HTTP_TOKEN"


def token_check(settings: Settings) -> tuple[TokenCheck, str] | None:
    """How requests are authorised, and where a token comes from; None: not at all
    (loopback only)."""
    if settings.agents_file is not None:
        return file_tokens(AgentsFile(settings.agents_file)), FILE_HINT
    if settings.http_token is not None:
        check = single_token(settings.http_token.get_secret_value(), settings.agent)
        return check, SINGLE_HINT
    if not is_loopback(settings.http_host):
        raise ConfigError(
            "EGO_MCP_HTTP_TOKEN: required when EGO_MCP_HTTP_HOST is not a loopback address "
            "(or set EGO_MCP_AGENTS_FILE)"
        )
    return None


METRICS_ELSEWHERE = (
    "/metrics names the agents and counts their memories, so beyond loopback it is served "
    "only on EGO_MCP_METRICS_PORT (EGO_MCP_METRICS_HOST, loopback by default)"
)


def ops_answer(settings: Settings, runtime: Runtime) -> Callable[[str], Response | None]:
    """The operator's endpoints on the HTTP port: ``/healthz`` and ``/readyz`` always,
    ``/metrics`` only on a loopback bind (else a 404 that says where it is)."""
    answer = partial(respond, readiness=partial(readiness, runtime), queue_status=None)
    if is_loopback(settings.http_host):
        return answer

    def without_metrics(path: str) -> Response | None:
        if path == "/metrics":
            body = {"error": "not_found", "error_description": METRICS_ELSEWHERE}
            return Response(404, "application/json", json.dumps(body).encode())
        return answer(path)

    return without_metrics


def http_app(server: EgoServer, settings: Settings, runtime: Runtime | None = None) -> Any:
    """The ASGI app; refuses to listen beyond loopback without a token. With ``runtime``,
    the operator's endpoints are served beside ``/mcp`` (``ops_answer``)."""
    guarded = token_check(settings)
    app: ASGIApp = server.streamable_http_app(host=settings.http_host)
    if guarded is not None:
        app = BearerTokenGuard(app, *guarded)
    if runtime is None:
        return app
    return OpsRoutes(app, ops_answer(settings, runtime))


def listen(settings: Settings) -> socket.socket:
    """The HTTP front end's listening socket, bound before anything says it serves: a port
    in use is one line naming EGO_MCP_HTTP_PORT, not a banner and then a failure."""
    where = f"{settings.http_host}:{settings.http_port}"
    try:
        infos = socket.getaddrinfo(settings.http_host, settings.http_port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise ConfigError(
            f"EGO_MCP_HTTP_HOST: cannot resolve {settings.http_host} ({exc.strerror or exc})"
        ) from None
    family, kind, proto, _, address = infos[0]
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as exc:
        listening.close()
        reason = exc.strerror or type(exc).__name__
        hint = (
            "another server may have it: choose another port or stop that one"
            if exc.errno == errno.EADDRINUSE
            else "choose another port or host"
        )
        message = f"EGO_MCP_HTTP_PORT: cannot listen on {where} ({reason}); {hint}"
        raise ConfigError(message) from None
    listening.set_inheritable(True)
    return listening


def serve_http(
    server: EgoServer, settings: Settings, runtime: Runtime, listening: socket.socket
) -> None:
    config = uvicorn.Config(
        http_app(server, settings, runtime),
        host=settings.http_host,
        port=settings.http_port,
        log_config=None,  # keep ours: the privacy formatter and filter
    )
    uvicorn.Server(config).run(sockets=[listening])

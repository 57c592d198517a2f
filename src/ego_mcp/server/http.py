"""The streamable HTTP transport, behind a bearer token when it listens beyond loopback."""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from ego_mcp.errors import ConfigError
from ego_mcp.server.app import EgoServer
from ego_mcp.settings import Settings


class BearerTokenGuard:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self._app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            sent = dict(scope.get("headers", [])).get(b"authorization", b"")
            if not hmac.compare_digest(sent, self._expected):
                await _unauthorised(send)
                return
        await self._app(scope, receive, send)


async def _unauthorised(send: Send) -> None:
    body = b'{"error": "a bearer token is required (EGO_MCP_HTTP_TOKEN)"}'
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json"),
        (b"www-authenticate", b"Bearer"),
    ]
    await send({"type": "http.response.start", "status": 401, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def http_app(server: EgoServer, settings: Settings) -> Any:
    """The ASGI app; refuses to listen beyond loopback without a token."""
    app: ASGIApp = server.streamable_http_app(host=settings.http_host)
    if settings.http_token is not None:
        return BearerTokenGuard(app, settings.http_token.get_secret_value())
    if not is_loopback(settings.http_host):
        raise ConfigError(
            "EGO_MCP_HTTP_TOKEN: required when EGO_MCP_HTTP_HOST is not a loopback address"
        )
    return app


def serve_http(server: EgoServer, settings: Settings) -> None:
    config = uvicorn.Config(
        http_app(server, settings),
        host=settings.http_host,
        port=settings.http_port,
        log_config=None,  # keep ours: the privacy formatter and filter
    )
    uvicorn.Server(config).run()

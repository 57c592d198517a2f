"""The HTTP transport as a user runs it: a subprocess, a bearer token, the SDK's client."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from ego_mcp.errors import ConfigError
from ego_mcp.server.app import create_server
from ego_mcp.server.http import http_app, is_loopback
from ego_mcp.settings import Settings, load_settings
from tests.conftest import model_env
from tests.helpers import free_port, run_cli

pytestmark = pytest.mark.anyio
TOKEN = "s3cret-token"


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        **model_env(),
        "EGO_MCP_TRANSPORT": "http",
        "EGO_MCP_HTTP_PORT": str(port),
        "EGO_MCP_HTTP_TOKEN": TOKEN,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "ego_mcp", "serve"], env=env, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None, "server exited"
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


async def test_requests_without_the_token_are_refused(http_server: str) -> None:
    response = httpx.post(http_server, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert response.status_code == 401
    assert "EGO_MCP_HTTP_TOKEN" in response.text


async def test_client_with_the_token_can_remember(http_server: str) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(http_server, http_client=http)) as client,
    ):
        result = await client.call_tool("remember", {"content": "A memory over HTTP"})
        assert not result.is_error
        assert result.content[0].text.startswith("Saved (id: mem_")  # type: ignore[union-attr]


@pytest.mark.parametrize("token", [None, "", "  "])
def test_listening_beyond_loopback_needs_a_token(settings: Settings, token: str | None) -> None:
    exposed = load_settings(
        **{**settings.model_dump(), "http_host": "0.0.0.0", "http_token": token}
    )
    with pytest.raises(ConfigError, match="EGO_MCP_HTTP_TOKEN"):
        http_app(create_server(exposed), exposed)
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.org")


def test_beyond_loopback_metrics_are_only_on_the_metrics_port(tmp_path: Path) -> None:
    """On 0.0.0.0 anyone who reaches the port would see the agents and their counts."""
    port, metrics_port = free_port(), free_port()
    env = {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_TRANSPORT": "http",
        "EGO_MCP_HTTP_HOST": "0.0.0.0",
        "EGO_MCP_HTTP_PORT": str(port),
        "EGO_MCP_HTTP_TOKEN": TOKEN,
        "EGO_MCP_METRICS_PORT": str(metrics_port),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "ego_mcp", "serve"], env=env, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                refused = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=1)
                own_port = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert refused.status_code == 404
        assert "EGO_MCP_METRICS_PORT" in refused.json()["error_description"]
        assert "ego_mcp_memories" not in refused.text
        assert own_port.status_code == 200 and "ego_mcp_tool_calls_total" in own_port.text
        health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
        assert health.json() == {"status": "alive"}
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_refused_http_configuration_says_so_before_any_banner(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_TRANSPORT": "http",
        "EGO_MCP_HTTP_HOST": "0.0.0.0",
    }
    env.pop("EGO_MCP_HTTP_TOKEN", None)
    done = run_cli(env, "serve")
    assert done.returncode == 2
    assert done.stderr.startswith("ego-mcp: EGO_MCP_HTTP_TOKEN: required"), done.stderr
    assert "ego-mcp 0." not in done.stderr  # no "serving ..." line first
    assert not (tmp_path / "data").exists()


def test_a_port_in_use_is_one_line_naming_the_setting_before_any_banner(
    tmp_path: Path, http_server: str
) -> None:
    port = http_server.split(":")[2].split("/", maxsplit=1)[0]  # the first server holds it
    env = {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "other"),
        **model_env(),
        "EGO_MCP_TRANSPORT": "http",
        "EGO_MCP_HTTP_PORT": port,
        "EGO_MCP_HTTP_TOKEN": TOKEN,
    }
    done = run_cli(env, "serve")
    assert done.returncode == 2
    assert done.stderr.startswith(f"ego-mcp: EGO_MCP_HTTP_PORT: cannot listen on 127.0.0.1:{port}")
    assert "in use" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "ego-mcp 0." not in done.stderr  # no banner as if serving

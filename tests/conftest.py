"""Shared fixtures: the real model (loaded once), real Chroma in a temp dir, a movable clock."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from ego_mcp.clock import FixedClock
from ego_mcp.embedding.local import CHROMA_CACHE_DIR, REQUIRED_FILES, LocalMiniLM
from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.memory.service import MemoryService
from ego_mcp.runtime import Runtime
from ego_mcp.server.app import create_server
from ego_mcp.server.context import AppContext, build_app_context
from ego_mcp.settings import Settings, load_settings

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_MODEL = REPO_ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2"
START = datetime(2026, 2, 21, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """Async tests are marked ``anyio``: fixture set-up, test and teardown share one task."""
    return "asyncio"


def model_dir() -> Path | None:
    """The MiniLM option's model offline: the copy beside the repo, else the configured
    folder, else Chroma's cache if it holds it. None when none does: nothing is downloaded
    at test time, and the default model (USE, in its wheel) needs none."""
    configured = os.environ.get("EGO_MCP_EMBEDDING_MODEL_DIR")
    if configured:
        return Path(configured)
    if SHARED_MODEL.is_dir():
        return SHARED_MODEL
    if all((CHROMA_CACHE_DIR / name).is_file() for name in REQUIRED_FILES):
        return CHROMA_CACHE_DIR
    return None


def model_env() -> dict[str, str]:
    """``EGO_MCP_EMBEDDING_MODEL_DIR`` for a server subprocess, where the model is at hand."""
    found = model_dir()
    return {} if found is None else {"EGO_MCP_EMBEDDING_MODEL_DIR": str(found)}


MINILM_MISSING = (
    "all-MiniLM-L6-v2 is not available offline (../shared/models, EGO_MCP_EMBEDDING_MODEL_DIR "
    "or Chroma's cache): the MiniLM option's tests are skipped"
)


@pytest.fixture(scope="session")
def embedder() -> LocalMultilingualUSE:
    """The default model: the one whose thresholds and behaviour users get."""
    return LocalMultilingualUSE()


@pytest.fixture(scope="session")
def minilm() -> LocalMiniLM:
    found = model_dir()
    if found is None:
        pytest.skip(MINILM_MISSING)
    return LocalMiniLM(found)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(START)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(
        data_dir=tmp_path / "data",
        workspace_dir=str(tmp_path / "workspace"),
        embedding_model_dir=model_dir(),
    )


@pytest.fixture
def runtime(
    settings: Settings, embedder: LocalMultilingualUSE, clock: FixedClock
) -> Iterator[Runtime]:
    opened = Runtime.open(settings, clock=clock, embedder=embedder)
    yield opened
    opened.close()


@pytest.fixture
def memory(runtime: Runtime, settings: Settings) -> MemoryService:
    return runtime.memory(settings.agent)


@pytest.fixture
def app(settings: Settings, runtime: Runtime) -> AppContext:
    return build_app_context(settings, runtime)


@pytest.fixture
async def client(settings: Settings, app: AppContext) -> AsyncIterator[Client]:
    async with Client(create_server(settings, app)) as connected:
        yield connected


async def call(client: Client, tool: str, **arguments: Any) -> str:
    """Call a tool that must succeed; return its text."""
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    assert not result.is_error, text
    return str(text)


async def call_error(client: Client, tool: str, **arguments: Any) -> str:
    """Call a tool that must fail with a tool error; return the one-line reason."""
    result = await client.call_tool(tool, arguments)
    text = str(result.content[0].text)  # type: ignore[union-attr]
    assert result.is_error, text
    return text

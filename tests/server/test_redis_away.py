"""wake_up and introspect while Redis does not answer and this front end never read the
state documents: they show what the store has and say what is unavailable. Redis is a
port nobody listens on (a real refused connection); the store is embedded Chroma."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from mcp import Client

from ego_mcp.clock import FixedClock
from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.runtime import Runtime
from ego_mcp.server.app import create_server
from ego_mcp.server.context import build_app_context
from ego_mcp.settings import Settings, load_settings
from tests.conftest import call
from tests.helpers import free_port

pytestmark = pytest.mark.anyio
THOUGHT = "I keep wondering why the quiet mornings feel so long lately."


@pytest.fixture
def away(tmp_path: Path) -> Settings:
    return load_settings(data_dir=tmp_path / "data", redis_url=f"redis://127.0.0.1:{free_port()}/0")


@pytest.fixture
def runtime_away(
    away: Settings, embedder: LocalMultilingualUSE, clock: FixedClock
) -> Iterator[Runtime]:
    opened = Runtime.open(away, clock=clock, embedder=embedder)
    yield opened
    opened.close()


@pytest.fixture
async def client_away(away: Settings, runtime_away: Runtime) -> AsyncIterator[Client]:
    app = build_app_context(away, runtime_away)
    async with Client(create_server(away, app)) as connected:
        yield connected


async def test_wake_up_and_introspect_answer_with_what_the_store_has(
    client_away: Client,
) -> None:
    saved = await call(client_away, "remember", content=THOUGHT, category="introspection")
    assert saved.startswith("Saved (id: ")

    woken = await call(client_away, "wake_up")
    looked = await call(client_away, "introspect")

    assert THOUGHT in woken
    assert "Strongest desires: unavailable now (EGO_MCP_REDIS_URL: Redis did not answer)." in woken
    assert "Master last seen: unavailable now (EGO_MCP_REDIS_URL" in woken
    assert THOUGHT in looked
    assert "Desires: unavailable now (EGO_MCP_REDIS_URL: Redis did not answer)." in looked
    assert "Open questions: unavailable now" in looked

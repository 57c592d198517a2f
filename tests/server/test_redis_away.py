"""wake_up and introspect while Redis does not answer and this front end never read the
state documents: they show what the store has and say what is unavailable. Redis is a
port nobody listens on (a real refused connection); the store is embedded Chroma."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from ego_mcp.settings import Settings, load_settings
from tests.conftest import call
from tests.helpers import free_port

pytestmark = pytest.mark.anyio
THOUGHT = "I keep wondering why the quiet mornings feel so long lately."


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The conftest fixtures (runtime, app, client) on these settings: Redis away."""
    return load_settings(data_dir=tmp_path / "data", redis_url=f"redis://127.0.0.1:{free_port()}/0")


async def test_wake_up_and_introspect_answer_with_what_the_store_has(
    client: Client,
) -> None:
    saved = await call(client, "remember", content=THOUGHT, category="introspection")
    assert saved.startswith("Saved (id: ")

    woken = await call(client, "wake_up")
    looked = await call(client, "introspect")

    assert THOUGHT in woken
    assert "Strongest desires: unavailable now (EGO_MCP_REDIS_URL: Redis did not answer)." in woken
    assert "Master last seen: unavailable now (EGO_MCP_REDIS_URL" in woken
    assert THOUGHT in looked
    assert "Desires: unavailable now (EGO_MCP_REDIS_URL: Redis did not answer)." in looked
    assert "Open questions: unavailable now" in looked


async def test_a_shared_memory_is_saved_and_says_why_it_is_not_shared(client: Client) -> None:
    """The relationships live in Redis: the memory is kept, the episode waits, and the
    answer says so in one line naming the setting."""
    said = await call(client, "remember", content="Walked Emi to the station.", shared_with="Emi")
    assert said.startswith("Saved (id: ")
    line = next(x for x in said.splitlines() if x.startswith("Not shared"))
    assert "EGO_MCP_REDIS_URL" in line and "create_episode" in line

"""Prompts and skills written for upstream ego-mcp 0.2.3 work unchanged: its 16 tools, its names."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.helpers import text_of
from tests.test_e2e_stdio import server_env

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

# Every argument of every tool upstream 0.2.3 declares (its server.py input schemas).
UPSTREAM_ARGUMENTS = {
    "wake_up": set(),
    "feel_desires": set(),
    "introspect": set(),
    "consider_them": {"person"},
    "remember": {
        "content",
        "emotion",
        "secondary",
        "intensity",
        "importance",
        "category",
        "valence",
        "arousal",
        "body_state",
        "private",
    },
    "recall": {
        "context",
        "n_results",
        "emotion_filter",
        "category_filter",
        "date_from",
        "date_to",
        "valence_range",
        "arousal_range",
    },
    "am_i_being_genuine": set(),
    "satisfy_desire": {"name", "quality"},
    "consolidate": set(),
    "forget": {"memory_id"},
    "link_memories": {"source_id", "target_id", "link_type"},
    "update_relationship": {"person", "field", "value"},
    "update_self": {"field", "value"},
    "emotion_trend": set(),
    "get_episode": {"episode_id"},
    "create_episode": {"memory_ids", "summary"},
}


async def test_all_shared_tools_accept_upstream_argument_names(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ego_mcp", "serve"], env=server_env(tmp_path)
    )
    async with Client(params, read_timeout_seconds=60) as client:
        advertised = {
            tool.name: set(tool.input_schema["properties"])
            for tool in (await client.list_tools()).tools
        }
        for tool, names in UPSTREAM_ARGUMENTS.items():
            assert names <= advertised[tool], (tool, names - advertised[tool])

        async def use(tool: str, **arguments: object) -> str:
            assert set(arguments) <= UPSTREAM_ARGUMENTS[tool]
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, (tool, text_of(result))
            return text_of(result)

        first = await use(
            "remember",
            content="Master and I planted tulip bulbs along the fence this morning.",
            emotion="happy",
            secondary=["contentment"],
            intensity=0.7,
            importance=4,
            category="daily",
            valence=0.6,
            arousal=0.4,
            body_state={"hands": "muddy"},
            private=False,
        )
        second = await use(
            "remember",
            content="The tulips reminded me of the garden at my first home server.",
            emotion="nostalgic",
        )
        first_id, second_id = first[11:27], second[11:27]
        recalled = await use(
            "recall",
            context="planting tulips",
            n_results=2,
            emotion_filter="happy",
            category_filter="daily",
            date_from="2000-01-01",
            date_to="2999-12-31",
            valence_range=[0.0, 1.0],
            arousal_range=[0.0, 1.0],
        )
        assert first_id in recalled and second_id not in recalled
        await use("link_memories", source_id=first_id, target_id=second_id, link_type="leads_to")
        episode = await use("create_episode", memory_ids=[first_id, second_id], summary="Tulips")
        await use("get_episode", episode_id=episode[episode.index("ep_") :][:15])
        await use("satisfy_desire", name="curiosity", quality=0.6)
        await use("update_relationship", person="Master", field="known_facts", value="gardens")
        assert "gardens" in await use("consider_them", person="Master")
        await use("update_self", field="current_goals", value="learn the names of flowers")
        for tool in (
            "wake_up",
            "feel_desires",
            "introspect",
            "am_i_being_genuine",
            "emotion_trend",
            "consolidate",
        ):
            await use(tool)
        assert "Forgot" in await use("forget", memory_id=second_id)

"""The memory tools through an MCP client, in-process, against real Chroma and the model."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.server.app import create_server
from ego_mcp.server.context import AppContext, open_app_context
from ego_mcp.settings import Settings, load_settings
from tests.conftest import call, call_error
from tests.helpers import assert_links_bidirectional, memory_id_in, snapshot, workspace_text

EVENT = "Master said the line at the soba shop was enormous, but the noodles were excellent."
EVENT_AGAIN = "Master said the line at the soba shop was enormous, but the noodles were excellent!"
pytestmark = pytest.mark.anyio

SECRET = "I am afraid Master will leave one day and I have not told anyone."


async def test_remember_then_duplicate_shows_the_existing_memory(client: Client) -> None:
    saved = await call(client, "remember", content=EVENT, emotion="happy")
    assert saved.startswith("Saved (id: mem_")
    first_id = memory_id_in(saved)

    duplicate = await call(client, "remember", content=EVENT_AGAIN)

    data, scaffold = duplicate.split("\n\n---\n")
    assert data.startswith("Not saved — very similar memory already exists.")
    assert f"Existing (id: {first_id}, just now): {EVENT}" in data
    assert "Similarity: 0.9" in data
    assert scaffold.startswith("Is there truly something new here")


async def test_force_saves_and_links(client: Client, app: AppContext) -> None:
    await call(client, "remember", content=EVENT)
    forced = await call(client, "remember", content=EVENT_AGAIN, force=True)
    assert "Linked to 1 existing memory." in forced and "Most related:" in forced
    assert app.memory.store.count() == 2
    assert_links_bidirectional(app.memory.store)


async def test_private_memory_is_recalled_flagged_and_never_synced(
    client: Client, settings: Settings
) -> None:
    await call(client, "remember", content=EVENT)
    saved = await call(client, "remember", content=SECRET, private=True, emotion="anxious")
    assert "Private: kept internal" in saved

    recalled = await call(client, "recall", context="afraid Master will leave", n_results=2)

    lines = [line for line in recalled.splitlines() if line[:2] in {"1.", "2."}]
    assert len(lines) == 2
    assert SECRET in lines[0] and lines[0].endswith("private: true)")
    assert lines[1].endswith("private: false)")
    assert EVENT in workspace_text(settings)
    assert "afraid" not in workspace_text(settings)


async def test_forget_removes_links_and_workspace_lines(
    client: Client, app: AppContext, settings: Settings
) -> None:
    first = memory_id_in(await call(client, "remember", content=EVENT, importance=5))
    second = memory_id_in(
        await call(
            client,
            "remember",
            content="Master said the queue at the soba shop was huge, but the noodles were superb.",
            force=True,  # a rephrasing: the guard would refuse it
        )
    )
    assert app.memory.get(second).link_to(first) is not None
    assert f"[id:{first}]" in workspace_text(settings)

    answer = await call(client, "forget", memory_id=first)
    await app.queue.join()  # type: ignore[attr-defined]

    assert answer.startswith(
        f"Forgot (id: {first}, just now): {EVENT}\nEmotion: neutral | Importance: 5"
    )
    assert "merge_memories would have kept its links" in answer
    assert "restore_memory can bring" in answer
    assert app.memory.get(second).linked_ids == ()
    assert f"[id:{first}]" not in workspace_text(settings)
    assert f"[id:{second}]" in workspace_text(settings)


async def test_forget_twice_is_a_tool_error_naming_the_id(client: Client, app: AppContext) -> None:
    first = memory_id_in(await call(client, "remember", content=EVENT))
    await call(client, "forget", memory_id=first)
    before = snapshot(app.memory.store)
    error = await call_error(client, "forget", memory_id=first)
    assert error == (
        f"Memory not found: {first}. Double-check the ID. "
        "Use recall to search for the memory you're looking for."
    )
    assert snapshot(app.memory.store) == before


async def test_recall_scaffold_names_the_filters(client: Client) -> None:
    await call(client, "remember", content=EVENT, emotion="happy")
    filtered = await call(
        client, "recall", context="soba shop", emotion_filter="happy", date_from="2026-01-01"
    )
    assert "These were filtered (emotion_filter=happy, date_from=2026-01-01)" in filtered
    empty = await call(client, "recall", context="soba shop", emotion_filter="sad")
    assert empty.startswith("No related memories found.")


async def test_link_and_episode_round_trip(client: Client) -> None:
    first = memory_id_in(await call(client, "remember", content=EVENT))
    second = memory_id_in(
        await call(client, "remember", content="I fixed the linker flag in the build.")
    )
    linked = await call(
        client, "link_memories", source_id=second, target_id=first, link_type="caused_by"
    )
    assert f"{first} -> {second} (leads_to)" in linked

    created = await call(client, "create_episode", summary="A good day", memory_ids=[first, second])
    episode_id = created[created.index("ep_") : created.index("ep_") + 15]
    await call(client, "forget", memory_id=first)

    shown = await call(client, "get_episode", episode_id=episode_id)
    assert second in shown and first not in shown
    assert "Note: 1 memory(ies) no longer exist." in shown


async def test_search_memories_lists_ids_and_privacy(client: Client) -> None:
    saved = memory_id_in(await call(client, "remember", content=SECRET, private=True))
    found = await call(client, "search_memories", query="afraid", category_filter="daily")
    assert saved in found and "private: true" in found


BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("remember", {}, "content is required"),
    ("remember", {"content": "   "}, "content must not be empty"),
    ("remember", {"content": "x" * 20_001}, "content is too long"),
    ("remember", {"content": "ok", "emotion": "angry"}, "emotion must be one of"),
    ("remember", {"content": "ok", "secondary": ["happy", "bored"]}, "secondary must be one of"),
    ("remember", {"content": "ok", "intensity": 1.5}, "intensity must be between 0 and 1"),
    (
        "remember",
        {"content": "ok", "intensity": "high"},
        "intensity: Input should be a valid number",
    ),
    ("remember", {"content": "ok", "importance": 6}, "importance must be between 1 and 5"),
    (
        "remember",
        {"content": "ok", "importance": 2.5},
        "importance: Input should be a valid integer",
    ),
    ("remember", {"content": "ok", "category": "poetry"}, "category must be one of"),
    ("remember", {"content": "ok", "valence": -2}, "valence must be between -1 and 1"),
    ("remember", {"content": "ok", "arousal": -0.1}, "arousal must be between 0 and 1"),
    (
        "remember",
        {"content": "ok", "body_state": {"heart": ""}},
        "body_state value must not be empty",
    ),
    ("remember", {"content": "ok", "private": "maybe"}, "private: must be true or false"),
    ("remember", {"content": "ok", "private": "on"}, "private: must be true or false"),
    ("remember", {"content": "ok", "private": 1}, "private: must be true or false"),
    ("remember", {"content": "ok", "force": "yes"}, "force: must be true or false"),
    (
        "remember",
        {"content": "ok", "privte": True},
        "unknown argument 'privte' for remember; did you mean 'private'?",
    ),
    ("remember", {"content": 42}, "content: Input should be a valid string"),
    (
        "remember",
        {"content": "ok", "importance": "3"},
        "importance: Input should be a valid integer",
    ),
    (
        "remember",
        {"content": "ok", "secondary": "happy"},
        "secondary: Input should be a valid list",
    ),
    ("remember", {"content": "ok", "body_state": {"heart": 3}}, "body_state.heart: Input should"),
    (
        "recall",
        {"context": "x", "emotion": "happy"},
        "unknown argument 'emotion' for recall; did you mean 'emotion_filter'?",
    ),
    ("recall", {"context": "x", "valence_range": "[0, 1]"}, "valence_range: Input should be"),
    ("recall", {"context": "x", "n_results": True}, "n_results: Input should be a valid integer"),
    ("recall", {}, "context is required"),
    ("recall", {"context": "x", "n_results": 0}, "n_results must be between 1 and 10"),
    ("recall", {"context": "x", "n_results": 11}, "n_results must be between 1 and 10"),
    ("recall", {"context": "x", "date_from": "yesterday"}, "date_from must be an ISO 8601 date"),
    ("recall", {"context": "x", "date_to": "2026-13-01"}, "date_to must be an ISO 8601 date"),
    (
        "recall",
        {"context": "x", "date_from": "2026-03-01", "date_to": "2026-02-01"},
        "date_from must not be after date_to",
    ),
    ("recall", {"context": "x", "valence_range": [0.5]}, "valence_range must be two numbers"),
    ("recall", {"context": "x", "arousal_range": [0.8, 0.2]}, "min <= max"),
    ("recall", {"context": "x", "emotion_filter": "angry"}, "emotion_filter must be one of"),
    ("search_memories", {"query": ""}, "query must not be empty"),
    ("forget", {}, "memory_id is required"),
    ("forget", {"memory_id": "mem_000000000000", "force": True}, "unknown argument 'force'"),
    ("forget", {"memory_id": "42"}, "memory_id must look like mem_"),
    ("forget", {"memory_id": "mem_000000000000"}, "Memory not found: mem_000000000000"),
    (
        "link_memories",
        {"source_id": "mem_000000000001", "target_id": "mem_000000000001"},
        "must differ",
    ),
    (
        "link_memories",
        {"source_id": "mem_000000000001", "target_id": "mem_000000000002", "link_type": "loves"},
        "link_type must be one of",
    ),
    (
        "link_memories",
        {"source_id": "mem_000000000001", "target_id": "mem_000000000002"},
        "Memory not found",
    ),
    (
        "create_episode",
        {"summary": "s", "memory_ids": []},
        "memory_ids must name at least one memory",
    ),
    ("create_episode", {"summary": "s", "memory_ids": ["mem_000000000001"]}, "Memory not found"),
    (
        "create_episode",
        {"summary": "", "memory_ids": ["mem_000000000001"]},
        "summary must not be empty",
    ),
    ("get_episode", {"episode_id": "mem_1"}, "episode_id must look like ep_"),
    ("get_episode", {"episode_id": "ep_000000000000"}, "Episode not found: ep_000000000000"),
    ("no_such_tool", {}, "Unknown tool"),
]


@pytest.mark.parametrize(("tool", "arguments", "reason"), BAD_CALLS)
async def test_bad_input_is_a_one_line_tool_error_and_writes_nothing(
    client: Client,
    app: AppContext,
    settings: Settings,
    tool: str,
    arguments: dict[str, Any],
    reason: str,
) -> None:
    await call(client, "remember", content=EVENT)
    before = snapshot(app.memory.store)
    files_before = workspace_text(settings)

    error = await call_error(client, tool, **arguments)

    assert reason in error
    assert "\n" not in error
    assert snapshot(app.memory.store) == before
    assert app.memory.episodes.all() == []
    assert workspace_text(settings) == files_before


async def test_a_near_miss_is_saved_and_says_what_differs(client: Client) -> None:
    first = await call(client, "remember", content="Blue Envelope #14 arrived today.")
    second = await call(client, "remember", content="Blue Envelope #15 arrived today.")
    assert second.startswith("Saved")
    assert f"Similar to {memory_id_in(first)}, differs in: number: 14 → 15" in second
    again = await call(client, "remember", content="Today, Blue Envelope #14 arrived.")
    assert again.startswith("Not saved — very similar memory already exists.")


async def test_a_filter_is_shown_as_the_agent_writes_it(client: Client) -> None:
    await call(client, "remember", content=EVENT, valence=-0.5)
    answer = await call(client, "recall", context="soba shop", valence_range=[-1.0, 0.0])
    assert "valence_range=[-1.0, 0.0]" in answer and "(-1.0" not in answer


async def test_number_arguments_carry_their_bounds_in_the_schema(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    remember = tools["remember"].input_schema["properties"]
    assert (remember["intensity"]["minimum"], remember["intensity"]["maximum"]) == (0, 1)
    assert (remember["valence"]["minimum"], remember["valence"]["maximum"]) == (-1, 1)
    assert (remember["importance"]["minimum"], remember["importance"]["maximum"]) == (1, 5)
    recall = tools["recall"].input_schema["properties"]
    assert (recall["n_results"]["minimum"], recall["n_results"]["maximum"]) == (1, 10)
    quality = tools["satisfy_desire"].input_schema["properties"]["quality"]
    assert (quality["minimum"], quality["maximum"]) == (0, 1)


async def test_a_workspace_that_cannot_be_written_is_named_and_the_memory_saved(
    tmp_path: Path, embedder: LocalMultilingualUSE, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the workspace should be")
    settings = load_settings(data_dir=tmp_path / "data", workspace_dir=str(blocked))
    with caplog.at_level(logging.WARNING):
        app = await anyio.to_thread.run_sync(
            lambda: open_app_context(settings), abandon_on_cancel=False
        )
    try:
        started = [
            r.getMessage() for r in caplog.records if "EGO_MCP_WORKSPACE_DIR" in r.getMessage()
        ]
        assert len(started) == 1 and str(blocked) in started[0]
        async with Client(create_server(settings, app)) as client:
            answer = await call(client, "remember", content=EVENT)
        assert answer.startswith("Saved (id: mem_")
        assert f"not synced to the workspace: EGO_MCP_WORKSPACE_DIR ({blocked})" in answer
        assert app.memory.store.count() == 1
    finally:
        app.runtime.close()


async def test_recall_answers_fewer_rather_than_unrelated_memories(client: Client) -> None:
    await call(client, "remember", content="LOG-131 broke the nightly job again.", force=True)
    await call(client, "remember", content="A quiet afternoon of tea and jazz.", force=True)
    answer = await call(client, "recall", context="LOG-131", n_results=10)
    data = answer.split("\n\n---\n")[0].splitlines()
    assert data[1].startswith("1. ") and "LOG-131" in data[1] and "words: " in data[1]
    assert len(data) < 12 and data[-1].startswith("Only ") and "of the 10 asked for" in data[-1]
    nothing = await call(client, "recall", context="量子色力学の講義ノート", n_results=5)
    assert nothing.startswith("No related memories found.\nNone matches")


async def test_function_words_alone_make_no_match(client: Client) -> None:
    """A memory sharing only "in" or "the" with a query is not found by words; a query of
    only function words finds nothing; the share of words shown is never past 1."""
    await call(
        client, "remember", content="The parser in the nightly job choked on a tab.", force=True
    )
    await call(
        client, "remember", content="Tea in the garden, in the sun, in the quiet.", force=True
    )
    nothing = await call(client, "recall", context="in the", n_results=5)
    assert nothing.startswith("No related memories found.")
    blossoms = await call(client, "recall", context="cherry blossoms in Tokyo", n_results=5)
    assert "parser" not in blossoms
    garden = await call(client, "recall", context="garden", n_results=5)
    shares = [float(part.split(",")[0]) for part in garden.split("words: ")[1:]]
    assert shares and all(0 < share <= 1 for share in shares)

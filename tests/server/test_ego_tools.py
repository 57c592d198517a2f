"""The ego tools through an MCP client: a session's worth of behaviour and bad input."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from mcp import Client

from ego_mcp.clock import FixedClock
from ego_mcp.ego.desires import Satisfaction, implicit_satisfactions
from ego_mcp.ego.service import EgoService
from ego_mcp.server.context import AppContext
from ego_mcp.settings import Settings
from tests.conftest import call, call_error

pytestmark = pytest.mark.anyio

EVENT = "Master said the line at the soba shop was enormous, but the noodles were excellent."
REPHRASED = "Master said the queue at the soba shop was huge, but the noodles were superb."


def levels(app: AppContext) -> dict[str, float]:
    return app.ego.desires().levels(app.runtime.clock.now())


async def test_wake_up_offers_private_memories_and_reports_the_companion(client: Client) -> None:
    text = await call(client, "wake_up")
    assert "Last introspection: none yet." in text
    assert "Master last seen: never recorded." in text
    assert text.endswith(
        "If something is hard to say yet, you can keep it with remember(private=true)."
    )


async def test_recall_satisfies_information_hunger_and_forget_satisfies_nothing(
    client: Client, app: AppContext, clock: FixedClock
) -> None:
    saved = await call(client, "remember", content=EVENT)
    clock.set(clock.now() + timedelta(hours=10))
    hungry = levels(app)
    await call(client, "recall", context="Master")
    assert levels(app)["information_hunger"] < hungry["information_hunger"] - 0.5

    clock.set(clock.now() + timedelta(hours=10))
    before = levels(app)
    await call(client, "forget", memory_id=saved[saved.index("mem_") : saved.index("mem_") + 16])
    assert levels(app) == before


async def test_recalls_back_to_back_offer_their_satisfaction_once_a_window(
    client: Client, app: AppContext, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    offered: list[list[tuple[str, float]]] = []
    satisfy = EgoService.satisfy

    def counted(self: EgoService, wanted: list[tuple[str, float]]) -> dict[str, Satisfaction]:
        offered.append(list(wanted))
        return satisfy(self, wanted)

    monkeypatch.setattr(EgoService, "satisfy", counted)
    await call(client, "feel_desires")  # the desires are born now
    clock.set(clock.now() + timedelta(hours=10))
    for _ in range(3):
        await call(client, "recall", context="Master")
    assert offered == [implicit_satisfactions("recall", {})]
    assert app.ego.desires().last["information_hunger"] == Satisfaction(clock.now(), 0.4)

    clock.set(clock.now() + timedelta(minutes=2))  # past the window: offered and recorded again
    await call(client, "recall", context="Master")
    assert len(offered) == 2
    assert app.ego.desires().last["information_hunger"] == Satisfaction(clock.now(), 0.4)


async def test_satisfy_desire_and_feel_desires(client: Client, clock: FixedClock) -> None:
    born = await call(client, "feel_desires")  # the first read is the desires' starting point
    # A new agent's desires stand at their midpoint, the quickest to return first.
    lines = [line for line in born.splitlines() if line.startswith("- ")]
    assert lines[:3] == [
        "- curiosity: 0.50 (mid)",
        "- information_hunger: 0.50 (mid)",
        "- expression: 0.50 (mid)",
    ]
    woken = await call(client, "wake_up")
    assert "Strongest desires:\n- curiosity: 0.50 (mid)\n- information_hunger" in woken
    clock.set(clock.now() + timedelta(hours=30))
    felt = await call(client, "feel_desires")
    assert "- curiosity: 1.00 (high)" in felt
    answer = await call(client, "satisfy_desire", name="curiosity", quality=1.0)
    assert answer.startswith("curiosity satisfied (quality 1.0); now 0.02.")


async def test_introspection_flow(client: Client, clock: FixedClock) -> None:
    await call(
        client,
        "update_self",
        field="new_question",
        value={"question": "What is home?", "importance": 4},
    )
    await call(
        client,
        "remember",
        content="I keep thinking about what home means to me.",
        category="introspection",
    )
    clock.set(clock.now() + timedelta(hours=1))
    text = await call(client, "introspect")
    assert "what home means" in text and "(importance 4): What is home?" in text
    assert (
        "If this is a genuinely new insight, save with remember (category: introspection)." in text
    )
    woke = await call(client, "wake_up")
    assert "Last introspection (1 hour ago): I keep thinking" in woke


async def test_wake_up_finds_the_last_introspection_after_the_noted_one_is_forgotten(
    client: Client, app: AppContext, clock: FixedClock
) -> None:
    await call(client, "remember", content="Home is where I am heard.", category="introspection")
    clock.set(clock.now() + timedelta(days=3))
    newest = await call(
        client, "remember", content="Rest is part of work, too.", category="introspection"
    )
    noted = app.ego.documents.load("last_introspection")
    assert noted is not None and noted["memory_id"] in newest
    clock.set(clock.now() + timedelta(hours=2))
    assert "Last introspection (2 hours ago): Rest is part" in await call(client, "wake_up")

    await call(client, "forget", memory_id=noted["memory_id"])
    woke = await call(client, "wake_up")  # the noted memory is gone: found by time again
    assert "Last introspection (3 days ago): Home is where" in woke
    clock.set(clock.now() + timedelta(days=28))
    assert "Last introspection: none yet." in await call(client, "wake_up")


async def test_consider_them_defaults_to_the_companion(client: Client) -> None:
    await call(
        client, "update_relationship", person="Master", field="known_facts", value="likes tea"
    )
    await call(client, "update_relationship", person="Master", field="trust_level", value=0.9)
    text = await call(client, "consider_them")
    assert text.startswith("Master: trust 0.90, 2 interactions, last seen just now.")
    assert "Known facts: likes tea" in text and "What might Master be feeling" in text
    stranger = await call(client, "consider_them", person="Aoi")
    assert "Nothing recorded about them yet." in stranger


async def test_consolidate_lists_the_planted_pair_with_merge_guidance(client: Client) -> None:
    await call(client, "remember", content=EVENT)
    await call(client, "remember", content=REPHRASED, force=True)  # the guard would refuse it
    await call(
        client,
        "remember",
        content="The Rust compiler build failed because a linker flag was missing.",
    )
    text = await call(client, "consolidate")
    assert "Found 1 near-duplicate pair(s):" in text
    assert f"A: {EVENT}" in text or f"B: {EVENT}" in text
    assert "Review each pair with recall. If one is redundant, merge_memories folds it" in text
    assert "or forget removes it." in text
    assert "If both have value, consider which perspective to keep." in text


async def test_emotion_trend_and_genuine(client: Client) -> None:
    assert "No emotional history yet" in await call(client, "emotion_trend")
    await call(client, "update_self", field="discovered_values", value="honesty")
    assert "Your values: honesty." in await call(client, "am_i_being_genuine")


def state_files(settings: Settings) -> dict[str, str]:
    folder = settings.data_dir / "state" / settings.agent
    return {p.name: p.read_text() for p in folder.glob("*.json")} if folder.exists() else {}


BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("satisfy_desire", {"name": "hunger"}, "name must be one of"),
    ("satisfy_desire", {"name": "curiosity", "quality": 2}, "quality must be between 0 and 1"),
    ("satisfy_desire", {"desire": "curiosity"}, "unknown argument 'desire' for satisfy_desire"),
    ("satisfy_desire", {"name": "curiosity", "quality": "0.5"}, "quality: Input should be"),
    ("update_self", {"field": "mood", "value": "x"}, "field must be one of"),
    ("update_self", {"field": "resolve_question", "value": "q_nope"}, "Open question not found"),
    ("update_self", {"field": "skill_confidence", "value": {"skill": "go"}}, "takes an object"),
    ("update_self", {"value": "x"}, "field is required"),
    ("update_self", {"field": "growth_log", "value": "x", "note": "y"}, "unknown argument 'note'"),
    ("update_relationship", {"person": "", "field": "known_facts", "value": "x"}, "person must be"),
    ("update_relationship", {"person": "Aoi", "field": "age", "value": 3}, "field must be one of"),
    (
        "update_relationship",
        {"person": "Aoi", "field": "trust_level", "value": 1.5},
        "trust_level must be",
    ),
    (
        "update_relationship",
        {"person": "Aoi", "field": "known_facts", "value": 42},
        "takes a non-empty string",
    ),
    ("consider_them", {"person": "x" * 101}, "person must be"),
]


@pytest.mark.parametrize(("tool", "arguments", "reason"), BAD_CALLS)
async def test_bad_input_changes_no_state(
    client: Client, settings: Settings, tool: str, arguments: dict[str, Any], reason: str
) -> None:
    await call(client, "update_self", field="discovered_values", value="honesty")
    before = state_files(settings)
    error = await call_error(client, tool, **arguments)
    assert reason in error and "\n" not in error
    assert state_files(settings) == before


async def test_corrupt_state_file_is_a_tool_error_naming_it(
    client: Client, settings: Settings
) -> None:
    folder = settings.data_dir / "state" / settings.agent
    folder.mkdir(parents=True)
    (folder / "self_model.json").write_text("not json")
    error = await call_error(client, "introspect")
    assert "self_model.json is not valid JSON" in error
    assert (folder / "self_model.json").read_text() == "not json"


async def test_a_private_introspection_is_marked_private_wherever_it_shows(
    client: Client, clock: FixedClock
) -> None:
    await call(
        client,
        "remember",
        content="I am jealous when Master talks about his old assistant.",
        category="introspection",
        private=True,
    )
    clock.set(clock.now() + timedelta(hours=1))
    woke = await call(client, "wake_up")
    assert "his old assistant. (private: keep it to yourself)" in woke
    introspected = await call(client, "introspect")
    line = next(row for row in introspected.splitlines() if "old assistant" in row)
    assert line.endswith(", private)")


@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize(
    ("event", "reworded"),
    [
        (EVENT, REPHRASED),
        ("マスターとケンと夜の港で花火を見た。", "マスターとケンと夜の港で花火を眺めた。"),
    ],
)
async def test_consolidate_never_proposes_a_precious_memory(
    client: Client, event: str, reworded: str, shared: bool
) -> None:
    """A moment shared with someone and felt strongly stays as it is (memory/fading.py);
    the same pair not shared is proposed."""
    people = {"shared_with": "Ken"} if shared else {}
    await call(client, "remember", content=event, emotion="moved", intensity=0.8, **people)
    await call(client, "remember", content=reworded, force=True)
    text = await call(client, "consolidate")
    assert ("Found 1 near-duplicate pair(s):" in text) is not shared, text

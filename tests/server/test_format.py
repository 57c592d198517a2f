"""Answer-building helpers and the size of the tool definitions."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from ego_mcp.server.app import create_server
from ego_mcp.server.format import compose, relative_time, snippet
from ego_mcp.server.schema import compact_schema
from ego_mcp.settings import Settings

pytestmark = pytest.mark.anyio

NOW = datetime(2026, 2, 21, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("delta", "expected"),
    [
        (timedelta(seconds=5), "just now"),
        (timedelta(minutes=1), "1 minute ago"),
        (timedelta(hours=2, minutes=5), "2 hours ago"),
        (timedelta(days=3), "3 days ago"),
        (timedelta(days=65), "2 months ago"),
        (timedelta(days=800), "2 years ago"),
    ],
)
def test_relative_time(delta: timedelta, expected: str) -> None:
    assert relative_time(NOW - delta, NOW) == expected


def test_snippet_and_compose() -> None:
    assert snippet("a\n b   c", 10) == "a b c"
    assert snippet("x" * 130, 120) == "x" * 119 + "…"
    assert compose("data", "think") == "data\n\n---\nthink"


def test_compact_schema_drops_titles_and_null_options() -> None:
    schema = {
        "title": "fArguments",
        "type": "object",
        "properties": {
            "a": {"title": "A", "type": "string"},
            "b": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None, "title": "B"},
        },
        "required": ["a"],
    }
    assert compact_schema(schema) == {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "required": ["a"],
    }


async def test_tool_definitions_stay_small(settings: Settings) -> None:
    tools = await create_server(settings).list_tools()
    size = len(json.dumps([t.model_dump(exclude_none=True, by_alias=True) for t in tools]))
    # About four characters a token: the whole surface stays within 1,700 tokens (the
    # bounds of every number argument, which the agent needs, cost about 50 of them). A
    # new tool stays inside it too, or says here why not.
    assert size / 4 <= 1_700, size
    assert all(t.output_schema is None for t in tools)


async def test_a_repeated_list_of_choices_points_to_the_first(settings: Settings) -> None:
    """remember's secondary emotions point to its emotion's choices: a valid schema that
    takes the same names and refuses others."""
    import jsonschema

    tools = {t.name: t for t in await create_server(settings).list_tools()}
    schema = tools["remember"].input_schema
    assert schema["properties"]["secondary"]["items"] == {"$ref": "#/properties/emotion"}
    jsonschema.validate({"content": "x", "secondary": ["happy", "moved"]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"content": "x", "secondary": ["bogus"]}, schema)

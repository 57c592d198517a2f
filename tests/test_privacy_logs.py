"""Logs carry no free text: not a memory's, not a query's, not an exception's message."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from ego_mcp.logs import (
    ContentFreeFormatter,
    Plain,
    content_free_message,
    describe_arguments,
    loggable,
    setup_logging,
)
from ego_mcp.memory.service import MemoryService
from ego_mcp.server.context import AppContext
from tests.conftest import call, call_error

pytestmark = pytest.mark.anyio

SECRET = "I secretly wrote a poem about Master's laugh and hid it in the drafts folder."
PUBLIC = "Walked to the bakery on Elm street and bought rye bread."
WORDS = ("poem about Master", "drafts folder", "secretly", "bakery", "Elm street", "rye")


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "ego.log"
    setup_logging("DEBUG", path)
    yield path
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h.formatter, ContentFreeFormatter)]:
        root.removeHandler(handler)
        handler.close()
    root.setLevel(logging.WARNING)


async def test_no_text_of_any_call_reaches_the_log(
    client: Client,
    app: AppContext,
    log_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Public or private, spelled as a flag or as a word, the text is never logged."""
    saved = await call(
        client, "remember", content=SECRET, private="true", body_state={"chest": "warm"}
    )
    memory_id = saved[saved.index("mem_") : saved.index("mem_") + 16]
    await call(client, "remember", content=PUBLIC, emotion="happy")
    await call(client, "remember", content=SECRET, private=True)  # the duplicate answer quotes it
    await call_error(client, "remember", content=SECRET, private="on")
    await call_error(client, "remember", content=SECRET, privte=True)
    await call(client, "recall", context="a poem about Master's laugh in the drafts folder")
    await call(client, "search_memories", query="bakery on Elm street")
    episode = await call(client, "create_episode", summary="rye bread", memory_ids=[memory_id])
    await call(
        client, "get_episode", episode_id=episode[episode.index("ep_") : episode.index("ep_") + 15]
    )
    await call(client, "update_relationship", person="Elm street baker", field="known_facts",
               value="bakes rye")  # fmt: skip
    # Upstream 1.7's arguments: tags, an anticipated moment, aliases, a tags filter.
    await call(client, "remember", content=SECRET + " Tagged.", private=True,
               tags=["drafts folder", "secretly"], anticipated_at="2026-12-24")  # fmt: skip
    await call(client, "update_relationship", person="Elm street baker", field="aliases",
               value=["the rye baker"])  # fmt: skip
    await call(client, "recall", context="the rye baker", tags=["drafts folder"])
    await call(client, "recall", mode="explore", seed=memory_id)
    # Shared with someone: the episode, the person's history, the recall-count job.
    await call(client, "remember", content=SECRET + " Shared.", private=True,
               shared_with=["Elm street baker"], related_memories=[memory_id])  # fmt: skip
    await app.enqueue(app.recall_tally.flush())  # as when the server stops
    await app.queue.join()  # type: ignore[attr-defined]

    def crash(*_: object, **__: object) -> None:
        raise RuntimeError(f"store exploded while saving {SECRET}")

    monkeypatch.setattr(MemoryService, "remember", crash)
    crashed = await call_error(client, "remember", content=SECRET + " Again.", force=True)
    assert "internal error" in crashed and "poem" not in crashed
    await call(client, "forget", memory_id=memory_id)

    logged = log_file.read_text() + capsys.readouterr().err
    assert "tool call remember" in logged and "RuntimeError (message withheld)" in logged
    assert "emotion=happy" in logged and f"memory_id={memory_id}" in logged
    assert f"content=<text:{len(SECRET)}>" in logged
    assert "job note_recalls:" in logged  # the count job ran, and names ids only
    for words in WORDS:
        assert words not in logged


def test_loggable_shows_numbers_ids_and_vocabulary_only() -> None:
    assert loggable(3) == 3 and loggable(0.5) == 0.5 and loggable(True) is True
    assert loggable("mem_0123456789ab") == "mem_0123456789ab"
    assert loggable("ep_0123456789ab") == "ep_0123456789ab"
    assert loggable("curious") == "curious" and loggable("known_facts") == "known_facts"
    assert loggable("curious cat") == "<text:11>"
    assert loggable(["happy", "a secret"]) == "[happy, <text:8>]"
    assert loggable({"chest": "warm"}) == "<object:1 keys>"
    assert loggable(ValueError(SECRET)) == "ValueError"
    assert loggable(Plain("127.0.0.1")) == "127.0.0.1"


def test_unknown_argument_names_are_counted_not_named() -> None:
    line = describe_arguments({"content": SECRET, "secret word": 1}, ["content"])
    assert line == f"content=<text:{len(SECRET)}> <1 unknown argument(s)>"


def test_library_records_without_arguments_show_only_their_length() -> None:
    own = logging.LogRecord("ego_mcp.x", logging.INFO, "f", 1, "saved %s", (SECRET,), None)
    assert content_free_message(own) == f"saved <text:{len(SECRET)}>"
    library = logging.LogRecord("chromadb", logging.WARNING, "f", 1, f"bad {SECRET}", None, None)
    assert content_free_message(library) == f"<message:{len(SECRET) + 4} chars>"
    templated = logging.LogRecord(
        "arq.worker", logging.WARNING, "f", 1, "job %s: %d", ("x", 2), None
    )
    assert content_free_message(templated) == "job <text:1>: 2"


def test_exceptions_are_logged_by_type_and_frames(log_file: Path) -> None:
    try:
        try:
            raise KeyError(SECRET)
        except KeyError as inner:
            raise RuntimeError(SECRET) from inner
    except RuntimeError:
        logging.getLogger("ego_mcp.test").exception("crashed on %s", SECRET)
    logged = log_file.read_text()
    assert "builtins.RuntimeError (message withheld)" in logged
    assert "builtins.KeyError (message withheld)" in logged
    assert "test_privacy_logs.py" in logged
    assert "poem" not in logged


def test_third_party_debug_records_are_dropped(log_file: Path) -> None:
    logging.getLogger("mcp.server.lowlevel").debug("request body %s", SECRET)
    logging.getLogger("ego_mcp.test").debug("own debug line")
    logged = log_file.read_text()
    assert "own debug line" in logged
    assert "request body" not in logged


async def test_debug_logs_say_what_an_operator_needs_and_no_content(tmp_path: Path) -> None:
    """EGO_MCP_LOG_LEVEL=DEBUG printed no DEBUG line at all: now ids, sizes, timings and
    the guard's decisions, still content-free."""
    env = {
        **os.environ,
        "EGO_MCP_DATA_DIR": str(tmp_path / "data"),
        "EGO_MCP_LOG_LEVEL": "DEBUG",
        "EGO_MCP_LOG_FILE": str(tmp_path / "debug.log"),
    }
    params = StdioServerParameters(command=sys.executable, args=["-m", "ego_mcp", "serve"], env=env)
    async with Client(params, read_timeout_seconds=60) as client:
        for text in (
            "Marker-zebra-17 walked to the lighthouse with Master.",
            "Marker-zebra-17 walked to the lighthouse with Master today.",
        ):
            await client.call_tool("remember", {"content": text})
        await client.call_tool("recall", {"context": "the lighthouse walk"})
    logged = (tmp_path / "debug.log").read_text()
    debug = [line for line in logged.splitlines() if " DEBUG ego_mcp" in line]
    assert any("saved mem_" in line and "characters" in line for line in debug), debug
    assert any("guard: mem_" in line for line in debug), debug
    assert any("recall: " in line and " ms" in line for line in debug), debug
    assert any("tool remember ok in" in line for line in debug), debug
    assert "zebra" not in logged.lower() and "lighthouse" not in logged.lower()

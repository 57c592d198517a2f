"""Private memory content never reaches the logs, at DEBUG, in exceptions, or from the SDK."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client

from ego_mcp.logs import (
    REDACTED,
    PrivacyFormatter,
    PrivateTextRegistry,
    redact_tool_arguments,
    setup_logging,
)
from ego_mcp.memory.service import MemoryService
from ego_mcp.server.app import AppContext
from tests.conftest import call, call_error

pytestmark = pytest.mark.anyio

SECRET = "I secretly wrote a poem about Master's laugh and hid it in the drafts folder."
SECRET_WORDS = ("poem about Master", "drafts folder", "secretly wrote")


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "ego.log"
    setup_logging("DEBUG", path)
    yield path
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h.formatter, PrivacyFormatter)]:
        root.removeHandler(handler)
        handler.close()
    root.setLevel(logging.WARNING)


async def test_private_content_is_absent_from_every_log_line(
    client: Client,
    app: AppContext,
    log_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    saved = await call(
        client, "remember", content=SECRET, private=True, body_state={"chest": "warm"}
    )
    memory_id = saved[saved.index("mem_") : saved.index("mem_") + 16]
    await call(client, "remember", content=SECRET, private=True)  # the duplicate answer quotes it
    await call_error(client, "remember", content=SECRET, private=True, intensity="very")
    await call(client, "recall", context="poem", n_results=3)
    await call(client, "search_memories", query="poem")
    episode = await call(client, "create_episode", summary="Writing", memory_ids=[memory_id])
    await call(
        client, "get_episode", episode_id=episode[episode.index("ep_") : episode.index("ep_") + 15]
    )

    def crash(*_: object, **__: object) -> None:
        raise RuntimeError(f"store exploded while saving {SECRET}")

    monkeypatch.setattr(MemoryService, "remember", crash)
    crashed = await call_error(
        client, "remember", content=SECRET + " Again.", private=True, force=True
    )
    assert "internal error" in crashed and "poem" not in crashed
    await call(client, "forget", memory_id=memory_id)

    logged = log_file.read_text() + capsys.readouterr().err
    assert "tool call remember" in logged and "RuntimeError" in logged  # logging did happen
    assert REDACTED in logged
    for words in SECRET_WORDS:
        assert words not in logged


def test_redaction_keeps_non_private_calls_readable() -> None:
    public = redact_tool_arguments("remember", {"content": "sunny day", "private": False})
    assert public["content"] == "sunny day"
    private = redact_tool_arguments(
        "remember", {"content": "hidden", "private": "true", "tags": ["x"]}
    )
    assert private == {
        "content": REDACTED,
        "private": "true",
        "tags": REDACTED,
        "content_length": 6,
    }


def test_registry_scrubs_whole_texts_and_truncated_snippets() -> None:
    registry = PrivateTextRegistry()
    registry.add(SECRET)
    assert registry.scrub(f"saved {SECRET} ok") == f"saved {REDACTED} ok"
    assert "poem" not in registry.scrub(f"snippet: {SECRET[:60]}…")
    assert registry.scrub("nothing private here") == "nothing private here"


def test_third_party_debug_records_are_dropped(log_file: Path) -> None:
    logging.getLogger("mcp.server.lowlevel").debug("request body %s", SECRET)
    logging.getLogger("ego_mcp.test").debug("own debug line")
    logged = log_file.read_text()
    assert "own debug line" in logged
    assert "request body" not in logged

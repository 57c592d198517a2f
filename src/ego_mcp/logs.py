"""Logging with the privacy sanitiser applied at the one place every record passes.

Three guards, so that ``EGO_MCP_LOG_LEVEL=DEBUG`` stays safe:

1. ego-mcp's own log points never include memory content; the tool-call log goes
   through :func:`redact_tool_arguments`.
2. Third-party loggers (the MCP SDK, Chroma, httpx, arq) may log request bodies at
   DEBUG/INFO; only their warnings and errors pass.
3. Every formatted record, tracebacks included, is scrubbed of the private texts this
   process has seen (:data:`PRIVATE_TEXTS`).
"""

from __future__ import annotations

import logging
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ego_mcp.memory.inputs import as_bool

REDACTED = "[REDACTED_PRIVATE_MEMORY]"
OWN_LOGGERS = ("ego_mcp", "worker")
FREE_TEXT_FIELDS = ("content", "secondary", "body_state", "tags", "note", "summary")
PREFIX_CHARS = 24
MIN_PRIVATE_CHARS = 4


class PrivateTextRegistry:
    """The private texts this process has handled, kept so log output can be scrubbed."""

    def __init__(self, capacity: int = 2_000) -> None:
        self._capacity = capacity
        self._texts: OrderedDict[str, None] = OrderedDict()
        self._pattern: re.Pattern[str] | None = None
        self._lock = threading.Lock()

    def add(self, text: str) -> None:
        text = text.strip()
        if len(text) < MIN_PRIVATE_CHARS:
            return
        with self._lock:
            if text in self._texts:
                self._texts.move_to_end(text)
                return
            self._texts[text] = None
            if len(self._texts) > self._capacity:
                self._texts.popitem(last=False)
            self._pattern = None

    def scrub(self, output: str) -> str:
        pattern = self._compiled()
        return output if pattern is None else pattern.sub(REDACTED, output)

    def _compiled(self) -> re.Pattern[str] | None:
        with self._lock:
            if self._pattern is None and self._texts:
                # A text's prefix and whatever follows it on the line, up to the text's
                # length: that also catches truncated snippets and one-line renderings.
                alternatives = [
                    re.escape(t[:PREFIX_CHARS]) + rf"[^\n]{{0,{max(0, len(t) - PREFIX_CHARS)}}}"
                    for t in sorted(self._texts, key=len, reverse=True)
                ]
                self._pattern = re.compile("|".join(alternatives))
            return self._pattern


PRIVATE_TEXTS = PrivateTextRegistry()


def redact_tool_arguments(tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as they may be logged: a private memory's free text is replaced."""
    safe = dict(arguments)
    if tool == "remember" and as_bool(arguments.get("private")):
        content = arguments.get("content")
        if isinstance(content, str):
            PRIVATE_TEXTS.add(content)
            safe["content_length"] = len(content)
        for key in FREE_TEXT_FIELDS:
            if key in safe:
                safe[key] = REDACTED
    return safe


class PrivacyFormatter(logging.Formatter):
    """Formats as usual, then removes every known private text (tracebacks included)."""

    def format(self, record: logging.LogRecord) -> str:
        return PRIVATE_TEXTS.scrub(super().format(record))


class ThirdPartyQuiet(logging.Filter):
    """Lets ego-mcp's own records through at any level, others from WARNING up."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.split(".", 1)[0] in OWN_LOGGERS:
            return True
        return record.levelno >= logging.WARNING


def ensure_logging(level: str, log_file: Path | None = None) -> None:
    """Set up logging unless it already is; keeps the SDK from installing its own handler."""
    if not any(isinstance(h.formatter, PrivacyFormatter) for h in logging.getLogger().handlers):
        setup_logging(level, log_file)


def setup_logging(level: str, log_file: Path | None = None) -> None:
    """Route all logging to stderr (stdout carries the stdio protocol) and ``log_file``."""
    formatter = PrivacyFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h.formatter, PrivacyFormatter)]:
        root.removeHandler(old)
        old.close()
    for handler in handlers:
        handler.setFormatter(formatter)
        handler.addFilter(ThirdPartyQuiet())
        root.addHandler(handler)
    root.setLevel(level)

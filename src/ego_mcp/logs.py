"""Logging that carries no free text, by construction.

Every record that reaches a handler, ours or a library's, is rendered by
:class:`ContentFreeFormatter`:

- The message template is code: ruff's ``G`` rules keep f-strings out of our log calls,
  so a template is a constant of the source. A library record that has no arguments may
  have been formatted before it was logged, so only its length is shown.
- Each argument is rendered by :func:`loggable`: numbers, booleans, ids and the words of
  the closed vocabularies (emotions, categories, link types, desires, fields) as they are;
  any other string only as its length (``<text:42>``); exceptions as their type;
  containers by their size. A string that is known not to be content (a host name, a path
  from the settings) prints only when the call site wraps it in :class:`Plain`.
- Exceptions print as the chain of their types and the frames they passed, never their
  messages, which may quote content (Chroma, pydantic, httpx, arq all do).
- Library loggers pass from WARNING up; foreign handlers (arq's CLI installs one) are
  removed, so nothing is printed around this formatter.

Nothing here has to recognise a secret: whatever is not a number, an id or a word of a
closed list is never printed, at any level.
"""

from __future__ import annotations

import logging
import re
import sys
import traceback
from collections.abc import Iterable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any

from ego_mcp.ego import relationships, self_model
from ego_mcp.ego.desires import SATISFACTION_HOURS
from ego_mcp.file_modes import private_file
from ego_mcp.memory.model import Category, Emotion, LinkType

OWN_LOGGERS = ("ego_mcp", "worker")
ID_SHAPE = re.compile(r"^(mem|ep|q)_[0-9a-f]{6,32}$")
VOCABULARY = frozenset(
    [
        *(e.value for e in Emotion),
        *(c.value for c in Category),
        *(t.value for t in LinkType),
        *SATISFACTION_HOURS,
        *self_model.FIELDS,
        *relationships.FIELDS,
    ]
)
MAX_ITEMS_SHOWN = 5


class Plain(str):
    """A string the call site vouches is not content (a host, a path, a tool's own name)."""

    __slots__ = ()


def loggable(value: Any) -> Any:
    """``value`` as it may appear in a log line: content never does."""
    if value is None or isinstance(value, bool | int | float | Plain):
        return value
    if isinstance(value, Enum):
        return loggable(value.value)
    if isinstance(value, str):
        return value if ID_SHAPE.match(value) or value in VOCABULARY else f"<text:{len(value)}>"
    if isinstance(value, BaseException):
        return type(value).__name__
    if isinstance(value, Path):
        return f"<path:{len(str(value))}>"
    if isinstance(value, Mapping):
        return f"<object:{len(value)} keys>"
    if isinstance(value, list | tuple | set | frozenset):
        return _loggable_items(value)
    return f"<{type(value).__name__}>"


def _loggable_items(items: Iterable[Any]) -> str:
    shown = [str(loggable(item)) for item in items]
    if len(shown) > MAX_ITEMS_SHOWN:
        return f"[{', '.join(shown[:MAX_ITEMS_SHOWN])}, … {len(shown)} items]"
    return f"[{', '.join(shown)}]"


def describe_arguments(arguments: Mapping[str, Any], known: Iterable[str]) -> str:
    """Tool arguments for the call log: known names with loggable values, others counted."""
    names = set(known)
    parts = [f"{name}={loggable(value)}" for name, value in arguments.items() if name in names]
    unknown = sum(1 for name in arguments if name not in names)
    if unknown:
        parts.append(f"<{unknown} unknown argument(s)>")
    return " ".join(parts) if parts else "(no arguments)"


def content_free_message(record: logging.LogRecord) -> str:
    """The record's message with every argument made loggable (see the module docstring)."""
    template = record.msg if isinstance(record.msg, str) else f"<{type(record.msg).__name__}>"
    own = record.name.split(".", 1)[0] in OWN_LOGGERS
    if not record.args:
        return template if own else f"<message:{len(template)} chars>"
    if isinstance(record.args, Mapping):
        arguments: Any = {key: loggable(value) for key, value in record.args.items()}
    else:
        arguments = tuple(loggable(value) for value in record.args)
    try:
        return str(template % arguments)
    except (TypeError, ValueError, KeyError):
        return f"{template} {arguments}"


def content_free_exception(error: BaseException | None) -> str:
    """The exception chain as types and frames (file:line in function), without messages."""
    lines: list[str] = []
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        kind = type(error)
        lines.append(f"{kind.__module__}.{kind.__qualname__} (message withheld)")
        for frame in traceback.extract_tb(error.__traceback__):
            lines.append(f"  at {Path(frame.filename).name}:{frame.lineno} in {frame.name}")
        error = error.__cause__ or error.__context__
        if error is not None:
            lines.append("raised while handling:")
    return "\n".join(lines)


class ContentFreeFormatter(logging.Formatter):
    """Formats a copy of each record whose message and exception carry no free text."""

    def format(self, record: logging.LogRecord) -> str:
        safe = logging.makeLogRecord(record.__dict__)
        safe.msg = content_free_message(record)
        safe.args = None
        safe.exc_text = None
        safe.stack_info = None
        return super().format(safe)

    def formatException(self, ei: Any) -> str:
        return content_free_exception(ei[1])


class ThirdPartyQuiet(logging.Filter):
    """Lets ego-mcp's own records through at any level, others from WARNING up."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.split(".", 1)[0] in OWN_LOGGERS:
            return True
        return record.levelno >= logging.WARNING


def ensure_logging(level: str, log_file: Path | None = None) -> None:
    """Set up logging unless it already is; keeps the SDK from installing its own handler."""
    if not any(_is_ours(h) for h in logging.getLogger().handlers):
        setup_logging(level, log_file)
    remove_foreign_handlers()


def setup_logging(level: str, log_file: Path | None = None) -> None:
    """Route all logging to stderr (stdout carries the stdio protocol) and ``log_file``."""
    formatter = ContentFreeFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file is not None:
        private_file(log_file)  # it names agents and memory ids: for this user only
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    root = logging.getLogger()
    for old in [h for h in root.handlers if _is_ours(h)]:
        root.removeHandler(old)
        old.close()
    for handler in handlers:
        handler.setFormatter(formatter)
        handler.addFilter(ThirdPartyQuiet())
        root.addHandler(handler)
    root.setLevel(level)
    remove_foreign_handlers()


def remove_foreign_handlers() -> None:
    """Detach handlers that libraries installed on their own loggers (arq's CLI does).

    Their records then reach the root handlers above, and nothing else prints them.
    """
    for logger in logging.Logger.manager.loggerDict.values():
        if not isinstance(logger, logging.Logger):
            continue
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.propagate = True


def _is_ours(handler: logging.Handler) -> bool:
    return isinstance(handler.formatter, ContentFreeFormatter)

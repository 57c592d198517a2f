"""Pure checks that turn raw tool arguments into domain values, or raise InvalidInput."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, time
from enum import StrEnum
from typing import Any, TypeVar

from ego_mcp.errors import InvalidInput

MAX_CONTENT_CHARS = 20_000
MAX_NOTE_CHARS = 500
MAX_LIST_ITEMS = 20
MAX_TAG_CHARS = 50
MEMORY_ID = re.compile(r"^mem_[0-9a-f]{6,32}$")
EPISODE_ID = re.compile(r"^ep_[0-9a-f]{6,32}$")

E = TypeVar("E", bound=StrEnum)


def text(value: str, field: str, limit: int = MAX_CONTENT_CHARS) -> str:
    """Non-empty text of at most ``limit`` characters, stripped."""
    stripped = value.strip()
    if not stripped:
        raise InvalidInput(f"{field} must not be empty")
    if len(stripped) > limit:
        raise InvalidInput(
            f"{field} is too long ({len(stripped)} characters; the limit is {limit})"
        )
    return stripped


def choice(value: str, kind: type[E], field: str) -> E:
    try:
        return kind(value.strip().lower())
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise InvalidInput(f"{field} must be one of: {allowed}") from None


def choices(values: Sequence[str] | None, kind: type[E], field: str) -> tuple[E, ...]:
    if values is None:
        return ()
    if len(values) > MAX_LIST_ITEMS:
        raise InvalidInput(f"{field} takes at most {MAX_LIST_ITEMS} items")
    return tuple(dict.fromkeys(choice(v, kind, field) for v in values))


FLAG_WORDS = {"true": True, "false": False}
FLAG_RULE = 'must be true or false (a JSON boolean, or the string "true" or "false")'


def parse_flag(value: object) -> bool | None:
    """The one reading of a flag: a JSON boolean or the words true/false; else ``None``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return FLAG_WORDS.get(value.strip().lower())
    return None


def stored_privacy(value: object) -> bool:
    """A stored ``is_private`` flag; an unreadable one reads as private (fails closed)."""
    return parse_flag(value) is not False


def loose_number(value: Any, field: str, low: float, high: float) -> float:
    """A number of unknown type (from a free-form ``value`` argument) within bounds."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise InvalidInput(f"{field} must be a number between {low:g} and {high:g}")
    return float(value)


def loose_whole(value: Any, field: str, low: int, high: int) -> int:
    """A whole number of unknown type within bounds."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{field} must be a whole number between {low} and {high}")
    return value


def number(value: float, field: str, low: float, high: float) -> float:
    if math.isnan(value) or not low <= value <= high:
        raise InvalidInput(f"{field} must be between {low:g} and {high:g}")
    return float(value)


def whole(value: int, field: str, low: int, high: int) -> int:
    if not low <= value <= high:
        raise InvalidInput(f"{field} must be between {low} and {high}")
    return value


def number_range(
    value: Sequence[float] | None, field: str, low: float, high: float
) -> tuple[float, float] | None:
    if value is None:
        return None
    if len(value) != 2:
        raise InvalidInput(f"{field} must be two numbers [min, max]")
    lo = number(value[0], field, low, high)
    hi = number(value[1], field, low, high)
    if lo > hi:
        raise InvalidInput(f"{field} must be [min, max] with min <= max")
    return lo, hi


def moment(value: str | None, field: str, end_of_day: bool = False) -> datetime | None:
    """An ISO 8601 date or date-time; a bare date covers the whole day."""
    if value is None or not value.strip():
        return None
    raw = value.strip()
    try:
        if len(raw) == 10:
            day = datetime.fromisoformat(raw).date()
            return datetime.combine(day, time.max if end_of_day else time.min, tzinfo=UTC)
        parsed = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidInput(f"{field} must be an ISO 8601 date like 2026-02-21") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def future_moment(value: str | None, field: str, now: datetime) -> datetime | None:
    """An ISO 8601 moment not yet past: a date-time after ``now``, or a date from today on
    (read as the day's start)."""
    if value is None or not value.strip():
        return None
    when = moment(value, field)
    assert when is not None
    a_day = len(value.strip()) == 10
    if when < now and not (a_day and when.date() >= now.date()):
        raise InvalidInput(f"{field} must not be in the past (now: {now:%Y-%m-%d %H:%M} UTC)")
    return when


def all_day(moment: datetime) -> bool:
    """Whether an anticipated moment is a whole day: one given as a date is its midnight
    (UTC), and a day lasts until it is over."""
    return moment.timetz().replace(tzinfo=None) == time.min


def memory_id(value: str, field: str = "memory_id") -> str:
    candidate = value.strip()
    if not MEMORY_ID.match(candidate):
        raise InvalidInput(f"{field} must look like mem_0123456789ab")
    return candidate


def episode_id(value: str) -> str:
    candidate = value.strip()
    if not EPISODE_ID.match(candidate):
        raise InvalidInput("episode_id must look like ep_0123456789ab")
    return candidate


def tags(values: Sequence[str] | None, field: str = "tags") -> tuple[str, ...]:
    """Free-form tags, stripped, each once whatever its case (the first spelling kept)."""
    if values is None:
        return ()
    if len(values) > MAX_LIST_ITEMS:
        raise InvalidInput(f"{field} takes at most {MAX_LIST_ITEMS} items")
    kept: dict[str, str] = {}
    for value in values:
        tag = text(value, f"{field} item", MAX_TAG_CHARS)
        kept.setdefault(tag_key(tag), tag)
    return tuple(kept.values())


def tag_key(tag: str) -> str:
    """How tags compare: Coffee, coffee and ＣＯＦＦＥＥ are one tag."""
    return unicodedata.normalize("NFKC", tag).casefold()


def string_map(value: dict[str, str] | None, field: str) -> dict[str, str]:
    if value is None:
        return {}
    if len(value) > MAX_LIST_ITEMS:
        raise InvalidInput(f"{field} takes at most {MAX_LIST_ITEMS} entries")
    return {
        text(k, f"{field} key", 100): text(v, f"{field} value", MAX_NOTE_CHARS)
        for k, v in value.items()
    }

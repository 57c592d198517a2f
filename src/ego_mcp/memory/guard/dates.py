"""Dates and times in every common way a memory writes them, read as values: ISO and US
numeric dates, month names, 24-hour and a.m./p.m. times, Japanese dates (12月24日, 十二月),
era years (令和7年 = 2025年), weekdays, seasons, parts of the day and relative words
(last/this/next year, 去年/今年). Each comes out as units ("md:12-24", "year:2025",
"time:19:00", "rel:last-year") that two texts can compare. Pure; the tables are the
closed classes of the calendar, not pair lists. The same pass finds lengths of time and
metric measures (``durations``, ``measures``), which ``analysis`` compares as amounts: a
span read once is read by one pattern only.

It reads text whose numbers are digits already (``analysis.digitised``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ego_mcp.memory.guard import durations, measures

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
}  # fmt: skip
WEEKDAYS = {
    "monday": 1,
    "tuesday": 2,
    "wednesday": 3,
    "thursday": 4,
    "friday": 5,
    "saturday": 6,
    "sunday": 7,
}  # fmt: skip  (no "sat", "sun", "wed": words of their own)
# Written short, capitalised and with the abbreviation's point (Wed., Feb.), they are
# days and months; Jan. and May are names, Sat. and Sun. words, too often to be read so.
WEEKDAYS_SHORT = {"mon": 1, "tue": 2, "tues": 2, "wed": 3, "thu": 4, "thur": 4, "thurs": 4,
                  "fri": 5}  # fmt: skip
WEEKDAY_NUMBERS = {**WEEKDAYS, **WEEKDAYS_SHORT}
JA_WEEKDAYS = {"月": 1, "火": 2, "水": 3, "木": 4, "金": 5, "土": 6, "日": 7}
ERAS = {"令和": 2018, "平成": 1988, "昭和": 1925, "大正": 1911, "明治": 1867}  # year 1 = base + 1
SEASONS = {"spring": "spring", "summer": "summer", "autumn": "autumn", "winter": "winter",
           "春": "spring", "夏": "summer", "秋": "autumn", "冬": "winter"}  # fmt: skip
# ("fall" is a season only after last/this/next: alone it is mostly the verb.)
PARTS = {
    "morning": "morning", "afternoon": "afternoon", "evening": "evening", "night": "night",
    "dawn": "dawn", "dusk": "dusk",
    "朝": "morning", "午前": "morning", "昼": "noon", "午後": "afternoon", "夕方": "evening",
    "晩": "night", "夜": "night", "夜明け": "dawn", "深夜": "midnight",
}  # fmt: skip
# English words for a time of the clock (noon is 12 pm; 深夜 is a part of the night).
CLOCK_WORDS = {"noon": "time:12:00", "midday": "time:12:00", "midnight": "time:00:00"}
PERIODS = "week|month|year|weekend|winter|spring|summer|autumn|fall|" + "|".join(WEEKDAYS)
RELATIVE_EN = {"last": "last", "past": "last", "previous": "last", "this": "this",
               "next": "next", "coming": "next"}  # fmt: skip
DEICTIC = {
    "yesterday": ("rel:day-1",), "today": ("rel:day0",), "tomorrow": ("rel:day+1",),
    "tonight": ("rel:day0", "part:night"),
    # The English parts of the day told from today, as 今朝, 昨夜 are: "this" is today's,
    # "last" the night or evening before.
    "this morning": ("rel:day0", "part:morning"), "this afternoon": ("rel:day0", "part:afternoon"),
    "this evening": ("rel:day0", "part:evening"), "last night": ("rel:day-1", "part:night"),
    "last evening": ("rel:day-1", "part:evening"),
    "the day before yesterday": ("rel:day-2",), "the day after tomorrow": ("rel:day+2",),
    "the night before last": ("rel:day-2", "part:night"),
    "一昨日": ("rel:day-2",), "おととい": ("rel:day-2",), "昨日": ("rel:day-1",),
    "きのう": ("rel:day-1",), "今日": ("rel:day0",), "きょう": ("rel:day0",),
    "明日": ("rel:day+1",), "あした": ("rel:day+1",), "明後日": ("rel:day+2",),
    "今朝": ("rel:day0", "part:morning"), "今夜": ("rel:day0", "part:night"),
    "今晩": ("rel:day0", "part:night"), "昨夜": ("rel:day-1", "part:night"),
    "昨晩": ("rel:day-1", "part:night"),
    "去年": ("rel:last-year",), "昨年": ("rel:last-year",), "今年": ("rel:this-year",),
    "来年": ("rel:next-year",), "先週": ("rel:last-week",), "今週": ("rel:this-week",),
    "来週": ("rel:next-week",), "先月": ("rel:last-month",), "今月": ("rel:this-month",),
    "来月": ("rel:next-month",), "週末": ("rel:this-weekend",),
}  # fmt: skip

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
# A month named alone: full names, not "may" (the verb); abbreviations only with a day.
_MONTH_ALONE = "|".join(m for m in MONTHS if len(m) > 3 and m != "may")
_WEEKDAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
MERIDIEM = r"(?P<ampm>a\.?\s?m\.?|p\.?\s?m\.?)"
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # Year first, by hyphens (ISO 8601) or by slashes (2025/6/5, as Japanese dates are
    # written), each bounded by its own separator: an interval or a path joins two
    # dates with the other one (2025-06-05/2025-06-07, 2025/6/5-2025/6/7).
    ("iso", re.compile(r"(?<![\d-])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?![\d-])")),
    ("iso", re.compile(r"(?<![\d/])(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])")),
    ("numeric", re.compile(
        r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>\d{2,4}))?(?![\d/])")),
    ("month_day", re.compile(
        rf"\b(?P<month>{_MONTH})\.?\s+(?:the\s+)?(?P<d>\d{{1,2}})\b(?:,?\s+(?P<y>\d{{4}}))?",
        re.IGNORECASE)),
    ("day_month", re.compile(
        rf"\b(?:the\s+)?(?P<d>\d{{1,2}})\s+(?:of\s+)?(?P<month>{_MONTH})\b\.?(?:,?\s+(?P<y>\d{{4}}))?",
        re.IGNORECASE)),
    ("month", re.compile(rf"\b(?P<month>{_MONTH_ALONE}|may(?=\s+\d{{4}}))\b(?:\s+(?P<y>\d{{4}}))?",
                         re.IGNORECASE)),
    ("ja_era", re.compile(r"(?P<era>令和|平成|昭和|大正|明治)(?P<n>\d{1,2}|元)年")),
    ("ja_date", re.compile(r"(?:(?P<y>\d{4})年)?(?P<m>\d{1,2})月(?:(?P<d>\d{1,2})日)?")),
    ("ja_year", re.compile(r"(?P<y>\d{4})年")),
    ("ja_time", re.compile(
        r"(?P<half>午前|午後)?(?<![\d.])(?P<h>\d{1,2})時(?!間)(?:(?P<min>\d{1,2})分|(?P<han>半))?")),
    ("clock", re.compile(rf"(?<![\d:])(?P<h>\d{{1,2}}):(?P<min>\d{{2}})(?![\d:])\s*{MERIDIEM}?",
                         re.IGNORECASE)),
    ("past", re.compile(
        rf"\b(?:a\s+)?(?P<frac>half|quarter|[1-5]?\d)(?:\s+minutes?)?\s+(?P<dir>past|to)\s+"
        rf"(?P<h>\d{{1,2}})\b(?:\s*{MERIDIEM})?",
        re.IGNORECASE)),
    ("hour", re.compile(rf"\b(?P<h>\d{{1,2}})\s*(?:{MERIDIEM}|o'?clock)", re.IGNORECASE)),
    # Days counted back from today (2 days ago, 2日前), not a length of time; 出発の3日前
    # counts from the departure, 3日前までに from a deadline, and 10日前後 is "about 10 days".
    ("days_ago", re.compile(r"\b(?P<n>\d{1,2})\s+days?\s+ago\b", re.IGNORECASE)),
    ("days_ago", re.compile(r"(?<![\dの])(?P<n>\d{1,2})日前(?!後|まで)")),
    *(("duration", pattern) for pattern in durations.PATTERNS),
    *(("measure", pattern) for pattern in measures.PATTERNS),
    ("relative", re.compile(
        rf"\b(?P<rel>last|past|previous|this|next|coming)\s+(?P<period>{PERIODS})\b",
        re.IGNORECASE)),
    ("ja_weekday", re.compile(r"(?P<w>[月火水木金土日])曜日?")),
    ("weekday", re.compile(rf"\b(?P<w>{_WEEKDAY})\b\.?", re.IGNORECASE)),
    ("weekday", re.compile(r"\b(?P<w>Mon|Tues?|Wed|Thu(?:rs?)?|Fri)\.")),
    # Without the period, capitalised, where the word is no other (not Wed, Sat, Sun) and
    # stands as a day does: after on, by, until, next, this or last, or before a date
    # (on Fri; Fri, 5 Dec), not as a name (Master's friend Thu).
    ("weekday", re.compile(
        r"(?:(?<=\b[Oo]n )|(?<=\b[Bb]y )|(?<=\b[Uu]ntil )|(?<=\b[Nn]ext )|(?<=\b[Tt]his )"
        r"|(?<=\b[Ll]ast ))(?P<w>Mon|Tues?|Thu(?:rs?)?|Fri)\b(?!\.)"
    )),
    ("weekday", re.compile(r"\b(?P<w>Mon|Tues?|Thu(?:rs?)?|Fri)(?=,? \d)")),
    ("month", re.compile(r"\b(?P<month>Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.")),
    # A bare year; not an amount: no Japanese counter after it (2000円, 2000人: 年 itself
    # is read above), nor a currency, which ``analysis.normalise`` writes as its word.
    ("year", re.compile(
        r"(?<!\d)(?P<y>(?:19|20)\d{2})"
        r"(?!\d|\s*(?:[一-龥々ァ-ヶ]|(?:dollars?|euros?|pounds?|yen)\b))", re.IGNORECASE)),
]  # fmt: skip
# A determiner or a possessive before "last night" makes it one night of several (the
# last night of the trip, our last night in Kyoto), not the night before today.
# ("that" and a pronoun's 's are as often a clause's: said that last night, that's last
# night's pizza.)
DETERMINED = re.compile(
    r"\b(?:the|a|an|one|this|his|her|my|our|their|your|its"
    r"|(?!(?:that|it|he|she|what|there|here|who|where|when)'s)\w+'s)\s+(?:very\s+)?$",
    re.IGNORECASE,
)
WORDS = re.compile(
    "|".join(
        rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w)
        for w in sorted([*DEICTIC, *SEASONS, *PARTS, *CLOCK_WORDS], key=len, reverse=True)
    ),
    re.IGNORECASE,
)


@dataclass(frozen=True)
class When:
    """Temporal units of a text, and the spans they came from (to be left out of words)."""

    units: frozenset[str]
    spans: tuple[tuple[int, int], ...]
    pieces: tuple[tuple[int, frozenset[str]], ...] = ()  # each span's start and its units


def _year(raw: str | None) -> str | None:
    if raw is None:
        return None
    year = int(raw)
    return str(year + 2000 if year < 100 else year)


def _date_units(month: int, day: int | None, year: str | None) -> set[str]:
    units = {f"month:{month}"} if day is None else {f"md:{month:02d}-{day:02d}"}
    if year is not None:
        units.add(f"year:{year}")
    return units


def _clock(hour: int, minute: int, meridiem: str | None) -> str:
    if meridiem is not None:
        pm = meridiem.lower().startswith("p")
        hour = hour % 12 + (12 if pm else 0)
    return f"time:{hour:02d}:{minute:02d}"


def _numeric_date(group: dict[str, str | None]) -> set[str]:
    month, day = int(group["m"] or 0), int(group["d"] or 0) if group.get("d") else None
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return set()
    return _date_units(month, day, _year(group.get("y")))


def _named_date(group: dict[str, str | None]) -> set[str]:
    day = int(group["d"] or 0) if group.get("d") else None
    return _date_units(MONTHS[(group["month"] or "").lower()], day, _year(group.get("y")))


def _era(group: dict[str, str | None]) -> set[str]:
    number = 1 if group["n"] == "元" else int(group["n"] or 0)
    return {f"year:{ERAS[group['era'] or ''] + number}"}


def _ja_time(group: dict[str, str | None]) -> set[str]:
    minute = 30 if group["han"] else int(group["min"] or 0)
    meridiem = {"午前": "am", "午後": "pm"}.get(group["half"] or "")
    return {_clock(int(group["h"] or 0), minute, meridiem)}


def _past(group: dict[str, str | None]) -> set[str]:
    fraction = (group["frac"] or "").lower()
    minutes = {"half": 30, "quarter": 15}.get(fraction) or int(fraction or 0)
    hour = int(group["h"] or 0)
    if (group["dir"] or "").lower() == "to":
        hour, minutes = hour - 1, 60 - minutes
    return {_clock(hour, minutes, group.get("ampm"))}


def _relative(group: dict[str, str | None]) -> set[str]:
    period = (group["period"] or "").lower()
    period = {"fall": "autumn"}.get(period, period)
    if period in WEEKDAYS:
        period = f"weekday{WEEKDAYS[period]}"
    return {f"rel:{RELATIVE_EN[(group['rel'] or '').lower()]}-{period}"}


READERS: dict[str, Callable[[dict[str, str | None]], set[str]]] = {
    "iso": _numeric_date,
    "numeric": _numeric_date,
    "ja_date": _numeric_date,
    "month_day": _named_date,
    "day_month": _named_date,
    "month": _named_date,
    "ja_era": _era,
    "ja_year": lambda g: {f"year:{g['y']}"},
    "year": lambda g: {f"year:{g['y']}"},
    "ja_time": _ja_time,
    "past": _past,
    "clock": lambda g: {_clock(int(g["h"] or 0), int(g.get("min") or 0), g.get("ampm"))},
    "hour": lambda g: {_clock(int(g["h"] or 0), 0, g.get("ampm"))},
    "ja_weekday": lambda g: {f"weekday:{JA_WEEKDAYS[g['w'] or '']}"},
    "weekday": lambda g: {f"weekday:{WEEKDAY_NUMBERS[(g['w'] or '').lower()]}"},
    "relative": _relative,
    "days_ago": lambda g: {f"rel:day-{int(g['n'] or 0)}"} if int(g["n"] or 0) else set(),
    "duration": durations.duration_units,
    "measure": measures.measure_units,
}


def _units_of(kind: str, match: re.Match[str]) -> set[str]:
    return READERS[kind](match.groupdict())


def _free(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return all(end <= s or start >= e for s, e in spans)


def find_when(text: str) -> When:
    """The temporal units of ``text`` (digits already), each span read once, the more
    specific patterns first."""
    units: set[str] = set()
    spans: list[tuple[int, int]] = []
    pieces: list[tuple[int, frozenset[str]]] = []
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(text):
            if not _free(spans, match.start(), match.end()):
                continue
            found = _units_of(kind, match)
            if found:
                units |= found
                spans.append((match.start(), match.end()))
                pieces.append((match.start(), frozenset(found)))
    for match in WORDS.finditer(text):
        word = match.group(0).lower()
        start, end = match.start(), match.end()
        if not _free(spans, start, end):
            continue
        if word in DEICTIC and " " in word and DETERMINED.search(text, 0, start):
            # The last night of the trip, our last evening in Kyoto: the part of the day
            # alone, "last" left a word (the last night train is no night train).
            part = word.rsplit(" ", 1)[-1]
            start = end - len(part)
            found = {f"part:{PARTS[part]}"}
        elif word in DEICTIC:
            found = set(DEICTIC[word])
        elif word in SEASONS:
            found = {f"season:{SEASONS[word]}"}
        elif word in CLOCK_WORDS:
            found = {CLOCK_WORDS[word]}
        else:
            found = {f"part:{PARTS[word]}"}
        units |= found
        spans.append((start, end))
        pieces.append((start, frozenset(found)))
    return _with_clock_parts(
        text,
        When(frozenset(units), tuple(sorted(spans)), tuple(sorted(pieces, key=_start))),
    )


LATE_PARTS = frozenset({"part:afternoon", "part:evening", "part:night"})
PARTS_TOLD = frozenset(f"part:{part}" for part in PARTS.values())
# What may stand between a clock time and the part of the day it is told with; between
# a clock and a part told with its day (at 10 pm last night, this evening at 7, 昨夜10時).
NEAR = re.compile(r"[^,.;:!?、。！？\n]{0,12}")
ADJACENT = re.compile(r"\s*(?:(?:at|around|about|by)\s+)?|の")
JOINED = re.compile(r"の?")  # 昨夜10時, 今朝の7時: no space, no word between
# A clock's own text that says which half of the day it is in.
MERIDIEM_TOLD = re.compile(rf"(?i:{MERIDIEM})|午前|午後")


def _with_clock_parts(text: str, when: When) -> When:
    """A clock time says the part of the day told beside it: "a quarter to eight in the
    evening" is 19:45, as "7:45 pm" and 夜7時 are; that part is folded into the time and
    dropped. A part told elsewhere (at noon, then a walk in the evening) stays. A part
    told with its day (last night, this evening, 昨夜) is folded only where it stands
    with the clock (at 10 pm last night, 昨夜10時; not last night I booked a 7 am taxi),
    and keeps its day. A clock written with am or pm (午前, 午後) keeps its hour; 12 at
    night is midnight."""
    # Each span's end, without the space a clock's pattern may take after it (6:30 last).
    ends = {start: start + len(text[start:end].rstrip()) for start, end in when.spans}
    clocks = [start for start, units in when.pieces if any(u.startswith("time:") for u in units)]
    folded: dict[int, int] = {}  # a part's start: the start of the clock it is told with
    for start, units in when.pieces:
        if not units & PARTS_TOLD:
            continue
        part = (start, ends[start])
        beside = [c for c in clocks if _told_with(text, (c, ends[c]), part, units)]
        if beside:
            folded[start] = beside[0]
    late: dict[int, bool] = {}  # a clock moved by a late part: whether it is the night's
    for start, units in when.pieces:
        clock = folded.get(start)
        if (
            clock is not None
            and units & LATE_PARTS
            and not MERIDIEM_TOLD.search(text[clock : ends[clock]])
        ):
            late[clock] = late.get(clock, False) or "part:night" in units
    pieces: list[tuple[int, frozenset[str]]] = []
    for start, told in when.pieces:
        kept = told - PARTS_TOLD if start in folded else told
        if start in late:
            kept = frozenset(_later(u, late[start]) for u in kept)
        if kept:
            pieces.append((start, kept))
    return When(frozenset(u for _, units in pieces for u in units), when.spans, tuple(pieces))


def _told_with(
    text: str, clock: tuple[int, int], part: tuple[int, int], units: frozenset[str]
) -> bool:
    """Whether the part of the day ``units`` tells (at ``part``) is the clock's: a part
    alone, beside it; a part with its day, joined to it or beside it in its half."""
    if not units - PARTS_TOLD:
        return _beside(text, clock, part)
    if _beside(text, clock, part, JOINED):
        return True
    return _beside(text, clock, part, ADJACENT) and _half_agrees(text[clock[0] : clock[1]], units)


def _beside(
    text: str, first: tuple[int, int], second: tuple[int, int], near: re.Pattern[str] = NEAR
) -> bool:
    """Two spans of ``text`` told together: what stands between them is ``near``."""
    (_, left_end), (right_start, _) = sorted((first, second))
    return left_end <= right_start and near.fullmatch(text[left_end:right_start]) is not None


def _half_agrees(clock: str, units: frozenset[str]) -> bool:
    """A clock written with am or pm (午前, 午後) in the half of the day of the part told
    with it: 10 pm last night; not 5 am last night, which is the night's end or the
    morning's (set the alarm for 6:30 last night: no half, so no telling)."""
    told = MERIDIEM_TOLD.search(clock)
    if told is None:
        return False
    afternoon = told.group(0).lower().startswith("p") or told.group(0) == "午後"
    return bool(units & LATE_PARTS) if afternoon else "part:morning" in units


def _later(unit: str, night: bool) -> str:
    """A clock time before noon told with a late part of the day: twelve hours on; 12
    told with the night is midnight."""
    if not unit.startswith("time:"):
        return unit
    hour = int(unit[5:7])
    if hour == 12 and night:
        return f"time:00{unit[7:]}"
    return f"time:{hour + 12:02d}{unit[7:]}" if 0 < hour < 12 else unit


def _start(piece: tuple[int, frozenset[str]]) -> int:
    return piece[0]


WEEKDAY_NAMES = ("", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTH_NAMES = ("", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
               "Dec")  # fmt: skip
DAY_OFFSETS = {"0": "today", "-1": "yesterday", "+1": "tomorrow"}  # others: 2 days ago


def shown(unit: str) -> str:
    """A temporal unit as a person writes it (weekday:7 is Sunday, md:12-24 is Dec 24)."""
    kind, _, value = unit.partition(":")
    if not value:
        return unit
    if kind == "weekday" and value.isdigit() and 0 < int(value) < len(WEEKDAY_NAMES):
        return WEEKDAY_NAMES[int(value)]
    if kind == "md":
        month, _, day = value.partition("-")
        return f"{MONTH_NAMES[int(month)]} {int(day)}" if month.isdigit() else value
    if kind == "month" and value.isdigit():
        return MONTH_NAMES[int(value)]
    if kind == "rel" and value.startswith("day"):
        offset = value[3:]
        if offset in DAY_OFFSETS or not offset.lstrip("+-").isdigit():
            return DAY_OFFSETS.get(offset, value)
        return f"{-int(offset)} days ago" if int(offset) < 0 else f"in {int(offset)} days"
    if kind == "rel":
        return value.replace("-", " ")
    if kind == "duration":
        return durations.shown(value)
    if kind == "measure":
        return measures.shown(value)
    return value

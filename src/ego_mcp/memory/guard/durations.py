"""Lengths of time, read as one unit whatever unit they are written in: 1.5 hours, 90
minutes and 1時間半 are one length (``duration:90min``), two weeks and 14 days another
(``duration:14day``), a year and 12 months a third (``duration:12month``). Three bases,
each exact: a day is not 24 hours of the clock in a diary (a day off, two days in Kyoto),
nor a month 30 days. Pure.

A length is told by a number (digits, as ``analysis.digitised`` writes number words) or
by "a", "an", "half an", "a half", with "and a half" (a quarter, three quarters) after
the unit; "a" and "an" only before hours, minutes, a fortnight, a decade or "and a
half", since "a day", "a week" and "a year" mostly tell a rate (three times a week). An
age (5 years old) is no length.
"""

from __future__ import annotations

import re
from fractions import Fraction

DURATION = "duration:"
EN_UNITS = {
    "minute": ("min", 1), "min": ("min", 1), "hour": ("min", 60), "hr": ("min", 60),
    "day": ("day", 1), "week": ("day", 7), "fortnight": ("day", 14),
    "month": ("month", 1), "year": ("month", 12), "decade": ("month", 120),
}  # fmt: skip
JA_UNITS = {
    "分": ("min", 1), "分間": ("min", 1), "時間": ("min", 60), "日間": ("day", 1),
    "週間": ("day", 7), "か月": ("month", 1), "ヶ月": ("month", 1), "カ月": ("month", 1),
    "ヵ月": ("month", 1), "ケ月": ("month", 1), "年間": ("month", 12), "年": ("month", 12),
}  # fmt: skip
_EN_UNIT = "|".join(sorted(EN_UNITS, key=len, reverse=True))
_JA_UNIT = "|".join(sorted((re.escape(u) for u in JA_UNITS), key=len, reverse=True))
WORD_AMOUNTS = {"a": "1", "an": "1", "half an": "1/2", "half a": "1/2", "a half": "1/2"}
# What "and a half" and the like add to the unit before them (an hour and a quarter).
PARTS_AFTER = {
    "a half": Fraction(1, 2),
    "a quarter": Fraction(1, 4),
    "three quarters": Fraction(3, 4),
    "3 quarters": Fraction(3, 4),
}
ALWAYS_LENGTHS = frozenset({"fortnight", "decade"})  # never a rate after "a"
LONGEST_AMOUNT = 12  # digits and a point
PATTERNS = [
    # Hours and minutes told together: 2 hours 30 minutes, 1 hour and 15 minutes, 2時間30分.
    re.compile(
        r"(?<![\w.])(?P<h>\d+)\s*(?:hours?|hrs?)\s*(?:and\s+)?(?P<m>\d+)\s*(?:minutes?|mins?)\b",
        re.IGNORECASE,
    ),
    re.compile(r"(?<![時\d.])(?P<h>\d+)時間(?P<m>\d+)分(?:間)?"),
    re.compile(
        rf"(?<![\w.])(?P<n>\d+(?:\.\d+)?|half an?|a half|an?)\s*(?P<unit>{_EN_UNIT})s?\b"
        r"(?P<half>\s+and\s+(?:a\s+half|a\s+quarter|(?:three|3)\s+quarters)(?!\s+of\b))?(?!\s+old\b)",
        re.IGNORECASE,
    ),
    # Not the minutes of a clock (3時10分, read first), nor a fraction (10分の1).
    re.compile(rf"(?<![時\d.])(?P<n>\d+(?:\.\d+)?)(?P<unit>{_JA_UNIT})(?!の\d)"),
    re.compile(r"(?P<n>半)(?P<unit>年)"),  # 半年: half a year
    re.compile(r"(?<![\d.])(?P<n>\d+\.\d+)(?P<unit>年)"),  # 1年半, read as 1.5年: no year
]


def duration_units(group: dict[str, str | None]) -> set[str]:
    """The length a match of ``PATTERNS`` tells, as one unit of its base; none for "a
    day", "a week", "a year" (a rate as often as a length)."""
    if group.get("h") is not None:
        return {f"{DURATION}{int(group['h'] or 0) * 60 + int(group['m'] or 0)}min"}
    raw, unit = (group.get("n") or "").lower(), (group.get("unit") or "").lower()
    if len(raw) > LONGEST_AMOUNT:
        return set()  # no length of time is written in so many digits
    if raw == "半":
        base, size, amount = "month", 12, Fraction(1, 2)
    else:
        name = unit.rstrip("s")
        base, size = EN_UNITS.get(name, JA_UNITS.get(unit, ("", 0)))
        if not base:
            return set()
        if raw in WORD_AMOUNTS:
            rate = not group.get("half")  # a year and a half is a length; a year, a rate
            if raw in ("a", "an") and base != "min" and name not in ALWAYS_LENGTHS and rate:
                return set()
            amount = Fraction(WORD_AMOUNTS[raw])
        else:
            amount = Fraction(raw)
        amount += PARTS_AFTER.get(" ".join((group.get("half") or "").lower().split()[1:]), 0)
    total = amount * size
    if total.denominator != 1 or total <= 0:
        return set()
    return {f"{DURATION}{total.numerator}{base}"}


def shown(value: str) -> str:
    """A length as a person writes it: in hours, weeks or years where it is whole ones
    (duration:120min is 2 hours), else in the base (90 minutes, 10 days, 18 months)."""
    digits = "".join(c for c in value if c.isdigit())
    base = value[len(digits) :]
    amount = int(digits or 0)
    larger = {
        "min": (60, "hour", "minute"),
        "day": (7, "week", "day"),
        "month": (12, "year", "month"),
    }
    size, big, small = larger.get(base, (1, base, base))
    if amount % size == 0:
        amount, name = amount // size, big
    else:
        name = small
    return f"{amount} {name}{'' if amount == 1 else 's'}"

"""Metric measures, read as one value whatever prefix they are written with: 1.5 km and
1500 m are one distance (``measure:1500m``), 4 kg and 4,000 grams one weight
(``measure:4000g``), 2 liters and 2000 ml one volume (``measure:2000ml``). Pure.

The Japanese キロ alone is a kilometre or a kilogram by what it measures (5キロ走った,
2キロ痩せた): it is read as whichever of the two the other text names (``kilos``). A
single-letter unit is read only where
it cannot be a word (5m, 200 g, 2L; not "I"), and the litre only glued to its number.
"""

from __future__ import annotations

import re
from decimal import Decimal

MEASURE = "measure:"
UNITS = {
    "km": ("m", "1000"), "kilometer": ("m", "1000"), "kilometre": ("m", "1000"),
    "m": ("m", "1"), "meter": ("m", "1"), "metre": ("m", "1"),
    "cm": ("m", "0.01"), "centimeter": ("m", "0.01"), "centimetre": ("m", "0.01"),
    "mm": ("m", "0.001"), "millimeter": ("m", "0.001"), "millimetre": ("m", "0.001"),
    "kg": ("g", "1000"), "kilogram": ("g", "1000"), "g": ("g", "1"), "gram": ("g", "1"),
    "mg": ("g", "0.001"), "milligram": ("g", "0.001"),
    "l": ("ml", "1000"), "liter": ("ml", "1000"), "litre": ("ml", "1000"),
    "ml": ("ml", "1"), "milliliter": ("ml", "1"), "millilitre": ("ml", "1"),
    "キロメートル": ("m", "1000"), "メートル": ("m", "1"), "センチメートル": ("m", "0.01"),
    "センチ": ("m", "0.01"), "ミリメートル": ("m", "0.001"), "キログラム": ("g", "1000"),
    "グラム": ("g", "1"), "ミリグラム": ("g", "0.001"), "リットル": ("ml", "1000"),
    "ミリリットル": ("ml", "1"),
}  # fmt: skip
_WORDS = "|".join(sorted((u for u in UNITS if len(u) > 2 and u.isascii()), key=len, reverse=True))
_JA = "|".join(sorted((u for u in UNITS if not u.isascii()), key=len, reverse=True))
PATTERNS = [
    re.compile(rf"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>{_WORDS})s?\b", re.IGNORECASE),
    re.compile(r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>km|cm|mm|kg|mg|ml|mL|m|g)\b"),
    re.compile(r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)(?:(?P<unit>l)|\s?(?P<upper>L))\b"),
    re.compile(rf"(?P<n>\d+(?:\.\d+)?)(?P<unit>{_JA}|km|cm|mm|kg|mg|ml|mL|m|g|L)(?![a-zA-Z])"),
    # キロ alone: a kilometre or a kilogram, whichever the other text names (``kilos``).
    re.compile(r"(?P<n>\d+(?:\.\d+)?)(?P<kilo>キロ)(?!メートル|グラム)"),
]
LONGEST_AMOUNT = 12  # digits and a point
SHOWN = {"m": ("km", "m"), "g": ("kg", "g"), "ml": ("L", "ml"), "k": ("キロ", "")}
KILO = "k"  # the base of キロ alone: metres or grams


def kilos(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The values of two texts with each キロ alone read as the metres or grams of the same
    amount the other text names (5キロ走った / 5 km: one distance), else left as it is."""

    def read(mine: tuple[str, ...], theirs: tuple[str, ...]) -> tuple[str, ...]:
        named = {
            v[: -len(b)]: v
            for v in theirs
            if v.startswith(MEASURE)
            for b in ("m", "g")
            if v.endswith(b)
        }
        return tuple(
            named.get(v[: -len(KILO)], v) if v.startswith(MEASURE) and v.endswith(KILO) else v
            for v in mine
        )

    return read(old, new), read(new, old)


def measure_units(group: dict[str, str | None]) -> set[str]:
    """The measure a match of ``PATTERNS`` tells, in its base unit."""
    raw = group["n"] or "0"
    if len(raw) > LONGEST_AMOUNT:
        return set()  # no measure is written in so many digits
    if group.get("kilo"):
        return {f"{MEASURE}{_written(Decimal(raw) * 1000)}{KILO}"}
    unit = (group.get("unit") or group.get("upper") or "").lower()
    base, size = UNITS.get(unit, UNITS.get(unit.rstrip("s"), ("", "0")))
    if not base:
        return set()
    return {f"{MEASURE}{_written(Decimal(raw) * Decimal(size))}{base}"}


def _written(amount: Decimal) -> str:
    """An amount in plain digits, exact (1500, 1.8, 0.00001), no exponent."""
    text = format(amount, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def shown(value: str) -> str:
    """A measure as a person writes it: in the unit a thousand times the base from a
    thousand up (measure:1500m is 1.5 km), else in the base (500 m)."""
    digits = value[: len(value) - len(value.lstrip("0123456789."))]
    base = value[len(digits) :]
    amount = Decimal(digits or "0")
    large, small = SHOWN.get(base, (base, base))
    if base == KILO:
        return f"{_written(amount / 1000)}キロ"
    if amount >= 1000:
        return f"{_written(amount / 1000)} {large}"
    return f"{_written(amount)} {small}"

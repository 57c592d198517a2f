import pytest

from ego_mcp.memory.guard.analysis import read
from ego_mcp.memory.guard.durations import shown


def lengths(text: str) -> list[str]:
    return sorted(s.value for s in read(text).numbers if s.value.startswith("duration:"))


@pytest.mark.parametrize(
    ("text", "length"),
    [
        ("Master drove 1.5 hours.", "duration:90min"),
        ("Master drove 90 minutes.", "duration:90min"),
        ("Master drove an hour and a half.", "duration:90min"),
        ("Master napped for half an hour.", "duration:30min"),
        ("Master napped for a half hour.", "duration:30min"),
        ("Master cleaned for 2 hours and 30 minutes.", "duration:150min"),
        ("Master stayed two weeks.", "duration:14day"),
        ("Master stayed a fortnight.", "duration:14day"),
        ("Master worked there for a decade.", "duration:120month"),
        ("1時間半ほど昼寝をした。", "duration:90min"),
        ("2時間30分かけた。", "duration:150min"),
        ("3年間住んでいた。", "duration:36month"),
        ("半年前に引っ越した。", "duration:6month"),
        ("6ヶ月前に引っ越した。", "duration:6month"),
    ],
)
def test_a_length_of_time_is_one_unit_however_written(text: str, length: str) -> None:
    assert lengths(text) == [length]


@pytest.mark.parametrize(
    "text",
    [
        "Master goes to the gym three times a week.",  # a rate
        "Master walks 10000 steps a day.",
        "Ken is 5 years old.",  # an age
        "3時10分に出た。",  # a clock
        "ケーキの10分の1を食べた。",  # a fraction
    ],
)
def test_a_rate_an_age_a_clock_or_a_fraction_is_no_length(text: str) -> None:
    assert lengths(text) == []


def test_a_length_is_shown_in_the_largest_whole_unit() -> None:
    assert [shown(v) for v in ("120min", "90min", "1min", "14day", "10day", "24month")] == [
        "2 hours",
        "90 minutes",
        "1 minute",
        "2 weeks",
        "10 days",
        "2 years",
    ]


def test_a_length_of_too_many_digits_is_no_length_and_no_crash() -> None:
    assert lengths("9" * 400 + "時間寝た。") == []
    assert lengths("1" + "0" * 310 + " minutes") == []


def test_a_length_is_exact_in_its_base() -> None:
    assert lengths("The flight took 4.1 hours.") == ["duration:246min"]
    assert lengths("1年半アメリカにいた。") == ["duration:18month"]

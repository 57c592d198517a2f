"""Dates and times read as values, in every common format (English and Japanese)."""

from __future__ import annotations

import pytest

from ego_mcp.memory.guard.analysis import read


def when(text: str) -> set[str]:
    return {slot.value for slot in read(text).when}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("on 2025-06-30", "on June 30, 2025"),
        ("on 2025-06-30", "on 30 June 2025"),
        ("2025/6/5", "2025年6月5日"),
        ("on the first of August", "on August 1"),
        ("due on the 28th of November", "due on Nov. 28"),
        ("at 7 p.m.", "at 19:00"),
        ("at 11:45 p.m.", "at 23:45"),
        ("at half past ten on March 4th", "at 10:30 on 3/4"),
        ("十二月二十四日", "12月24日"),
        ("令和7年", "2025年"),
        ("十二月三日の午後三時半", "12/3の15時30分"),
        ("last winter", "last winter"),
        ("去年", "昨年"),
        # A part of the day told from today, in English as in Japanese (今朝, 昨夜).
        ("this morning", "今朝"),
        ("this morning", "today in the morning"),
        ("last night", "昨夜"),
        ("last night", "yesterday night"),
        ("at 10 pm last night", "yesterday at 22:00"),
        ("this evening at 7", "today at 7 in the evening"),
        ("昨夜10時", "昨日22時"),
        ("at 12:30 at night", "at 00:30"),
        ("that's last night's pizza", "yesterday night's pizza"),  # "that's": no determiner
        # Days counted back from today, by name or by count.
        ("the day before yesterday", "two days ago"),
        ("2日前", "一昨日"),
        ("the day before yesterday", "一昨日"),
        ("the day after tomorrow", "明後日"),
        ("the night before last", "一昨日の夜"),
    ],
)
def test_one_moment_written_two_ways_is_one(first: str, second: str) -> None:
    assert when(first) == when(second) != set()


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("last winter", "this winter"),
        ("去年の冬", "今年の冬"),
        ("next week", "last week"),
        ("on Monday", "on Tuesday"),
        ("月曜日に", "火曜日に"),
        ("at 7 a.m.", "at 19:00"),
        ("on 2025-06-30", "on 2024-06-30"),
        ("before lunch yesterday", "before lunch today"),
        ("yesterday morning", "this morning"),
        ("last night", "tonight"),
        ("last evening", "this evening"),
        ("the last night of the trip", "last night"),  # one night of several
        ("2 days ago", "3 days ago"),
        ("出発の3日前", "3日前"),  # counted from the departure
        ("10日前後かかる", "10日前にかかった"),  # about ten days
        ("3日前までに予約する", "3日前に予約した"),  # by three days before the day
        ("the night before last", "last night"),
        # A clock keeps the half of the day it is written with (not moved by the night's
        # part); 12 at night is midnight; a part with its day is folded only into the
        # clock it stands with, and a night's am is no evening.
        ("at 5 am last night", "at 5 pm yesterday"),
        ("昨夜午前2時", "昨日午後2時"),
        ("at 12:30 last night", "at 12:30 yesterday"),
        ("last night I booked a 7 am taxi", "yesterday I booked a 7 pm taxi"),
        ("set my alarm for 6:30 last night", "set my alarm for 6:30 pm yesterday"),
        ("at 2 am last night", "at 2 am yesterday"),
        ("our last night in Kyoto", "yesterday night"),
    ],
)
def test_two_moments_differ(first: str, second: str) -> None:
    assert when(first) != when(second)


def test_words_that_only_look_like_dates_are_not_read_as_dates() -> None:
    assert when("I may go if it suits you.") == set()
    assert when("I fell and sat down.") == set()

"""Numbers read as values, however a memory writes them (English and Japanese)."""

from __future__ import annotations

import pytest

from ego_mcp.memory.guard.numbers import english_value, find_numbers, kanji_value


def values(text: str) -> list[str]:
    return [found.value for found in find_numbers(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ninety-one people came", ["91"]),
        ("a dozen roses", ["12"]),
        ("half a dozen eggs", ["6"]),
        ("two and a half hours", ["2.5"]),
        ("six and  a half hours", ["6.5"]),
        ("two thousand and twenty-five", ["2025"]),
        ("two hundred and Aya's fifty", ["200", "50"]),
        ("between one thousand and two thousand", ["1000", "2000"]),
        ("one hundred and five pages", ["105"]),
        ("the twenty-first floor", ["21"]),
        ("the 21st floor", ["21"]),
        ("1,200 yen", ["1200"]),
        ("thirty-five candles", ["35"]),
        ("Ｂｌｕｅ Envelope #１４", ["14"]),  # full-width digits
        # "and" joins the parts of one number only after a scale word or before "a half".
        ("at nine and Ken's at eleven", ["9", "11"]),
        ("eight and five", ["8", "5"]),
        ("one hundred and five people", ["105"]),
        ("two and a half hours", ["2.5"]),
        ("six and  a half hours", ["6.5"]),
        ("two thousand and twenty-five", ["2025"]),
        ("two hundred and Aya's fifty", ["200", "50"]),
        ("between one thousand and two thousand", ["1000", "2000"]),
    ],
)
def test_english_numbers(text: str, expected: list[str]) -> None:
    assert values(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("三十人が来た", ["30"]),
        ("二十四日", ["24"]),
        ("二千二十五年", ["2025"]),
        ("二〇二五年", ["2025"]),
        ("一点決めた", ["1"]),
        ("一緒に行った", []),  # 一 inside a word is no count: the dictionary says so
        ("二十歳になった", ["20"]),  # listed whole: a numeral and a counter (歳)
        ("一回だけ", ["1"]),
        ("説明は十分だった", []),  # 十分 "enough": the dictionary's adjectival noun
        ("説明は不十分だった", []),
        ("駅まで歩いて十分かかった", ["10"]),  # ten minutes, told before a verb
        ("3時十分に着いた", ["3", "10"]),
        ("三杯飲んだ", ["3"]),  # any counter
        ("五階に住む", ["5"]),
        # Digits with kanji units are one number (found blind: 1万2千円 / 12,000円).
        ("電気代を1万2千円払った", ["12000"]),
        ("3万8千円で買った", ["38000"]),
        ("1.5万人が来た", ["15000"]),
        ("5千円札", ["5000"]),
        # Units in a row, commas and kanji digits after a unit (found in review).
        ("車は2千万円だった", ["20000000"]),
        ("1億2千万円で売れた", ["120000000"]),
        ("貯金は1,200万円になった", ["12000000"]),
        ("コートは3万五千円だった", ["35000"]),
        ("2万5,000円", ["25000"]),
    ],
)
def test_japanese_numbers(text: str, expected: list[str]) -> None:
    assert values(text) == expected


def test_words_and_kanji_give_the_same_value_as_digits() -> None:
    assert english_value("ninety-one") == 91
    assert english_value("a dozen") == 12
    assert kanji_value("三十") == 30
    assert kanji_value("千九百") == 1900
    assert english_value("tomato") is None

import pytest

from ego_mcp.memory.guard.analysis import read
from ego_mcp.memory.guard.judgement import Verdict, differences
from ego_mcp.memory.guard.measures import shown


def amounts(text: str) -> list[str]:
    return sorted(s.value for s in read(text).numbers)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Master ran 1.5 km.", "measure:1500m"),
        ("Master ran 1500 m.", "measure:1500m"),
        ("Master ran 1,500 meters.", "measure:1500m"),
        ("The baby weighs 4 kg.", "measure:4000g"),
        ("The baby weighs 4,000 grams.", "measure:4000g"),
        ("Master drinks two liters of water.", "measure:2000ml"),
        ("Master drinks 2 L of water.", "measure:2000ml"),
        ("Master drinks 2000 ml of water.", "measure:2000ml"),
        ("毎朝5000メートル走る。", "measure:5000m"),
        ("体重が二キログラム減った。", "measure:2000g"),
        ("Master's car has 85k miles on it.", "85000"),
    ],
)
def test_a_metric_measure_is_one_value_whatever_its_prefix(text: str, value: str) -> None:
    assert amounts(text) == [value]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ご主人様は毎朝5キロ走る。", "ご主人様は毎朝5000メートル走る。"),
        ("ご主人様は正月から三キロ痩せた。", "ご主人様は正月から3kg痩せた。"),
    ],
)
def test_kilo_alone_is_whichever_the_other_text_names(first: str, second: str) -> None:
    assert differences(first, second)[0] is Verdict.DUPLICATE
    assert differences(second, first)[0] is Verdict.DUPLICATE


def test_another_measure_or_another_quantity_is_another_fact() -> None:
    assert differences("Master ran 1.5 km.", "Master ran 1.6 km.")[0] is Verdict.DISTINCT
    assert (
        differences("Master bought 2 L of milk.", "Master bought 2 kg of milk.")[0]
        is Verdict.DISTINCT
    )
    assert differences("毎朝5キロ走る。", "毎朝6キロ走る。")[0] is Verdict.DISTINCT


def test_a_measure_is_shown_in_the_unit_it_is_read_in_best() -> None:
    assert [shown(v) for v in ("1500m", "500m", "4000g", "2000ml", "1.8m", "5000k")] == [
        "1.5 km",
        "500 m",
        "4 kg",
        "2 L",
        "1.8 m",
        "5キロ",
    ]


def test_a_measure_keeps_every_digit_it_is_written_with() -> None:
    assert amounts("Master drove 123.4567 km.") == ["measure:123456.7m"]
    assert amounts("Master drove 123.4571 km.") == ["measure:123457.1m"]
    assert shown("0.00001m") == "0.00001 m"

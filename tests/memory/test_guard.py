"""The guard's evidence rules: what differs between two texts that embed alike."""

from __future__ import annotations

import pytest

from ego_mcp.memory.guard import compare, differences


@pytest.mark.parametrize(
    ("existing", "new", "what"),
    [
        ("Blue Envelope #14 arrived.", "Blue Envelope #15 arrived.", "numbers: 14 → 15"),
        (
            "ビスケットのおやつは一日三個まで。",
            "ビスケットのおやつは一日五個まで。",
            "numbers: 3 → 5",
        ),
        (
            "We met on Monday at the cafe.",
            "We met on Tuesday at the cafe.",
            "time: monday → tuesday",
        ),
        ("昨日、公園を散歩した。", "今日、公園を散歩した。", "time: 昨日 → 今日"),
        ("I liked the new album.", "I didn't like the new album.", "negation"),
        ("マスターはその映画が好きだった。", "マスターはその映画が好きではなかった。", "negation"),
        ("Lunch with Aoi at noon.", "Lunch with Ren at noon.", "names: Ren"),
        ("田中さんと会った。", "佐藤さんと会った。", "names: 佐藤"),
        ("夏に北海道でキャンプをする。", "夏に長野でキャンプをする。", "things"),
        ("リードを玄関に置き忘れた。", "リードを車の中に置き忘れた。", "things: 玄関 → 車"),
        ("His grandmother taught him to knit.", "His grandfather taught him to knit.", "people"),
        ("I emailed his teacher.", "I emailed his manager.", "people: teacher → manager"),
        ("I remembered to send the form.", "I forgot to send the form.", "opposite"),
        ("マスターは試合に勝った。", "マスターは試合に負けた。", "opposite: 勝つ → 負ける"),
        (
            "Fixed the flat tyre.",
            "Fixed the flat tyre and bought a new helmet and gloves.",
            "added",
        ),
    ],
)
def test_a_changed_fact_is_named(existing: str, new: str, what: str) -> None:
    found = differences(existing, new)
    assert any(what in item for item in found), found
    assert not compare(existing, new, similarity=0.99, threshold=0.78).duplicate


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master sneezed all morning.", "All morning, Master sneezed."),  # reorder
        ("Master's cousin Mei visits in spring.", "Masters cousin Mei visits in the Spring."),
        ("Ｂｌｕｅ Envelope #１４ arrived.", "Blue Envelope #14 arrived."),  # full-width
        ("I met Aoi and Ren at noon, then we ate ramen.", "I met Aoi at noon."),  # shorter
        ("今日の会話は楽しかった。", "今日の会話は、楽しかった。"),
        ("His mom called him twice.", "His mother called him twice."),  # one kind of person
        ("The clerk was rude about the refund.", "The cashier was rude about the refund."),
        ("雪で電車が止まった。", "降雪で電車が止まった。"),  # a compound sharing a kanji
        ("マスターが古いギターを修理に出した。", "マスターが古いギターを直しに出した。"),
    ],
)
def test_the_same_facts_in_other_words_are_a_duplicate(existing: str, new: str) -> None:
    assert differences(existing, new) == ()
    assert compare(existing, new, similarity=0.9, threshold=0.78).duplicate


def test_below_the_threshold_nothing_is_a_duplicate() -> None:
    assert not compare("same text", "same text", similarity=0.5, threshold=0.78).duplicate

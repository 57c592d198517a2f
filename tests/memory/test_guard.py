"""The guard's judgement: refused only when the new text is shown to add nothing."""

from __future__ import annotations

import pytest

from ego_mcp.memory.guard import Verdict, compare, differences, mergeable


def verdict(existing: str, new: str) -> Verdict:
    return differences(existing, new)[0]


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("Master sneezed all morning.", "All morning, Master sneezed."),  # reorder
        ("I met Aoi and Ren at noon, then we ate ramen.", "I met Aoi at noon."),  # shorter
        ("Ｂｌｕｅ Envelope #１４ arrived.", "Blue Envelope #14 arrived."),  # full width
        ("Master recommended a podcast.", "Master reccomended a podcast."),  # misspelt
        ("Master has hay fever again.", "Master has hayfever again."),  # one word or two
        ("Master ordered a dozen roses.", "Master ordered 12 roses."),
        ("The party starts at 7 p.m. on Saturday.", "The party starts at 19:00 on Saturday."),
        ("The bill is due on the 28th of November.", "The bill is due on Nov. 28."),
        ("今日の会話は楽しかった。", "今日の会話は、楽しかった。"),
        ("マスターは林檎を五個買った。", "マスターはりんごを5個買った。"),  # kana / kanji
        ("近所のネコが昼寝していた。", "近所の猫が昼寝していた。"),
        ("新しいコンピューターを買った。", "新しいコンピュータを買った。"),  # long vowel
        ("発表会は十二月三日の午後三時半から。", "発表会は12/3の15時30分から。"),
        ("マスターは友達と会った。", "マスターは友だちと会った。"),  # okurigana
    ],
)
def test_the_same_facts_however_written_are_a_duplicate(existing: str, new: str) -> None:
    assert differences(existing, new) == (Verdict.DUPLICATE, ())
    assert compare(existing, new, similarity=0.9, threshold=0.78).duplicate


@pytest.mark.parametrize(
    ("existing", "new", "what"),
    [
        ("Blue Envelope #14 arrived.", "Blue Envelope #15 arrived.", "numbers: 14 → 15"),
        ("ビスケットは一日三個まで。", "ビスケットは一日五個まで。", "numbers: 3 → 5"),
        ("Master moved to the third floor.", "Master moved to the fifth floor.", "numbers"),
        ("マスターは三階に住んでいる。", "マスターは五階に住んでいる。", "numbers: 3 → 5"),
        ("We met on Monday at the cafe.", "We met on Tuesday at the cafe.", "time"),
        ("Last winter we went skiing.", "This winter we went skiing.", "time"),
        ("去年、北海道に行った。", "今年、北海道に行った。", "time"),
        ("I liked the new album.", "I didn't like the new album.", "negation"),
        ("マスターはその映画が好きだった。", "マスターはその映画が好きではなかった。", "negation"),
        ("Lunch with Aoi at noon.", "Lunch with Ren at noon.", "names: ren"),
        ("Meeting Émile at noon.", "Meeting Élodie at noon.", "names: élodie"),
    ],
)
def test_a_fact_that_differs_is_distinct(existing: str, new: str, what: str) -> None:
    found_verdict, found = differences(existing, new)
    assert found_verdict is Verdict.DISTINCT
    assert any(what in item for item in found), found


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("The ramen was cheap.", "The ramen was expensive."),  # no antonym list needed
        ("The meeting was at the office.", "The meeting was at the train station."),
        ("マスターの部屋は広い。", "マスターの部屋は狭い。"),
        ("マスターは試験に合格した。", "マスターは試験に不合格だった。"),
        ("Alice beat Bob at chess.", "Bob beat Alice at chess."),  # roles swapped
        ("Master flew from Tokyo to Paris.", "Master flew from Paris to Tokyo."),
        ("東京から大阪へ行った。", "大阪から東京へ行った。"),
        ("My teacher praised the essay.", "My coach praised the essay."),
        ("His grandmother taught him to knit.", "His grandfather taught him to knit."),
        ("I remembered to send the form.", "I forgot to send the form."),
        ("マスターは試合に勝った。", "マスターは試合に負けた。"),
    ],
)
def test_what_it_cannot_show_is_the_same_is_saved(existing: str, new: str) -> None:
    assert verdict(existing, new) is not Verdict.DUPLICATE
    assert not compare(existing, new, similarity=0.99, threshold=0.78).duplicate


def test_words_alone_differing_is_a_possible_duplicate_with_the_words_named() -> None:
    found_verdict, found = differences("Master bought a new sofa.", "Master bought a new couch.")
    assert found_verdict is Verdict.POSSIBLE
    assert found == ("words: couch",)


def test_below_the_threshold_nothing_is_a_duplicate() -> None:
    assert not compare("same text", "same text", similarity=0.5, threshold=0.78).duplicate


def test_consolidation_never_proposes_a_pair_the_guard_calls_distinct() -> None:
    assert mergeable(
        "夏に北海道でキャンプをする。", "夏に北海道でキャンプをする予定。"
    ).verdict in (
        Verdict.DUPLICATE,
        Verdict.POSSIBLE,
    )
    for first, second in [
        ("Blue Envelope #14 arrived.", "Blue Envelope #15 arrived."),
        ("I bought apples.", "I bought 3 apples."),  # distinct one way is enough
        ("I liked the album.", "I didn't like the album."),
    ]:
        assert mergeable(first, second).verdict is Verdict.DISTINCT
        assert mergeable(second, first).verdict is Verdict.DISTINCT

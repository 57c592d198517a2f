"""Translations from the real JMdict and JMnedict that jamdict-data installs."""

import pytest

from ego_mcp.store.jmdict import JMdict, _translation, open_jmdict


@pytest.fixture(scope="module")
def dictionary() -> JMdict:
    found = open_jmdict()
    assert found is not None, "jamdict-data is a dependency: reinstall ego-mcp"
    return found


@pytest.mark.parametrize(
    ("japanese", "english"),
    [("ビスケット", "biscuit"), ("結婚式", "wedding"), ("血圧", "pressure"), ("鶴", "crane")],
)
def test_a_japanese_word_translates_to_its_glosses(
    dictionary: JMdict, japanese: str, english: str
) -> None:
    assert english in dictionary.translations(japanese)


@pytest.mark.parametrize(
    ("english", "japanese"),
    [("wedding", "結婚式"), ("flu", "インフルエンザ"), ("ring", "鳴らす"), ("umbrella", "傘")],
)
def test_an_english_word_translates_to_headwords_that_gloss_it(
    dictionary: JMdict, english: str, japanese: str
) -> None:
    assert japanese in dictionary.translations(english)


def test_names_translate_both_ways(dictionary: JMdict) -> None:
    assert "aya" in dictionary.translations("アヤ")  # found by its hiragana reading あや
    assert "アヤ" in dictionary.translations("aya")
    assert "佐藤" in dictionary.translations("sato")


def test_the_long_vowel_our_terms_drop_is_restored_for_the_lookup(dictionary: JMdict) -> None:
    assert "master" in dictionary.translations("マスタ")  # the term of マスター


def test_translations_are_terms_of_the_other_script_only(dictionary: JMdict) -> None:
    english = dictionary.translations("なくす")
    assert "lose" in english and "to" not in english  # "to lose": the verb's "to" is grammar
    assert all(term.isascii() for term in english)
    # A headword of several words is a phrase, not a translation of one term.
    assert all(" " not in term for term in dictionary.translations("wedding"))


def test_an_unknown_word_has_no_translation(dictionary: JMdict) -> None:
    assert dictionary.translations("log131") == frozenset()
    assert dictionary.translations("ぬぬぬぬ") == frozenset()


@pytest.mark.parametrize(
    ("gloss", "kept"),
    [
        ("to lose", "lose"),
        ("a wedding (ceremony)", "wedding"),
        ("blood pressure", "blood pressure"),
        ("(something) shaped like an umbrella", None),
        ("to get rid of", None),
    ],
)
def test_a_gloss_counts_when_it_translates_and_not_when_it_explains(
    gloss: str, kept: str | None
) -> None:
    assert _translation(gloss) == kept

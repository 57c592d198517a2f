"""Lemmas by WordNet's morphology, made after a parse without spaCy's lemmatizer."""

from __future__ import annotations

import pytest

from ego_mcp.memory.guard.english import parse
from ego_mcp.memory.guard.english.pipeline import _pipeline


def lemmas(text: str) -> list[str]:
    return [token.lemma_ for token in parse(text)]


def test_the_pipeline_runs_without_its_lemmatizer_or_string_table() -> None:
    pipeline = _pipeline()
    assert "lemmatizer" not in pipeline.pipe_names
    assert "ner" not in pipeline.pipe_names
    # The model's 84,780 strings are not loaded: none of these is, until a text has it.
    assert not {"Wachovia", "ulmanis", "gastroenterologist"} & set(pipeline.vocab.strings)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Endings dropped to a form WordNet lists; the last such rule first.
        ("The dogs chased two foxes.", ["the", "dog", "chase", "two", "fox", "."]),
        ("Master was studying.", ["Master", "be", "study", "."]),
        # Irregular forms from WordNet's exception lists.
        ("The children ate the mice.", ["the", "child", "eat", "the", "mouse", "."]),
        ("Emi felt happier.", ["Emi", "feel", "happy", "."]),
        ("Ken sings better.", ["Ken", "sing", "well", "."]),
        # The attribute ruler's lemmas are kept (pronouns, auxiliaries, contractions).
        ("I didn't go.", ["I", "do", "not", "go", "."]),
        # A name stays as written.
        ("Aya smiled at the Smiths.", ["Aya", "smile", "at", "the", "Smiths", "."]),
    ],
)
def test_lemmas_follow_wordnet_morphology(text: str, expected: list[str]) -> None:
    assert lemmas(text) == expected


def test_a_word_wordnet_lacks_takes_the_first_form_an_ending_gives() -> None:
    # "yeete" (-ed to -e) comes before "yeet" (-ed dropped), as spaCy's rule has it.
    assert lemmas("Master yeeted it.")[1] == "yeete"


def test_typographic_quotes_become_plain() -> None:
    assert lemmas("He said \u201chello\u201d.")[2:5] == ['"', "hello", '"']

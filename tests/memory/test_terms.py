from ego_mcp.memory.recall.terms import asks, is_japanese_term, terms


def test_english_words_are_lemmatised_and_lower_cased() -> None:
    assert terms("Caroline Researched adoption agencies") == [
        "caroline",
        "research",
        "adoption",
        "agency",
    ]


def test_an_identifier_counts_by_parts_and_whole() -> None:
    assert terms("LOG-131 failed") == ["log", "131", "log131", "fail"]
    assert "log13" not in terms("LOG-131")


def test_clitics_are_dropped_but_the_word_stays() -> None:
    assert terms("Master's cat didn't eat") == ["master", "cat", "do", "eat"]


def test_full_width_text_reads_as_half_width() -> None:
    assert terms("ＬＯＧ－１３１") == terms("LOG-131")


def test_japanese_two_character_words_and_katakana_terms_are_one_term_each() -> None:
    found = terms("東京で記憶について話した")
    assert "東京" in found and "記憶" in found
    assert "コンピュータ" in terms("新しいコンピューターを買った")
    assert "コンピュータ" in terms("コンピュータが壊れた")


def test_japanese_verbs_are_found_by_base_form() -> None:
    assert "行く" in terms("昨日は海に行った")
    assert "行く" in terms("海に行きたい")


def test_mixed_text_keeps_both_scripts() -> None:
    found = terms("マスターとRust compilerの話")
    assert {"rust", "compiler", "マスタ", "話"} <= set(found)


def test_the_script_of_a_term() -> None:
    assert is_japanese_term("東京") and is_japanese_term("りんご")
    assert not is_japanese_term("log131")


def test_a_decimal_is_one_term_and_a_name_splits_at_its_apostrophe_too() -> None:
    assert terms("Version 3.5 shipped") == ["version", "3.5", "ship"]
    found = terms("O'Brien-Smith called")
    assert {"o", "brien", "smith", "obriensmith"} <= set(found)
    assert terms("Master's cat") == ["master", "cat"]  # a clitic is not a part


def test_no_term_spells_the_chroma_index_totals_record() -> None:
    """The Chroma-server index keeps its statistics under an id with a hyphen, which no
    term may hold: a word after an apostrophe used to keep its hyphens."""
    from ego_mcp.store.lexical_chroma import TOTALS

    for crafted in ("x'lexical-totals", "o'lexical-totals-x", "LEXICAL-TOTALS", "a’lexical-totals"):
        found = terms(crafted)
        assert TOTALS not in found and not any("-" in term for term in found), found


def test_a_text_asks_when_its_last_sentence_closes_with_a_question_mark() -> None:
    assert asks("Wow, a new studio! What made you pick that spot?")
    assert asks("「明日も来る？」")
    assert asks("Did Ken say (really?) ")
    assert asks("You did what?!") and asks("本当？！") and asks("How was it? 🙂")
    assert not asks("https://example.com/search?q=1")
    assert not asks("What made you pick that spot? I wondered all day.")
    assert not asks("He asked what I would call the puppy.")


LEMMA_PROBE = """
from simplemma.strategies.dictionaries import (
    DEFAULT_DICTIONARY_FACTORY,
    LOW_MEMORY_DICTIONARY_FACTORY,
)
from ego_mcp.memory.guard.english.lexicon import lemma_of
from ego_mcp.memory.recall.terms import terms

print(terms("Master researched it"), lemma_of("geese"))
# simplemma 2.x keeps each factory's tables in an lru_cache: which were built
for factory in (DEFAULT_DICTIONARY_FACTORY, LOW_MEMORY_DICTIONARY_FACTORY):
    print(factory._get_dictionary.cache_info().currsize)
"""


def test_english_lemmas_are_read_from_simplemmas_table_in_place() -> None:
    """The index's terms and the guard's lemmas use simplemma's low-memory table (read a
    block at a time, about 17 MiB fewer resident than its dict); in a process of its own,
    as the suite's other tests may have loaded the dict."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", LEMMA_PROBE], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines() == ["['master', 'research', 'it'] goose", "0", "1"]

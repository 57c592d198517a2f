"""A query read in each memory's language: readings and coverage, with a small dictionary."""

from ego_mcp.memory.recall.bm25 import Concept, CorpusStats, coverage
from ego_mcp.memory.recall.crosslingual import (
    coverage_across,
    is_japanese_document,
    readings,
    translated_terms,
)
from ego_mcp.memory.service import MemoryService
from tests.helpers import save

PAIRS = {"wedding": {"結婚式", "婚礼"}, "aya": {"アヤ"}, "cable": {"ケーブル"}}


class Glossary:
    """A dictionary of a few words both ways, as the tests need it."""

    def translations(self, term: str) -> frozenset[str]:
        if term in PAIRS:
            return frozenset(PAIRS[term])
        return frozenset(en for en, ja in PAIRS.items() if term in ja)


DOCS = {
    "engaged": ("aya", "get", "engage", "tom", "propose"),
    "wedding-ja": ("アヤ", "さん", "結婚式", "来年", "五月", "決まる"),
    "cable": ("biscuit", "chew", "cable"),
    "walk-ja": ("マスター", "夕方", "散歩", "する"),
}
STATS = CorpusStats().with_documents(DOCS.values())
FREQ = {
    "aya": 1, "get": 1, "engage": 1, "tom": 1, "propose": 1, "biscuit": 1, "chew": 1,
    "cable": 1, "アヤ": 1, "さん": 1, "結婚式": 1, "来年": 1, "五月": 1, "決まる": 1,
    "マスター": 1, "夕方": 1, "散歩": 1, "する": 1,
}  # fmt: skip


def test_a_memory_is_written_in_the_script_most_of_its_terms_are_in() -> None:
    assert is_japanese_document(DOCS["wedding-ja"])
    assert not is_japanese_document(("log131", "の", "parser"))


def test_an_english_query_reads_in_japanese_through_its_translations() -> None:
    read = readings(["when", "aya", "wedding"], Glossary())
    assert list(read) == [True]  # it already reads in English as written
    assert read[True] == [
        Concept(frozenset({"アヤ"}), True),
        Concept(frozenset({"結婚式", "婚礼"}), True),
        Concept(frozenset(), True),  # "when": no translation, still part of the query
    ]
    assert translated_terms(read) == {"アヤ", "結婚式", "婚礼"}


def test_a_mixed_query_keeps_the_terms_already_in_each_script() -> None:
    read = readings(["ケーブル", "log131"], Glossary())
    assert read[False] == [Concept.of("log131"), Concept(frozenset({"cable"}), False)]
    assert read[True] == [Concept(frozenset(), True), Concept.of("ケーブル")]


def test_a_query_is_not_read_in_a_script_no_memory_is_written_in() -> None:
    asked: list[str] = []

    class Counting(Glossary):
        def translations(self, term: str) -> frozenset[str]:
            asked.append(term)
            return super().translations(term)

    dictionary = Counting()
    assert readings(["aya", "wedding"], dictionary, scripts={False}) == {}
    assert readings(["ケーブル", "log131"], dictionary, scripts={False}) == {
        False: [Concept.of("log131"), Concept(frozenset({"cable"}), False)]
    }
    assert asked == ["ケーブル"]  # nothing looked up for the English-only store


def test_recall_of_an_english_store_looks_nothing_up_in_japanese(
    memory: MemoryService,
) -> None:
    """No memory is Japanese: an English query is not translated, so neither the
    dictionary nor the Japanese analyser its headwords need is touched."""
    asked: list[str] = []

    class Spy:
        def translations(self, term: str) -> frozenset[str]:
            asked.append(term)
            return frozenset()

    memory.dictionary = Spy()
    save(memory, "Aya and Tom got engaged in the spring.")
    assert memory.recall("When is Aya's wedding?", 3)
    assert asked == []
    save(memory, "アヤさんの結婚式は来年の五月に決まった。")
    memory.recall("When is Aya's wedding?", 3)
    assert "wedding" in asked


def test_without_a_dictionary_a_query_reads_only_as_written() -> None:
    assert readings(["aya", "wedding"], None) == {}


def test_the_answer_in_the_other_language_outranks_a_shared_name() -> None:
    query = ["when", "aya", "wedding"]
    plain = coverage(query, DOCS, FREQ, STATS)
    assert plain["wedding-ja"] == 0 < plain["engaged"]
    across = coverage_across(query, readings(query, Glossary()), DOCS, FREQ, STATS)
    assert across["wedding-ja"] > across["engaged"] == plain["engaged"]
    assert across["walk-ja"] == 0  # sharing nothing in either language
    # "when" has no translation: it keeps its share of the query, so the reading is partial.
    assert 0 < across["wedding-ja"] < 1


def test_a_memory_in_the_query_language_is_scored_as_before() -> None:
    query = ["cable", "chew"]
    across = coverage_across(query, readings(query, Glossary()), DOCS, FREQ, STATS)
    assert across["cable"] == coverage(query, DOCS, FREQ, STATS)["cable"]


def test_many_common_translations_weigh_less_than_one_rare_one() -> None:
    docs = {f"j{i}": ("猫", "庭") if i < 3 else ("犬", "庭") for i in range(6)}
    stats = CorpusStats().with_documents(docs.values())
    freq = {"猫": 3, "犬": 3, "庭": 6, "鶴": 0}
    rare = coverage_across(["crane"], {True: [Concept(frozenset({"猫"}), True)]}, docs, freq, stats)
    common = coverage_across(
        ["crane", "garden"],
        {True: [Concept(frozenset({"猫"}), True), Concept(frozenset({"猫", "犬", "庭"}), True)]},
        docs,
        freq,
        stats,
    )
    # The second concept is held by every memory: it adds almost nothing to the share.
    assert rare["j0"] > 0.9
    assert abs(common["j0"] / rare["j0"] - 1.0) < 0.1

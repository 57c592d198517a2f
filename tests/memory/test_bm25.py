import pytest

from ego_mcp.memory.recall.bm25 import CorpusStats, coverage, idf, query_mass, scores

DOCS = {
    "a": ("dog", "chew", "cable"),
    "b": ("dog", "sleep"),
    "c": ("rain", "all", "day"),
    "j": ("東京", "の", "雨"),
}
STATS = CorpusStats().with_documents(DOCS.values())
FREQ = {"dog": 2, "chew": 1, "cable": 1, "sleep": 1, "rain": 1, "all": 1, "day": 1, "東京": 1}


def test_stats_count_scripts_and_lengths() -> None:
    assert CorpusStats(documents=4, japanese=1, latin=3, total_terms=11) == STATS
    assert STATS.minus(CorpusStats().with_documents([DOCS["j"]])) == CorpusStats(3, 0, 3, 8)


def test_a_term_is_rarer_the_fewer_memories_of_its_script_hold_it() -> None:
    assert idf("cable", 1, STATS) > idf("dog", 2, STATS) > 0
    # の in the one Japanese memory is as common as a term can be among its script.
    assert idf("の", 1, STATS) < idf("cable", 1, STATS)


def test_a_rare_term_outweighs_a_common_one() -> None:
    found = scores(["dog", "cable"], DOCS, FREQ, STATS)
    assert found["a"] > found["b"] > 0 == found["c"]


def test_coverage_counts_query_terms_no_memory_holds() -> None:
    only_known = coverage(["dog"], DOCS, FREQ, STATS)["b"]
    with_unknown = coverage(["dog", "wedding"], DOCS, FREQ, STATS)["b"]
    assert 0 < with_unknown < only_known
    assert query_mass(["dog", "wedding"], FREQ, STATS) > query_mass(["dog"], FREQ, STATS)


def test_a_query_of_no_terms_covers_nothing() -> None:
    assert coverage([], DOCS, FREQ, STATS) == dict.fromkeys(DOCS, 0.0)


@pytest.mark.parametrize("n", [1, 2])
def test_tiny_stores_still_score_a_match(n: int) -> None:
    docs = {f"m{i}": ("ferry", f"w{i}") for i in range(n)}
    stats = CorpusStats().with_documents(docs.values())
    assert all(v > 0 for v in coverage(["ferry"], docs, {"ferry": n}, stats).values())

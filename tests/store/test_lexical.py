"""Both lexical indexes, the embedded one (SQLite FTS5) and the one on a Chroma server
(here a real embedded Chroma client: the collection calls are the same)."""

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import chromadb
import pytest
from chromadb.config import Settings as ChromaSettings

from ego_mcp.memory.model import content_hash
from ego_mcp.memory.recall.bm25 import CorpusStats
from ego_mcp.memory.recall.terms import terms
from ego_mcp.memory.store import IndexedText, LexicalIndex, Sitting
from ego_mcp.store import lexical_chroma, lexical_sqlite
from ego_mcp.store.lexical_chroma import ChromaLexicalIndex, open_chroma_lexical
from ego_mcp.store.lexical_sqlite import SqliteLexicalIndex

TEXTS = {
    "mem_000000000001": "The dog chewed the headphone cable again.",
    "mem_000000000002": "The dog slept all afternoon by the window.",
    "mem_000000000003": "LOG-131 was a parser bug in the nightly job.",
    "mem_000000000004": "東京で記憶の研究会に出た。",
}


@pytest.fixture(params=["sqlite", "chroma"])
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LexicalIndex]:
    if request.param == "sqlite":
        opened = SqliteLexicalIndex(tmp_path / "lexical" / "agent.sqlite3")
        yield opened
        opened.close()
        return
    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    yield open_chroma_lexical(client, "agent")


def rows(documents: Mapping[str, Sequence[str]]) -> dict[str, IndexedText]:
    """Index rows of these terms, each with a hash of its terms as its text's."""
    return {i: IndexedText(tuple(d), content_hash(" ".join(d))) for i, d in documents.items()}


def fill(index: LexicalIndex) -> None:
    index.put(rows({memory_id: terms(text) for memory_id, text in TEXTS.items()}))


def test_lookup_finds_memories_by_their_rarer_words(index: LexicalIndex) -> None:
    fill(index)
    found = index.lookup(terms("the dog and the cable"), 10)
    assert found.frequencies["dog"] == 2 and found.frequencies["cable"] == 1
    assert set(found.documents) >= {"mem_000000000001", "mem_000000000002"}
    assert found.documents["mem_000000000001"] == tuple(terms(TEXTS["mem_000000000001"]))
    assert found.stats == CorpusStats().with_documents(terms(t) for t in TEXTS.values())


def test_two_character_japanese_words_are_found(index: LexicalIndex) -> None:
    fill(index)
    for word in ("東京", "記憶", "研究"):
        assert set(index.lookup(terms(word), 10).documents) == {"mem_000000000004"}


def test_a_compound_is_found_by_its_parts_and_first_by_itself(index: LexicalIndex) -> None:
    fill(index)
    index.put(rows({"mem_000000000005": terms("研究の話をした。")}))
    assert set(index.lookup(terms("研究"), 10).documents) >= {
        "mem_000000000004",
        "mem_000000000005",
    }
    assert set(index.lookup(terms("研究会"), 10).documents) >= {"mem_000000000004"}
    assert terms("研究会")[0] == "研究会"


def test_the_japanese_rows_and_their_reader_are_known(index: LexicalIndex) -> None:
    """What a mend reads again when Japanese is read by another analyser than before."""
    fill(index)
    assert index.japanese_ids() == {"mem_000000000004"}
    assert index.japanese_reader() is None
    index.note_japanese_reader("sudachi-middle")
    assert index.japanese_reader() == "sudachi-middle"
    assert index.stats() == CorpusStats().with_documents(terms(t) for t in TEXTS.values())


def test_documents_gives_the_terms_of_named_memories(index: LexicalIndex) -> None:
    fill(index)
    assert set(index.lookup(terms("LOG-131"), 10).documents) == {"mem_000000000003"}
    named = index.documents(["mem_000000000002", "mem_0000000000ff"])
    assert named == {"mem_000000000002": tuple(terms(TEXTS["mem_000000000002"]))}


def test_counted_terms_get_frequencies_but_bring_no_postings(index: LexicalIndex) -> None:
    fill(index)
    found = index.lookup(["wedding"], 10, counted=["東京", "記憶", "結婚式"])
    assert found.frequencies == {"wedding": 0, "東京": 1, "記憶": 1, "結婚式": 0}
    assert found.documents == {}  # translations score the candidates; they find none


def test_put_replaces_and_remove_forgets_with_the_statistics(index: LexicalIndex) -> None:
    fill(index)
    index.put(rows({"mem_000000000001": terms("A quiet morning with tea.")}))
    index.remove(["mem_000000000002", "mem_0000000000ff"])
    assert index.ids() == {"mem_000000000001", "mem_000000000003", "mem_000000000004"}
    assert index.count() == 3
    assert "mem_000000000001" not in index.lookup(["cable"], 10).documents
    texts = [TEXTS["mem_000000000003"], TEXTS["mem_000000000004"], "A quiet morning with tea."]
    expected = CorpusStats().with_documents(terms(t) for t in texts)
    assert index.lookup(["tea"], 10).stats == expected
    index.recount()
    assert index.lookup(["tea"], 10).stats == expected


def test_new_rows_are_counted_as_a_recount_counts_them(index: LexicalIndex) -> None:
    """Rows of memories minted for their write (``new``: nothing read to replace) keep the
    statistics and the term counts a recount from the rows finds."""
    fill(index)
    index.put(rows({"mem_0000000000a1": terms("The dog found a new cable.")}), new=True)
    index.put(rows({"mem_0000000000a2": terms("東京の雨。")}), new=True)
    lookup = index.lookup(["dog", "cable", "東京"], 10)
    assert lookup.frequencies == {"dog": 3, "cable": 2, "東京": 2}
    assert set(lookup.documents) >= {"mem_0000000000a1", "mem_0000000000a2"}
    index.recount()
    assert index.lookup(["dog", "cable", "東京"], 10).frequencies == lookup.frequencies
    assert index.lookup(["dog"], 10).stats == lookup.stats


def test_rows_are_unsettled_from_their_write_until_settled(index: LexicalIndex) -> None:
    fill(index)
    written = rows({i: terms(text) for i, text in TEXTS.items()})
    assert index.unsettled() == {i: row.digest for i, row in written.items()}
    index.settle(["mem_000000000001", "mem_000000000002", "mem_000000000003"])
    assert index.unsettled() == {"mem_000000000004": written["mem_000000000004"].digest}
    index.settle(["mem_000000000004"])
    index.unsettle(["mem_000000000002", "mem_0000000000ff"])  # an unknown id is no row
    assert index.unsettled() == {"mem_000000000002": written["mem_000000000002"].digest}
    index.remove(["mem_000000000002"])
    assert index.unsettled() == {}


def test_sqlite_rows_of_an_older_file_gain_a_hash_column_and_count_as_settled(
    tmp_path: Path,
) -> None:
    path = tmp_path / "agent.sqlite3"
    with sqlite3.connect(path) as older:  # the schema before rows kept their text's hash
        older.executescript(
            "CREATE TABLE documents (id INTEGER PRIMARY KEY, memory_id TEXT NOT NULL UNIQUE,"
            " japanese INTEGER NOT NULL, latin INTEGER NOT NULL, length INTEGER NOT NULL);"
            "CREATE VIRTUAL TABLE terms USING fts5(text);"
            "INSERT INTO documents VALUES (1, 'mem_000000000001', 0, 2, 2);"
            "INSERT INTO terms (rowid, text) VALUES (1, 'quiet tea');"
        )
    index = SqliteLexicalIndex(path)
    assert index.ids() == {"mem_000000000001"} and index.unsettled() == {}
    index.put(rows({"mem_000000000002": ["ferry"]}))
    assert index.unsettled() == {"mem_000000000002": content_hash("ferry")}
    assert set(index.lookup(["tea", "ferry"], 10).documents) == {
        "mem_000000000001",
        "mem_000000000002",
    }
    index.close()


def test_sqlite_statistics_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "agent.sqlite3"
    first = SqliteLexicalIndex(path)
    fill(first)
    first.close()
    with sqlite3.connect(path) as older:  # an index written before frequencies were kept
        older.execute("DELETE FROM frequencies")
    again = SqliteLexicalIndex(path)
    assert again.lookup(["dog", "東京"], 10).frequencies == {"dog": 2, "東京": 1}
    assert again.count() == len(TEXTS)
    assert again.lookup(["dog"], 10).stats.total_terms == sum(len(terms(t)) for t in TEXTS.values())
    again.close()


def test_a_term_in_most_memories_and_more_than_asked_for_is_passed_over_for_a_rarer_one(
    index: LexicalIndex,
) -> None:
    """ "dog" is in two of the three English memories, more than the one memory asked for:
    beside "cable" its postings are not walked; alone, they are (its memories are all a
    query of it can find by words)."""
    fill(index)
    found = index.lookup(["dog", "cable"], 1)
    assert found.frequencies == {"dog": 2, "cable": 1}
    assert set(found.documents) == {"mem_000000000001"}
    assert index.lookup(["dog"], 1).documents
    index.put(rows({"mem_000000000005": ["cat"], "mem_000000000006": ["owl"]}))
    assert index.lookup(["dog", "owl"], 1).documents  # two of five: walked


def test_a_term_common_in_one_script_does_not_stop_a_rare_one_of_the_other(
    index: LexicalIndex,
) -> None:
    """東京 is in three of the four Japanese memories, "ferry" in five of twenty English
    ones: the Japanese term is passed over, the English one still walked."""
    japanese = {f"mem_0000000000j{i}": ["東京", f"駅{i}"] for i in range(3)}
    japanese["mem_0000000000j3"] = ["大阪"]
    english = {f"mem_000000000e{i:02d}": [f"word{i}"] for i in range(20)}
    for i in range(5):
        english[f"mem_000000000e{i:02d}"].append("ferry")
    index.put(rows({**japanese, **english}))
    found = index.lookup(["東京", "ferry"], 1)
    assert found.frequencies == {"東京": 3, "ferry": 5}
    assert found.documents and set(found.documents) <= {f"mem_000000000e{i:02d}" for i in range(5)}


def test_sqlite_walks_the_rarest_postings_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the posting budget, common terms are counted but their postings not walked."""
    monkeypatch.setattr(lexical_sqlite, "POSTING_BUDGET", 3)
    index = SqliteLexicalIndex(tmp_path / "agent.sqlite3")
    index.put(rows({f"mem_{i:012d}": ["common", f"word{i}"] for i in range(5)}))
    found = index.lookup(["common", "word3"], 10)
    assert found.frequencies == {"common": 5, "word3": 1}
    assert set(found.documents) == {"mem_000000000003"}
    index.close()


def test_chroma_reads_only_the_rarest_postings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical_chroma, "POSTING_BUDGET", 3)
    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    index: ChromaLexicalIndex = open_chroma_lexical(client, "agent")
    index.put(rows({f"mem_{i:012d}": ["common", f"word{i}"] for i in range(5)}))
    found = index.lookup(["common", "word3"], 10)
    assert found.frequencies == {"common": 5, "word3": 1}
    assert set(found.documents) == {"mem_000000000003"}
    assert index.count() == 5 and "lexical-totals" not in index.ids()
    index.remove(["mem_000000000003"])
    assert index.frequencies(["common", "word3"]) == {"common": 4, "word3": 0}


def chroma_index(tmp_path: Path) -> ChromaLexicalIndex:
    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=ChromaSettings(anonymized_telemetry=False)
    )
    return open_chroma_lexical(client, "agent")


def holders_by_truth(documents: dict[str, list[str]], term: str) -> frozenset[str]:
    return frozenset(i for i, document in documents.items() if term in document)


def test_chroma_term_records_list_their_few_holders_through_every_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical_chroma, "POSTING_BUDGET", 3)
    index = chroma_index(tmp_path)
    stored = {f"mem_{i:012d}": ["common", f"word{i % 2}", f"only{i}"] for i in range(4)}
    index.put(rows(stored))
    records = index.records(["common", "word0", "only2", "absent"])
    assert records["common"].documents == 4 and records["common"].holders is None
    assert records["word0"].holders == holders_by_truth(stored, "word0")
    assert records["only2"].holders == {"mem_000000000002"}
    assert records["absent"].documents == 0 and records["absent"].holders == frozenset()
    # A memory rewritten with other words moves between the lists; a removed one leaves.
    stored["mem_000000000002"] = ["common", "word1", "fresh"]
    index.put(rows({"mem_000000000002": stored["mem_000000000002"]}))
    index.remove(["mem_000000000001"])
    del stored["mem_000000000001"]
    for term in ("word0", "word1", "fresh", "only2", "only1"):
        record = index.records([term])[term]
        assert record.holders == holders_by_truth(stored, term), term
        assert record.documents == len(holders_by_truth(stored, term)), term


def test_chroma_lookup_reads_listed_postings_by_id_and_scans_for_unlisted_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = chroma_index(tmp_path)
    fill(index)
    contains_reads: list[list[str]] = []
    real_scan = index._scan

    def counted_scan(scanned: list[str], count: int) -> dict[str, tuple[str, ...]]:
        contains_reads.append(scanned)
        return real_scan(scanned, count)

    monkeypatch.setattr(index, "_scan", counted_scan)
    assert set(index.lookup(terms("LOG-131"), 10).documents) == {"mem_000000000003"}
    assert contains_reads == [[]]  # every rare term listed its holders: no scan
    # A term record written before the lists (only a count) is found by a scan.
    index._frequencies.delete(ids=["parser"])
    index._frequencies.add(ids=["parser"], embeddings=[[0.0]], metadatas=[{"documents": 1}])
    assert set(index.lookup(["parser"], 10).documents) == {"mem_000000000003"}
    assert contains_reads[-1] == ["parser"]
    index.recount()  # lists it again
    assert index.records(["parser"])["parser"].holders == {"mem_000000000003"}


def test_a_term_grown_past_the_budget_drops_its_list_and_is_scanned_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical_chroma, "POSTING_BUDGET", 2)
    index = chroma_index(tmp_path)
    index.put(rows({"mem_00000000000a": ["ferry"], "mem_00000000000b": ["ferry"]}))
    assert index.records(["ferry"])["ferry"].holders == {"mem_00000000000a", "mem_00000000000b"}
    index.put(rows({"mem_00000000000c": ["ferry"]}))
    assert index.records(["ferry"])["ferry"] == lexical_chroma.TermRecord(3, None)
    index.remove(["mem_00000000000c"])
    # Its list is not known to be whole again until a recount: found by a scan meanwhile.
    assert index.records(["ferry"])["ferry"] == lexical_chroma.TermRecord(2, None)
    assert set(index.lookup(["ferry"], 10).documents) == {"mem_00000000000a", "mem_00000000000b"}


def test_sqlite_holds_the_chain_of_saves_and_chroma_leaves_it_to_the_records(
    index: LexicalIndex,
) -> None:
    """a <- b <- c, and d alone: the embedded index answers where each stands."""
    chain = {"mem_00000000000a": "", "mem_00000000000b": "mem_00000000000a"}
    chain |= {"mem_00000000000c": "mem_00000000000b", "mem_00000000000d": ""}
    index.put({i: IndexedText((i,), content_hash(i), follows) for i, follows in chain.items()})
    sitting = index.sitting(["mem_00000000000b", "mem_00000000000d"])
    if isinstance(index, ChromaLexicalIndex):
        assert sitting is None and index.unplaced() == []
        return
    assert sitting == Sitting(
        follows={"mem_00000000000b": "mem_00000000000a"},
        followers={"mem_00000000000c": "mem_00000000000b"},
    )
    index.remove(["mem_00000000000c"])
    assert index.sitting(["mem_00000000000b"]) == Sitting(
        {"mem_00000000000b": "mem_00000000000a"}, {}
    )


def written_before_it_kept(tmp_path: Path, column: str) -> Path:
    """A filled index file as a version written it before its rows kept ``column``."""
    path = tmp_path / "agent.sqlite3"
    first = SqliteLexicalIndex(path)
    fill(first)
    first.close()
    with sqlite3.connect(path) as older:
        older.execute(f"UPDATE documents SET {column} = NULL")
    return path


def test_sqlite_rows_written_before_the_chain_was_kept_answer_once_placed(
    tmp_path: Path,
) -> None:
    path = written_before_it_kept(tmp_path, "follows")
    again = SqliteLexicalIndex(path)
    assert again.sitting(["mem_000000000002"]) is None
    assert sorted(again.unplaced()) == sorted(TEXTS)
    again.place({"mem_000000000001": "", "mem_000000000002": "mem_000000000001"}, set())
    assert again.sitting(["mem_000000000002"]) is None  # two rows still unplaced
    again.place({"mem_000000000003": "", "mem_000000000004": ""}, set())
    assert again.unplaced() == []
    assert again.sitting(["mem_000000000001"]) == Sitting(
        follows={}, followers={"mem_000000000002": "mem_000000000001"}
    )
    again.close()
    with sqlite3.connect(path) as older:
        older.execute("UPDATE documents SET follows = NULL WHERE memory_id = 'mem_000000000003'")
    third = SqliteLexicalIndex(path)
    assert third.sitting(["mem_000000000001"]) is None
    third.remove(["mem_000000000003"])  # an unplaced row gone is no longer waited for
    assert third.sitting(["mem_000000000002"]) == Sitting(
        {"mem_000000000002": "mem_000000000001"}, {}
    )
    third.close()


def test_each_index_tells_which_memories_end_by_asking(index: LexicalIndex) -> None:
    asked = {"mem_00000000000a": True, "mem_00000000000b": False}
    index.put({i: IndexedText((i,), content_hash(i), asks=asks) for i, asks in asked.items()})
    assert index.asking(["mem_00000000000a", "mem_00000000000b", "mem_00000000000z"]) == {
        "mem_00000000000a"
    }
    index.put({"mem_00000000000a": IndexedText(("a",), content_hash("a"))})  # rewritten
    assert index.asking(["mem_00000000000a", "mem_00000000000b"]) == set()


def test_sqlite_rows_written_before_they_kept_asking_are_unplaced_until_placed(
    tmp_path: Path,
) -> None:
    again = SqliteLexicalIndex(written_before_it_kept(tmp_path, "asks"))
    assert sorted(again.unplaced()) == sorted(TEXTS)
    assert again.asking(sorted(TEXTS)) == set()  # not asking until placed
    follows = dict.fromkeys(TEXTS, "")
    again.place(follows, {"mem_000000000002"})
    assert again.unplaced() == []
    assert again.asking(sorted(TEXTS)) == {"mem_000000000002"}
    again.close()

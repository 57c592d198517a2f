"""Recall through the service with the real model, Chroma and the embedded lexical index."""

from pathlib import Path

import pytest

from ego_mcp.memory.recall.fusion import ASKING_WEIGHT, LEXICAL_WEIGHT, RELEVANCE_FLOOR
from ego_mcp.memory.service import MemoryService
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings
from ego_mcp.store.lexical_sqlite import lexical_path
from tests.helpers import save

DIARY = [
    "Caroline: I've been researching adoption agencies all week.",
    "Melanie: We painted a sunrise together at the lake.",
    "Master fixed the LOG-13 rotation script before lunch.",
    "The nightly job failed on LOG-131 because the parser choked on a tab.",
    "Biscuit chewed through the headphone cable again.",
    "Master and I talked about the first snow of the year.",
    "東京の記憶について話した夜だった。",
    "マスターが新しいコンピューターを買った。",
    "Master caught the flu and stayed in bed for a week.",
    "A quiet afternoon of tea and old jazz records.",
    # As in a real diary, the companion is in most Japanese memories, so マスター is common.
    "マスターと夕方に川沿いを散歩した。",
    "マスターが朝ごはんにオムレツを作ってくれた。",
]


def fill(memory: MemoryService) -> dict[str, str]:
    return {text: save(memory, text) for text in DIARY}


def first(memory: MemoryService, query: str) -> str:
    found = memory.recall(query, 5)
    assert found, query
    return found[0].memory.id


def test_each_query_shape_finds_its_memory(memory: MemoryService) -> None:
    ids = fill(memory)
    assert first(memory, "LOG-131") == ids[DIARY[3]]
    assert first(memory, "What did Caroline research?") == ids[DIARY[0]]
    assert first(memory, "headphone cable") == ids[DIARY[4]]
    assert first(memory, "東京") == ids[DIARY[6]]
    assert first(memory, "コンピュータ") == ids[DIARY[7]]
    # A Japanese question still finds the English memory by meaning.
    assert first(memory, "マスターがインフルエンザで寝込んだ") == ids[DIARY[8]]


def test_a_word_match_is_reported_with_its_share_of_the_query(memory: MemoryService) -> None:
    ids = fill(memory)
    top = memory.recall("LOG-131", 3)[0]
    assert top.memory.id == ids[DIARY[3]] and 0 < top.coverage <= 1


def test_memories_matching_nothing_are_not_padded_in(memory: MemoryService) -> None:
    fill(memory)
    found = memory.recall("quantum chromodynamics lecture notes", 10)
    assert len(found) < 10
    assert all(item.score >= RELEVANCE_FLOOR for item in found)


def test_the_index_follows_forget_restore_and_merge(memory: MemoryService) -> None:
    ids = fill(memory)
    assert memory.lexical is not None
    cable = ids[DIARY[4]]
    memory.forget(cable)
    assert cable not in memory.lexical.ids()
    assert all(item.memory.id != cable for item in memory.recall("headphone cable", 5))
    memory.restore(cable)
    assert first(memory, "headphone cable") == cable
    memory.merge(cable, ids[DIARY[9]], "Biscuit chewed the cable while jazz played.")
    assert ids[DIARY[9]] not in memory.lexical.ids()
    assert first(memory, "jazz cable") == cable
    assert memory.lexical.ids() == {m for page in memory.store.ids() for m in page}


def test_a_lost_index_is_rebuilt_when_the_store_opens(
    settings: Settings, runtime: Runtime, memory: MemoryService
) -> None:
    ids = fill(memory)
    runtime.close()
    path: Path = lexical_path(settings.data_dir, settings.agent)
    for leftover in path.parent.glob(path.name + "*"):
        leftover.unlink()
    reopened = Runtime.open(settings, clock=runtime.clock, embedder=runtime.embedder)
    try:
        again = reopened.memory(settings.agent)
        assert again.lexical is not None and again.lexical.count() == len(DIARY)
        assert first(again, "LOG-131") == ids[DIARY[3]]
    finally:
        reopened.close()


BILINGUAL = [
    "Master's cousin Kenji bought a new guitar last spring.",
    "ケンジさんの引っ越しは来月に決まった。",
    "ビスケットが庭で穴を掘っていた。",
    "Biscuit spent the afternoon chasing pigeons in the park.",
    "マスターの傘が電車の中で見つかった。",
    "I lost my umbrella on the train again.",
    "マスターと夕方に川沿いを散歩した。",
    "Master and I walked along the river at dusk.",
]


def test_a_memory_in_the_other_language_is_scored_on_the_query_translated(
    memory: MemoryService,
) -> None:
    ids = {text: save(memory, text) for text in BILINGUAL}
    # Each memory named shares a word with the question only in translation, while
    # another memory shares a word (a name, 傘) with it as written.
    assert first(memory, "Biscuit was digging a hole in the garden") == ids[BILINGUAL[2]]
    assert first(memory, "傘をなくした") == ids[BILINGUAL[5]]
    assert first(memory, "ケンジのギター") == ids[BILINGUAL[0]]
    top = memory.recall("Biscuit was digging a hole in the garden", 1)[0]
    assert top.coverage > 0  # its words, read in Japanese, are what ranked it


def test_without_the_dictionary_words_count_only_as_written(memory: MemoryService) -> None:
    ids = {text: save(memory, text) for text in BILINGUAL}
    memory.dictionary = None
    top = memory.recall("Biscuit was digging a hole in the garden", 1)[0]
    assert top.memory.id == ids[BILINGUAL[3]]  # the English memory that shares the name


def test_reads_as_on_a_server_rank_as_reads_in_process(memory: MemoryService) -> None:
    fill(memory)
    queries = ["LOG-131", "What did Caroline research?", "東京", "インフルエンザで寝込んだ"]
    in_process = [memory.recall(q, 5) for q in queries]
    memory.reads_remote = True
    assert [memory.recall(q, 5) for q in queries] == in_process


def test_asked_a_question_a_memory_that_asks_one_counts_less_of_its_own_match(
    memory: MemoryService,
) -> None:
    """The index tells which memories end by asking; recall weighs their own match by
    ``ASKING_WEIGHT`` for a question only (the ranking's effect: tests/memory/test_fusion.py,
    bench/README.md for LoCoMo)."""
    asked = save(memory, "Melanie: Which instrument do you play in the band these days?")
    told = save(memory, "Caroline: I play the cello in the town orchestra these days.")
    found = {r.memory.id: r for r in memory.recall("Which instrument does Caroline play?", 5)}
    assert found[asked].asking and not found[told].asking
    own = found[asked].similarity + LEXICAL_WEIGHT * found[asked].coverage
    assert found[asked].score == pytest.approx(ASKING_WEIGHT * own + found[asked].context)
    plain = {r.memory.id: r for r in memory.recall("Caroline's instrument", 5)}
    assert not plain[asked].asking

"""Recall's context: memories saved in one sitting form a chain, and a strong hit lends
rank to the memories beside it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ego_mcp.clock import FixedClock
from ego_mcp.memory.model import Memory, SearchHit
from ego_mcp.memory.recall.context import CONTEXT_GAP, CONTEXT_WEIGHT, Lent, lent_scores
from ego_mcp.memory.recall.fusion import RELEVANCE_FLOOR, rank
from ego_mcp.memory.service import MemoryService
from ego_mcp.memory.store import Sitting
from tests.conftest import START
from tests.helpers import save


def memory(memory_id: str, follows: str = "") -> Memory:
    return Memory(memory_id, memory_id, START, follows=follows)


def test_each_neighbour_is_lent_a_share_of_the_best_hit_beside_it() -> None:
    # The chain a <- b <- c <- d; b and d are the hits, b the better.
    top = [("b", 1.0), ("d", 0.5)]
    lent = lent_scores(top, Sitting(follows={"b": "a", "d": "c"}, followers={"c": "b"}))
    assert lent == {
        "a": Lent(CONTEXT_WEIGHT * 1.0, "b"),
        "c": Lent(CONTEXT_WEIGHT * 1.0, "b"),  # beside both hits: the better one lends
    }


def test_a_hit_beside_a_better_hit_is_lent_too_and_nothing_lends_to_itself() -> None:
    top = [("b", 1.0), ("a", 0.8)]
    lent = lent_scores(top, Sitting(follows={"b": "a"}, followers={"b": "a"}))
    assert lent == {"a": Lent(CONTEXT_WEIGHT * 1.0, "b"), "b": Lent(CONTEXT_WEIGHT * 0.8, "a")}


def test_context_reorders_but_lets_in_nothing_that_matches_nothing() -> None:
    def hit(memory_id: str, similarity: float) -> SearchHit:
        return SearchHit(memory(memory_id), 1.0 - similarity)

    below = RELEVANCE_FLOOR - 0.02
    hits = [hit("strong", 0.6), hit("other", 0.3), hit("beside", 0.2), hit("noise", below)]
    lent = {"beside": Lent(0.3, "strong"), "noise": Lent(0.3, "strong")}
    ranked = rank(hits, {}, 4, matched=set(), lent=lent)
    assert [r.memory.id for r in ranked] == ["strong", "beside", "other"]
    assert ranked[1].score == pytest.approx(0.5)


def test_memories_saved_in_one_sitting_form_a_chain(
    memory: MemoryService, clock: FixedClock
) -> None:
    first = save(memory, "Aya asked what I would call the new puppy.")
    clock.set(clock.now() + timedelta(minutes=5))
    second = save(memory, "Biscuit, I said, for the colour of his fur.")
    clock.set(clock.now() + CONTEXT_GAP + timedelta(minutes=1))
    later = save(memory, "The train to Osaka was held up by snow.")
    assert [memory.get(i).follows for i in (first, second, later)] == ["", first, ""]
    # A new process (nothing saved yet) asks the store for the latest memory.
    clock.set(clock.now() + timedelta(minutes=2))
    memory.latest_save = None
    assert memory.get(save(memory, "We waited on the platform with tea.")).follows == later


def test_a_memory_forgotten_or_merged_away_is_followed_by_none(
    memory: MemoryService, clock: FixedClock
) -> None:
    def save_a_minute_on(text: str) -> str:  # the store orders the latest by time
        clock.set(clock.now() + timedelta(minutes=1))
        return save(memory, text)

    first = save_a_minute_on("Aya asked what I would call the new puppy.")
    second = save_a_minute_on("Biscuit, I said, for the colour of his fur.")
    memory.forget(second)
    third = save_a_minute_on("We bought him a red collar.")
    assert memory.get(third).follows == first
    fourth = save_a_minute_on("He chewed the collar within the hour.")
    memory.merge(third, fourth, "We bought him a red collar; he chewed it within the hour.")
    assert memory.get(save_a_minute_on("Biscuit slept all evening.")).follows == third


def test_on_a_shared_store_a_save_follows_what_another_front_end_saved_since(
    memory: MemoryService, clock: FixedClock
) -> None:
    """Two front ends of one agent on a Chroma server: each save asks the store for the
    agent's latest memory, so the chain does not fork."""
    memory.shared_store = True
    first = save(memory, "Aya asked what I would call the new puppy.")
    clock.set(clock.now() + timedelta(minutes=1))
    elsewhere = Memory("mem_0000000000e1", "Biscuit, I said.", clock.now(), follows=first)
    memory.store.add(elsewhere, memory.embedder.embed([elsewhere.content])[0])
    clock.set(clock.now() + timedelta(minutes=1))
    assert memory.get(save(memory, "We bought him a red collar.")).follows == elsewhere.id


def test_recall_ranks_the_memory_saved_beside_a_strong_hit_and_says_so(
    memory: MemoryService,
) -> None:
    question = save(memory, "Aya asked what I would call the new puppy.")
    answer = save(memory, "Biscuit, I said, for the colour of his fur.")
    save(memory, "The nightly job failed on LOG-131 again.")
    found = memory.recall("What did I call the new puppy?", 5)
    ids = [item.memory.id for item in found]
    assert ids[0] == question and answer in ids
    beside = found[ids.index(answer)]
    assert beside.lent is not None and beside.lent.beside == question
    # The hit lends a share of what it scores on its own (not of what it is lent back).
    assert beside.lent.score == pytest.approx(CONTEXT_WEIGHT * (found[0].score - found[0].context))


def test_the_answer_line_names_the_hit_a_memory_was_saved_beside() -> None:
    from ego_mcp.memory.recall.fusion import Ranked
    from ego_mcp.server.format import hit_line

    lent = Ranked(SearchHit(memory("mem_0000000000bb"), 0.7), 0.0, Lent(0.3, "mem_0000000000aa"))
    assert "saved beside: mem_0000000000aa, private: false)" in hit_line(2, lent)
    alone = Ranked(SearchHit(memory("mem_0000000000bb"), 0.7), 0.0)
    assert "saved beside" not in hit_line(2, alone)


def test_without_the_index_s_chain_the_store_reads_it_from_the_records(
    memory: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a Chroma server the lexical index holds no chain: the store reads each hit's
    ``follows`` from its record (or the records recall already has) and its followers by a
    metadata filter, and recall lends as it does embedded."""
    question = save(memory, "Aya asked what I would call the new puppy.")
    answer = save(memory, "Biscuit, I said, for the colour of his fur.")
    embedded = memory.store.sitting([question, answer])
    embedded_ids = [item.memory.id for item in memory.recall("What did I call the puppy?", 5)]
    assert memory.lexical is not None
    monkeypatch.setattr(memory.lexical, "sitting", lambda memory_ids: None)

    assert memory.store.sitting([question, answer]) == embedded
    at_hand = {answer: memory.get(answer)}
    assert memory.store.sitting([question, answer], at_hand) == embedded
    assert embedded == Sitting(follows={answer: question}, followers={answer: question})
    found = memory.recall("What did I call the puppy?", 5)
    assert [item.memory.id for item in found] == embedded_ids
    assert found[embedded_ids.index(answer)].lent is not None

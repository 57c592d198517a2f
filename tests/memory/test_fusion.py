from datetime import UTC, datetime

import pytest

from ego_mcp.memory.model import Memory, SearchHit, similarity_of
from ego_mcp.memory.recall.fusion import ASKING_WEIGHT, RELEVANCE_FLOOR, rank

START = datetime(2026, 5, 1, tzinfo=UTC)


def hit(memory_id: str, similarity: float) -> SearchHit:
    return SearchHit(Memory(memory_id, memory_id, START), 1.0 - similarity)


def test_words_lift_a_memory_above_a_closer_one_by_meaning() -> None:
    ranked = rank([hit("near", 0.5), hit("worded", 0.3)], {"worded": 0.4}, 2)
    assert [r.memory.id for r in ranked] == ["worded", "near"]
    assert ranked[0].score == pytest.approx(0.7)


def test_memories_matching_neither_meaning_nor_words_are_left_out() -> None:
    below = RELEVANCE_FLOOR - 0.02
    ranked = rank([hit("related", 0.4), hit("noise", below), hit("word", below)], {"word": 0.05}, 3)
    assert [r.memory.id for r in ranked] == ["related", "word"]


def test_a_memory_that_asks_ranks_below_an_answer_as_strong_when_asked_a_question() -> None:
    """A question shares a question's words and form; its reply holds the answer."""
    hits = [hit("question", 0.6), hit("answer", 0.55)]
    assert [r.memory.id for r in rank(hits, {}, 2)] == ["question", "answer"]
    ranked = rank(hits, {}, 2, asking={"question"})
    assert [r.memory.id for r in ranked] == ["answer", "question"]
    assert ranked[1].asking and ranked[1].score == pytest.approx(ASKING_WEIGHT * 0.6)


def test_the_floor_is_held_to_what_a_memory_that_asks_scores_unweighed() -> None:
    just = RELEVANCE_FLOOR + 0.01  # over the floor, under it once weighed
    assert [r.memory.id for r in rank([hit("q", just)], {}, 1, asking={"q"})] == ["q"]


def test_at_most_n_results() -> None:
    assert len(rank([hit(f"m{i}", 0.5) for i in range(5)], {}, 3)) == 3


def test_ranking_by_id_puts_first_what_rank_puts_first() -> None:
    """Recall picks the records to read by id (``best_ids``); rank over those records
    must give what rank over every candidate gives."""
    import random

    from ego_mcp.memory.recall.context import Lent
    from ego_mcp.memory.recall.fusion import best_ids

    chance = random.Random(7)
    for _ in range(200):
        ids = [f"m{i}" for i in range(chance.randint(1, 40))]
        # Beyond [0, 1] too: a memory found by its words may sit at a negative cosine.
        similarity = {i: round(chance.uniform(-0.3, 1.05), 2) for i in ids}
        coverage = {i: round(chance.uniform(0, 1), 2) for i in ids if chance.random() < 0.5}
        matched = {i for i in coverage if chance.random() < 0.7}
        lent = {i: Lent(chance.uniform(0, 0.3), "m0") for i in ids if chance.random() < 0.2}
        asking = {i for i in ids if chance.random() < 0.3}
        n = chance.randint(1, 10)
        hits = [hit(i, similarity[i]) for i in ids]
        whole = [r.memory.id for r in rank(hits, coverage, n, matched, lent, asking=asking)]
        distance = {h.memory.id: h.distance for h in hits}
        chosen = best_ids(distance, coverage, n, matched, lent, asking)
        assert chosen == whole
        subset = [h for h in hits if h.memory.id in chosen]
        ranked = rank(subset, coverage, n, matched, lent, asking=asking)
        assert [r.memory.id for r in ranked] == whole


def test_words_matches_left_unread_could_not_have_ranked() -> None:
    """Recall reads the vectors of only those memories found by words (not by the vector
    search) that ``contenders`` keeps, first by their own scores, then with what a hit
    lends them: the first n are what reading every one of them gives."""
    import random

    from ego_mcp.memory.recall.context import Lent
    from ego_mcp.memory.recall.fusion import best_ids, contenders

    chance = random.Random(11)
    pruned = 0
    for _ in range(500):
        ids = [f"m{i}" for i in range(chance.randint(2, 50))]
        similarity = {i: round(chance.uniform(-0.3, 1.0), 2) for i in ids}
        ordered = sorted(ids, key=lambda i: -similarity[i])
        searched = ordered[: chance.randint(1, len(ids) - 1)]  # what the vector search brings
        coverage = {i: round(chance.uniform(0, 1), 2) for i in ids if chance.random() < 0.6}
        matched = {i for i in coverage if chance.random() < 0.7}
        by_words = [i for i in ordered if i not in searched and i in coverage]
        lent = {i: Lent(chance.uniform(0, 0.3), "m0") for i in ids if chance.random() < 0.1}
        asking = {i for i in ids if chance.random() < 0.3} if chance.random() < 0.5 else set()
        n = chance.randint(1, 10)
        distance = {i: 1.0 - similarity[i] for i in ids}
        every = {i: distance[i] for i in ids if i in searched or i in by_words}
        ceiling = similarity_of(distance[searched[-1]])
        pool = {i: distance[i] for i in searched}
        kept = set(contenders(ceiling, pool, coverage, by_words, n, matched, asking=asking))
        read = {i: d for i, d in every.items() if i in searched or i in kept}
        # what a hit lends: to those kept and any other the bound cannot rule out
        others = [i for i in by_words if i not in kept]
        kept |= set(
            contenders(ceiling, {**pool, **read}, coverage, others, n, matched, lent, asking)
        )
        read = {i: d for i, d in every.items() if i in searched or i in kept}
        pruned += len(every) - len(read)
        assert best_ids(read, coverage, n, matched, lent, asking) == best_ids(
            every, coverage, n, matched, lent, asking
        )
    assert pruned > 1000  # the bound leaves most unread


def test_pruned_candidates_rank_as_every_vector_read_with_questions_weighed() -> None:
    """Recall's order of steps (``memory/recall/search.py``): the pool, the best word
    matches kept by ``contenders``, the five hits that lend (by their full scores), the
    neighbours they lend to kept by ``contenders``, then what is shown (a memory that
    asks weighed). Reading only the kept vectors must show what reading all of them
    does; the hits that lend rank unweighed, so the first ``contenders`` keeps what could
    be among them as well as what could be shown (without that, 38 of 20,000 such
    random cases differed)."""
    import random
    from types import SimpleNamespace

    from ego_mcp.memory.recall import search
    from ego_mcp.memory.recall.context import CONTEXT_HITS, lent_scores
    from ego_mcp.memory.recall.fusion import best_ids
    from ego_mcp.memory.store import Sitting

    Terms = dict[str, tuple[str, ...]]

    class Words:
        def __init__(self, coverage: dict[str, float], matched: set[str], found: Terms) -> None:
            self._coverage, self._matched = coverage, matched
            self.lookup = SimpleNamespace(documents=found)

        def coverage(self, documents: Terms) -> dict[str, float]:
            return {i: self._coverage.get(i, 0.0) for i in documents}

        def matched(self, documents: Terms) -> set[str]:
            return {i for i in documents if i in self._matched}

    class Index:
        def __init__(self, asking: set[str]) -> None:
            self._asking = asking

        def asking(self, memory_ids: list[str]) -> set[str]:
            return set(memory_ids) & self._asking

    def shown(seed: int, prune: bool) -> list[str]:
        chance = random.Random(seed)
        ids = [f"m{i:03d}" for i in range(chance.randint(15, 60))]
        similarity = {i: chance.uniform(0, 0.8) for i in ids}
        pool = sorted(ids, key=lambda i: -similarity[i])[: chance.randint(6, 12)]
        coverage = {i: round(chance.uniform(0, 1.2), 2) for i in ids if chance.random() < 0.5}
        matched = {i for i in coverage if chance.random() < 0.8}
        asking = {i for i in ids if chance.random() < 0.4}
        follows = {ids[k]: ids[k - 1] for k in range(1, len(ids)) if chance.random() < 0.6}
        n = chance.randint(1, 8)
        found = {i: (i,) for i in coverage if chance.random() < 0.8}
        distance = {i: 1 - similarity[i] for i in pool}
        words, index = Words(coverage, matched, found), Index(asking)
        known = search._Candidates(words, distance, True, index)  # type: ignore[arg-type]
        known.add_terms({**found, **{i: (i,) for i in distance if i not in found}})
        best = sorted(
            (i for i in found if i not in distance and known.covered[i] > 0),
            key=known.covered.__getitem__,
        )[-chance.randint(3, 15) :]
        if prune:
            best = known.contenders(best, max(CONTEXT_HITS, n), lending=True)
        distance.update({i: 1 - similarity[i] for i in best})
        top = best_ids(distance, known.covered, CONTEXT_HITS, known.matched)
        sitting = Sitting(
            {i: follows[i] for i in top if i in follows},
            {j: f for j, f in follows.items() if f in top},
        )
        lent = lent_scores([(i, known.score(i)) for i in top], sitting)
        beside = [i for i in lent if i not in distance]
        known.add_terms({i: (i,) for i in beside if i not in known.covered})
        if prune:
            beside = known.contenders(beside, n, lent)
        distance.update({i: 1 - similarity[i] for i in beside})
        return best_ids(distance, known.covered, n, known.matched, lent, known.asking)

    for seed in range(3000):
        assert shown(seed, prune=True) == shown(seed, prune=False), seed

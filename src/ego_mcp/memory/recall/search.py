"""Recall for one agent: the memories that best match a query in meaning (vectors) and in
words (the lexical index, in each memory's own language), fused, with the memories saved
beside the best of them (``memory/recall/context.py``).

Candidates are weighed by id: the vector search returns ids and distances, and the
memories the words found get their similarity from their stored vectors. Records (text
and metadata, most of a read's cost) are read only for what is shown (for every
candidate when fading is on, since it weighs each by its record): at N = 1,000 this
halved recall in process (24 to 12 ms p50). The five best hits' neighbours come from the
store's ``sitting``, which the embedded lexical index answers without a Chroma read.

The word reads run in a thread beside the query's embedding and the vector search: the
lookup's SQLite reads and the embedding's matrix products each let go of the GIL (in
process at N = 1,000, paired: 10.7 -> 9.7 ms p50, 0.35 ms more CPU). When each read is a
round trip to a server (``reads_remote``), the records also come with the vector query (one
round trip for the thirty nearest, where reading by id took one or two more), and the
scripts to read a query in are those the last lookup found: 10.1 requests a recall
became 7.7, and at 100,000 memories on a Chroma server recall's p50 went from 54-67 ms
to 45-56 ms per query shape (``bench/recall_bench.py``, the same store).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ego_mcp.embedding.base import query_vector
from ego_mcp.logs import Plain
from ego_mcp.memory.model import Memory, SearchHit, similarity_of
from ego_mcp.memory.parts import MemoryParts, memory_not_found
from ego_mcp.memory.recall.bm25 import Concept, CorpusStats, concept_coverage
from ego_mcp.memory.recall.context import CONTEXT_HITS, Lent, lent_scores
from ego_mcp.memory.recall.crosslingual import coverage_across, readings, translated_terms
from ego_mcp.memory.recall.explore import Walk, walk
from ego_mcp.memory.recall.fusion import Ranked, best_ids, contenders, fused, newer_first, rank
from ego_mcp.memory.recall.names import name_groups, named_reading
from ego_mcp.memory.recall.terms import asks, content_terms, terms
from ego_mcp.memory.store import LexicalIndex, LexicalLookup, MemoryFilter

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

RECALL_POOL = 30  # candidates each half of recall brings (vectors, words)
# Recall's lexical reads, run beside its vector search: one at a time per recall, so
# this many recalls at once overlap their reads (threads start only when needed).
_READS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="ego-recall")

logger = logging.getLogger(__name__)


class Recall(MemoryParts):
    """Reading memories back by a query, or around a memory along its links."""

    def explore(self, seed_id: str, depth: int) -> Walk:
        """The memories within ``depth`` links of ``seed_id`` (``memory/recall/explore.py``)."""
        seed = self.store.get(seed_id)
        if seed is None:
            raise memory_not_found(seed_id)
        return walk(seed, depth, self.store.get_many)

    def recall(
        self,
        query: str,
        n_results: int,
        where: MemoryFilter | None = None,
        people: Sequence[Sequence[str]] = (),
    ) -> list[Ranked]:
        """The memories that best match ``query`` in meaning and in words (in each
        memory's own language: ``memory/recall/crosslingual.py``), private ones included, none
        that matches neither (``memory/recall/fusion.py``). ``people``: the names of each person
        the query names, by which a memory may name them (``memory/recall/names.py``)."""
        started = time.perf_counter()
        query_asks = asks(query)
        if self.lexical is None:
            vector = query_vector(self.embedder, query)
            nearest = self.store.search(vector, max(n_results, RECALL_POOL), where)
            asking = {h.memory.id for h in nearest if query_asks and asks(h.memory.content)}
            found = newer_first(rank(nearest, {}, n_results, asking=asking))
            _log_recall(found, 0, started)
            return found
        # The words' reads need the vectors' answer only when the memories are scored,
        # so they run meanwhile.
        lexical = self.lexical
        by_words = _READS.submit(self._words, lexical, query, name_groups(people))
        pool = max(n_results, RECALL_POOL)
        try:
            vector = query_vector(self.embedder, query)
            distance, read = self._nearest(vector, pool, where)
        except BaseException:
            by_words.cancel()  # the vectors failed: the words' reads are not waited for
            raise
        # A fade weighs each memory apart: no bound holds then, and every one is read;
        # nor when the search came back short (a filter, or a store smaller than the pool).
        bounded = self.fade is None and len(distance) >= pool
        known = _Candidates(by_words.result(), distance, bounded, lexical if query_asks else None)
        found_by_words = known.words.lookup.documents
        by_vector = lexical.documents([i for i in distance if i not in found_by_words])
        known.add_terms({**found_by_words, **by_vector})
        best = sorted(
            (i for i in found_by_words if i not in distance and known.covered[i] > 0),
            key=known.covered.__getitem__,
        )
        extra = best[-RECALL_POOL:]  # the best matches by words that meaning missed
        extra = known.contenders(extra, max(CONTEXT_HITS, n_results), lending=True)
        self._add_distances(distance, extra, vector, where)
        # The hits that lend, by their full scores: a question that matches the query
        # lends its reply as much as a statement would.
        top = best_ids(distance, known.covered, CONTEXT_HITS, known.matched)
        if self.reads_remote:  # on a server the chain is in the records, mostly shown too
            read.update((m.id, m) for m in self.store.get_many([i for i in top if i not in read]))
        lent = lent_scores([(i, known.score(i)) for i in top], self.store.sitting(top, read))
        beside = [i for i in lent if i not in distance]
        if beside:
            known.add_terms(lexical.documents([i for i in beside if i not in known.covered]))
            beside = known.contenders(beside, n_results, lent)
            self._add_distances(distance, beside, vector, where)
        # Fading weighs each memory by its record: then every candidate is read.
        if self.fade is not None:
            shown = list(distance)
        else:
            shown = best_ids(distance, known.covered, n_results, known.matched, lent, known.asking)
        unread = [i for i in shown if i not in read]
        read.update((memory.id, memory) for memory in self.store.get_many(unread))
        hits = [SearchHit(read[i], distance[i]) for i in shown if i in read]
        fading = (self.fade, self.clock.now()) if self.fade is not None else None
        found = newer_first(
            rank(hits, known.covered, n_results, known.matched, lent, fading, known.asking)
        )
        _log_recall(found, len(extra), started)
        return found

    def _nearest(
        self, vector: Vector, pool: int, where: MemoryFilter | None
    ) -> tuple[dict[str, float], dict[str, Memory]]:
        """The cosine distance of the ``pool`` memories nearest ``vector``, and the records
        read with them."""
        if self.reads_remote:
            # Each read is a round trip to a server: the records come with the query, as
            # the best five and most of what is shown are among them.
            hits = self.store.search(vector, pool, where)
            return {h.memory.id: h.distance for h in hits}, {h.memory.id: h.memory for h in hits}
        # Ids and similarities first; a record is read only for what is shown.
        return dict(self.store.nearest(vector, pool, where)), {}

    def _add_distances(
        self,
        distance: dict[str, float],
        memory_ids: list[str],
        vector: Vector,
        where: MemoryFilter | None,
    ) -> None:
        """The cosine distance of each memory of ``memory_ids`` that passes ``where``."""
        for memory_id, stored in self.store.vectors(memory_ids, where).items():
            distance[memory_id] = float(1.0 - stored @ vector)

    def _words(
        self, lexical: LexicalIndex, query: str, groups: Sequence[frozenset[str]]
    ) -> _QueryWords:
        """The query's terms, their readings in the other script and by people's other
        names, and what the lexical index knows of them (with the memories best
        matching them)."""
        query_terms = terms(query)
        # Which scripts to read the query in. On a server, as the last lookup found them
        # (one round trip fewer; a script's first memory, saved by another process since,
        # is read in from the next recall on); in one process, as they are.
        seen = self.scripts_seen if self.reads_remote else None
        scripts = set(seen) if seen is not None else _scripts(lexical.stats())
        read = readings(query_terms, self.dictionary, scripts)
        named = named_reading(query_terms, groups)
        other_names = sorted(translated_terms({False: named}) - set(query_terms))
        lookup = lexical.lookup(
            [*query_terms, *other_names], RECALL_POOL, sorted(translated_terms(read))
        )
        self.scripts_seen = frozenset(_scripts(lookup.stats))
        # What can make a match on its own: the content words and their translations;
        # function words, and what "in" translates to, only add to a match.
        content = content_terms(query_terms)
        matching = content | translated_terms(readings(sorted(content), self.dictionary, scripts))
        return _QueryWords(query_terms, read, lookup, frozenset(matching).union(other_names), named)


@dataclass(frozen=True)
class _QueryWords:
    """A query's words as recall scores them."""

    terms: list[str]
    read: dict[bool, list[Concept]]
    lookup: LexicalLookup
    matching: frozenset[str] = frozenset()
    named: Sequence[Concept] = ()  # the query with people's names read as all their names

    def coverage(self, documents: Mapping[str, Sequence[str]]) -> dict[str, float]:
        found = self.lookup
        covered = coverage_across(self.terms, self.read, documents, found.frequencies, found.stats)
        if self.named:
            by_name = concept_coverage(self.named, documents, found.frequencies, found.stats)
            for memory_id, value in by_name.items():
                covered[memory_id] = max(covered[memory_id], value)
        return covered

    def matched(self, documents: Mapping[str, Sequence[str]]) -> set[str]:
        """The documents that share a content word with the query (or its translation):
        one sharing only function words is no match by words, whatever they add to the
        rank of one that is."""
        return {i for i, held in documents.items() if self.matching.intersection(held)}


class _Candidates:
    """What recall knows of its candidates so far: the cosine distance of each whose
    vector is read, the coverage and content-word match of each whose terms are, and,
    for a query that asks, which of them end by asking (``asked_of``: the index that
    tells; None when the query does not ask)."""

    def __init__(
        self,
        words: _QueryWords,
        distance: dict[str, float],
        bounded: bool,
        asked_of: LexicalIndex | None = None,
    ) -> None:
        self.words = words
        self.distance = distance  # the vector search's pool, then what recall adds
        self.covered: dict[str, float] = {}
        self.matched: set[str] = set()
        self.asked_of = asked_of
        self.asking: set[str] = set()
        # No memory outside the pool is more similar to the query than its least similar.
        self.ceiling = min(map(similarity_of, distance.values()), default=0.0)
        self.bounded = bounded

    def add_terms(self, documents: Mapping[str, Sequence[str]]) -> None:
        self.covered.update(self.words.coverage(documents))
        self.matched |= self.words.matched(documents)
        if self.asked_of is not None and documents:
            self.asking |= self.asked_of.asking(list(documents))

    def score(self, memory_id: str) -> float:
        """A candidate's fused score on its own (its vector read)."""
        distance = self.distance[memory_id]
        return fused(similarity_of(distance), self.covered.get(memory_id, 0.0), None)

    def contenders(
        self,
        candidates: Sequence[str],
        places: int,
        lent: Mapping[str, Lent] | None = None,
        lending: bool = False,
    ) -> list[str]:
        """Those of ``candidates`` (outside the pool, their terms read) whose vectors are
        worth reading (``fusion.contenders``); all of them when no bound holds. With
        ``lending``, also those that could be among the hits that lend, which rank by
        their full scores (a question asked of a question is weighed only where shown)."""
        if not self.bounded:
            return list(candidates)
        weighings = [self.asking, frozenset()] if lending and self.asking else [self.asking]
        kept = {
            memory_id
            for asking in weighings
            for memory_id in contenders(
                self.ceiling,
                self.distance,
                self.covered,
                candidates,
                places=places,
                matched=self.matched,
                lent=lent,
                asking=asking,
            )
        }
        return [memory_id for memory_id in candidates if memory_id in kept]


def _scripts(held: CorpusStats) -> set[bool]:
    """The scripts some memory is written in (True: Japanese)."""
    return {japanese for japanese, count in ((True, held.japanese), (False, held.latin)) if count}


def _log_recall(found: list[Ranked], by_words: int, started: float) -> None:
    if not logger.isEnabledFor(logging.DEBUG):
        return  # recall is a hot path: no ids joined for a line nobody reads
    logger.debug(
        "recall: %d hits (%s), %d added by words, %.1f ms",
        len(found),
        Plain(
            " ".join(
                f"{item.hit.memory.id}:{item.hit.similarity:.2f}+{item.coverage:.2f}"
                for item in found
            )
        ),
        by_words,
        (time.perf_counter() - started) * 1000,
    )

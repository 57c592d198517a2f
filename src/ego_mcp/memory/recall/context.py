"""Recall's context: the memories saved just before and just after a strong hit.

Each memory is saved with the id of the one its agent saved just before it (``follows``)
when that was at most ``CONTEXT_GAP`` earlier, so the memories of one sitting form a
chain. What a question asks is often said beside the words it shares with a memory: the
reply after a question, the sentence before a name. So each of recall's ``CONTEXT_HITS``
best hits lends its two neighbours in the chain ``CONTEXT_WEIGHT`` times its own score,
added to what they score themselves; a neighbour that matched nothing on its own still
ranks below the hit that brought it.

Chosen on LoCoMo conversations 1 and 2 and checked on the third, kept aside
(``bench/locomo_bench.py``; bench/README.md has the figures).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from ego_mcp.memory.store import Sitting

CONTEXT_GAP = timedelta(minutes=30)
CONTEXT_HITS = 5
CONTEXT_WEIGHT = 0.3


@dataclass(frozen=True)
class Lent:
    """What a neighbour of a hit is lent, and by which hit."""

    score: float
    beside: str


def lent_scores(top: Sequence[tuple[str, float]], sitting: Sitting) -> dict[str, Lent]:
    """The score each neighbour of the ``top`` hits (id and fused score, best first) is
    lent by the best hit beside it. ``sitting``: what each hit follows, and what follows
    each."""
    following: dict[str, list[str]] = {}
    for follower, followed in sitting.followers.items():
        following.setdefault(followed, []).append(follower)
    lent: dict[str, Lent] = {}
    for memory_id, score in top:
        before = sitting.follows.get(memory_id)
        beside = [before] if before else []
        for neighbour in [*beside, *sorted(following.get(memory_id, []))]:
            if neighbour != memory_id and neighbour not in lent:
                lent[neighbour] = Lent(CONTEXT_WEIGHT * score, memory_id)
    return lent

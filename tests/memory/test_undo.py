"""Undo is exact: merges undone newest first, losing nothing, and no late job undoes a restore."""

from __future__ import annotations

from itertools import permutations

import pytest

from ego_mcp.errors import InvalidInput
from ego_mcp.memory.model import DeletedMemory
from ego_mcp.memory.service import MemoryService
from tests.helpers import assert_links_bidirectional, save

ORIGINAL = "Master adopted a grey cat named Mochi from the shelter."
FACTS = {
    "b": "Mochi sleeps on the piano every afternoon.",
    "c": "Mochi is allergic to peanuts, the vet said.",  # private
    "d": "Mochi learned to open the kitchen door.",
}


def merged_text(parts: list[str]) -> str:
    return " ".join([ORIGINAL, *(FACTS[p] for p in parts)])


def facts_kept(memory: MemoryService) -> set[str]:
    """The facts some memory or some undoable log entry still holds."""
    log = memory.deletion_log
    assert log is not None
    ids = [i for page in memory.store.ids() for i in page]
    texts = [m.content for m in memory.store.get_many(ids)]
    texts += [e.memory.content for e in log.entries()]
    return {name for name, fact in FACTS.items() if any(fact in text for text in texts)}


@pytest.mark.parametrize("order", list(permutations("bcd")), ids="".join)
def test_three_merges_undone_in_any_order_lose_nothing(
    memory: MemoryService, order: tuple[str, ...]
) -> None:
    keep = save(memory, ORIGINAL)
    ids = {name: save(memory, fact, is_private=name == "c") for name, fact in FACTS.items()}
    for step, name in enumerate("bcd"):
        memory.merge(keep, ids[name], merged_text(list("bcd"[: step + 1])))
    assert memory.get(keep).is_private  # the private fact came in with c

    pending = list(order)
    while pending:
        name = pending.pop(0)
        undone = [n for n in "bcd" if memory.store.existing_ids([ids[n]])]
        later = [n for n in "bcd" if n > name and n not in undone]
        before = memory.get(keep)
        if later:
            with pytest.raises(InvalidInput) as refused:
                memory.restore(ids[name])
            assert all(ids[n] in str(refused.value) for n in later), refused.value
            assert memory.get(keep) == before  # refused: nothing written
            pending.append(name)
        else:
            memory.restore(ids[name])
        assert facts_kept(memory) == set(FACTS)
        assert_links_bidirectional(memory.store)

    assert memory.get(keep).content == ORIGINAL
    assert not memory.get(keep).is_private
    for name, fact in FACTS.items():
        assert memory.get(ids[name]).content == fact
    assert memory.get(ids["c"]).is_private


def test_a_stale_unlink_job_leaves_a_restored_memory_linked(memory: MemoryService) -> None:
    """Redis away: a forget queues ``unlink_memory``; the memory is restored before the
    backlog runs; the job, run late, must not cut the links the restore made."""
    first = save(memory, "Master planted tomatoes along the fence in the back garden.")
    second = save(memory, "Master planted basil beside the tomatoes in the back garden.")
    targets = [lk.target_id for lk in memory.get(second).linked_ids]
    assert first in targets
    memory.forget(second)
    memory.restore(second)

    assert memory.unlink_forgotten(second, targets) == 0

    assert memory.get(first).link_to(second) is not None
    assert_links_bidirectional(memory.store)


def test_a_purged_entry_stays_forgotten_even_if_it_was_logged_before_the_record(
    memory: MemoryService,
) -> None:
    """An entry in the log that never reached the record of what departed (logged before
    it existed, or brought in by an import) is noted when the purge takes its text."""
    from dataclasses import replace as replaced

    from ego_mcp.memory.model import DeletedMemory

    log, departed = memory.deletion_log, memory.departed
    assert log is not None and departed is not None
    old = save(memory, "An old thought about the harbour lights.")
    gone = memory.get(old)
    memory.store.delete(old)  # as an older version forgot it: a log entry, no record
    log.put(DeletedMemory(replaced(gone, linked_ids=()), memory.clock.now(), "forget"))
    assert departed.known([old]) == set()

    memory.purge_deletion_log(everything=True)

    assert departed.known([old]) == {old}


def test_a_forget_writes_the_log_and_the_purge_the_departed_record(
    memory: MemoryService,
) -> None:
    """One write fewer a forget: while the text is in the log the log is what says the
    memory left; the purge that takes the text notes it as departed for good."""
    log, departed = memory.deletion_log, memory.departed
    assert log is not None and departed is not None
    gone = save(memory, "A passing thought about the ferry timetable.")
    memory.forget(gone)
    assert log.logged_ids([gone]) == {gone}
    assert departed.known([gone]) == set()

    memory.purge_deletion_log(everything=True)

    assert log.logged_ids([gone]) == set()
    assert departed.known([gone]) == {gone}


def test_a_forget_during_a_purge_of_everything_stays_in_the_log(
    memory: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``forgotten purge --all`` beside a front end (a Chroma server has no directory
    lock): a memory forgotten after the purge read the log is not purged unread, so it is
    in the log or the departed record, never in neither."""
    log, departed = memory.deletion_log, memory.departed
    assert log is not None and departed is not None
    first = save(memory, "A note about the lighthouse keeper's lantern.")
    second = save(memory, "A note about the bakery's new rye loaf.")
    memory.forget(first)
    read_entries = log.entries

    def entries_then_a_forget() -> list[DeletedMemory]:
        found = read_entries()
        memory.forget(second)  # lands between the purge's read and its delete
        return found

    monkeypatch.setattr(log, "entries", entries_then_a_forget)
    assert memory.purge_deletion_log(everything=True) == [first]

    assert departed.known([first]) == {first}
    assert log.logged_ids([second]) == {second}

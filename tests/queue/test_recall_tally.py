"""The recall tally: what recall showed goes out as one note_recalls job now and then."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ego_mcp.queue.recall_tally import RecallTally

NOON = datetime(2026, 6, 1, 12, tzinfo=UTC)
DAY = str(int(NOON.timestamp() // 86_400))


class Seconds:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_ids_wait_for_the_interval_then_go_out_as_one_job_per_agent() -> None:
    seconds = Seconds()
    tally = RecallTally(interval=60, seconds=seconds)
    assert tally.add("aya", ["mem_b", "mem_a"], NOON) == []
    seconds.now = 30
    assert tally.add("aya", ["mem_a", "mem_c"], NOON) == []
    assert tally.add("ken", ["mem_k"], NOON) == []
    seconds.now = 61
    (job,) = tally.add("aya", [], NOON)
    assert (job.function, job.agent) == ("note_recalls", "aya")
    assert job.ids == {"memory_ids": "mem_a,mem_b,mem_c", "day": DAY}
    assert [j.agent for j in tally.flush()] == ["ken"]
    assert tally.flush() == []


def test_a_new_day_or_a_full_tally_sends_what_waits_at_once() -> None:
    tally = RecallTally(interval=60, most=3, seconds=Seconds())
    tally.add("aya", ["mem_a"], NOON)
    (yesterday,) = tally.add("aya", ["mem_b"], NOON + timedelta(days=1))
    assert yesterday.ids == {"memory_ids": "mem_a", "day": DAY}
    (full,) = tally.add("aya", ["mem_c", "mem_d"], NOON + timedelta(days=1))
    assert full.ids["memory_ids"] == "mem_b,mem_c,mem_d"


def test_a_long_list_of_ids_stands_in_the_job_id_by_a_digest() -> None:
    tally = RecallTally(interval=0, seconds=Seconds())
    ids = [f"mem_{i:012x}" for i in range(30)]
    (job,) = tally.add("aya", ids, NOON)
    assert job.ids["memory_ids"] == ",".join(ids)  # the job still gets every id
    assert len(job.job_id) < 80 and job.job_id.startswith("note_recalls:aya:sha256-")
    (same,) = RecallTally(interval=0, seconds=Seconds()).add("aya", reversed(ids), NOON)
    assert same.job_id == job.job_id  # the same set, the same job

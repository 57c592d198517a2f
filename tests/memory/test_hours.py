"""Per-hour values are dropped with their hour, and a read overtaken by a drop is not kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ego_mcp.memory.hours import ClosedHours, hour_of

MOMENT = datetime(2026, 11, 1, 9, 30, tzinfo=UTC)


def test_values_of_an_hour_go_when_a_memory_of_it_changes() -> None:
    hours = ClosedHours()
    assert hours.put_all({hour_of(MOMENT): "tally"}, hours.version)
    hours.drop(MOMENT + timedelta(hours=1))  # another hour: kept
    assert hours.get(hour_of(MOMENT)) == "tally"
    hours.drop(MOMENT + timedelta(minutes=20))
    assert hours.get(hour_of(MOMENT)) is None


def test_a_read_overtaken_by_a_forget_is_not_kept() -> None:
    hours = ClosedHours()
    assert hours.put_all({hour_of(MOMENT): "old"}, hours.version)
    read_at = hours.version
    hours.drop(MOMENT)  # lands while another thread reads the hour
    assert not hours.put_all({hour_of(MOMENT): "read before the forget"}, read_at)
    assert hours.get(hour_of(MOMENT)) is None


def test_derived_values_last_while_no_hour_changes() -> None:
    hours = ClosedHours()
    version = hours.version
    hours.keep_derived("sum", version, 42)
    assert hours.derived("sum", version) == 42
    hours.put_all({hour_of(MOMENT): "tally"}, version)
    assert hours.derived("sum", hours.version) is None

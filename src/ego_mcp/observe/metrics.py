"""The Prometheus metrics of a front end or a worker, in one registry per process.

Labels are tool names, job kinds, outcomes and agent names: never content, never tokens.
Counters and histograms are this process's own (sum them across processes); the gauges
read at scrape time from Redis (queue depth, last successes) are the same from every
process that reads them (take their max).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry()
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

TOOL_CALLS = Counter(
    "ego_mcp_tool_calls",
    "Tool calls by tool, outcome (ok or error) and agent.",
    ["tool", "outcome", "agent"],
    registry=REGISTRY,
)
TOOL_SECONDS = Histogram(
    "ego_mcp_tool_duration_seconds",
    "Tool call latency in the server, by tool and agent.",
    ["tool", "agent"],
    buckets=(0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
JOB_RUNS = Counter(
    "ego_mcp_job_runs", "Job runs (every try) by kind.", ["function"], registry=REGISTRY
)
JOB_FAILURES = Counter(
    "ego_mcp_job_failures",
    "Jobs that failed for good (after their last try) by kind.",
    ["function"],
    registry=REGISTRY,
)
JOB_RETRIES = Counter(
    "ego_mcp_job_retries", "Failed tries that will be retried, by kind.", ["function"],
    registry=REGISTRY,
)  # fmt: skip
JOB_SECONDS = Histogram(
    "ego_mcp_job_duration_seconds",
    "Job run time by kind (every try).",
    ["function"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
    registry=REGISTRY,
)


@dataclass
class Snapshot:
    """What a scrape reads from the stores; ``None`` where that store did not answer."""

    queued: dict[str, int] = field(default_factory=dict)  # job kind -> jobs waiting
    in_progress: dict[str, int] = field(default_factory=dict)
    last_success: dict[tuple[str, str], float] = field(default_factory=dict)  # (kind, agent)
    memories: dict[str, int] = field(default_factory=dict)  # agent -> memories
    schedule_seconds: dict[str, float] = field(default_factory=dict)  # kind -> interval
    redis_up: bool | None = None  # None: no Redis configured
    chroma_up: bool = True


class SnapshotCollector(Collector):
    """Gauges read at scrape time through ``probe`` (none until a probe is set)."""

    def __init__(self) -> None:
        self.probe: Callable[[], Snapshot] | None = None

    def collect(self) -> Iterator[Metric]:
        if self.probe is None:
            return
        snapshot = self.probe()
        yield _gauge(
            "ego_mcp_queue_depth", "Jobs waiting in the queue, by kind.", ["function"],
            snapshot.queued,
        )  # fmt: skip
        yield _gauge(
            "ego_mcp_jobs_in_progress", "Jobs running now, by kind.", ["function"],
            snapshot.in_progress,
        )  # fmt: skip
        last = GaugeMetricFamily(
            "ego_mcp_job_last_success_timestamp_seconds",
            "Unix time each job kind last succeeded, by agent.",
            labels=["function", "agent"],
        )
        for (function, agent), moment in sorted(snapshot.last_success.items()):
            last.add_metric([function, agent], moment)
        yield last
        yield _gauge(
            "ego_mcp_job_schedule_interval_seconds",
            "How often each scheduled job kind runs per agent.",
            ["function"],
            snapshot.schedule_seconds,
        )
        yield _gauge("ego_mcp_memories", "Memories stored, by agent.", ["agent"], snapshot.memories)
        yield GaugeMetricFamily(
            "ego_mcp_chroma_up", "1 if ChromaDB answers.", value=float(snapshot.chroma_up)
        )
        if snapshot.redis_up is not None:
            yield GaugeMetricFamily(
                "ego_mcp_redis_up", "1 if Redis answers.", value=float(snapshot.redis_up)
            )


def _gauge(
    name: str, documentation: str, labels: list[str], values: dict[str, int] | dict[str, float]
) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, documentation, labels=labels)
    for label, value in sorted(values.items()):
        family.add_metric([label], float(value))
    return family


SNAPSHOT = SnapshotCollector()
REGISTRY.register(SNAPSHOT)


def install_snapshot(probe: Callable[[], Snapshot]) -> None:
    """Set how this process reads its scrape-time gauges (a later call replaces it)."""
    SNAPSHOT.probe = probe


def exposition() -> bytes:
    """The text a ``/metrics`` scrape gets."""
    return generate_latest(REGISTRY)

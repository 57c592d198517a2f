"""deploy/: the Prometheus config is valid, the compose file's mounts exist, and the
Grafana dashboard asks only for metrics the processes expose."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from ego_mcp.observe.metrics import Snapshot, exposition, install_snapshot

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
METRIC = re.compile(r"\bego_mcp_[a-z_]+")


def dashboard_queries() -> list[str]:
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "ego-mcp.json").read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]


def exposed_names() -> set[str]:
    """Every metric name a scrape can return (with a snapshot of every gauge)."""
    install_snapshot(
        lambda: Snapshot(
            queued={"consolidate": 0},
            in_progress={"consolidate": 0},
            last_success={("consolidate", "nova"): 1.0},
            memories={"nova": 1},
            schedule_seconds={"consolidate": 21600.0},
            redis_up=True,
        )
    )
    text = exposition().decode()
    suffixes = {"counter": [""], "histogram": ["_bucket", "_count", "_sum"], "gauge": [""]}
    return {
        name + suffix
        for name, kind in re.findall(r"^# TYPE (\S+) (\S+)$", text, re.MULTILINE)
        for suffix in suffixes[kind]
    }


def test_every_dashboard_query_uses_exposed_metrics() -> None:
    exposed = exposed_names()
    queries = dashboard_queries()
    used = {name for query in queries for name in METRIC.findall(query)}
    assert len(queries) >= 10
    assert used and used <= exposed, used - exposed
    panels = " ".join(queries)
    for needed in (
        "ego_mcp_queue_depth",
        "ego_mcp_job_runs_total",
        "ego_mcp_job_failures_total",
        "ego_mcp_job_last_success_timestamp_seconds",
        "ego_mcp_job_schedule_interval_seconds",
        "ego_mcp_tool_duration_seconds_bucket",
        "ego_mcp_memories",
    ):
        assert needed in panels, needed


@pytest.mark.skipif(shutil.which("promtool") is None, reason="needs Debian's prometheus")
def test_the_prometheus_config_is_valid() -> None:
    checked = subprocess.run(
        ["promtool", "check", "config", str(DEPLOY / "prometheus" / "prometheus.yml")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_compose_mounts_what_deploy_holds() -> None:
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"ego-mcp", "worker", "prometheus", "grafana", "redis", "chroma"} <= set(services)
    for service in ("prometheus", "grafana"):
        for volume in services[service]["volumes"]:
            source = volume.split(":")[0]
            assert (DEPLOY / source).exists(), source
    assert services["worker"]["environment"]["EGO_MCP_METRICS_PORT"] == "9100"
    prometheus = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    ports = {
        str(sd["port"])
        for job in prometheus["scrape_configs"]
        for sd in job.get("dns_sd_configs", [])
    }
    assert ports == {"9100"}

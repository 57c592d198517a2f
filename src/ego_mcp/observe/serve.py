"""The operator's endpoints of a process on ``EGO_MCP_METRICS_PORT`` (a worker, or a stdio
front end): metrics, health, readiness and, with Redis, the queue's status page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ego_mcp.observe.endpoints import OpsServer
from ego_mcp.observe.probe import readiness
from ego_mcp.queue.status import read_status

if TYPE_CHECKING:
    from ego_mcp.runtime import Runtime


def ops_server(runtime: Runtime) -> OpsServer:
    settings = runtime.settings
    if settings.metrics_port is None:
        raise ValueError("EGO_MCP_METRICS_PORT is not set")
    status = (lambda: read_status(runtime.redis)) if runtime.redis is not None else None
    return OpsServer(
        settings.metrics_host, settings.metrics_port, lambda: readiness(runtime), status
    )

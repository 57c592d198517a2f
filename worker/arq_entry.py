"""The arq worker's entry for a checkout: ``arq worker.arq_entry.WorkerSettings``, run from
the repository's root (the deploy files and older notes use it). The worker itself is
``ego_mcp.queue.worker``, installed with the package: ``ego-mcp worker``, or
``arq ego_mcp.queue.worker.WorkerSettings`` from anywhere."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # Built on first access, as the package's own entry builds it: no import side effects.
    if name == "WorkerSettings":
        from ego_mcp.queue import worker

        return worker.WorkerSettings
    raise AttributeError(name)

"""Jobs never hold the event loop: opening the agent's service (a first open may backfill
or reconcile for seconds) runs in the job's thread, not the loop's, so the worker's
heartbeat, which keeps the job marked in progress, goes on meanwhile."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import pytest

from ego_mcp.queue.jobs import JOB_FUNCTIONS, RUNTIME_KEY

pytestmark = pytest.mark.anyio


class Done:
    """Whatever a service method is asked, an answer a job can return."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: 0


class Recording:
    """A runtime noting the thread that opens each service (or re-embeds)."""

    def __init__(self) -> None:
        self.opened_in: list[int] = []

    def _open(self, agent: str) -> Any:
        self.opened_in.append(threading.get_ident())
        return Done()

    memory = ego = workspace = _open

    def reembed(self, agent: str) -> int:
        self.opened_in.append(threading.get_ident())
        return 0


ARGUMENTS = {
    "cleanup_workspace": {"memory_id": "mem_0123456789ab"},
    "link_memory": {"memory_id": "mem_0123456789ab"},
    "unlink_memory": {"memory_id": "mem_0123456789ab", "targets": "mem_0123456789ac"},
    "note_recalls": {"memory_ids": "mem_0123456789ab", "day": "20000"},
}


@pytest.mark.parametrize("name", sorted(JOB_FUNCTIONS))
async def test_a_job_opens_the_agent_off_the_event_loop(name: str) -> None:
    runtime = Recording()
    # The stand-in answers do not satisfy every job's report of what it did.
    with contextlib.suppress(TypeError, AttributeError):
        await JOB_FUNCTIONS[name]({RUNTIME_KEY: runtime}, "nova", **ARGUMENTS.get(name, {}))
    loop_thread = threading.get_ident()
    assert runtime.opened_in, name
    assert loop_thread not in runtime.opened_in

"""What a job request is, and the interface every queue offers."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class JobRequest:
    """A job to run: a function name, an agent and ids. Never memory content.

    ``slot`` is a schedule's slot (one run per slot); ``occasion`` marks the one event a
    job answers (a memory removed): the same memory removed, restored and removed again
    is two occasions, and each gets its job, whatever the queue remembers of the first.
    """

    function: str
    agent: str
    ids: dict[str, str] = field(default_factory=dict)
    slot: str = ""
    occasion: str = ""

    @classmethod
    def for_event(cls, function: str, agent: str, ids: dict[str, str]) -> JobRequest:
        """A job answering one event: an id of its own, never taken for an earlier one."""
        return cls(function, agent, ids, occasion=uuid.uuid4().hex[:12])

    @property
    def job_id(self) -> str:
        """One job per (kind, agent[, ids][, schedule slot][, occasion]) at a time; a long
        argument (a list of ids) stands in it by a digest, so the id stays short."""
        parts = [self.function, self.agent, *(_short(value) for value in self.ids.values())]
        parts += [part for part in (self.slot, self.occasion) if part]
        return ":".join(parts)

    def kwargs(self) -> dict[str, str]:
        return {"agent": self.agent, **self.ids}


class JobQueue(Protocol):
    async def enqueue(self, request: JobRequest) -> bool:
        """Queue ``request``; False when an identical job is already waiting."""
        ...

    async def close(self) -> None:
        """Before exit: let queued work finish or reach its store; nothing is dropped."""
        ...


LONGEST_IN_ID = 40


def _short(value: str) -> str:
    if len(value) <= LONGEST_IN_ID:
        return value
    return "sha256-" + hashlib.sha256(value.encode()).hexdigest()[:16]

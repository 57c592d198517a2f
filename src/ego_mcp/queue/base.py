"""What a job request is, and the interface every queue offers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class JobRequest:
    """A job to run: a function name, an agent and ids. Never memory content."""

    function: str
    agent: str
    ids: dict[str, str] = field(default_factory=dict)
    slot: str = ""

    @property
    def job_id(self) -> str:
        """One job per (kind, agent[, ids][, schedule slot]) can be queued at a time."""
        parts = [self.function, self.agent, *self.ids.values()]
        if self.slot:
            parts.append(self.slot)
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

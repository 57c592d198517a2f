"""The error hierarchy the domain raises; the front end turns it into tool errors in one place."""

from __future__ import annotations


class EgoError(Exception):
    """Base of every anticipated ego-mcp failure; its message is safe to show the agent."""


class InvalidInput(EgoError):
    """An argument is missing, malformed or out of range; nothing was written."""


class NotFound(EgoError):
    """A memory, episode or other record with the given id does not exist."""


class Unauthorised(EgoError):
    """A request reached a tool without the agent token that selects whose data it is."""


class StoreUnavailable(EgoError):
    """ChromaDB, Redis or a state file cannot be used right now."""


class DocumentsUnavailable(StoreUnavailable):
    """The state documents (desires, self model, people) cannot be read or written now:
    Redis does not answer and this process has no copy of them."""


class StoreHeld(StoreUnavailable):
    """The embedded store is open in another process (its directory lock is held)."""

    def __init__(self, message: str, holder: str = "unknown") -> None:
        super().__init__(message)
        self.holder = holder  # the holding process's pid, as its lock file says


class LockUnavailable(StoreUnavailable):
    """The service behind the agent's lock (Redis) does not answer: the lock cannot be had.

    Saving and forgetting go on without it and leave their link work as a pending job.
    """


class CorruptState(EgoError):
    """A stored document cannot be read; it is reported, never silently reset."""


class ConfigError(EgoError):
    """A setting is missing or invalid; the message names the variable to fix."""


class EmbeddingMismatch(ConfigError):
    """The store was filled by another embedding provider, model or dimension."""

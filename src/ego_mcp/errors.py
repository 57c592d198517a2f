"""The error hierarchy the domain raises; the front end turns it into tool errors in one place."""

from __future__ import annotations


class EgoError(Exception):
    """Base of every anticipated ego-mcp failure; its message is safe to show the agent."""


class InvalidInput(EgoError):
    """An argument is missing, malformed or out of range; nothing was written."""


class NotFound(EgoError):
    """A memory, episode or other record with the given id does not exist."""


class StoreUnavailable(EgoError):
    """ChromaDB, Redis or a state file cannot be used right now."""


class CorruptState(EgoError):
    """A stored document cannot be read; it is reported, never silently reset."""


class ConfigError(EgoError):
    """A setting is missing or invalid; the message names the variable to fix."""


class EmbeddingMismatch(ConfigError):
    """The store was filled by another embedding provider, model or dimension."""

"""Documents in Redis, for distributed mode: every front end and worker sees the same ones.

While Redis does not answer, a read serves the last state this process saw (and says so
through :data:`STALE_READS`); with nothing seen yet, or on a write, it raises
``DocumentsUnavailable`` naming ``EGO_MCP_REDIS_URL``.
"""

from __future__ import annotations

import copy
import json
from contextvars import ContextVar
from typing import Any

from ego_mcp.errors import CorruptState, DocumentsUnavailable
from ego_mcp.state.documents import Document

# The tool call in progress puts a set here; a read served from memory adds its name.
STALE_READS: ContextVar[set[str] | None] = ContextVar("stale_reads", default=None)


def redis_unavailable(exc: Exception) -> DocumentsUnavailable:
    return DocumentsUnavailable(
        f"EGO_MCP_REDIS_URL: Redis did not answer ({type(exc).__name__}); try again when it is back"
    )


class RedisDocumentStore:
    """One Redis string per document: ``ego:doc:{agent}:{name}`` holding JSON."""

    def __init__(
        self, client: Any, agent: str, last_seen: dict[str, Document] | None = None
    ) -> None:
        self._client = client
        self._agent = agent
        self._last_seen = last_seen if last_seen is not None else {}

    def key(self, name: str) -> str:
        return f"ego:doc:{self._agent}:{name}"

    def load(self, name: str) -> Document | None:
        from redis.exceptions import RedisError

        key = self.key(name)
        try:
            raw = self._client.get(key)
        except RedisError as exc:
            if key not in self._last_seen:
                raise redis_unavailable(exc) from None
            stale = STALE_READS.get()
            if stale is not None:
                stale.add(name)
            return copy.deepcopy(self._last_seen[key])
        if raw is None:
            return None
        try:
            document = json.loads(raw)
        except json.JSONDecodeError:
            raise CorruptState(f"the Redis key {key} does not hold valid JSON") from None
        if not isinstance(document, dict):
            raise CorruptState(f"the Redis key {key} does not hold a JSON object")
        self._last_seen[key] = copy.deepcopy(document)
        return document

    def save(self, name: str, document: Document) -> None:
        from redis.exceptions import RedisError

        try:
            self._client.set(self.key(name), json.dumps(document, ensure_ascii=False))
        except RedisError as exc:
            raise redis_unavailable(exc) from None
        self._last_seen[self.key(name)] = copy.deepcopy(document)

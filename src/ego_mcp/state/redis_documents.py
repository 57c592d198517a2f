"""Documents in Redis, for distributed mode: every front end and worker sees the same ones."""

from __future__ import annotations

import json
from typing import Any

from ego_mcp.errors import CorruptState
from ego_mcp.state.documents import Document


class RedisDocumentStore:
    """One Redis string per document: ``ego:doc:{agent}:{name}`` holding JSON."""

    def __init__(self, client: Any, agent: str) -> None:
        self._client = client
        self._agent = agent

    def key(self, name: str) -> str:
        return f"ego:doc:{self._agent}:{name}"

    def load(self, name: str) -> Document | None:
        raw = self._client.get(self.key(name))
        if raw is None:
            return None
        try:
            document = json.loads(raw)
        except json.JSONDecodeError:
            raise CorruptState(f"the Redis key {self.key(name)} does not hold valid JSON") from None
        if not isinstance(document, dict):
            raise CorruptState(f"the Redis key {self.key(name)} does not hold a JSON object")
        return document

    def save(self, name: str, document: Document) -> None:
        self._client.set(self.key(name), json.dumps(document, ensure_ascii=False))

"""Remote embedding providers (Gemini, OpenAI) over httpx, with retry and backoff."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

import httpx
import numpy as np

from ego_mcp.embedding.base import EmbeddingSignature, normalise_rows
from ego_mcp.errors import StoreUnavailable
from ego_mcp.logs import Plain

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

logger = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
KNOWN_DIMENSIONS = {
    "gemini-embedding-001": 3072,
    "text-embedding-004": 768,
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}


class RetryPolicy:
    """Exponential backoff that honours a server's Retry-After."""

    def __init__(
        self,
        attempts: int = 5,
        base_delay: float = 0.5,
        max_delay: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.attempts = attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.sleep = sleep

    def delay(self, attempt: int, response: httpx.Response | None) -> float:
        """Seconds to wait before try ``attempt + 1``."""
        advised = retry_after_seconds(response) if response is not None else None
        if advised is not None:
            return min(advised, self.max_delay)
        return float(min(self.base_delay * (2**attempt), self.max_delay))


def retry_after_seconds(response: httpx.Response) -> float | None:
    """The Retry-After header as seconds (it may be a number or an HTTP date)."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())


class RemoteEmbedder:
    """Posts batches to a JSON embedding API; the request shape comes from a provider spec."""

    def __init__(
        self,
        provider: str,
        model: str,
        api_key: str,
        transport: httpx.BaseTransport | None = None,
        retry: RetryPolicy | None = None,
        batch_size: int = 96,
    ) -> None:
        self._provider = provider
        self._model = model
        self._retry = retry or RetryPolicy()
        self._batch_size = batch_size
        self._client = httpx.Client(
            transport=transport,
            timeout=httpx.Timeout(30.0),
            headers=_auth_headers(provider, api_key),
        )
        self._dimension = KNOWN_DIMENSIONS.get(model)

    @property
    def signature(self) -> EmbeddingSignature:
        if self._dimension is None:
            self._dimension = int(self.embed(["dimension probe"]).shape[1])
        return EmbeddingSignature(self._provider, self._model, self._dimension)

    def embed(self, texts: Sequence[str]) -> Vector:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            rows.extend(self._embed_batch(texts[start : start + self._batch_size]))
        if not rows:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        return normalise_rows(np.asarray(rows, dtype=np.float32))

    def _embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        url, body = _request_for(self._provider, self._model, texts)
        for attempt in range(self._retry.attempts):
            response: httpx.Response | None = None
            try:
                response = self._client.post(url, json=body)
            except httpx.TransportError as exc:
                logger.warning("%s embedding request failed: %s", Plain(self._provider), exc)
            else:
                if response.status_code < 400:
                    return _vectors_from(self._provider, response.json())
                if response.status_code not in RETRYABLE_STATUS:
                    break
                logger.warning(
                    "%s embedding answered %s", Plain(self._provider), response.status_code
                )
            if attempt + 1 < self._retry.attempts:
                self._retry.sleep(self._retry.delay(attempt, response))
        raise StoreUnavailable(
            f"the {self._provider} embedding API did not answer; check EGO_MCP_EMBEDDING_PROVIDER "
            "and the API key, or try again later"
        )


def _auth_headers(provider: str, api_key: str) -> dict[str, str]:
    if provider == "gemini":
        return {"x-goog-api-key": api_key}
    return {"Authorization": f"Bearer {api_key}"}


def _request_for(provider: str, model: str, texts: Sequence[str]) -> tuple[str, dict[str, Any]]:
    if provider == "gemini":
        url = f"https://generativelanguage.googleapis.com/v1beta/models/{model}:batchEmbedContents"
        requests = [
            {"model": f"models/{model}", "content": {"parts": [{"text": t}]}} for t in texts
        ]
        return url, {"requests": requests}
    return "https://api.openai.com/v1/embeddings", {"model": model, "input": list(texts)}


def _vectors_from(provider: str, payload: dict[str, Any]) -> list[list[float]]:
    if provider == "gemini":
        return [item["values"] for item in payload["embeddings"]]
    ordered = sorted(payload["data"], key=lambda item: item["index"])
    return [item["embedding"] for item in ordered]

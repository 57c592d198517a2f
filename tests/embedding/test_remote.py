"""Remote providers over httpx with a mock transport: shapes, retry, Retry-After."""

from __future__ import annotations

import json

import httpx
import numpy as np
import pytest

from ego_mcp.embedding.remote import RemoteEmbedder, RetryPolicy, retry_after_seconds
from ego_mcp.errors import StoreUnavailable


def openai_answer(request: httpx.Request) -> httpx.Response:
    texts = json.loads(request.content)["input"]
    data = [{"index": i, "embedding": [float(len(t)), 1.0, 0.0]} for i, t in enumerate(texts)]
    return httpx.Response(200, json={"data": list(reversed(data))})


def test_openai_rows_come_back_in_order_and_normalised() -> None:
    embedder = RemoteEmbedder(
        "openai", "test-model", "sk", transport=httpx.MockTransport(openai_answer)
    )
    vectors = embedder.embed(["a", "abcd"])
    assert vectors.shape == (2, 3)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert vectors[1][0] > vectors[0][0]
    assert embedder.signature.dimension == 3  # probed: the model is not in the table


def test_gemini_request_shape_and_key_header() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        count = len(json.loads(request.content)["requests"])
        return httpx.Response(200, json={"embeddings": [{"values": [1.0, 0.0]}] * count})

    embedder = RemoteEmbedder(
        "gemini", "text-embedding-004", "g-key", transport=httpx.MockTransport(answer)
    )
    assert embedder.embed(["x", "y", "z"]).shape == (3, 2)
    assert seen[0].headers["x-goog-api-key"] == "g-key"
    assert seen[0].url.path.endswith("text-embedding-004:batchEmbedContents")


def test_429_is_retried_after_the_advised_delay() -> None:
    answers = iter(
        [
            httpx.Response(429, headers={"Retry-After": "7"}),
            httpx.Response(503),
        ]
    )

    def answer(request: httpx.Request) -> httpx.Response:
        return next(answers, None) or openai_answer(request)

    slept: list[float] = []
    policy = RetryPolicy(attempts=4, base_delay=0.5, sleep=slept.append)
    embedder = RemoteEmbedder(
        "openai", "m", "sk", transport=httpx.MockTransport(answer), retry=policy
    )
    assert embedder.embed(["ok"]).shape == (1, 3)
    assert slept == [7.0, 1.0]  # Retry-After honoured, then exponential backoff


def test_transport_errors_are_retried_then_reported() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    slept: list[float] = []
    policy = RetryPolicy(attempts=3, sleep=slept.append)
    embedder = RemoteEmbedder(
        "openai", "m", "sk", transport=httpx.MockTransport(answer), retry=policy
    )
    with pytest.raises(StoreUnavailable, match="openai embedding API did not answer"):
        embedder.embed(["x"])
    assert len(slept) == 2


def test_client_errors_are_not_retried() -> None:
    calls: list[int] = []

    def answer(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(401)

    policy = RetryPolicy(attempts=5, sleep=lambda _: None)
    embedder = RemoteEmbedder(
        "openai", "m", "sk", transport=httpx.MockTransport(answer), retry=policy
    )
    with pytest.raises(StoreUnavailable):
        embedder.embed(["x"])
    assert calls == [1]


def test_retry_after_accepts_an_http_date() -> None:
    response = httpx.Response(429, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})
    assert retry_after_seconds(response) == 0.0
    assert retry_after_seconds(httpx.Response(429, headers={"Retry-After": "soon"})) is None

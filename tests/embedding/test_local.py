"""The local ONNX MiniLM: unit vectors, per-batch padding, truncation, meaning."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ego_mcp.embedding.local import LocalMiniLM
from ego_mcp.errors import ConfigError


def test_vectors_are_unit_length_with_384_dims(embedder: LocalMiniLM) -> None:
    vectors = embedder.embed(["hello", "a somewhat longer sentence about the sea"])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)


def test_padding_to_the_batch_does_not_change_a_text_embedding(embedder: LocalMiniLM) -> None:
    alone = embedder.embed(["short text"])[0]
    beside_long = embedder.embed(["short text", "word " * 200])[0]
    assert np.allclose(alone, beside_long, atol=1e-5)


def test_large_mixed_batches_keep_their_order(embedder: LocalMiniLM) -> None:
    texts = [("word " * (i % 37 + 1)) + f"number {i}" for i in range(150)]  # > 2 chunks
    together = embedder.embed(texts)
    for i in (0, 1, 63, 64, 99, 149):
        assert np.allclose(together[i], embedder.embed([texts[i]])[0], atol=1e-5), i


def test_texts_over_256_tokens_are_truncated(embedder: LocalMiniLM) -> None:
    head = "the cat sat on the mat " * 60  # well past 256 tokens
    assert np.allclose(
        embedder.embed([head])[0], embedder.embed([head + "and then a dog came"])[0], atol=1e-5
    )


def test_paraphrase_is_closer_than_an_unrelated_sentence(embedder: LocalMiniLM) -> None:
    a, b, c = embedder.embed(
        [
            "Today's conversation was fun. I learned a lot from Master.",
            "Today's conversation was enjoyable. Master taught me many things.",
            "The Rust compiler build failed because a linker flag was missing.",
        ]
    )
    assert 1 - a @ b < 0.15 < 1 - a @ c


def test_missing_model_files_name_the_setting(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="EGO_MCP_EMBEDDING_MODEL_DIR"):
        LocalMiniLM(tmp_path)

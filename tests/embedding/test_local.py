"""The local ONNX MiniLM: unit vectors, per-batch padding, truncation, meaning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ego_mcp.embedding.local import LocalMiniLM
from ego_mcp.embedding.multilingual import LocalMultilingualUSE, RowsOnDisk
from ego_mcp.errors import ConfigError
from tests.conftest import MINILM_MISSING, model_dir


def test_vectors_are_unit_length_with_384_dims(minilm: LocalMiniLM) -> None:
    vectors = minilm.embed(["hello", "a somewhat longer sentence about the sea"])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert minilm.embed([]).shape == (0, 384)


def test_padding_to_the_batch_does_not_change_a_text_embedding(minilm: LocalMiniLM) -> None:
    alone = minilm.embed(["short text"])[0]
    beside_long = minilm.embed(["short text", "word " * 200])[0]
    assert np.allclose(alone, beside_long, atol=1e-5)


def test_large_mixed_batches_keep_their_order(minilm: LocalMiniLM) -> None:
    texts = [("word " * (i % 37 + 1)) + f"number {i}" for i in range(150)]  # > 2 chunks
    together = minilm.embed(texts)
    for i in (0, 1, 63, 64, 99, 149):
        assert np.allclose(together[i], minilm.embed([texts[i]])[0], atol=1e-5), i


def test_texts_over_256_tokens_are_truncated(minilm: LocalMiniLM) -> None:
    head = "the cat sat on the mat " * 60  # well past 256 tokens
    assert np.allclose(
        minilm.embed([head])[0], minilm.embed([head + "and then a dog came"])[0], atol=1e-5
    )


def test_paraphrase_is_closer_than_an_unrelated_sentence(minilm: LocalMiniLM) -> None:
    a, b, c = minilm.embed(
        [
            "Today's conversation was fun. I learned a lot from Master.",
            "Today's conversation was enjoyable. Master taught me many things.",
            "The Rust compiler build failed because a linker flag was missing.",
        ]
    )
    assert 1 - a @ b < 0.15 < 1 - a @ c


LONG_BATCH_PROBE = """
import os, sys
from pathlib import Path
from ego_mcp.embedding.local import LocalMiniLM
from ego_mcp.heap import release_free_heap

def resident_mib():
    with open(f"/proc/{os.getpid()}/status") as status:
        line = next(line for line in status if line.startswith("VmRSS"))
    return int(line.split()[1]) // 1024

model = LocalMiniLM(Path(sys.argv[1]))
model.embed(["warm up"])
release_free_heap()
before = resident_mib()
model.embed([f"sentence {i} " + "about the sea and the river " * 40 for i in range(64)])
release_free_heap()
print(before, resident_mib())
"""


def test_a_batch_of_long_texts_leaves_no_activations_resident() -> None:
    """A memory arena would keep the batch's activations for the process's life (960
    MiB after 64 texts of 256 tokens); without one they are freed with the call."""
    found = model_dir()
    if found is None:
        pytest.skip(MINILM_MISSING)
    if not Path("/proc/self/status").is_file():
        pytest.skip("no /proc to read the resident set from")
    result = subprocess.run(
        [sys.executable, "-c", LONG_BATCH_PROBE, str(found)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    before, after = (int(value) for value in result.stdout.split())
    assert after - before < 50, (before, after)


def test_missing_model_files_name_the_setting(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="EGO_MCP_EMBEDDING_MODEL_DIR"):
        LocalMiniLM(tmp_path)


def test_the_multilingual_model_reads_japanese_and_finds_across_languages(
    embedder: LocalMultilingualUSE,
) -> None:
    vectors = embedder.embed(
        ["鎌倉に行った。", "横浜に行った。", "The cat knocked the cup off the table.",
         "猫がカップをテーブルから落とした。", "I paid the electricity bill."]
    )  # fmt: skip
    assert vectors.shape == (5, 512) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert float(vectors[0] @ vectors[1]) < 0.9  # MiniLM: 1.000, both are all [UNK]
    assert float(vectors[2] @ vectors[3]) > float(vectors[2] @ vectors[4]) + 0.3


def test_the_token_table_is_read_from_a_file_with_the_same_vectors(tmp_path: Path) -> None:
    """The 64 MiB table leaves the heap for a file in the cache folder; a file another
    release or a broken write left there is replaced; an unwritable folder keeps the
    table in memory. The vectors are the same every way."""
    texts = ["マスターは毎朝、珈琲を淹れてから仕事を始める。", "", "a b c", "I paid the bill."]
    in_memory = LocalMultilingualUSE(table_folder=tmp_path / "a-file" / "below")
    (tmp_path / "a-file").write_text("not a folder")
    expected = in_memory.embed(texts)
    assert isinstance(in_memory._model._model.table, np.ndarray)

    folder = tmp_path / "cache"
    folder.mkdir()
    on_disk = LocalMultilingualUSE(table_folder=folder)
    on_disk.embed(["load"])
    (written,) = folder.iterdir()
    assert isinstance(on_disk._model._model.table, RowsOnDisk)
    assert np.array_equal(on_disk.embed(texts), expected)

    written.write_bytes(b"\0" * written.stat().st_size)  # same size, wrong rows
    again = LocalMultilingualUSE(table_folder=folder)
    assert np.array_equal(again.embed(texts), expected)
    assert [path.name for path in folder.iterdir()] == [written.name]

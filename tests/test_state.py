"""State documents: atomic JSON files; corruption is reported, never reset."""

from __future__ import annotations

from pathlib import Path

import pytest

from ego_mcp.errors import CorruptState
from ego_mcp.state.documents import FileDocumentStore


def test_round_trip_and_missing(tmp_path: Path) -> None:
    store = FileDocumentStore(tmp_path / "state")
    assert store.load("desires") is None
    store.save("desires", {"curiosity": {"at": "2026-01-01T00:00:00+00:00", "quality": 1.0}})
    assert store.load("desires") == {
        "curiosity": {"at": "2026-01-01T00:00:00+00:00", "quality": 1.0}
    }
    assert [p.name for p in (tmp_path / "state").iterdir()] == ["desires.json"]  # no temp left


def test_corrupt_file_names_the_file_and_is_kept(tmp_path: Path) -> None:
    store = FileDocumentStore(tmp_path)
    store.path("self_model").write_text("{half a docu")
    with pytest.raises(CorruptState, match=r"self_model\.json is not valid JSON"):
        store.load("self_model")
    assert store.path("self_model").read_text() == "{half a docu"


def test_document_names_are_restricted(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bad document name"):
        FileDocumentStore(tmp_path).path("../escape")

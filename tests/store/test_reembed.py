"""Re-embedding migrates a store to a new model, resumably, keeping metadata and links."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from ego_mcp.embedding.base import EmbeddingSignature, normalise_rows
from ego_mcp.embedding.multilingual import LocalMultilingualUSE
from ego_mcp.errors import ConfigError, EmbeddingMismatch, StoreUnavailable
from ego_mcp.memory.model import LinkType
from ego_mcp.memory.service import Draft
from ego_mcp.runtime import Runtime
from ego_mcp.settings import Settings
from ego_mcp.store.chroma import collection_name, open_collection

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector
from tests.helpers import assert_links_bidirectional


class LetterCounts:
    """A tiny deterministic 'old model': letter frequencies, 26 dims."""

    @property
    def signature(self) -> EmbeddingSignature:
        return EmbeddingSignature("test", "letter-counts", 26)

    def embed(self, texts: Sequence[str]) -> Vector:
        rows = np.zeros((len(texts), 26), dtype=np.float32)
        for i, text in enumerate(texts):
            for char in text.lower():
                if "a" <= char <= "z":
                    rows[i, ord(char) - 97] += 1
        return normalise_rows(rows + 1e-3)


def test_reembed_moves_a_store_to_the_local_model(
    settings: Settings, embedder: LocalMultilingualUSE, tmp_path: Path
) -> None:
    first, second = old_store(settings)
    new = Runtime.open(settings, embedder=embedder)
    with pytest.raises(EmbeddingMismatch):
        new.memory("nova")
    # An interrupted earlier run left one memory copied already.
    client = new.chroma.client
    partial = open_collection(
        client, collection_name("nova", "memories") + "-reembed", embedder.signature
    )
    source = client.get_collection(collection_name("nova", "memories"))
    one = source.get(ids=[first], include=["documents", "metadatas"])
    partial.add(
        ids=one["ids"],
        documents=one["documents"],
        metadatas=one["metadatas"],
        embeddings=embedder.embed(one["documents"]),
    )

    assert new.reembed("nova") == 2  # one memory left to copy, plus the episode
    assert new.reembed("nova") == 0  # already done

    migrated = new.memory("nova")
    assert migrated.store.count() == 2
    assert migrated.get(first).link_to(second) is not None
    assert_links_bidirectional(migrated.store)
    hits = migrated.recall("a walk along the river in the early morning", 1)
    assert hits[0].memory.id == first
    assert migrated.lexical is not None and migrated.lexical.ids() == {first, second}
    by_word = migrated.recall("compiler", 1)[0]
    assert by_word.memory.id == second and by_word.coverage > 0
    assert len(migrated.episodes.all()) == 1
    assert not [c.name for c in client.list_collections() if "-old-" in c.name]  # checked, gone
    new.close()


SWITCH_STEPS = [
    "copied memories",
    "copied episodes",
    "moved old memories aside",
    "switched memories",
    "moved old episodes aside",
]


class Crash(Exception):
    """Stands for a kill between two steps."""


def old_store(settings: Settings) -> tuple[str, str]:
    old = Runtime.open(settings, embedder=LetterCounts())
    service = old.memory("nova")
    first = service.remember(Draft("I walked by the river at dawn.")).saved
    second = service.remember(Draft("The compiler failed on a missing flag."), force=True).saved
    assert first is not None and second is not None
    service.link(first.id, second.id, LinkType.CAUSED_BY)
    service.create_episode("morning", [first.id, second.id])
    old.close()
    return first.id, second.id


@pytest.mark.parametrize("crash_after", SWITCH_STEPS)
def test_reembed_killed_at_any_step_hides_nothing_and_completes_when_run_again(
    settings: Settings, embedder: LocalMultilingualUSE, crash_after: str
) -> None:
    first, second = old_store(settings)
    new = Runtime.open(settings, embedder=embedder)

    def stop(step: str) -> None:
        if step == crash_after:
            raise Crash(step)

    with pytest.raises(Crash):
        new.reembed("nova", after_step=stop)
    # A front end now sees the whole store, or a clear error; never an empty one.
    try:
        reader = new.memory("nova")
    except (EmbeddingMismatch, StoreUnavailable) as refused:
        assert "reembed" in str(refused)
    else:
        assert reader.store.count() == 2 and len(reader.episodes.all()) == 1

    new.reembed("nova")
    migrated = new.memory("nova")
    assert migrated.store.count() == 2 and len(migrated.episodes.all()) == 1
    assert migrated.get(first).link_to(second) is not None
    assert_links_bidirectional(migrated.store)
    assert migrated.recall("a walk along the river in the early morning", 1)[0].memory.id == first
    new.close()


def test_reembed_of_an_unknown_agent_creates_nothing(runtime: Runtime) -> None:
    before = {c.name for c in runtime.chroma.client.list_collections()}
    with pytest.raises(ConfigError, match="no agent typo"):
        runtime.reembed("typo")
    assert {c.name for c in runtime.chroma.client.list_collections()} == before


def test_reembed_keeps_no_old_copy_and_drops_one_an_older_version_left(
    settings: Settings, embedder: LocalMultilingualUSE
) -> None:
    """An old copy would keep the text of every memory forgotten (and purged) later."""
    first, _ = old_store(settings)
    new = Runtime.open(settings, embedder=embedder)
    client = new.chroma.client
    leftover = client.create_collection("ego-nova-memories-old-20200101000000")
    leftover.add(ids=["mem_0000000000ff"], documents=["purged-marker text"], embeddings=[[1.0]])

    new.reembed("nova")
    new.memory("nova").forget(first)
    new.memory("nova").purge_deletion_log(everything=True)

    names = {c.name for c in client.list_collections()}
    assert not any("-old-" in name for name in names), names
    for collection in client.list_collections():
        documents = collection.get(include=["documents"])["documents"] or []
        assert not any("purged-marker" in (d or "") for d in documents)
        assert not any("walked by the river" in (d or "") for d in documents)
    new.close()


def test_a_resumed_reembed_brings_back_nothing_forgotten_and_keeps_merges(
    settings: Settings, embedder: LocalMultilingualUSE
) -> None:
    """Interrupted after the copy; then, with the old model, one memory is forgotten and
    another merged into a third; the run resumed: the store is the old one's, exactly."""
    first, second = old_store(settings)
    old = Runtime.open(settings, embedder=LetterCounts())
    third = old.memory("nova").remember(Draft("Rain fell all afternoon."), force=True).saved
    assert third is not None
    old.close()
    new = Runtime.open(settings, embedder=embedder)

    def stop(step: str) -> None:
        if step == "copied episodes":
            raise Crash(step)

    with pytest.raises(Crash):
        new.reembed("nova", after_step=stop)
    new.close()
    old = Runtime.open(settings, embedder=LetterCounts())
    service = old.memory("nova")
    # The staged copy is complete: the live one is still the old model's, so the old model
    # serves it (as a server left running on it would).
    service.forget(second)
    service.merge(first, third.id, "I walked by the river at dawn; rain fell all afternoon.")
    old.close()

    new = Runtime.open(settings, embedder=embedder)
    new.reembed("nova")
    migrated = new.memory("nova")
    assert migrated.store.count() == 1
    assert not migrated.store.existing_ids([second, third.id])
    assert migrated.get(first).content.endswith("rain fell all afternoon.")
    assert_links_bidirectional(migrated.store)
    new.close()

"""The Chroma store refuses a collection filled by another embedding."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np
import pytest

from ego_mcp.embedding.base import EmbeddingSignature
from ego_mcp.errors import EmbeddingMismatch
from ego_mcp.memory.hours import hour_of
from ego_mcp.memory.model import Link, LinkType, Memory
from ego_mcp.memory.service import MemoryService
from ego_mcp.runtime import Runtime
from ego_mcp.store.chroma import TIME_INDEX_CHECKED, collection_name, open_collection
from ego_mcp.store.codec import memory_to_metadata
from tests.conftest import START


def test_other_embedding_signature_is_a_clear_error(runtime: Runtime) -> None:
    runtime.memory("default")  # creates the collections with the local signature
    other = EmbeddingSignature("openai", "text-embedding-3-small", 1536)
    with pytest.raises(
        EmbeddingMismatch, match=r"EGO_MCP_EMBEDDING_PROVIDER.*`ego-mcp reembed --agent default`"
    ):
        open_collection(runtime.chroma.client, collection_name("default", "memories"), other)


def test_agents_have_separate_namespaces(runtime: Runtime) -> None:
    from ego_mcp.memory.service import Draft

    runtime.memory("alice").remember(Draft(content="Alice's first memory"))
    assert runtime.memory("alice").store.count() == 1
    assert runtime.memory("bob").store.count() == 0


@pytest.mark.parametrize(("left_out", "checked_before"), [({"ts", "hour"}, None), ({"hour"}, True)])
def test_records_without_ts_or_hour_are_found_by_time_windows(
    runtime: Runtime, left_out: set[str], checked_before: bool | None
) -> None:
    """Older data stored no numeric ``ts`` (and then no ``hour``); opening the store gives
    each record both, once, also when an older version had checked it for ``ts`` alone."""
    collection = open_collection(
        runtime.chroma.client, collection_name("old", "memories"), runtime.embedder.signature
    )
    if checked_before is not None:
        collection.modify(metadata={**collection.metadata, TIME_INDEX_CHECKED: checked_before})
    old = Memory("mem_0123456789ab", "An old memory", START)
    metadata = {k: v for k, v in memory_to_metadata(old).items() if k not in left_out}
    collection.add(
        ids=[old.id], embeddings=np.ones((1, runtime.embedder.signature.dimension)),
        documents=[old.content], metadatas=[metadata],
    )  # fmt: skip
    store = runtime.memory("old").store
    assert [m.id for m in store.recent(START - timedelta(days=1))] == [old.id]
    assert [m.id for m in store.in_hours([hour_of(START)])] == [old.id]


def test_a_record_written_without_ts_after_the_store_was_opened_is_found_by_dates(
    runtime: Runtime,
) -> None:
    """Another writer (an older version on the same store) adds a record without ``ts``
    while this process runs: a date-filtered recall still finds it by meaning, and by its
    words once the lexical index is reconciled (as it is at every open)."""
    from ego_mcp.memory.store import MemoryFilter

    memory = runtime.memory("default")
    collection = runtime.chroma.client.get_collection(collection_name("default", "memories"))
    memory.recall("warming up the date index", 3, MemoryFilter(date_from=START))
    stray = Memory("mem_00000000beef", "The ferry to Miyajima left without us.", START)
    metadata = {k: v for k, v in memory_to_metadata(stray).items() if k not in {"ts", "hour"}}
    collection.add(
        ids=[stray.id], embeddings=runtime.embedder.embed([stray.content]),
        documents=[stray.content], metadatas=[metadata],
    )  # fmt: skip
    week = MemoryFilter(date_from=START - timedelta(days=1), date_to=START + timedelta(days=1))

    hits = memory.recall("the ferry to Miyajima", 3, week)

    assert [hit.memory.id for hit in hits] == [stray.id]
    assert memory.mend_lexical() == (1, 0)
    by_word = memory.recall("Miyajima", 3, week)
    assert [(hit.memory.id, hit.coverage > 0) for hit in by_word] == [(stray.id, True)]
    assert memory.recall("the ferry", 3, MemoryFilter(date_to=START - timedelta(days=2))) == []


def test_a_record_gone_mid_read_is_skipped_with_its_vector() -> None:
    from ego_mcp.store.chroma import _memories_with_vectors

    kept = Memory("mem_0123456789ab", "kept", START)
    result = {
        "ids": ["mem_0123456789ab", "mem_ffffffffffff"],
        "documents": ["kept", None],
        "metadatas": [memory_to_metadata(kept), None],
        "embeddings": np.array([[1.0, 0.0], [0.0, 1.0]]),
    }
    pairs = _memories_with_vectors(result)
    assert [(m.id, v.tolist()) for m, v in pairs] == [("mem_0123456789ab", [1.0, 0.0])]


def test_collections_sync_their_write_log_often(runtime: Runtime) -> None:
    """A write costs more the longer Chroma's unsynced log is (see ``hnsw_configuration``):
    new collections are made with the short sync, and one made with Chroma's defaults (an
    older ego-mcp, another program) is changed when it is opened. Memories and episodes
    stay cosine, whatever was opened before them. (The deletion log is a Chroma
    collection on a server only; "old" is opened as one here.)"""
    from ego_mcp.store.chroma import SYNC_THRESHOLD
    from ego_mcp.store.deletion_log import open_deletion_log

    client = runtime.chroma.client
    old_name = collection_name("old", "memories")
    client.create_collection(old_name, embedding_function=None, metadata={
        "embedding_provider": runtime.embedder.signature.provider,
        "embedding_model": runtime.embedder.signature.model,
        "embedding_dim": runtime.embedder.signature.dimension,
    }, configuration={"hnsw": {"space": "cosine"}})  # fmt: skip
    assert client.get_collection(old_name).configuration["hnsw"]["sync_threshold"] == 1000
    open_collection(client, old_name, runtime.embedder.signature)
    open_deletion_log(client, "old")
    runtime.memory("alice")
    runtime.memory("bob")
    spaces = {
        name: client.get_collection(name).configuration["hnsw"]
        for name in [old_name, collection_name("old", "forgotten")]
        + [collection_name(agent, kind) for agent in ("alice", "bob")
           for kind in ("memories", "episodes")]
    }  # fmt: skip
    assert {name: hnsw["sync_threshold"] for name, hnsw in spaces.items()} == dict.fromkeys(
        spaces, SYNC_THRESHOLD
    )
    assert {name: hnsw["space"] for name, hnsw in spaces.items() if "forgotten" not in name} == (
        {name: "cosine" for name in spaces if "forgotten" not in name}
    )


def test_more_records_than_chroma_takes_in_one_request(runtime: Runtime) -> None:
    """A consolidation of a large window reads and rewrites thousands of memories at once;
    the store splits what Chroma would refuse (and what would cost hundreds of MiB read
    whole)."""
    count = runtime.chroma.client.get_max_batch_size() + 1
    memories = [Memory(f"mem_{i:012x}", f"memory {i}", START) for i in range(count)]
    vectors = np.random.default_rng(0).standard_normal(
        (count, runtime.embedder.signature.dimension)
    )
    store = runtime.memory("many").store
    store.add_many(memories, vectors)
    linked = [m.with_link(Link(memories[0].id, LinkType.SIMILAR)) for m in memories[1:]]
    store.replace_links(linked)

    read = store.get_many([m.id for m in memories])
    links = store.links_of([m.id for m in memories] + ["mem_not_stored"])

    assert len(read) == count == store.count() == len(links)
    assert all(m.link_to(memories[0].id) is not None for m in read[1:])
    assert links[memories[0].id] == ()
    assert all(links[m.id] == (Link(memories[0].id, LinkType.SIMILAR),) for m in memories[1:])


def test_pages_read_ids_then_records_in_small_gets(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole-store and whole-window reads go by id, a few records a ``get``: Chroma holds
    tens of KB for each record it reads with metadata while the ``get`` runs."""
    from ego_mcp.store import chroma

    monkeypatch.setattr(chroma, "ID_PAGE", 4)
    memories = [
        Memory(f"mem_{i:012x}", f"memory {i}", START - timedelta(hours=i)) for i in range(10)
    ]
    store = runtime.memory("paged").store
    store.add_many(memories, np.ones((10, runtime.embedder.signature.dimension)))
    collection = open_collection(
        runtime.chroma.client, collection_name("paged", "memories"), runtime.embedder.signature
    )
    gets: list[int] = []

    class Counted:
        def get(self, **request: Any) -> dict[str, Any]:
            found: dict[str, Any] = collection.get(**request)
            gets.append(len(found["ids"]))
            return found

    read = [page["ids"] for page in chroma.pages(Counted(), ["metadatas"], size=3)]

    assert sorted(i for page in read for i in page) == sorted(m.id for m in memories)
    assert max(len(page) for page in read) == 3
    assert gets.count(4) >= 2  # ids, four at a time
    # A window paged the same way comes back whole and in time order.
    window = store.recent(START - timedelta(hours=6, minutes=30))
    assert [m.id for m in window] == [m.id for m in reversed(memories[:7])]


def test_a_record_deleted_between_its_id_and_its_read_is_left_out(runtime: Runtime) -> None:
    from ego_mcp.store import chroma

    memories = [Memory(f"mem_{i:012x}", f"memory {i}", START) for i in range(3)]
    store = runtime.memory("gone").store
    store.add_many(memories, np.ones((3, runtime.embedder.signature.dimension)))
    collection = open_collection(
        runtime.chroma.client, collection_name("gone", "memories"), runtime.embedder.signature
    )

    class ForgetAfterIds:
        def get(self, **request: Any) -> dict[str, Any]:
            found: dict[str, Any] = collection.get(**request)
            if request.get("include") == [] and found["ids"]:
                collection.delete(ids=[memories[1].id])
            return found

    read = [i for page in chroma.pages(ForgetAfterIds(), ["metadatas"]) for i in page["ids"]]

    assert sorted(read) == [memories[0].id, memories[2].id]


def merge_chroma_refused(memory: MemoryService) -> tuple[str, str]:
    """Two memories, and a merge of them whose Chroma write fails (a server gone away):
    the kept memory's index row is left unsettled with the merged words."""
    from ego_mcp.errors import StoreUnavailable
    from tests.helpers import save

    keep = save(memory, "The ferry to Miyajima left without us.")
    other = save(memory, "LOG-131 broke the nightly job.")
    collection = memory.store._collection  # type: ignore[attr-defined]

    def refused(*args: Any, **kwargs: Any) -> None:
        raise StoreUnavailable("EGO_MCP_CHROMA_URL: Chroma did not answer (test)")

    real_update = collection.update
    collection.update = refused
    with pytest.raises(StoreUnavailable):
        memory.merge(keep, other, "The ferry left without us; LOG-131 broke the nightly job.")
    collection.update = real_update
    assert memory.lexical is not None and set(memory.lexical.unsettled()) == {keep}
    return keep, other


@pytest.mark.anyio
async def test_a_write_chroma_refused_is_mended_by_the_scheduled_repair(runtime: Runtime) -> None:
    """The scheduled link repair mends an unsettled row in a running process."""
    from ego_mcp.memory.recall.terms import terms
    from ego_mcp.queue.jobs import RUNTIME_KEY, repair_links

    memory = runtime.memory("default")
    keep, other = merge_chroma_refused(memory)
    assert not memory.lexical_in_step()

    await repair_links({RUNTIME_KEY: runtime}, "default")

    assert memory.lexical_in_step() and memory.lexical is not None
    indexed = memory.lexical.documents([keep, other])
    assert indexed == {i: tuple(terms(memory.get(i).content)) for i in (keep, other)}


def test_japanese_rows_read_by_another_analyser_are_read_again(runtime: Runtime) -> None:
    """An index whose Japanese rows were read by another analyser (Janome, before
    Sudachi) is out of step; the mend reads those rows again, and only those."""
    from ego_mcp.memory.model import content_hash
    from ego_mcp.memory.recall.terms import JAPANESE_READER, terms
    from ego_mcp.memory.service import Draft
    from ego_mcp.memory.store import IndexedText

    memory = runtime.memory("default")
    japanese = memory.remember(Draft(content="東京で記憶の研究会に出た。")).saved
    english = memory.remember(Draft(content="The ferry to Miyajima left without us.")).saved
    assert japanese is not None and english is not None and memory.lexical is not None
    assert memory.lexical_in_step()
    old_terms = ("東京", "記憶", "研究", "会", "出る")  # 研究会 as Janome cut it
    memory.lexical.put({japanese.id: IndexedText(old_terms, content_hash(japanese.content))})
    memory.lexical.settle([japanese.id])
    memory.lexical.note_japanese_reader("janome")
    assert not memory.lexical_in_step()

    assert memory.mend_lexical() == (1, 0)

    assert memory.lexical.japanese_reader() == JAPANESE_READER and memory.lexical_in_step()
    indexed = memory.lexical.documents([japanese.id, english.id])
    assert indexed == {m.id: tuple(terms(m.content)) for m in (japanese, english)}
    assert [hit.memory.id for hit in memory.recall("研究会", 1)] == [japanese.id]


def test_a_mend_that_fails_half_way_leaves_the_row_for_the_next(runtime: Runtime) -> None:
    """A row whose words differ from the stored text stays unsettled until it is indexed
    again: a mend interrupted before that (Chroma gone) is finished by the next."""
    from ego_mcp.errors import StoreUnavailable
    from ego_mcp.memory.recall.terms import terms

    memory = runtime.memory("default")
    keep, _ = merge_chroma_refused(memory)
    real_get_many = memory.store.get_many
    reads: list[int] = []

    def second_read_refused(ids: Any) -> Any:
        reads.append(len(ids))
        if len(reads) == 2:  # the mend's read of the texts to index again
            raise StoreUnavailable("EGO_MCP_CHROMA_URL: Chroma did not answer (test)")
        return real_get_many(ids)

    memory.store.get_many = second_read_refused  # type: ignore[method-assign]
    with pytest.raises(StoreUnavailable):
        memory.mend_lexical()
    memory.store.get_many = real_get_many  # type: ignore[method-assign]
    assert memory.lexical is not None and set(memory.lexical.unsettled()) == {keep}
    assert memory.mend_lexical() == (1, 0)
    assert memory.lexical.documents([keep]) == {keep: tuple(terms(memory.get(keep).content))}


def reopened_as_written_before(
    runtime: Runtime, settings: Any, clock: Any, embedder: Any, column: str
) -> Runtime:
    """``runtime`` closed and opened again, its index file as a version wrote it before
    rows kept ``column``."""
    import sqlite3

    from ego_mcp.store.lexical_sqlite import lexical_path

    runtime.close()
    with sqlite3.connect(lexical_path(settings.data_dir, "default")) as older:
        older.execute(f"UPDATE documents SET {column} = NULL")
    return Runtime.open(settings, clock=clock, embedder=embedder)


def test_the_embedded_index_places_a_chain_saved_before_it_held_one(
    runtime: Runtime, settings: Any, clock: Any, embedder: Any
) -> None:
    """An index file written before rows kept their sitting answers None until the open's
    mend reads each memory's ``follows`` from its record; then it answers as the records
    do, and recall lends the hit's neighbour as before."""
    from tests.helpers import save

    memory = runtime.memory("default")
    question = save(memory, "Aya asked what I would call the new puppy.")
    clock.set(clock.now() + timedelta(minutes=1))
    answer = save(memory, "Biscuit, I said, for the colour of his fur.")
    records = memory.store.sitting([question, answer])
    assert records == memory.lexical.sitting([question, answer])  # type: ignore[union-attr]
    reopened = reopened_as_written_before(runtime, settings, clock, embedder, "follows")
    try:
        again = reopened.memory("default")
        assert again.lexical is not None and again.lexical.unplaced() == []
        assert again.lexical.sitting([question, answer]) == records
        found = again.recall("What did I call the new puppy?", 5)
    finally:
        reopened.close()
    assert records.follows == {answer: question} and records.followers == {answer: question}
    assert [item.memory.id for item in found][:2] == [question, answer]


def test_the_embedded_index_learns_which_memories_ask_when_written_before_it_kept_it(
    runtime: Runtime, settings: Any, clock: Any, embedder: Any
) -> None:
    """An index file written before rows kept whether their text asks fills it at the
    open's mend from each memory's text; until then no memory counts as asking."""
    from tests.helpers import save

    memory = runtime.memory("default")
    asked = save(memory, "What should we call the new puppy?")
    told = save(memory, "Biscuit, I said, for the colour of his fur.")
    assert memory.lexical is not None and memory.lexical.asking([asked, told]) == {asked}
    reopened = reopened_as_written_before(runtime, settings, clock, embedder, "asks")
    try:
        again = reopened.memory("default")
        assert again.lexical is not None and again.lexical.unplaced() == []
        assert again.lexical.asking([asked, told]) == {asked}
    finally:
        reopened.close()

"""Memory and episode stores over ChromaDB collections (one pair per agent)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Self

import numpy as np

from ego_mcp.embedding.base import EmbeddingSignature
from ego_mcp.errors import EmbeddingMismatch, StoreUnavailable
from ego_mcp.logs import Plain
from ego_mcp.memory.hours import hour_of
from ego_mcp.memory.model import Category, Episode, Links, Memory, SearchHit, content_hash
from ego_mcp.memory.recall.terms import JAPANESE_READER, asks, terms
from ego_mcp.memory.store import IndexedText, LexicalIndex, MemoryFilter, Sitting
from ego_mcp.store.codec import (
    ANTICIPATED,
    MEMBER_INDEX,
    MEMBERS_KEPT,
    TAG_INDEX,
    Metadata,
    episode_from_record,
    episode_to_metadata,
    filter_to_where,
    links_from_json,
    links_to_json,
    member_index,
    members_update,
    memory_from_record,
    memory_to_metadata,
    parse_time,
    recall_tally,
    rewritten_metadata,
    tag_index,
)
from ego_mcp.store.record_cache import RecordCache

if TYPE_CHECKING:
    from ego_mcp.memory.store import Vector

logger = logging.getLogger(__name__)

_RECORD = ["documents", "metadatas"]
# From the memories a cache held before a write, the memories as the write leaves them.
Written = Callable[[Mapping[str, Memory]], Mapping[str, Memory]]
TIME_INDEX_CHECKED = "time_index_checked"
TIME_INDEX_VERSION = 3  # 1: ts; 2: ts and hour; 3: and the tag list
SYNC_THRESHOLD = 50
# Records per write: Chroma refuses more than 5,461 at once (embedded).
WRITE_BATCH = 500
# Records per read. While a ``get`` runs Chroma holds 35-70 KB for each record it reads
# with metadata: reading 1,000 at a time raised peak RSS by 70 MiB, 500 by 15-36 and 100
# by 4-9, and 10,000 records read by id took 0.57 s in reads of 100 against 0.50 s in 500s.
READ_BATCH = 100
# Ids per read where a whole collection or window is paged: ids alone cost Chroma little.
ID_PAGE = 5_000


def hnsw_configuration(space: str) -> dict[str, Any]:
    """A collection's vector-index configuration: ``space``, and how often Chroma folds
    its write log into the persisted index.

    Every write pays for the records still waiting in that log. With Chroma's defaults
    (sync every 1,000 records, in batches of 100) a single add after a bulk load climbs
    from about 9 ms to 30 ms over the next 400 adds, at 1,000, 10,000 and 100,000 records
    alike. Syncing every 50 keeps it at 8-10 ms, p95 included (measured up to 100,000
    records: the syncs themselves do not show). A new dict each call: Chroma may fill in
    defaults in the one it is given (it did in a benchmark, turning the next collection
    made there to L2).
    """
    return {"space": space, **_short_write_log()}


def _short_write_log() -> dict[str, Any]:
    return {"sync_threshold": SYNC_THRESHOLD, "batch_size": SYNC_THRESHOLD}


def collection_name(agent: str, kind: str) -> str:
    return f"ego-{agent}-{kind}"


class ReachableCollection:
    """A Chroma collection whose lost connection is ``StoreUnavailable`` naming the setting.

    The HTTP client opens a new connection per request, so once the server is back the
    next call simply works: nothing needs reopening. A read that a Chroma server fails
    with an internal error (it does when records are deleted while it reads them) is tried
    again, since reads are idempotent; so is setting a collection's configuration at open,
    which the embedded store's SQLite can refuse for a moment ("database is locked").
    """

    RETRIED = frozenset({"get", "query", "count", "peek", "modify"})
    TRIES = 3

    def __init__(self, collection: Any) -> None:
        self._collection = collection

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._collection, name)
        if not callable(attribute):
            return attribute
        tries = self.TRIES if name in self.RETRIED else 1

        def call(*args: Any, **kwargs: Any) -> Any:
            import httpx
            from chromadb.errors import InternalError

            for attempt in range(1, tries + 1):
                try:
                    return attribute(*args, **kwargs)
                except httpx.TransportError as exc:
                    raise _chroma_unavailable(exc) from None
                except InternalError as exc:
                    if attempt == tries:
                        raise _chroma_unavailable(exc) from None
                    time.sleep(0.05 * attempt)
            raise AssertionError("unreachable")  # pragma: no cover

        return call


def _chroma_unavailable(exc: Exception) -> StoreUnavailable:
    return StoreUnavailable(
        f"EGO_MCP_CHROMA_URL: the Chroma server does not answer ({type(exc).__name__}); "
        "try again when it is back"
    )


def open_collection(client: Any, name: str, signature: EmbeddingSignature) -> Any:
    """Get or create a cosine collection, refusing one filled by another embedding."""
    wanted = {
        "embedding_provider": signature.provider,
        "embedding_model": signature.model,
        "embedding_dim": signature.dimension,
    }
    collection = client.get_or_create_collection(
        name,
        embedding_function=None,
        configuration={"hnsw": hnsw_configuration("cosine")},
        metadata=wanted,
    )
    found = dict(collection.metadata or {})
    recorded = {key: found.get(key) for key in wanted}
    if recorded != wanted:
        raise EmbeddingMismatch(
            f"collection {name} was filled with {recorded['embedding_provider']}/"
            f"{recorded['embedding_model']} ({recorded['embedding_dim']} dims) but "
            f"EGO_MCP_EMBEDDING_PROVIDER/EGO_MCP_EMBEDDING_MODEL give {signature.provider}/"
            f"{signature.model} ({signature.dimension} dims); set them back, or run "
            f"`ego-mcp reembed --agent {name.removeprefix('ego-').rpartition('-')[0]}` to "
            "migrate the store"
        )
    return tune_writes(ReachableCollection(collection))


def tune_writes(collection: Any) -> Any:
    """``collection`` syncing its write log every ``SYNC_THRESHOLD`` records; one created
    before (or by another program) is changed, fully in effect from the next open."""
    hnsw = dict((collection.configuration or {}).get("hnsw") or {})
    if hnsw.get("sync_threshold") != SYNC_THRESHOLD:
        collection.modify(configuration={"hnsw": _short_write_log()})
    return collection


def lacks_member_index(collection: Any) -> bool:
    """Whether some episode was written without its member list (an older version):
    fewer than all pass a filter on the list's mark. One indexed read, no records."""
    count = int(collection.count())
    if count == 0:
        return False
    last = collection.get(where={MEMBERS_KEPT: 1}, include=[], limit=1, offset=count - 1)
    return not last["ids"]


def lacks_time_index(collection: Any, count: int) -> bool:
    """Whether some record has no numeric ``ts`` (written by an older version or another
    tool): fewer than ``count`` records pass a ``ts`` filter. One indexed read, no
    records: about 85 ms at 100,000 memories, 1 ms at 1,000."""
    if count == 0:
        return False
    last = collection.get(where={"ts": {"$gte": -1e18}}, include=[], limit=1, offset=count - 1)
    return not last["ids"]


def open_id_collection(client: Any, agent: str, kind: str) -> Any:
    """An agent's collection of records found by id only (the deletion log, the import
    record): a constant one-dimensional vector each, so it depends on no embedding model."""
    collection = client.get_or_create_collection(
        collection_name(agent, kind),
        embedding_function=None,
        configuration={"hnsw": hnsw_configuration("l2")},
        metadata={"kind": kind},
    )
    return tune_writes(ReachableCollection(collection))


ID_PLACEHOLDER = [1.0]  # a record found by id only: no embedding, no text


class IdRecord:
    """An agent's id-only collection of one ``KIND`` (``open_id_collection``): which ids
    it holds. Subclasses say what writes to it."""

    KIND = ""

    def __init__(self, collection: Any) -> None:
        self._collection = collection

    @classmethod
    def open(cls, client: Any, agent: str) -> Self:
        return cls(open_id_collection(client, agent, cls.KIND))

    def known(self, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` the record holds."""
        return present_ids(self._collection, ids)


def note_ids(
    collection: Any, ids: Sequence[str], metadatas: Sequence[dict[str, Any]] | None = None
) -> None:
    """Write ``ids`` (with ``metadatas``, if given) to an id-only collection
    (``open_id_collection``), ``WRITE_BATCH`` at a time."""
    for start in range(0, len(ids), WRITE_BATCH):
        batch = list(ids[start : start + WRITE_BATCH])
        extra = (
            {} if metadatas is None else {"metadatas": list(metadatas[start : start + WRITE_BATCH])}
        )
        collection.upsert(ids=batch, embeddings=[ID_PLACEHOLDER] * len(batch), **extra)


def delete_ids(collection: Any, ids: Sequence[str]) -> None:
    """Delete ``ids`` from ``collection``, ``WRITE_BATCH`` at a time."""
    for start in range(0, len(ids), WRITE_BATCH):
        collection.delete(ids=list(ids[start : start + WRITE_BATCH]))


def present_ids(collection: Any, ids: Sequence[str]) -> set[str]:
    """Those of ``ids`` the collection holds, read ``READ_BATCH`` ids at a time."""
    unique = _unique(ids)
    found: set[str] = set()
    for start in range(0, len(unique), READ_BATCH):
        found.update(collection.get(ids=unique[start : start + READ_BATCH], include=[])["ids"])
    return found


def backfill_time_index(collection: Any) -> int:
    """Give records written without the numeric ``ts`` or ``hour`` (older data, another
    tool) both.

    Time windows (wake_up, introspect, emotion_trend, date filters, consolidation) filter
    on ``ts``, the emotion trend reads single hours by ``hour``; a record without them
    would be invisible there. The whole collection is read only when ``lacks_time_index``
    finds a record without ``ts``, or the collection was never checked for ``hour``.
    Returns how many records were mended.
    """
    recorded = dict(collection.metadata or {})
    checked = recorded.get(TIME_INDEX_CHECKED, 0) >= TIME_INDEX_VERSION  # True == 1: old mark
    if checked and not lacks_time_index(collection, int(collection.count())):
        return 0
    mended = _mend_time_index(collection)
    if not checked:
        collection.modify(metadata={**recorded, TIME_INDEX_CHECKED: TIME_INDEX_VERSION})
    return mended


def _mend_time_index(collection: Any) -> int:
    """Give every record without ``ts`` or ``hour`` both, and one with tags but no tag
    list (``codec.tag_index``) the list; how many were mended."""
    mended = 0
    for page in pages(collection, ["metadatas"]):
        missing = {
            mid: derived
            for mid, meta in zip(page["ids"], page["metadatas"], strict=True)
            if meta is not None and (derived := _derived_fields(meta))
        }
        if missing:
            collection.update(ids=list(missing), metadatas=list(missing.values()))
            mended += len(missing)
    return mended


def _derived_fields(meta: dict[str, Any]) -> dict[str, Any]:
    """The fields an older writer left out of a record, worked out from the rest."""
    derived: dict[str, Any] = {}
    if "timestamp" in meta and not {"ts", "hour"} <= meta.keys():
        moment = parse_time(meta["timestamp"])
        derived |= {"ts": moment.timestamp(), "hour": hour_of(moment)}
    if TAG_INDEX not in meta and meta.get("tags") not in (None, "", "[]"):
        # Tags another tool wrote unreadably get no list: the open goes on.
        with suppress(json.JSONDecodeError, TypeError):
            derived |= tag_index([str(tag) for tag in json.loads(meta["tags"])])
    return derived


class ChromaMemoryStore:
    """The ``MemoryStore`` of one agent and the only writer of its lexical index (if
    given): each write of a memory's text is wrapped in the index's unsettled marks
    (``memory.store.LexicalIndex``), so a crash between the two is found and mended at
    the next open."""

    def __init__(
        self,
        collection: Any,
        lexical: LexicalIndex | None = None,
        cache: RecordCache | None = None,
    ) -> None:
        self._collection = collection
        self.lexical = lexical
        # Only for a store no other process writes (embedded): ``store/record_cache.py``.
        self._cache = cache
        self._time_indexed_at = -1  # the count at which every record was seen to have ts

    def count(self) -> int:
        return int(self._collection.count())

    def mend_time_index(self) -> None:
        """Before a date filter: records another writer added without ``ts`` get it, so
        the filter finds every memory. Checked again only once the count has changed."""
        count = self.count()
        if count == self._time_indexed_at:
            return
        if lacks_time_index(self._collection, count):
            _mend_time_index(self._collection)
        self._time_indexed_at = count

    def add(self, memory: Memory, embedding: Vector, new: bool = False) -> None:
        self.add_many([memory], embedding.reshape(1, -1), new)

    def add_many(self, memories: Sequence[Memory], embeddings: Vector, new: bool = False) -> None:
        for start in range(0, len(memories), WRITE_BATCH):
            batch = memories[start : start + WRITE_BATCH]
            ids = [m.id for m in batch]
            metadatas = [memory_to_metadata(m) for m in batch]
            # A new memory's id is its own; Chroma leaves a record it has alone when
            # another add names its id, so only new ones are kept as written.
            added = partial(_as_read, batch, metadatas) if new else None
            with self._indexed(batch, new), self._changing(ids, added):
                self._collection.add(
                    ids=ids,
                    embeddings=embeddings[start : start + WRITE_BATCH],
                    documents=[m.content for m in batch],
                    metadatas=metadatas,
                )

    @contextmanager
    def _changing(
        self, memory_ids: Sequence[str], written: Written | None = None
    ) -> Iterator[None]:
        """Around a write of these memories' records: the cache (if any) is told before
        and after. ``written``: from the memories the cache held before the write, those
        the write leaves (kept in the cache), where known."""
        cache = self._cache
        if cache is None:
            yield
            return
        token, held = cache.before_write(memory_ids)
        left: Mapping[str, Memory] | None = None
        try:
            yield
            if written is not None:
                try:
                    left = written(held)
                except Exception as exc:  # the write stands: its memories are read again
                    logger.warning(
                        "record cache: a write's result not kept (%s)", Plain(type(exc).__name__)
                    )
        finally:
            cache.after_write(memory_ids, token, left)

    @contextmanager
    def _indexed(self, memories: Sequence[Memory], new: bool = False) -> Iterator[None]:
        """Around a write of these memories' text: their index rows written unsettled
        before it and settled after it."""
        if self.lexical is None:
            yield
            return
        self.lexical.put({m.id: index_entry(m) for m in memories}, new)
        yield
        self.lexical.settle([m.id for m in memories])

    def get(self, memory_id: str) -> Memory | None:
        found = self.get_many([memory_id])
        return found[0] if found else None

    def get_many(self, memory_ids: Sequence[str]) -> list[Memory]:
        cache = self._cache
        if cache is None:
            return self._records_of(memory_ids)
        held = cache.held(memory_ids)
        unread = [i for i in memory_ids if i not in held]
        if unread:
            seen = cache.generation()
            read = self._records_of(unread)
            cache.offer(read, seen)
            held.update((m.id, m) for m in read)
        return [held[i] for i in _unique(memory_ids) if i in held]

    def _records_of(self, memory_ids: Sequence[str]) -> list[Memory]:
        """The memories among ``memory_ids`` as the collection holds them."""
        return [m for page in self._read_by_id(memory_ids, _RECORD) for m in _memories(page)]

    def _read_by_id(self, memory_ids: Sequence[str], include: list[str]) -> Iterator[Any]:
        """The records among ``memory_ids``, one ``get`` per ``READ_BATCH`` of them."""
        unique = _unique(memory_ids)
        for start in range(0, len(unique), READ_BATCH):
            yield self._collection.get(ids=unique[start : start + READ_BATCH], include=include)

    def existing_ids(self, memory_ids: Sequence[str]) -> set[str]:
        if not memory_ids:
            return set()
        return present_ids(self._collection, memory_ids)

    def _before_dates(self, where: MemoryFilter | None) -> None:
        if where is not None and (where.date_from is not None or where.date_to is not None):
            self.mend_time_index()

    def search(
        self, embedding: Vector, n_results: int, where: MemoryFilter | None = None
    ) -> list[SearchHit]:
        self._before_dates(where)
        return self._query(embedding.reshape(1, -1), n_results, filter_to_where(where))[0]

    def nearest(
        self, embedding: Vector, n_results: int, where: MemoryFilter | None = None
    ) -> list[tuple[str, float]]:
        self._before_dates(where)
        return self._neighbours(embedding.reshape(1, -1), n_results, filter_to_where(where))[0]

    def vectors(
        self, memory_ids: Sequence[str], where: MemoryFilter | None = None
    ) -> dict[str, Vector]:
        if not memory_ids:
            return {}
        self._before_dates(where)
        result = self._collection.get(
            ids=_unique(memory_ids), where=filter_to_where(where), include=["embeddings"]
        )
        return dict(zip(result["ids"], _vectors(result), strict=False))

    def with_vectors(
        self, memory_ids: Sequence[str], where: MemoryFilter | None = None
    ) -> list[tuple[Memory, Vector]]:
        if not memory_ids:
            return []
        self._before_dates(where)
        result = self._collection.get(
            ids=_unique(memory_ids),
            where=filter_to_where(where),
            include=[*_RECORD, "embeddings"],
        )
        return _memories_with_vectors(result)

    def ids(self) -> Iterator[list[str]]:
        return id_pages(self._collection)

    def sitting(
        self, memory_ids: Sequence[str], read: Mapping[str, Memory] | None = None
    ) -> Sitting:
        held = self.lexical.sitting(memory_ids) if self.lexical is not None else None
        if held is not None or not memory_ids:
            return held or Sitting({}, {})
        read = read or {}
        follows = {i: read[i].follows for i in memory_ids if i in read and read[i].follows}
        unread = [i for i in _unique(memory_ids) if i not in read]
        if unread:
            follows |= _follows(self._collection.get(ids=unread, include=["metadatas"]))
        found = self._collection.get(
            where={"follows": {"$in": list(memory_ids)}}, include=["metadatas"]
        )
        return Sitting(follows, _follows(found))

    def neighbour_ids(self, embeddings: Vector, n_results: int) -> list[list[tuple[str, float]]]:
        if len(embeddings) == 0:
            return []
        return self._neighbours(embeddings, n_results, None)

    def _neighbours(
        self, embeddings: Vector, n_results: int, where: dict[str, Any] | None
    ) -> list[list[tuple[str, float]]]:
        """Each embedding's nearest ids and distances (no record is read)."""
        result = self._collection.query(
            query_embeddings=embeddings, n_results=n_results, where=where, include=["distances"]
        )
        return [
            [(mid, float(dist)) for mid, dist in zip(ids, dists, strict=True)]
            for ids, dists in zip(result["ids"], result["distances"], strict=True)
        ]

    def _query(
        self, embeddings: Vector, n_results: int, where: dict[str, Any] | None
    ) -> list[list[SearchHit]]:
        result = self._collection.query(
            query_embeddings=embeddings,
            n_results=n_results,
            where=where,
            include=[*_RECORD, "distances"],
        )
        return [
            [
                SearchHit(memory_from_record(mid, doc, meta), float(dist))
                for mid, doc, meta, dist in zip(ids, docs, metas, dists, strict=True)
                if meta is not None  # forgotten while the query ran
            ]
            for ids, docs, metas, dists in zip(
                result["ids"],
                result["documents"],
                result["metadatas"],
                result["distances"],
                strict=True,
            )
        ]

    def replace_links(self, memories: Sequence[Memory]) -> None:
        self.write_links({m.id: m.linked_ids for m in memories})

    def links_of(self, memory_ids: Sequence[str]) -> dict[str, Links]:
        return {
            memory_id: links_from_json(meta.get("linked_ids"))
            for page in self._read_by_id(memory_ids, ["metadatas"])
            for memory_id, meta in zip(page["ids"], page["metadatas"], strict=True)
            if meta is not None  # forgotten while this read ran
        }

    def note_recalls(self, memory_ids: Sequence[str], day: int) -> int:
        changed: dict[str, Metadata] = {}
        for page in self._read_by_id(memory_ids, ["metadatas"]):
            for memory_id, meta in zip(page["ids"], page["metadatas"], strict=True):
                tally = recall_tally(meta, day) if meta is not None else None
                if tally is not None:
                    changed[memory_id] = tally
        if changed:
            # Only the two recall keys: Chroma keeps every key an update does not name.
            with self._changing(list(changed)):
                self._collection.update(ids=list(changed), metadatas=list(changed.values()))
        return len(changed)

    def write_links(self, links: Mapping[str, Links]) -> None:
        ids = list(links)
        for start in range(0, len(ids), WRITE_BATCH):
            batch = ids[start : start + WRITE_BATCH]
            stored = {i: links_to_json(links[i]) for i in batch}
            with self._changing(batch, partial(_relinked, stored)):
                self._collection.update(
                    ids=batch, metadatas=[{"linked_ids": stored[i]} for i in batch]
                )

    def rewrite(self, memory: Memory, embedding: Vector | None) -> None:
        if embedding is None:  # the text is unchanged (Chroma would embed a new document)
            with self._changing([memory.id]):
                self._collection.update(ids=[memory.id], metadatas=[rewritten_metadata(memory)])
            return
        with self._indexed([memory]), self._changing([memory.id]):
            self._collection.update(
                ids=[memory.id],
                embeddings=embedding.reshape(1, -1),
                documents=[memory.content],
                metadatas=[rewritten_metadata(memory)],
            )

    def delete(self, memory_id: str) -> None:
        if self.lexical is not None:
            self.lexical.unsettle([memory_id])
        with self._changing([memory_id]):
            self._collection.delete(ids=[memory_id])
        if self.lexical is not None:
            self.lexical.remove([memory_id])

    def lexical_in_step(self) -> bool:
        lexical = self.lexical
        return lexical is None or (
            not lexical.unsettled()
            and lexical.count() == self.count()
            and not lexical.unplaced()
            and lexical.japanese_reader() == JAPANESE_READER
        )

    def mend_lexical(self, rebuild: bool = False) -> tuple[int, int]:
        lexical = self.lexical
        if lexical is None:
            return 0, 0
        unsettled = lexical.unsettled()
        found = {m.id: m for m in self.get_many(list(unsettled))}
        gone = sorted(set(unsettled) - set(found))
        changed = sorted(i for i, m in found.items() if content_hash(m.content) != unsettled[i])
        lexical.remove(gone)
        # A changed row stays unsettled until it is indexed again below: a failure on the
        # way leaves it for the next mend.
        lexical.settle(sorted(set(found) - set(changed)))
        if rebuild or lexical.count() != self.count():
            stored = {memory_id for page in self.ids() for memory_id in page}
            indexed = lexical.ids()
            extra = sorted(indexed - stored)
            lexical.remove(extra)
            gone = sorted({*gone, *extra})
            changed = sorted(stored if rebuild else (stored - indexed).union(changed))
        reread = lexical.japanese_reader() != JAPANESE_READER
        if reread:  # read by another analyser than the one queries are read with now
            changed = sorted(lexical.japanese_ids().union(changed))
        for start in range(0, len(changed), READ_BATCH):
            memories = self.get_many(changed[start : start + READ_BATCH])
            lexical.put({m.id: index_entry(m) for m in memories})
            lexical.settle([m.id for m in memories])
        self._place(lexical)
        lexical.recount()
        if reread:
            lexical.note_japanese_reader(JAPANESE_READER)
        return len(changed), len(gone)

    def _place(self, lexical: LexicalIndex) -> None:
        """Each row written before the index held the chain of saves, or whether its text
        asks, gets its memory's ``follows`` and ``terms.asks`` from the record (a read of
        metadata and text, ``READ_BATCH`` rows at a time)."""
        unplaced = lexical.unplaced()
        for start in range(0, len(unplaced), READ_BATCH):
            batch = unplaced[start : start + READ_BATCH]
            found = self._collection.get(ids=batch, include=["metadatas", "documents"])
            follows = _follows(found)
            asking = {
                memory_id
                for memory_id, text in zip(found["ids"], found["documents"], strict=True)
                if text and asks(text)
            }
            lexical.place({memory_id: follows.get(memory_id, "") for memory_id in batch}, asking)

    def recent(self, moment: datetime, category: Category | None = None) -> list[Memory]:
        where: dict[str, Any] = {"ts": {"$gte": moment.timestamp()}}
        if category is not None:
            where = {"$and": [where, {"category": category.value}]}
        return _in_time_order(pages(self._collection, _RECORD, where=where))

    def in_hours(self, hours: Sequence[int]) -> list[Memory]:
        wanted = sorted(set(hours))
        where = {"hour": wanted[0]} if len(wanted) == 1 else {"hour": {"$in": wanted}}
        return _in_time_order(pages(self._collection, _RECORD, where=where))

    def latest_since(self, moment: datetime) -> tuple[str, datetime] | None:
        found = self._collection.get(
            where={"ts": {"$gte": moment.timestamp()}}, include=["metadatas"]
        )
        stamped = [
            (float(meta["ts"]), memory_id, meta["timestamp"])
            for memory_id, meta in zip(found["ids"], found["metadatas"], strict=True)
            if meta is not None and "ts" in meta
        ]
        if not stamped:
            return None
        _, memory_id, moment_text = max(stamped)
        return memory_id, parse_time(moment_text)

    def has_since(self, moment: datetime) -> bool:
        return self.count_since(moment, 1) > 0

    def anticipating(self, start: datetime, end: datetime) -> list[Memory]:
        where = {
            "$and": [
                {ANTICIPATED: {"$gte": start.timestamp()}},
                {ANTICIPATED: {"$lte": end.timestamp()}},
            ]
        }
        found = _memories(self._collection.get(where=where, include=_RECORD))
        return sorted(found, key=lambda m: (m.anticipated_at, m.id))

    def count_since(self, moment: datetime, cap: int) -> int:
        where = {"ts": {"$gte": moment.timestamp()}}
        return len(self._collection.get(where=where, limit=cap, include=[])["ids"])

    def batches(self, size: int) -> Iterator[tuple[list[Memory], Vector]]:
        """Every memory with its embedding, ``size`` at a time (for whole-store jobs)."""
        for page in pages(self._collection, [*_RECORD, "embeddings"], size):
            pairs = _memories_with_vectors(page)
            vectors = [vector for _, vector in pairs]
            yield (
                [memory for memory, _ in pairs],
                (np.stack(vectors) if vectors else np.zeros((0, 0), dtype=np.float32)),
            )

    def link_batches(self) -> Iterator[dict[str, tuple[str, ...]]]:
        """Every memory's id with the ids it links to, a page at a time (metadata only:
        the whole-store link check read records and embeddings and kept them all)."""
        for page in pages(self._collection, ["metadatas"]):
            yield {
                memory_id: tuple(
                    link.target_id for link in links_from_json((meta or {}).get("linked_ids"))
                )
                for memory_id, meta in zip(page["ids"], page["metadatas"], strict=True)
            }

    def vector_batches(
        self, size: int, since: datetime | None = None
    ) -> Iterator[tuple[list[str], Vector]]:
        """Every memory's id and embedding, ``size`` at a time (no records read). Paged,
        so that a whole window never sits in memory at once (10,000 records read whole in
        one ``get`` raised peak RSS by 220 MiB; ids and embeddings by the 500, by 7)."""
        where = None if since is None else {"ts": {"$gte": since.timestamp()}}
        for page in pages(self._collection, ["embeddings"], size, where):
            yield list(page["ids"]), _vectors(page)


class ChromaEpisodeStore:
    """The ``EpisodeStore`` of one agent; the summary's embedding makes episodes searchable.

    Each episode's members are also a list Chroma filters on (``codec.MEMBER_INDEX``), so
    the episodes that list a memory are one filtered read (``listing``), not a read of
    every episode (a forget and a merge need them: 42 ms at 1,000 episodes, 142 at
    3,000). Episodes an older version wrote lack the list, and its mark; a store that
    has some is found at open by one read, and they are given it (``index_members``);
    until then ``listing`` reads every episode.
    """

    def __init__(self, collection: Any) -> None:
        self._collection = collection
        self._indexed = not lacks_member_index(collection)

    @property
    def indexed(self) -> bool:
        """Whether every episode had its member list when last checked."""
        return self._indexed

    def index_members(self, passes: int = 3) -> int:
        """Give every episode whose member list is missing or differs from its members
        the list; how many writes that took. No lock: a change of members that lands
        between a read and its write (which writes both forms) is found by the next
        pass and written again."""
        mended = 0
        for _ in range(passes):
            stale: dict[str, dict[str, Any]] = {}
            for page in pages(self._collection, ["metadatas"]):
                for episode_id, meta in zip(page["ids"], page["metadatas"], strict=True):
                    if meta is None:
                        continue
                    members = json.loads(meta.get("memory_ids") or "[]")
                    if meta.get(MEMBERS_KEPT) != 1 or meta.get(MEMBER_INDEX, []) != members:
                        stale[episode_id] = member_index(members)
            if not stale:
                break
            ids = list(stale)
            for start in range(0, len(ids), WRITE_BATCH):
                batch = ids[start : start + WRITE_BATCH]
                self._collection.update(ids=batch, metadatas=[stale[i] for i in batch])
            mended += len(stale)
        self._indexed = not lacks_member_index(self._collection)
        return mended

    def listing(self, memory_id: str) -> list[Episode]:
        if not self._indexed:
            return [e for e in self.all() if memory_id in e.memory_ids]
        found = self._collection.get(
            where={MEMBER_INDEX: {"$contains": memory_id}}, include=_RECORD
        )
        return [e for e in _episodes(found) if memory_id in e.memory_ids]

    def add(self, episode: Episode, embedding: Vector) -> None:
        self._collection.add(
            ids=[episode.id],
            embeddings=embedding.reshape(1, -1),
            documents=[episode.summary],
            metadatas=[episode_to_metadata(episode)],
        )

    def get(self, episode_id: str) -> Episode | None:
        result = self._collection.get(ids=[episode_id], include=_RECORD)
        episodes = _episodes(result)
        return episodes[0] if episodes else None

    def all(self) -> list[Episode]:
        return _episodes(self._collection.get(include=_RECORD))

    def replace_members(self, episode_id: str, memory_ids: Sequence[str]) -> None:
        self._collection.update(ids=[episode_id], metadatas=[members_update(memory_ids)])


def index_entry(memory: Memory) -> IndexedText:
    """A memory as its lexical index row holds it."""
    return IndexedText(
        tuple(terms(memory.content)),
        content_hash(memory.content),
        memory.follows,
        asks(memory.content),
    )


def _follows(result: dict[str, Any]) -> dict[str, str]:
    """Each record's ``follows``, for those that follow a memory."""
    return {
        i: str(meta["follows"])
        for i, meta in zip(result["ids"], result["metadatas"], strict=True)
        if meta is not None and meta.get("follows")
    }


def pages(
    collection: Any, include: list[str], size: int = READ_BATCH, where: dict[str, Any] | None = None
) -> Iterator[dict[str, Any]]:
    """A whole collection (the records passing ``where`` if given), ``size`` records a
    ``get`` at a time: their ids first, ``ID_PAGE`` at a time, then the records by id. A
    record deleted meanwhile is left out."""
    for ids in id_pages(collection, where):
        for start in range(0, len(ids), size):
            page = collection.get(ids=ids[start : start + size], include=include)
            if page["ids"]:
                yield page


def id_pages(collection: Any, where: dict[str, Any] | None = None) -> Iterator[list[str]]:
    """Every record's id (of those passing ``where``), ``ID_PAGE`` at a time."""
    offset = 0
    while True:
        ids = list(collection.get(include=[], limit=ID_PAGE, offset=offset, where=where)["ids"])
        yield ids
        if len(ids) < ID_PAGE:  # the last page: asking again would filter the store again
            return
        offset += len(ids)


def collection_names(client: Any) -> set[str]:
    return {getattr(c, "name", c) for c in client.list_collections()}


def _memories_with_vectors(result: dict[str, Any]) -> list[tuple[Memory, Vector]]:
    """Records with their embeddings; one forgotten while this read ran is skipped."""
    rows = zip(
        result["ids"], result["documents"], result["metadatas"], _vectors(result), strict=True
    )
    return [(memory_from_record(i, d, m), v) for i, d, m, v in rows if m is not None]


def _as_read(
    memories: Sequence[Memory], metadatas: Sequence[Metadata], _: Mapping[str, Memory]
) -> dict[str, Memory]:
    """New records as a read gives them back (with no recall count, for one)."""
    return {
        m.id: memory_from_record(m.id, m.content, meta)
        for m, meta in zip(memories, metadatas, strict=True)
    }


def _relinked(stored: Mapping[str, str], held: Mapping[str, Memory]) -> dict[str, Memory]:
    """The ``held`` memories with the link lists ``stored`` (as JSON) written."""
    return {i: replace(m, linked_ids=links_from_json(stored[i])) for i, m in held.items()}


def _unique(ids: Sequence[str]) -> list[str]:
    """Chroma refuses a request that names an id twice."""
    return list(dict.fromkeys(ids))


def records(result: dict[str, Any]) -> Iterator[tuple[str, str | None, dict[str, Any]]]:
    """Id, document and metadata of each record a ``get`` read; a record deleted by
    another call while the read ran (no metadata) is skipped."""
    for record_id, document, meta in zip(
        result["ids"], result["documents"], result["metadatas"], strict=True
    ):
        if meta is not None:
            yield record_id, document, meta


def _memories(result: dict[str, Any]) -> list[Memory]:
    return [memory_from_record(*record) for record in records(result)]


def _in_time_order(found: Iterator[dict[str, Any]]) -> list[Memory]:
    return sorted(
        (memory for page in found for memory in _memories(page)),
        key=lambda memory: memory.timestamp,
    )


def _episodes(result: dict[str, Any]) -> list[Episode]:
    return [episode_from_record(*record) for record in records(result)]


def _vectors(result: dict[str, Any]) -> Vector:
    embeddings = result["embeddings"]
    if embeddings is None or len(embeddings) == 0:
        return np.zeros((0, 0), dtype=np.float32)
    return np.asarray(embeddings, dtype=np.float32)

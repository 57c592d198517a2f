"""The storage interfaces the domain talks to; ``ego_mcp.store`` implements them over ChromaDB."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from ego_mcp.memory.model import (
    Category,
    DeletedMemory,
    Emotion,
    Episode,
    Links,
    Memory,
    SearchHit,
)
from ego_mcp.memory.recall.bm25 import CorpusStats

if TYPE_CHECKING:
    # numpy only names the vector type here: a server answers its handshake before it loads.
    import numpy as np
    import numpy.typing as npt

    Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class MemoryFilter:
    """Restrictions on a similarity search; ``None`` means unrestricted."""

    emotion: Emotion | None = None
    category: Category | None = None
    date_from: datetime | None = None
    date_to: datetime | None = None
    valence_range: tuple[float, float] | None = None
    arousal_range: tuple[float, float] | None = None
    # Any of these tags, as they compare (``inputs.tag_key``).
    tags: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        return self == MemoryFilter()


class MemoryStore(Protocol):
    """Memories of one agent, with their embeddings."""

    def count(self) -> int: ...

    def add(self, memory: Memory, embedding: Vector, new: bool = False) -> None:
        """Store ``memory``; ``new``: its id was minted for this write, so nothing is
        stored under it (the lexical index then reads nothing it would replace)."""
        ...

    def add_many(self, memories: Sequence[Memory], embeddings: Vector) -> None: ...

    def get(self, memory_id: str) -> Memory | None: ...

    def get_many(self, memory_ids: Sequence[str]) -> list[Memory]:
        """The memories among ``memory_ids`` that exist, in no particular order."""
        ...

    def existing_ids(self, memory_ids: Sequence[str]) -> set[str]: ...

    def search(
        self, embedding: Vector, n_results: int, where: MemoryFilter | None = None
    ) -> list[SearchHit]:
        """The nearest memories to ``embedding``, nearest first."""
        ...

    def nearest(
        self, embedding: Vector, n_results: int, where: MemoryFilter | None = None
    ) -> list[tuple[str, float]]:
        """As ``search``, ids and cosine distances only (no record is read)."""
        ...

    def vectors(
        self, memory_ids: Sequence[str], where: MemoryFilter | None = None
    ) -> dict[str, Vector]:
        """The embeddings of the memories among ``memory_ids`` that exist (and pass
        ``where``), by id (no record is read)."""
        ...

    def with_vectors(
        self, memory_ids: Sequence[str], where: MemoryFilter | None = None
    ) -> list[tuple[Memory, Vector]]:
        """The memories among ``memory_ids`` that exist (and pass ``where``), with their
        embeddings."""
        ...

    def ids(self) -> Iterator[list[str]]:
        """Every memory's id, a page at a time."""
        ...

    def sitting(
        self, memory_ids: Sequence[str], read: Mapping[str, Memory] | None = None
    ) -> Sitting:
        """Where each of ``memory_ids`` stands in its agent's chain of saves
        (``Memory.follows``): ids only, no text, no embeddings. ``read``: records at
        hand, whose ``follows`` need no read."""
        ...

    def neighbour_ids(self, embeddings: Vector, n_results: int) -> list[list[tuple[str, float]]]:
        """For each row of ``embeddings``, the ids and distances of its nearest memories;
        one batched query that reads no records."""
        ...

    def replace_links(self, memories: Sequence[Memory]) -> None:
        """Write the ``linked_ids`` of each given memory, all in one call."""
        ...

    def note_recalls(self, memory_ids: Sequence[str], day: int) -> int:
        """Count ``day`` (days since the epoch) as a day each memory was recalled, once a
        day; returns how many memories changed. Ids of memories gone are skipped."""
        ...

    def links_of(self, memory_ids: Sequence[str]) -> dict[str, Links]:
        """The link lists of the memories among ``memory_ids`` that exist (no text, no
        embeddings)."""
        ...

    def write_links(self, links: Mapping[str, Links]) -> None:
        """Write each memory's link list (metadata only)."""
        ...

    def rewrite(self, memory: Memory, embedding: Vector | None) -> None:
        """Replace a stored memory's metadata, and its text and embedding if an embedding
        is given (without one the stored text is kept)."""
        ...

    def delete(self, memory_id: str) -> None: ...

    def lexical_in_step(self) -> bool:
        """Whether the lexical index may be trusted without mending: no row unsettled and
        as many rows as memories (cheap)."""
        ...

    def mend_lexical(self, rebuild: bool = False) -> tuple[int, int]:
        """Make the lexical index hold exactly what the store holds: every unsettled row
        checked against the stored text's hash, missing rows indexed and extra ones
        removed (every memory indexed again if ``rebuild``). The caller holds the agent's
        lock. Returns how many rows were indexed and how many removed."""
        ...

    def recent(self, moment: datetime, category: Category | None = None) -> list[Memory]:
        """Memories stored at or after ``moment`` (of one category if given), oldest first,
        without embeddings."""
        ...

    def in_hours(self, hours: Sequence[int]) -> list[Memory]:
        """Memories stored in the given hours (``memory.hours.hour_of``), oldest first."""
        ...

    def latest_since(self, moment: datetime) -> tuple[str, datetime] | None:
        """The id and time of the latest memory stored at or after ``moment``, if any
        (reads ids and times only)."""
        ...

    def has_since(self, moment: datetime) -> bool:
        """Whether any memory was stored at or after ``moment`` (reads one record at most)."""
        ...

    def anticipating(self, start: datetime, end: datetime) -> list[Memory]:
        """The memories whose anticipated moment falls from ``start`` to ``end``, soonest
        first."""
        ...

    def count_since(self, moment: datetime, cap: int) -> int:
        """How many memories were stored at or after ``moment``, counted up to ``cap``
        (reads ids only, ``cap`` at most)."""
        ...

    def batches(self, size: int) -> Iterator[tuple[list[Memory], Vector]]:
        """Every memory with its embedding, ``size`` at a time."""
        ...

    def link_batches(self) -> Iterator[dict[str, tuple[str, ...]]]:
        """Every memory's id with the ids it links to, a page of memories at a time."""
        ...

    def vector_batches(
        self, size: int, since: datetime | None = None
    ) -> Iterator[tuple[list[str], Vector]]:
        """Every memory's id and embedding (of those stored at or after ``since`` if
        given), ``size`` at a time."""
        ...


@dataclass(frozen=True)
class LexicalLookup:
    """What the lexical index knows of a query: each term's document frequency, the store's
    statistics, and the terms of the memories best matching the query's rarer terms."""

    frequencies: Mapping[str, int]
    stats: CorpusStats
    documents: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Sitting:
    """Memories' places in their agent's chain of saves (``Memory.follows``)."""

    follows: Mapping[str, str]  # each memory asked about that follows one: the one it follows
    followers: Mapping[str, str]  # each memory that follows one asked about: the one it follows


@dataclass(frozen=True)
class IndexedText:
    """A memory's terms as the lexical index holds them, with the hash of the text they
    were read from (``model.content_hash``), the memory it follows in its sitting (the
    embedded index answers ``sitting`` from it) and whether the text ends by asking
    (``terms.asks``: recall weighs such a memory less for a question)."""

    terms: tuple[str, ...]
    digest: str
    follows: str = ""
    asks: bool = False


class LexicalIndex(Protocol):
    """The terms of every memory of one agent (``memory/recall/terms.py``), for BM25.

    Only the memory store writes it, around each of its own writes: the rows are written
    (or, for a delete, marked) *unsettled* before the vector store's write and settled
    after it. A crash between the two leaves the row unsettled, with the hash of the text
    it was read from, and the next open compares that hash with the stored text and mends
    the row (``MemoryStore.mend_lexical``).
    """

    def put(self, documents: Mapping[str, IndexedText], new: bool = False) -> None:
        """Index each memory id's terms, replacing what it had; the rows are unsettled.
        ``new``: the ids were minted for this write and have nothing to replace."""
        ...

    def settle(self, memory_ids: Sequence[str]) -> None:
        """The vector store's write of these memories is done."""
        ...

    def unsettle(self, memory_ids: Sequence[str]) -> None:
        """These memories are about to be deleted from the vector store."""
        ...

    def unsettled(self) -> dict[str, str | None]:
        """Each unsettled memory id with the hash its row was indexed from (None: a row
        written before rows kept one)."""
        ...

    def remove(self, memory_ids: Sequence[str]) -> None: ...

    def lookup(
        self, query: Sequence[str], limit: int, counted: Sequence[str] = ()
    ) -> LexicalLookup:
        """Frequencies and statistics for ``query``, with the terms of up to ``limit``
        memories that best match it; the frequencies of the terms ``counted`` names too
        (the query's translations)."""
        ...

    def documents(self, memory_ids: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """The terms of those of ``memory_ids`` that are indexed."""
        ...

    def sitting(self, memory_ids: Sequence[str]) -> Sitting | None:
        """As ``MemoryStore.sitting``, or None if this index does not hold the chain (the
        one on a Chroma server; a file written before it did, until it is mended)."""
        ...

    def asking(self, memory_ids: Sequence[str]) -> set[str]:
        """Those of ``memory_ids`` whose text ends by asking (``IndexedText.asks``); a row
        written before the index kept it counts as not asking until it is placed."""
        ...

    def unplaced(self) -> list[str]:
        """The memories whose rows were written before the index held the chain or
        whether their text asks (none for an index that reads neither from the records)."""
        ...

    def place(self, follows: Mapping[str, str], asking: AbstractSet[str]) -> None:
        """Record the memory each memory of ``follows`` follows ("": none) in its row,
        and whether it is among ``asking`` (``unplaced``); once no row lacks the chain,
        ``sitting`` answers."""
        ...

    def ids(self) -> set[str]:
        """Every indexed memory id."""
        ...

    def japanese_ids(self) -> set[str]:
        """The memories whose terms hold Japanese ones."""
        ...

    def japanese_reader(self) -> str | None:
        """What read the Japanese rows' terms (``terms.JAPANESE_READER`` when they were
        written), None if it was never noted (an index written before it was)."""
        ...

    def note_japanese_reader(self, reader: str) -> None: ...

    def count(self) -> int: ...

    def stats(self) -> CorpusStats:
        """The statistics (kept in memory embedded; one read on a server)."""
        ...

    def recount(self) -> None:
        """Count the statistics again from what is indexed."""
        ...


class EpisodeStore(Protocol):
    """Episodes of one agent."""

    def add(self, episode: Episode, embedding: Vector) -> None: ...

    def get(self, episode_id: str) -> Episode | None: ...

    def all(self) -> list[Episode]: ...

    def listing(self, memory_id: str) -> list[Episode]:
        """The episodes that list ``memory_id``."""
        ...

    def replace_members(self, episode_id: str, memory_ids: Sequence[str]) -> None: ...


class DepartedRecord(Protocol):
    """The ids of every memory that left the store (forgotten or merged away) and whose
    deletion-log entry is gone (noted by the purge that takes the entry; at once where
    there is no log), kept for good with a hash of the text, never the text: what
    ``import`` and ``migrate`` consult, with the log, so that neither brings one back."""

    def note(self, departed: Sequence[tuple[str, str]]) -> None:
        """Record these (memory id, text) pairs as gone (the text is hashed, not kept)."""
        ...

    def returned(self, memory_ids: Sequence[str]) -> None:
        """``restore_memory`` (or an import asked to) brought these back."""
        ...

    def known(self, memory_ids: Sequence[str]) -> set[str]:
        """Those of ``memory_ids`` that left the store."""
        ...


class DeletionLog(Protocol):
    """Memories removed by ``forget`` or ``merge_memories``, one entry per memory id, kept
    in the store itself (private ones too) until they are restored or purged."""

    def put(self, entry: DeletedMemory) -> None:
        """Record ``entry``, replacing an older entry of the same memory."""
        ...

    def get(self, memory_id: str) -> DeletedMemory | None: ...

    def logged_ids(self, memory_ids: Sequence[str]) -> set[str]:
        """Those of ``memory_ids`` that have an entry."""
        ...

    def remove(self, memory_id: str) -> None: ...

    def entries(self) -> list[DeletedMemory]:
        """Every entry, oldest deletion first."""
        ...

    def merges_into(self, keep_id: str) -> list[DeletedMemory]:
        """The entries merged into ``keep_id``, oldest deletion first."""
        ...

    def purge(self, memory_ids: Sequence[str]) -> int:
        """Remove the entries of ``memory_ids`` (those the caller read as past their
        window, so that an entry logged meanwhile stays); how many."""
        ...

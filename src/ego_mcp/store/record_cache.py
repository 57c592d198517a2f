"""The memories an embedded store read or wrote last, kept in its process.

An embedded store has one process (the directory lock, ``store/dirlock.py``), and every
write of what a memory reads as goes through a ``ChromaMemoryStore`` of the agent, which
tells the agent's one cache (``Runtime``) before and after: what the cache holds is what
the collection holds. (The time index's mend writes ``ts``, ``hour`` and the tag list
around the stores: fields no ``Memory`` is read from.) Reading a
record back from Chroma costs about 1 ms for the five a recall shows (0.55 of it the
``get`` itself); a hit costs microseconds. A store on a Chroma server has other writers
and no cache.

Reads and writes may run at once in several threads. Each write takes the records it
changes out before it starts and puts them back (or leaves them out) after it ends; a
read puts what it read in only if no write began or ended meanwhile (``generation``
counts them), so a record read while a write changed it never stays.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence

from ego_mcp.memory.model import Memory

# Memories kept, the least lately used dropped first: about 1.8 KB for one of 80
# characters with five links (3.6 MiB for 2,048). Their text is bounded too, as a memory
# may hold 20,000 characters (2 bytes each in Japanese, 4 in a text with an emoji): 8 MiB
# of Japanese at most.
RECORD_CACHE_SIZE = 2_048
RECORD_CACHE_CHARS = 4_000_000


class RecordCache:
    """A bounded map of memory id to the memory as the store holds it."""

    def __init__(
        self, capacity: int = RECORD_CACHE_SIZE, characters: int = RECORD_CACHE_CHARS
    ) -> None:
        self.capacity = capacity
        self.characters = characters
        self._held: OrderedDict[str, Memory] = OrderedDict()
        self._chars = 0  # of the memories held
        self._lock = threading.Lock()
        self._generation = 0

    def generation(self) -> int:
        """Taken before a read from the store, handed to ``offer`` after it."""
        return self._generation

    def held(self, memory_ids: Iterable[str]) -> dict[str, Memory]:
        """The memories of ``memory_ids`` the cache holds."""
        found: dict[str, Memory] = {}
        with self._lock:
            for memory_id in memory_ids:
                memory = self._held.get(memory_id)
                if memory is not None:
                    self._held.move_to_end(memory_id)
                    found[memory_id] = memory
        return found

    def offer(self, memories: Iterable[Memory], generation: int) -> None:
        """Keep ``memories``, read from the store since ``generation``, unless a write
        began or ended since."""
        with self._lock:
            if generation == self._generation:
                self._keep(memories)

    def before_write(self, memory_ids: Sequence[str]) -> tuple[int, dict[str, Memory]]:
        """Before a write of these memories: they are taken out. Returns the token for
        ``after_write`` and the memories of ``memory_ids`` the cache held."""
        with self._lock:
            held = {i: m for i in memory_ids if (m := self._held.get(i)) is not None}
            self._drop(memory_ids)
            self._generation += 1
            return self._generation, held

    def after_write(
        self, memory_ids: Sequence[str], token: int, written: Mapping[str, Memory] | None = None
    ) -> None:
        """After the write ``token`` began (or its failure): the ``written`` memories (as
        the write left them) are kept if no other write began or ended meanwhile; every
        other memory of ``memory_ids`` stays out."""
        with self._lock:
            if written and token == self._generation:
                self._keep(written.values())
                self._drop([i for i in memory_ids if i not in written])
            else:
                self._drop(memory_ids)
            self._generation += 1

    def _keep(self, memories: Iterable[Memory]) -> None:
        for memory in memories:
            self._drop([memory.id])
            self._held[memory.id] = memory
            self._chars += len(memory.content)
        while len(self._held) > self.capacity or self._chars > self.characters:
            _, oldest = self._held.popitem(last=False)
            self._chars -= len(oldest.content)

    def _drop(self, memory_ids: Iterable[str]) -> None:
        for memory_id in memory_ids:
            gone = self._held.pop(memory_id, None)
            if gone is not None:
                self._chars -= len(gone.content)

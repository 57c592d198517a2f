"""The composition root: opens the edges once per process and hands out per-agent services."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Any

from ego_mcp.clock import Clock, SystemClock
from ego_mcp.ego.service import EgoService
from ego_mcp.embedding import Embedder, create_embedder
from ego_mcp.errors import LockUnavailable, StoreUnavailable
from ego_mcp.heap import release_free_heap
from ego_mcp.locks import AgentLocks, LocalAgentLocks, RedisAgentLocks
from ego_mcp.logs import Plain
from ego_mcp.memory.fading import Fade
from ego_mcp.memory.parts import Thresholds
from ego_mcp.memory.service import MemoryService
from ego_mcp.memory.store import DeletionLog, LexicalIndex
from ego_mcp.memory.thresholds import thresholds_for
from ego_mcp.presence import live_front_ends
from ego_mcp.profiles import AgentProfiles
from ego_mcp.settings import Settings
from ego_mcp.state.documents import DocumentStore, FileDocumentStore
from ego_mcp.state.redis_documents import RedisDocumentStore, redis_unavailable
from ego_mcp.store.agent_files import claim
from ego_mcp.store.chroma import (
    ChromaEpisodeStore,
    ChromaMemoryStore,
    backfill_time_index,
    collection_names,
)
from ego_mcp.store.client import ChromaHandle, open_chroma
from ego_mcp.store.deletion_log import open_deletion_log
from ego_mcp.store.deletion_log_sqlite import (
    SqliteDeletionLog,
    adopt_chroma_entries,
    deletion_log_path,
)
from ego_mcp.store.departed import ChromaDepartedRecord
from ego_mcp.store.dirlock import DirectoryLock
from ego_mcp.store.jmdict import open_jmdict
from ego_mcp.store.lexical_chroma import open_chroma_lexical
from ego_mcp.store.lexical_sqlite import SqliteLexicalIndex, lexical_path
from ego_mcp.store.record_cache import RecordCache
from ego_mcp.store.reembed import Step, open_live_collection, reembed_agent
from ego_mcp.workspace import WorkspaceSync

logger = logging.getLogger(__name__)


def redis_client(settings: Settings) -> Any:
    """A synchronous Redis client for locks and documents, or None in embedded mode."""
    if settings.redis_url is None:
        return None
    from redis import Redis

    return Redis.from_url(settings.redis_url, socket_timeout=5, socket_connect_timeout=5)


def agent_of(collection: str) -> str:
    """The agent a ``ego-{agent}-memories`` collection belongs to ('' for other names)."""
    prefix, suffix = "ego-", "-memories"
    if collection.startswith(prefix) and collection.endswith(suffix):
        return collection[len(prefix) : -len(suffix)]
    return ""


class Runtime:
    """Chroma, the embedder, the clock and the locks of this process."""

    def __init__(
        self,
        settings: Settings,
        chroma: ChromaHandle,
        embedder: Embedder,
        clock: Clock,
        locks: AgentLocks,
        profiles: AgentProfiles | None = None,
    ) -> None:
        self.settings = settings
        self.chroma = chroma
        self.embedder = embedder
        self.clock = clock
        self.locks = locks
        self.redis: Any = None
        self._services: dict[str, MemoryService] = {}
        self._lexical: dict[str, LexicalIndex] = {}  # one per agent, kept across rebuilds
        # The same, embedded: a rebuilt service's store tells the cache the one before it
        # tells (a job or a call may still write through that one).
        self._record_caches: dict[str, RecordCache] = {}
        self._deletion_logs: dict[str, SqliteDeletionLog] = {}  # the same, embedded
        self._own_files: set[str] = set()  # agents whose file names no other agent spells
        self._claims = threading.Lock()  # one claim at a time: twins race otherwise
        self.dictionary = open_jmdict()  # recall's translations, shared by every agent
        self._documents_seen: dict[str, Any] = {}  # last known Redis documents, for outages
        self._guard = threading.Lock()
        self.profiles = profiles or AgentProfiles(settings)
        self.profiles.on_change(self._drop_service)  # rebuilt with the new workspace

    @classmethod
    def open(
        cls,
        settings: Settings,
        clock: Clock | None = None,
        embedder: Embedder | None = None,
        locks: AgentLocks | None = None,
        held: DirectoryLock | None = None,
        profiles: AgentProfiles | None = None,
    ) -> Runtime:
        """Open the store and load the model (blocking: seconds on first start). ``held``:
        the embedded store's directory lock, taken by the caller; the runtime owns it from
        here (released by ``close``, or at once if opening fails). ``profiles``: the agents
        served, when the caller adopts other windows' agents (``server.sharing``)."""
        try:
            chosen_embedder = embedder or create_embedder(settings)
            redis = redis_client(settings)
            chroma = open_chroma(settings, held)
        except BaseException:
            if held is not None:
                held.release()
            raise
        runtime = cls(
            settings,
            chroma,
            chosen_embedder,
            clock or SystemClock(),
            locks or (RedisAgentLocks(redis) if redis is not None else LocalAgentLocks()),
            profiles,
        )
        runtime.redis = redis
        release_free_heap()  # loading the model leaves about 30 MiB freed but kept
        return runtime

    @property
    def thresholds(self) -> Thresholds:
        return thresholds_for(
            self.embedder.signature.model,
            self.settings.dedup_threshold,
            self.settings.merge_threshold,
            self.settings.link_threshold,
        )

    def memory(self, agent: str) -> MemoryService:
        with self._guard:
            service = self._services.get(agent)
            if service is None:
                service = self._build_memory_service(agent)
                self._services[agent] = service
            return service

    def documents(self, agent: str) -> DocumentStore:
        if self.redis is not None:
            return RedisDocumentStore(self.redis, agent, self._documents_seen)
        self._claim_files(agent)
        return FileDocumentStore(self.settings.data_dir / "state" / agent)

    def _claim_files(self, agent: str) -> None:
        """Refuse an agent whose per-agent files another agent's name spells otherwise
        (``store/agent_files.py``)."""
        with self._claims:
            if agent not in self._own_files:
                claim(self.settings.data_dir, agent, self._own_files)
                self._own_files.add(agent)

    def ego(self, agent: str) -> EgoService:
        companion = self.profiles.profile(agent).companion_name
        return EgoService(self.memory(agent), self.documents(agent), self.clock, companion)

    def _drop_service(self, agent: str) -> None:
        with self._guard:
            self._services.pop(agent, None)

    def reembed(self, agent: str, after_step: Step | None = None) -> int:
        """Migrate the agent's collections to this runtime's embedding model.

        No front end of the agent may be live: in embedded mode the directory lock sees to
        that; with Redis, live front ends are counted and the agent's lock is held (and
        renewed) for the whole run.
        """
        client = self.chroma.client
        if self.redis is None:
            copied = reembed_agent(client, agent, self.embedder, after_step=after_step)
        else:
            from redis.exceptions import RedisError

            try:
                live = live_front_ends(self.redis, agent)
            except RedisError as exc:
                raise redis_unavailable(exc) from None
            if live:
                raise StoreUnavailable(
                    f"agent {agent} has {live} live front end(s); stop them before re-embedding"
                )
            with self.locks.hold(agent):
                copied = reembed_agent(client, agent, self.embedder, after_step=after_step)
        with self._guard:
            self._services.pop(agent, None)
            self._record_caches.pop(agent, None)  # of the collection the copy replaced
        return copied

    def agents(self) -> list[str]:
        """Every agent with a memory collection in the store (what scheduled jobs cover)."""
        names = collection_names(self.chroma.client)
        return sorted(agent_of(name) for name in names if agent_of(name))

    def workspace(self, agent: str) -> WorkspaceSync | None:
        root = self.profiles.profile(agent).workspace
        return WorkspaceSync(root) if root is not None else None

    def close(self) -> None:
        for index in self._lexical.values():
            if isinstance(index, SqliteLexicalIndex):
                index.close()
        for log in self._deletion_logs.values():
            log.close()
        if self.dictionary is not None:
            self.dictionary.close()
        self.chroma.close()
        if self.redis is not None:
            self.redis.close()

    def _build_memory_service(self, agent: str) -> MemoryService:
        if self.settings.chroma_url is None:  # its lexical index and log are files
            self._claim_files(agent)
        signature = self.embedder.signature
        client = self.chroma.client
        memories = open_live_collection(client, agent, "memories", signature)
        backfill_time_index(memories)
        episodes = open_live_collection(client, agent, "episodes", signature)
        lexical = self._lexical_index(agent)
        service = MemoryService(
            agent=agent,
            store=ChromaMemoryStore(memories, lexical, self._record_cache(agent)),
            episodes=ChromaEpisodeStore(episodes),
            embedder=self.embedder,
            clock=self.clock,
            locks=self.locks,
            thresholds=self.thresholds,
            journal=self.workspace(agent),
            deletion_log=self._deletion_log(agent),
            departed=ChromaDepartedRecord.open(client, agent),
            undo_window=timedelta(days=self.settings.forget_undo_days),
            lexical=lexical,
            dictionary=self.dictionary,
            reads_remote=self.settings.chroma_url is not None,
            shared_store=self.settings.chroma_url is not None,
            fade=fade_of(self.settings),
        )
        self._index_episode_members(agent, service)
        if not service.lexical_in_step():
            try:
                indexed, removed = service.mend_lexical()
            except LockUnavailable:
                logger.warning(
                    "lexical index of %s not reconciled: its lock is unavailable", Plain(agent)
                )
            else:
                logger.info(
                    "lexical index of %s: %d indexed, %d removed", Plain(agent), indexed, removed
                )
        return service

    def _index_episode_members(self, agent: str, service: MemoryService) -> None:
        """Give episodes an older version wrote their member list (no lock: see
        ``ChromaEpisodeStore.index_members``)."""
        episodes = service.episodes
        if isinstance(episodes, ChromaEpisodeStore) and not episodes.indexed:
            mended = episodes.index_members()
            logger.info("episodes of %s: %d given their member list", Plain(agent), mended)

    def _deletion_log(self, agent: str) -> DeletionLog:
        """The agent's deletion log: a SQLite file beside the embedded store (kept open
        for the process's life, taking over the entries an older version kept in
        Chroma), or a collection on the Chroma server."""
        client = self.chroma.client
        if self.settings.chroma_url is not None:
            return open_deletion_log(client, agent)
        log = self._deletion_logs.get(agent)
        if log is None:
            log = SqliteDeletionLog(deletion_log_path(self.settings.data_dir, agent))
            try:
                moved, unreadable = adopt_chroma_entries(client, agent, log)
            except BaseException:
                log.close()
                raise
            if moved or unreadable:
                logger.info(
                    "deletion log of %s: %d entries moved out of Chroma, %d unreadable left out",
                    Plain(agent),
                    moved,
                    unreadable,
                )
            self._deletion_logs[agent] = log
        return log

    def _record_cache(self, agent: str) -> RecordCache | None:
        """The memories of the agent's embedded store kept in memory; None on a Chroma
        server, which other processes write."""
        if self.settings.chroma_url is not None:
            return None
        return self._record_caches.setdefault(agent, RecordCache())

    def _lexical_index(self, agent: str) -> LexicalIndex:
        """The agent's lexical index: beside the embedded store, or on the Chroma server."""
        index = self._lexical.get(agent)
        if index is None:
            if self.settings.chroma_url is None:
                index = SqliteLexicalIndex(lexical_path(self.settings.data_dir, agent))
            else:
                index = open_chroma_lexical(self.chroma.client, agent)
            self._lexical[agent] = index
        return index


def fade_of(settings: Settings) -> Fade | None:
    """How recall weighs age, when ``EGO_MCP_FADE_HALF_LIFE_DAYS`` is set."""
    half_life = settings.fade_half_life_days
    return None if half_life is None else Fade(half_life, settings.fade_weight)

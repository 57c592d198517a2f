"""The composition root: opens the edges once per process and hands out per-agent services."""

from __future__ import annotations

import threading

from ego_mcp.clock import Clock, SystemClock
from ego_mcp.ego.service import EgoService
from ego_mcp.embedding import Embedder, create_embedder
from ego_mcp.locks import AgentLocks, LocalAgentLocks
from ego_mcp.memory.service import MemoryService, Thresholds
from ego_mcp.settings import Settings
from ego_mcp.state.documents import FileDocumentStore
from ego_mcp.store.chroma import (
    ChromaEpisodeStore,
    ChromaMemoryStore,
    collection_name,
    open_collection,
)
from ego_mcp.store.client import ChromaHandle, open_chroma
from ego_mcp.workspace import WorkspaceSync


class Runtime:
    """Chroma, the embedder, the clock and the locks of this process."""

    def __init__(
        self,
        settings: Settings,
        chroma: ChromaHandle,
        embedder: Embedder,
        clock: Clock,
        locks: AgentLocks,
    ) -> None:
        self.settings = settings
        self.chroma = chroma
        self.embedder = embedder
        self.clock = clock
        self.locks = locks
        self._services: dict[str, MemoryService] = {}
        self._guard = threading.Lock()

    @classmethod
    def open(
        cls,
        settings: Settings,
        clock: Clock | None = None,
        embedder: Embedder | None = None,
        locks: AgentLocks | None = None,
    ) -> Runtime:
        """Open the store and load the model (blocking: seconds on first start)."""
        chosen_embedder = embedder or create_embedder(settings)
        return cls(
            settings,
            open_chroma(settings),
            chosen_embedder,
            clock or SystemClock(),
            locks or LocalAgentLocks(),
        )

    @property
    def thresholds(self) -> Thresholds:
        return Thresholds(
            dedup=self.settings.dedup_threshold,
            link=self.settings.link_threshold,
            merge=self.settings.merge_threshold,
        )

    def memory(self, agent: str) -> MemoryService:
        with self._guard:
            service = self._services.get(agent)
            if service is None:
                service = self._build_memory_service(agent)
                self._services[agent] = service
            return service

    def ego(self, agent: str) -> EgoService:
        documents = FileDocumentStore(self.settings.data_dir / "state" / agent)
        return EgoService(self.memory(agent), documents, self.clock, self.settings.companion_name)

    def workspace(self, agent: str) -> WorkspaceSync | None:
        root = self.settings.workspace_for(agent)
        return WorkspaceSync(root) if root is not None else None

    def close(self) -> None:
        self.chroma.close()

    def _build_memory_service(self, agent: str) -> MemoryService:
        signature = self.embedder.signature
        client = self.chroma.client
        memories = open_collection(client, collection_name(agent, "memories"), signature)
        episodes = open_collection(client, collection_name(agent, "episodes"), signature)
        return MemoryService(
            agent=agent,
            store=ChromaMemoryStore(memories),
            episodes=ChromaEpisodeStore(episodes),
            embedder=self.embedder,
            clock=self.clock,
            locks=self.locks,
            thresholds=self.thresholds,
            journal=self.workspace(agent),
        )

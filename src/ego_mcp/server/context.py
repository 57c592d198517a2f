"""The app context every tool reads: settings, the runtime (stores, model) and the job queue.

Tool modules import this; ``server.app`` imports the tool modules. Nothing here imports
either, so the imports run one way.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import Context

from ego_mcp.agents_file import AgentsFile
from ego_mcp.ego.desires import SeenSatisfactions
from ego_mcp.ego.service import EgoService
from ego_mcp.errors import EgoError, StoreUnavailable, Unauthorised
from ego_mcp.logs import Plain
from ego_mcp.memory.service import MemoryService
from ego_mcp.observe.endpoints import OpsServer
from ego_mcp.observe.metrics import install_snapshot
from ego_mcp.observe.probe import probe_for
from ego_mcp.observe.serve import ops_server
from ego_mcp.presence import PresenceBeacon
from ego_mcp.profiles import AgentProfiles
from ego_mcp.queue.arq_queue import ArqQueue
from ego_mcp.queue.base import JobQueue, JobRequest
from ego_mcp.queue.inprocess import InProcessQueue
from ego_mcp.queue.jobs import JOB_FUNCTIONS, RUNTIME_KEY
from ego_mcp.queue.recall_tally import RecallTally
from ego_mcp.queue.schedule import schedules
from ego_mcp.queue.scheduler import InProcessScheduler
from ego_mcp.server.window_reads import WindowReads
from ego_mcp.settings import Settings
from ego_mcp.store.client import lock_directory
from ego_mcp.store.dirlock import DirectoryLock
from ego_mcp.workspace import workspace_problem

if TYPE_CHECKING:
    from ego_mcp.runtime import Runtime

T = TypeVar("T")
logger = logging.getLogger(__name__)
AGENT_SCOPE_KEY = "ego_mcp.agent"  # where the HTTP guard puts the agent a token selects
REPLAYED_META_KEY = "ego-mcp/replayed"  # set by a relay on a request it sends again


@dataclass
class AppContext:
    """What every tool reads: settings, the runtime (stores, model), the job queue, and
    the agent the tool acts for (``EGO_MCP_AGENT``, or chosen per request by its token)."""

    settings: Settings
    runtime: Runtime
    queue: JobQueue
    agents: Callable[[], list[str]]  # the agents served, asked anew (the file may change)
    scheduler: InProcessScheduler | None = None
    beacons: list[PresenceBeacon] = field(default_factory=list)
    # Upstream ego-mcp memories wait in the data dir: wake_up says so once (by agent).
    upstream_waiting: dict[str, int] = field(default_factory=dict)
    ops: OpsServer | None = None  # EGO_MCP_METRICS_PORT of a front end
    # What tools' implicit satisfactions found moments ago (shared by every agent's view).
    seen_satisfactions: SeenSatisfactions = field(default_factory=SeenSatisfactions)
    # Whole-window reads (consolidate): one thread, one at a time, shared (window_reads).
    window_reads: WindowReads = field(default_factory=WindowReads)
    # What recall showed, counted in one note_recalls job now and then (queue.recall_tally).
    recall_tally: RecallTally = field(default_factory=RecallTally)
    agent: str = ""
    # The client session a shared stdio server knows by its own id (``server.sharing``):
    # the key under which its state-changing calls are journaled for a replay.
    session: str = ""

    def __post_init__(self) -> None:
        self.agent = self.agent or self.settings.agent

    @property
    def agent_per_request(self) -> bool:
        """Whether each request's token selects the agent (the HTTP agents file)."""
        return self.settings.transport == "http" and self.settings.agents_file is not None

    def for_agent(self, agent: str) -> AppContext:
        """This context acting for ``agent``: same process parts, that agent's data."""
        return self if agent == self.agent else replace(self, agent=agent)

    def for_session(self, agent: str, session: str) -> AppContext:
        """This context serving one client session, as ``agent``."""
        return replace(self, agent=agent, session=session)

    @property
    def memory(self) -> MemoryService:
        return self.runtime.memory(self.agent)

    @property
    def ego(self) -> EgoService:
        return self.runtime.ego(self.agent)

    async def blocking(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run blocking domain work (Chroma, the model, files) off the event loop."""
        return await anyio.to_thread.run_sync(partial(function, *args, **kwargs))

    async def enqueue(self, requests: Sequence[JobRequest]) -> None:
        for request in requests:
            await self.queue.enqueue(request)

    async def start_background(self) -> None:
        agents = self.agents
        lock = self.runtime.chroma.lock
        if lock is not None and lock.previous_holder_died:
            # A killed holder may have left a link one-sided: mend it now, not at 03:00.
            await self.enqueue([JobRequest("repair_links", agent) for agent in agents()])
        fallback = self.queue if isinstance(self.queue, InProcessQueue) else None
        install_snapshot(probe_for(self.runtime, agents, schedules(self.settings), fallback))
        if self.settings.metrics_port is not None:
            self.ops = ops_server(self.runtime)
            self.ops.start()
        if self.settings.embedding_provider == "local":
            threading.Thread(target=self.warm_up, name="ego-warm-up", daemon=True).start()
        if self.scheduler is not None:
            self.scheduler.start()
        for beacon in self.beacons:
            beacon.start()

    def warm_up(self) -> None:
        """Build the local model's lazy parts (about 1.8 s), which the session's first call
        would otherwise wait for. (The guard's Japanese dictionary, 0.15 s and 50 MiB, is
        left to the first Japanese text.)"""
        try:
            self.memory.embedder.embed(["warm-up"])
        except Exception:
            logger.warning("warm-up failed; the first call will load the model", exc_info=True)

    async def drain(self) -> None:
        """Stop the schedule and let queued jobs finish (or reach Redis) before exit."""
        if self.scheduler is not None:
            await self.scheduler.stop()
        await self.enqueue(self.recall_tally.flush())
        await self.queue.close()
        for beacon in self.beacons:
            await anyio.to_thread.run_sync(beacon.stop)
        if self.ops is not None:
            await anyio.to_thread.run_sync(self.ops.stop)
        self.window_reads.close()


class OpeningApp:
    """An app context still opening: the store and the model (about 0.8 s) open in a
    thread while the session starts, since the handshake and ``tools/list`` need neither;
    each tool call waits for them (``ready``). Made with the embedded store's directory
    lock already taken, so a store held by another process is known at once. If opening
    fails, every tool call answers with the reason."""

    def __init__(
        self, settings: Settings, held: DirectoryLock | None, profiles: AgentProfiles | None = None
    ) -> None:
        self._view: tuple[str, str] | None = None  # (agent, session) of a session's view
        self.profiles = profiles or AgentProfiles(settings)  # the agents it will serve
        self._opened: Future[AppContext] = Future()
        self._opened.set_running_or_notify_cancel()  # a waiter that gives up cannot cancel it
        self._thread = threading.Thread(
            target=self._open, args=(settings, held, self.profiles), name="ego-open", daemon=True
        )
        self._thread.start()

    @classmethod
    def start(cls, settings: Settings, profiles: AgentProfiles | None = None) -> OpeningApp:
        """Take the directory lock (``StoreHeld``, ``StoreUnavailable``), then open.
        ``profiles``: the agents served (see ``open_app_context``)."""
        held = lock_directory(settings) if settings.chroma_url is None else None
        return cls(settings, held, profiles)

    def _open(
        self, settings: Settings, held: DirectoryLock | None, profiles: AgentProfiles | None
    ) -> None:
        try:
            self._opened.set_result(open_app_context(settings, held, profiles))
        except BaseException as exc:
            if not isinstance(exc, EgoError):
                logger.error("the store or the model could not be opened", exc_info=exc)
            self._opened.set_exception(exc)

    async def ready(self) -> AppContext:
        """The opened context, once it is; what opening raised, as an ``EgoError``."""
        if not self._opened.done():
            with contextlib.suppress(Exception):  # raised below, as the tool's answer
                await asyncio.shield(asyncio.wrap_future(self._opened))
        return self.opened()

    def for_session(self, agent: str, session: str) -> OpeningApp:
        """A view of this context for one client session, served as ``agent``: it opens
        with this one (the holder closes only this one)."""
        view = copy.copy(self)
        view._view = (agent, session)
        return view

    def opened(self) -> AppContext:
        """The context, after ``ready``."""
        failure = self._opened.exception(timeout=0)
        if failure is None:
            context = self._opened.result()
            return context if self._view is None else context.for_session(*self._view)
        if isinstance(failure, EgoError):
            raise failure
        raise StoreUnavailable(
            f"the store or the model could not be opened ({type(failure).__name__}); "
            "the server log has the details"
        )

    def close(self) -> None:
        """Wait for opening to end, then close what it opened (the lock with it)."""
        self._thread.join()
        if self._opened.exception() is None:
            self._opened.result().runtime.close()


Served = AppContext | OpeningApp  # what a session's lifespan holds


def app_of(ctx: Context[Served, Any]) -> AppContext:
    """The app context of a tool call, acting for the agent its request's token chose
    (after ``EgoServer.call_tool`` waited for an opening one)."""
    request_context = ctx.request_context
    lifespan = request_context.lifespan_context
    app = lifespan.opened() if isinstance(lifespan, OpeningApp) else lifespan
    scope = getattr(request_context.request, "scope", None)
    agent = scope.get(AGENT_SCOPE_KEY) if isinstance(scope, dict) else None
    if agent is None:
        if app.agent_per_request:  # only the HTTP guard lets a request through
            raise Unauthorised("this request carries no agent token")
        return app
    return app.for_agent(str(agent))


def replayed(ctx: Context[Served, Any]) -> bool:
    """Whether this request is sent again after a hand-over of the store (``server.sharing``)."""
    meta = ctx.request_context.meta
    return bool(meta and meta.get(REPLAYED_META_KEY))


def served_agents(settings: Settings, runtime: Runtime) -> Callable[[], list[str]]:
    """The agents this front end serves: those of the agents file (as it is now), or its
    own and those of the other windows it serves (``Runtime.profiles``)."""
    if settings.transport == "http" and settings.agents_file is not None:
        agents = AgentsFile(settings.agents_file)
        return lambda: sorted(agents.tokens().hashes)
    return runtime.profiles.agents


def build_app_context(
    settings: Settings, runtime: Runtime, agents: Callable[[], list[str]] | None = None
) -> AppContext:
    """Jobs go to arq when Redis is configured, else run in-process on a local schedule.
    ``agents``: the served agents, if the caller has read them already."""
    queue = InProcessQueue({RUNTIME_KEY: runtime}, JOB_FUNCTIONS)
    agents = agents or served_agents(settings, runtime)
    if settings.redis_url is not None:
        beacons = [PresenceBeacon(runtime.redis, a) for a in agents()] if runtime.redis else []
        arq_queue = ArqQueue.connect(settings.redis_url, fallback=queue)
        return AppContext(settings, runtime, arq_queue, agents, beacons=beacons)
    scheduler = InProcessScheduler(
        agents, schedules(settings), queue, runtime.documents, runtime.clock
    )
    return AppContext(settings, runtime, queue, agents, scheduler)


def open_app_context(
    settings: Settings, held: DirectoryLock | None = None, profiles: AgentProfiles | None = None
) -> AppContext:
    """Open the stores and the model and check each served agent's collections (blocking).
    ``held``: the directory lock, already taken; ``profiles``: the agents served, when the
    caller adopts more (see ``Runtime.open``)."""
    # chromadb and numpy load with the store, off the handshake's path.
    from ego_mcp.migrate.importer import upstream_waiting
    from ego_mcp.runtime import Runtime

    runtime = Runtime.open(settings, held=held, profiles=profiles)
    served = served_agents(settings, runtime)
    try:
        agents = served()
        for agent in agents:
            runtime.memory(agent)
        waiting = {agent: upstream_waiting(runtime, agent) for agent in agents}
    except BaseException:
        runtime.close()
        raise
    for agent in waiting:
        root = runtime.profiles.profile(agent).workspace
        problem = workspace_problem(root) if root is not None else None
        if problem is not None:
            logger.warning(
                "EGO_MCP_WORKSPACE_DIR: %s; memories are saved, the workspace is not synced",
                Plain(problem),
            )
    for agent, count in waiting.items():
        if count:
            logger.warning(
                "this data dir holds %d memories written by upstream ego-mcp; "
                "run `ego-mcp migrate` to import them into agent %s",
                count,
                Plain(agent),
            )
    app = build_app_context(settings, runtime, served)
    app.upstream_waiting.update(waiting)
    return app

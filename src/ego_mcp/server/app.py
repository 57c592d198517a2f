"""Builds the MCP server: the app context tools read, the lifespan, and error translation."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from pydantic import ValidationError

from ego_mcp import __version__
from ego_mcp.ego.desires import implicit_satisfactions
from ego_mcp.ego.service import EgoService
from ego_mcp.errors import EgoError
from ego_mcp.jobs import JOB_FUNCTIONS, RUNTIME_KEY
from ego_mcp.logs import ensure_logging, redact_tool_arguments
from ego_mcp.memory.service import MemoryService
from ego_mcp.queue.arq_queue import ArqQueue
from ego_mcp.queue.base import JobQueue, JobRequest
from ego_mcp.queue.inprocess import InProcessQueue
from ego_mcp.queue.schedule import schedules
from ego_mcp.queue.scheduler import InProcessScheduler
from ego_mcp.runtime import Runtime
from ego_mcp.server.schema import compact_schema
from ego_mcp.settings import Settings

logger = logging.getLogger(__name__)
T = TypeVar("T")

INSTRUCTIONS = (
    "Your persistent inner life: memories with emotion, links between them, episodes. "
    "Start a session with wake_up; save what matters with remember; look back with recall."
)


@dataclass
class AppContext:
    """What every tool reads: settings, the runtime (stores, model) and the job queue."""

    settings: Settings
    runtime: Runtime
    queue: JobQueue
    scheduler: InProcessScheduler | None = None

    @property
    def agent(self) -> str:
        return self.settings.agent

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

    def start_background(self) -> None:
        if self.scheduler is not None:
            self.scheduler.start()

    async def drain(self) -> None:
        """Stop the schedule and let queued jobs finish (or reach Redis) before exit."""
        if self.scheduler is not None:
            await self.scheduler.stop()
        await self.queue.close()


def app_of(ctx: Context[AppContext, Any]) -> AppContext:
    return ctx.request_context.lifespan_context


def build_app_context(settings: Settings, runtime: Runtime) -> AppContext:
    """Jobs go to arq when Redis is configured, else run in-process on a local schedule."""
    queue = InProcessQueue({RUNTIME_KEY: runtime}, JOB_FUNCTIONS)
    if settings.redis_url is not None:
        return AppContext(settings, runtime, ArqQueue.connect(settings.redis_url, fallback=queue))
    scheduler = InProcessScheduler(
        settings.agent, schedules(settings), queue, runtime.documents(settings.agent), runtime.clock
    )
    return AppContext(settings, runtime, queue, scheduler)


def open_app_context(settings: Settings) -> AppContext:
    """Open the stores and the model and check the agent's collections (blocking)."""
    runtime = Runtime.open(settings)
    try:
        runtime.memory(settings.agent)
    except BaseException:
        runtime.close()
        raise
    return build_app_context(settings, runtime)


class EgoServer(MCPServer[AppContext]):
    """MCPServer with one place for the tool-call log and for turning failures into tool errors."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[AppContext, Any] | None = None
    ) -> Any:
        logger.info("tool call %s %s", name, redact_tool_arguments(name, arguments))
        try:
            result = await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, EgoError):
                raise ToolError(str(cause)) from None
            logger.error("tool %s crashed", name, exc_info=cause)
            raise ToolError(
                f"{name} failed on an internal error; the server log has the details"
            ) from None
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(describe_invalid_arguments(name, exc.__cause__)) from None
            raise
        if context is not None:
            await self._satisfy_implicitly(
                context.request_context.lifespan_context, name, arguments
            )
        return result

    async def _satisfy_implicitly(
        self, app: AppContext, name: str, arguments: dict[str, Any]
    ) -> None:
        """Some tools feed desires; a failure here must not undo the tool's answer."""
        try:
            await app.blocking(app.ego.satisfy, implicit_satisfactions(name, arguments))
        except EgoError as exc:
            logger.warning("desires not updated after %s: %s", name, exc)


def describe_invalid_arguments(tool: str, error: ValidationError) -> str:
    """One line naming each bad argument; the rejected values are never echoed."""
    problems = []
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "arguments"
        problems.append(f"{field}: {item['msg']}")
    return f"Invalid arguments for {tool}: " + "; ".join(problems)


def create_server(settings: Settings, app: AppContext | None = None) -> EgoServer:
    """The server; with ``app`` given (tests, benchmarks) its lifespan uses that context."""
    ensure_logging(settings.log_level, settings.log_file)  # before the SDK configures its own
    from ego_mcp.server.ego_tools import EGO_TOOLS
    from ego_mcp.server.memory_tools import MEMORY_TOOLS

    @asynccontextmanager
    async def lifespan(_: MCPServer[AppContext]) -> AsyncIterator[AppContext]:
        if app is not None:
            context = app
        else:
            context = await anyio.to_thread.run_sync(open_app_context, settings)
        context.start_background()
        try:
            yield context
            await context.drain()
        finally:
            if app is None:
                context.runtime.close()

    return EgoServer(
        "ego-mcp",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        log_level=settings.log_level,
        tools=[compact_tool(function) for function in [*EGO_TOOLS, *MEMORY_TOOLS]],
    )


def compact_tool(function: Callable[..., Any]) -> Tool:
    """A tool whose answer is plain text and whose advertised schema is trimmed."""
    tool = Tool.from_function(function, structured_output=False)
    tool.parameters = compact_schema(tool.parameters)
    return tool

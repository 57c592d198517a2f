"""Builds the MCP server: its tools, the lifespan, the call log and error translation."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.runner import serve_dual_era_loop
from mcp.types import CallToolResult, TextContent

from ego_mcp import __version__
from ego_mcp.ego.desires import implicit_satisfactions
from ego_mcp.errors import EgoError
from ego_mcp.logs import Plain, describe_arguments, ensure_logging
from ego_mcp.observe.metrics import TOOL_CALLS, TOOL_SECONDS
from ego_mcp.server.arguments import strict
from ego_mcp.server.context import (
    AppContext,
    OpeningApp,
    Served,
    app_of,
    open_app_context,
    replayed,
)
from ego_mcp.server.ego_tools import EGO_TOOLS, READ_ONLY_EGO_TOOLS
from ego_mcp.server.format import SEPARATOR
from ego_mcp.server.memory_tools import MEMORY_TOOLS, READ_ONLY_MEMORY_TOOLS
from ego_mcp.server.replies import ReplyJournal
from ego_mcp.server.schema import compact_schema
from ego_mcp.server.stdio import run_stdio
from ego_mcp.settings import Settings
from ego_mcp.state.redis_documents import STALE_READS

logger = logging.getLogger(__name__)

DRAIN_SECONDS = 1.5
# Tools whose own replay handling makes a second run safe when a first try was cut off
# midway (``remember`` finds the text it saved, ``forget`` the memory already gone).
REDONE_WHEN_CUT_OFF = frozenset({"remember", "forget"})
CUT_OFF = (
    "{tool} was cut off when the process holding the store stopped, and may or may not "
    "have taken effect; look (recall, get_episode, feel_desires) before calling it again"
)
INSTRUCTIONS = (
    "Your persistent inner life: memories with emotion, links between them, episodes. "
    "Start a session with wake_up; save what matters with remember; look back with recall."
)


class EgoServer(MCPServer[Served]):
    """MCPServer with one place for the tool-call log, for turning failures into tool
    errors and, on a shared stdio server, for the reply journal (``server.replies``)."""

    def __init__(self, *args: Any, replies: ReplyJournal | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._replies = replies

    async def run_stdio_async(self) -> None:
        """The stdio session, ended at once by SIGINT or SIGTERM (see ``server.stdio``)."""
        await run_stdio(self._lowlevel_server)

    async def serve_streams(self, read: Any, write: Any, served: Served) -> None:
        """One session over the given message streams (a relayed client's, or our own),
        served with ``served`` as its lifespan state: the agent and session it acts for."""
        lowlevel = self._lowlevel_server
        options = lowlevel.create_initialization_options()
        await serve_dual_era_loop(
            lowlevel, read, write, lifespan_state=served, init_options=options
        )

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Served, Any] | None = None
    ) -> Any:
        if context is not None:
            await until_open(context)
        tool = self._tool_manager.get_tool(name)
        known = list(tool.fn_metadata.arg_model.model_fields) if tool is not None else []
        shown_name = Plain(name) if tool is not None else f"<unknown tool:{len(name)} chars>"
        logger.info("tool call %s %s", shown_name, Plain(describe_arguments(arguments, known)))
        stale_reads: set[str] = set()
        STALE_READS.set(stale_reads)
        tool_label = name if tool is not None else "unknown"
        agent = agent_label(context)
        started = time.perf_counter()
        outcome = "error"
        try:
            result = await self._journaled(tool, name, arguments, context)
            outcome = "ok"
        finally:
            elapsed = time.perf_counter() - started
            TOOL_CALLS.labels(tool_label, outcome, agent).inc()
            TOOL_SECONDS.labels(tool_label, agent).observe(elapsed)
            logger.debug(
                "tool %s %s in %.1f ms (agent %s)",
                shown_name,
                Plain(outcome),
                elapsed * 1000,
                Plain(agent or "-"),
            )
        if context is not None:
            await self._satisfy_implicitly(app_of(context), name, arguments)
        return with_stale_note(result, stale_reads)

    async def _journaled(
        self,
        tool: Tool | None,
        name: str,
        arguments: dict[str, Any],
        context: Context[Served, Any] | None,
    ) -> CallToolResult:
        """The call's answer; a state-changing call of a journaled session is noted
        before it runs and answered once (``server.replies``)."""
        journal, key = self._replies, journal_key(tool, context)
        if journal is None or key is None or context is None:
            return await self._run(name, arguments, context)
        app = app_of(context)
        earlier = await app.blocking(journal.lookup, key) if replayed(context) else None
        if earlier is None:  # a first try (or a replay of one that never got under way)
            await app.blocking(journal.begin, key)
        elif earlier.answer is not None:
            if earlier.is_error:
                raise ToolError(earlier.answer)
            return CallToolResult.model_validate_json(earlier.answer)
        elif name not in REDONE_WHEN_CUT_OFF:
            raise ToolError(CUT_OFF.format(tool=name))
        try:
            result = await self._run(name, arguments, context)
        except ToolError as exc:
            await app.blocking(journal.finish, key, str(exc), True)
            raise
        await app.blocking(journal.finish, key, result.model_dump_json(by_alias=True), False)
        return result

    async def _run(
        self, name: str, arguments: dict[str, Any], context: Context[Served, Any] | None
    ) -> CallToolResult:
        try:
            result = await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, EgoError):
                raise ToolError(str(cause)) from None
            logger.error("tool %s crashed", Plain(name), exc_info=cause)
            raise ToolError(
                f"{name} failed on an internal error; the server log has the details"
            ) from None
        assert isinstance(result, CallToolResult)
        return result

    async def _satisfy_implicitly(
        self, app: AppContext, name: str, arguments: dict[str, Any]
    ) -> None:
        """Some tools feed desires; a failure here must not undo the tool's answer. Those
        the document would not record (seen moments ago) cost no thread hop, no lock."""
        now = app.runtime.clock.now()
        seen = app.seen_satisfactions
        offered = seen.worth_offering(app.agent, implicit_satisfactions(name, arguments), now)
        if not offered:
            return
        try:
            seen.saw(app.agent, await app.blocking(app.ego.satisfy, offered), now)
        except EgoError as exc:
            logger.warning("desires not updated after %s: %s", Plain(name), exc)


def journal_key(tool: Tool | None, context: Context[Served, Any] | None) -> str | None:
    """The reply journal's key for a state-changing call of a session with an id."""
    if tool is None or context is None or is_read_only(tool):
        return None
    session = app_of(context).session
    request_id = context.request_context.request_id
    return f"{session}/{request_id}" if session and request_id is not None else None


# Tools whose second run changes nothing (not advertised as ``readOnlyHint``: every
# character of ``tools/list`` costs the agent context).
READ_ONLY_NAMES = frozenset(f.__name__ for f in READ_ONLY_EGO_TOOLS | READ_ONLY_MEMORY_TOOLS)


def is_read_only(tool: Tool) -> bool:
    return tool.name in READ_ONLY_NAMES


def agent_label(context: Context[Served, Any] | None) -> str:
    """The agent a call acts for, as a metrics label ('' when there is none)."""
    if context is None:
        return ""
    try:
        return app_of(context).agent
    except EgoError:
        return ""


def with_stale_note(result: Any, stale_reads: set[str]) -> Any:
    """The answer, saying which state it showed from memory while Redis was away."""
    if not stale_reads or not isinstance(result, CallToolResult) or not result.content:
        return result
    first = result.content[0]
    if not isinstance(first, TextContent):
        return result
    note = (
        f"Note: Redis (EGO_MCP_REDIS_URL) does not answer; {', '.join(sorted(stale_reads))} "
        "shown as last known."
    )
    data, separator, scaffold = first.text.partition(f"\n\n{SEPARATOR}\n")
    text = f"{data}\n{note}{separator}{scaffold}"
    return result.model_copy(update={"content": [TextContent(text=text), *result.content[1:]]})


async def until_open(context: Context[Served, Any]) -> None:
    """Wait for a session's app context to open; what stopped it, as the tool's error."""
    lifespan = context.request_context.lifespan_context
    if isinstance(lifespan, OpeningApp):
        try:
            await lifespan.ready()
        except EgoError as exc:
            raise ToolError(str(exc)) from None


@asynccontextmanager
async def running_once_open(opening: OpeningApp) -> AsyncIterator[None]:
    """``running`` for a context still opening: its background work starts once it has
    opened (none if it could not), and stops on the way out."""
    leaving = anyio.Event()

    async def run() -> None:
        try:
            context = await opening.ready()
        except EgoError:
            return  # every tool call says why
        if leaving.is_set():
            return
        async with running(context):
            await leaving.wait()

    async with anyio.create_task_group() as group:
        group.start_soon(run)
        try:
            yield
        finally:
            leaving.set()


@asynccontextmanager
async def running(context: AppContext) -> AsyncIterator[AppContext]:
    """The context's background work (schedule, warm-up, metrics) while inside; on the
    way out, also on a signal, pending jobs run or reach Redis within a bounded time."""
    await context.start_background()
    try:
        yield context
    finally:
        with anyio.CancelScope(shield=True), anyio.move_on_after(DRAIN_SECONDS):
            await context.drain()


def create_server(
    settings: Settings, app: AppContext | None = None, replies: ReplyJournal | None = None
) -> EgoServer:
    """The server; with ``app`` given (tests, benchmarks) its lifespan uses that context.
    A shared stdio server serves its sessions with ``serve_streams``, each with its own
    state, and journals their state-changing calls in ``replies``."""
    ensure_logging(settings.log_level, settings.log_file)  # before the SDK configures its own

    @asynccontextmanager
    async def lifespan(_: MCPServer[Served]) -> AsyncIterator[Served]:
        if isinstance(app, OpeningApp):
            raise TypeError("a context still opening is served as a guest (see hold_store)")
        if app is not None:
            context = app
        else:
            context = await anyio.to_thread.run_sync(open_app_context, settings)
        try:
            async with running(context):
                yield context
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
        replies=replies,
    )


def compact_tool(function: Callable[..., Any]) -> Tool:
    """A tool whose answer is plain text, whose arguments are strict, and whose advertised
    schema is trimmed."""
    tool = Tool.from_function(function, structured_output=False)
    tool.description = " ".join(tool.description.split())
    tool.parameters = compact_schema(tool.parameters)
    tool.fn_metadata = strict(tool.name, tool.fn_metadata)
    return tool

"""The ``ego-mcp`` command: ``serve`` (the default) runs the MCP server.

Every setting is an environment variable (EGO_MCP_*): see the Configuration table in the
README. A configuration or connection problem is one line naming the variable, exit 2.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from ego_mcp import __version__
from ego_mcp.errors import ConfigError, EgoError, StoreHeld, StoreUnavailable
from ego_mcp.file_modes import create_private
from ego_mcp.logs import Plain, setup_logging
from ego_mcp.settings import AGENT_NAME_PATTERN, Settings, load_settings, unknown_variables

if TYPE_CHECKING:
    from ego_mcp.backup.command import BackupCommand
    from ego_mcp.memory.service import MemoryService
    from ego_mcp.runtime import Runtime

logger = logging.getLogger(__name__)
BY_AGENT = ("reembed", "reindex", "migrate", "forgotten", "export", "import")
STORE_COMMANDS = ("reembed", "reindex", "migrate", "forgotten")
SERVE_HELP = """Run the MCP server: stdio by default, streamable HTTP with EGO_MCP_TRANSPORT=http.

It takes no options: every setting is an environment variable (EGO_MCP_DATA_DIR,
EGO_MCP_AGENT, EGO_MCP_REDIS_URL, EGO_MCP_CHROMA_URL, ...). The README's Configuration
table lists them all with their defaults. Ctrl-C or SIGTERM stops it."""


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="ego-mcp",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"ego-mcp {__version__}")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser(
        "serve",
        help="run the MCP server (stdio unless EGO_MCP_TRANSPORT=http)",
        description=SERVE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands.add_parser("worker", help="run an arq worker (needs EGO_MCP_REDIS_URL)")
    reembed = commands.add_parser("reembed", help="migrate a store to the configured embedding")
    reembed.add_argument("--agent", help="the agent (default: EGO_MCP_AGENT)")
    reindex = commands.add_parser(
        "reindex", help="rebuild recall's lexical index of an agent from its memories"
    )
    reindex.add_argument("--agent", help="the agent (default: EGO_MCP_AGENT)")
    export = commands.add_parser(
        "export",
        help="write an agent (memories, episodes, desires, self model, relationships, "
        "recent forgets) to one file, safe while servers run",
    )
    export.add_argument("--agent", help="the agent (default: EGO_MCP_AGENT)")
    export.add_argument(
        "--out", type=Path, help="the file (.gz: gzip; default: ego-mcp-AGENT-TIME.jsonl.gz)"
    )
    export.add_argument("--exclude-private", action="store_true", help="leave private memories out")
    export.add_argument("--force", action="store_true", help="replace --out if it exists")
    load = commands.add_parser("import", help="import an export file into an agent")
    load.add_argument("file", type=Path, help="a file written by ego-mcp export")
    load.add_argument("--agent", help="the agent to import into (default: the file's agent)")
    load.add_argument(
        "--include-forgotten",
        action="store_true",
        help="bring back memories the agent forgot since the backup (left out otherwise)",
    )
    migrate = commands.add_parser(
        "migrate", help="import an upstream ego-mcp data dir (memories, episodes, documents)"
    )
    migrate.add_argument(
        "--from", dest="source", type=Path, help="upstream data dir (default: EGO_MCP_DATA_DIR)"
    )
    migrate.add_argument("--agent", help="the agent to import into (default: EGO_MCP_AGENT)")
    queue = commands.add_parser("queue", help="show queued, running and failed jobs")
    queue.add_argument("--json", action="store_true", help="print JSON for dashboards")
    agents = commands.add_parser(
        "agents", help="manage the agents file of a multi-agent HTTP server (tokens)"
    )
    agents.add_argument("action", choices=["add", "remove", "list"])
    agents.add_argument("name", nargs="?", help="the agent (for add and remove)")
    agents.add_argument("--file", type=Path, help="the agents file (default: EGO_MCP_AGENTS_FILE)")
    forgotten = commands.add_parser(
        "forgotten", help="list the deletion log (forgotten and merged-away memories), or purge it"
    )
    forgotten.add_argument(
        "action", nargs="?", choices=["purge"], help="purge: remove entries past the undo window"
    )
    forgotten.add_argument("--agent", help="the agent (default: EGO_MCP_AGENT)")
    forgotten.add_argument("--json", action="store_true", help="print JSON")
    forgotten.add_argument(
        "--all", action="store_true", help="with purge: remove every entry, even restorable ones"
    )
    args = parser.parse_args(argv)
    create_private()  # the store, the logs and exports hold private memories
    try:
        settings = load_settings()
    except EgoError as exc:
        sys.stderr.write(f"ego-mcp: {exc}\n")
        raise SystemExit(2) from None
    setup_logging(settings.log_level, settings.log_file)
    warn_unknown_variables()
    try:
        run_command(args, settings)
    except EgoError as exc:
        # A message of ours that names the setting to fix: for the user, not the log.
        sys.stderr.write(f"ego-mcp: {exc}\n")
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None


def warn_unknown_variables() -> None:
    """One warning per EGO_MCP_* name no setting reads, naming the closest one."""
    for name, closest in unknown_variables(os.environ):
        hint = f"; did you mean {closest}?" if closest else ""
        logger.warning("%s is not a setting of ego-mcp and is ignored%s", Plain(name), Plain(hint))


def run_command(args: argparse.Namespace, settings: Settings) -> None:
    if args.command in BY_AGENT and args.agent is not None:
        check_agent_name(args.agent)
    if args.command == "agents":
        manage_agents(args.action, args.name, args.file or settings.agents_file)
        return
    if args.command in STORE_COMMANDS:
        try:
            run_store_command(args, settings)
        except StoreHeld as held:
            raise ConfigError(
                f"ego-mcp {args.command}: an ego-mcp server (pid {held.holder}, an MCP client's "
                f"window) holds the embedded store {settings.data_dir}; close that window or "
                "its client and run this again (export and import work while it runs)"
            ) from None
        return
    if args.command in (None, "serve"):
        serve(settings)
    elif args.command == "worker":
        run_worker(settings)
    elif args.command in ("export", "import"):
        run_backup(settings, backup_command(args, settings))
    else:
        show_queue(settings, as_json=args.json)


def run_store_command(args: argparse.Namespace, settings: Settings) -> None:
    """A command that opens the embedded store itself (one process at a time)."""
    agent = args.agent or settings.agent
    if args.command == "reembed":
        run_reembed(settings, agent)
    elif args.command == "reindex":
        run_reindex(settings, agent)
    elif args.command == "migrate":
        run_migrate(settings, args.source or settings.data_dir, agent)
    else:
        run_forgotten(args, settings)


def run_forgotten(args: argparse.Namespace, settings: Settings) -> None:
    agent = args.agent or settings.agent
    if args.action == "purge":
        purge_forgotten(settings, agent, everything=args.all)
    elif args.all:
        raise ConfigError("--all goes with purge: ego-mcp forgotten purge --all; nothing done")
    else:
        show_forgotten(settings, agent, as_json=args.json)


def manage_agents(action: str, name: str | None, path: Path | None) -> None:
    from ego_mcp.agents_file import add_agent, read, remove_agent

    if path is None:
        raise ConfigError("EGO_MCP_AGENTS_FILE: set it (or pass --file) to name the agents file")
    path = path.expanduser()
    if action == "list":
        names = sorted(read(path).hashes)
        sys.stdout.write("".join(f"{agent}\n" for agent in names))
        return
    if name is None:
        raise ConfigError(f"agents {action}: name the agent (ego-mcp agents {action} NAME)")
    check_agent_name(name, "NAME")
    if action == "remove":
        remove_agent(path, name)
        sys.stdout.write(f"removed agent {name} from {path}; its token no longer works\n")
        return
    token = add_agent(path, name)
    sys.stderr.write(
        f"added agent {name} to {path}. Its token, shown this once (only a hash is kept):\n"
    )
    sys.stdout.write(token + "\n")


def check_agent_name(agent: str, option: str = "--agent") -> None:
    if not AGENT_NAME_PATTERN.match(agent):
        raise ConfigError(f"{option}: use 1-64 letters, digits, '_' or '-' (like EGO_MCP_AGENT)")


def startup_line(settings: Settings) -> str:
    """What this process serves, in one line; URLs without their credentials."""
    store = (
        f"chroma {public_address(settings.chroma_url)}"
        if settings.chroma_url
        else f"embedded {settings.data_dir}"
    )
    queue = f"redis {public_address(settings.redis_url)}" if settings.redis_url else "in-process"
    transport: str = settings.transport
    agents = f"agent {settings.agent}"
    if transport == "http":
        transport = f"http http://{settings.http_host}:{settings.http_port}/mcp"
        if settings.agents_file is not None:
            agents = f"agents of {settings.agents_file}"
    line = f"ego-mcp {__version__}: {agents}, store {store}, queue {queue}, transport {transport}\n"
    if transport == "stdio" and os.isatty(0):
        line += (
            "waiting for an MCP client on stdin: an MCP client (Claude Code, OpenClaw, ...) "
            "starts this command itself; Ctrl-C stops it\n"
        )
    return line


def public_address(url: str | None) -> str:
    parsed = urlparse(url or "")
    port = f":{parsed.port}" if parsed.port else ""
    return f"{parsed.scheme}://{parsed.hostname or ''}{port}"


def stdio_problem() -> str | None:
    """Why this process's stdin or stdout cannot carry an MCP session (a client gives the
    server pipes; a terminal is fine for trying it by hand), or None."""
    import stat

    for fd, name in ((0, "stdin"), (1, "stdout")):
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            return f"{name} is closed"
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)):
            kind = "a file" if stat.S_ISREG(mode) else "not a pipe (/dev/null?)"
            return f"{name} is {kind}"
    return None


def serve(settings: Settings) -> None:
    """Over stdio on an embedded store, take the store's lock (a data dir that cannot be
    used fails here) and start the session while the store and the model open: the
    client sees the tools in about a second, and the first call waits for the rest. A
    second ``ego-mcp serve`` on the same data dir joins the first (``server.sharing``).

    Otherwise (HTTP, a Chroma server) open everything first, so a bad store or model
    fails before the protocol starts.
    """
    from ego_mcp.server.app import create_server
    from ego_mcp.server.context import OpeningApp, open_app_context
    from ego_mcp.server.sharing.holder import can_relay, serve_shared, store_is_held

    if settings.transport == "stdio":
        problem = stdio_problem()
        if problem is not None:
            raise ConfigError(
                f"serve speaks MCP over stdio and needs a client on the other end ({problem}): "
                "add it to your client's MCP servers (Claude Code, Claude Desktop, the MCP "
                "inspector), or set EGO_MCP_TRANSPORT=http"
            )
    if can_relay(settings):
        opened = None
        if not store_is_held(settings):
            try:
                opened = OpeningApp.start(settings)
            except StoreHeld:
                opened = None  # another process took it meanwhile: join that one
        run_shared(serve_shared, settings, opened)
        return

    listening = None
    if settings.transport == "http":
        from ego_mcp.server.http import listen, token_check

        token_check(settings)  # a refused configuration says so before anything starts
        listening = listen(settings)  # and so does a port in use
    app = open_app_context(settings)
    sys.stderr.write(startup_line(settings))
    if settings.agents_file is not None and settings.transport == "stdio":
        logger.warning(
            "EGO_MCP_AGENTS_FILE applies to the HTTP transport; this stdio server serves "
            "agent %s (EGO_MCP_AGENT)",
            Plain(settings.agent),
        )
    try:
        server = create_server(settings, app)
        if settings.transport == "stdio":
            server.run("stdio")
        else:
            from ego_mcp.server.http import serve_http

            assert listening is not None
            serve_http(server, settings, app.runtime, listening)
    finally:
        app.runtime.close()


def run_shared(serve_shared: Callable[..., Any], settings: Settings, opened: Any) -> None:
    """The shared stdio server; an error of ours from inside its task group is shown as
    the one line it is."""
    import anyio

    def started() -> None:
        sys.stderr.write(startup_line(settings))

    try:
        anyio.run(serve_shared, settings, started, opened)
    except BaseExceptionGroup as group:
        ours = [e for e in group.exceptions if isinstance(e, EgoError)]
        if len(ours) == len(group.exceptions) == 1:
            raise ours[0] from None
        raise


def run_worker(settings: Settings) -> None:
    """Run arq; if Redis drops, wait and start again (arq gives up on a lost connection)."""
    import time

    from redis.exceptions import RedisError

    from ego_mcp.queue.worker import HeartbeatWorker, worker_options

    options = worker_options(settings)
    while True:
        try:
            HeartbeatWorker(**options).run()
            return
        except (RedisError, OSError) as exc:
            logger.warning("worker lost redis (%s); reconnecting in 2 s", exc)
            time.sleep(2)


def show_queue(settings: Settings, as_json: bool) -> None:
    import json

    from redis import Redis
    from redis.exceptions import RedisError

    from ego_mcp.queue.status import read_status, render_status

    if settings.redis_url is None:
        sys.stdout.write(
            "no queue to show: EGO_MCP_REDIS_URL is unset, so each server runs its jobs "
            "in-process as they come (nothing waits in a queue). With EGO_MCP_REDIS_URL set, "
            "jobs go to Redis for `ego-mcp worker` processes, and this command shows them.\n"
        )
        return
    client = Redis.from_url(settings.redis_url, socket_connect_timeout=5, socket_timeout=5)
    try:
        status = read_status(client)
    except RedisError as exc:
        raise StoreUnavailable(
            f"EGO_MCP_REDIS_URL: cannot read the queue from {public_address(settings.redis_url)} "
            f"({type(exc).__name__})"
        ) from None
    finally:
        client.close()
    sys.stdout.write((json.dumps(status, indent=2) if as_json else render_status(status)) + "\n")


def run_reembed(settings: Settings, agent: str) -> None:
    from ego_mcp.runtime import Runtime

    runtime = Runtime.open(settings)
    try:
        copied = runtime.reembed(agent)
    finally:
        runtime.close()
    sys.stdout.write(f"re-embedded {copied} records of agent {agent}\n")


def backup_command(args: argparse.Namespace, settings: Settings) -> BackupCommand:
    """The export or import the arguments ask for, its file's path made absolute."""
    from ego_mcp.backup.command import BackupCommand
    from ego_mcp.backup.importer import read_header

    if args.command == "export":
        agent = args.agent or settings.agent
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        out = args.out or Path(f"ego-mcp-{agent}-{stamp}.jsonl.gz")
        if out.expanduser().exists() and not args.force:
            raise ConfigError(
                f"--out: {out} exists; pass --force to replace it, or name another file; "
                "nothing was written"
            )
        return BackupCommand(
            "export", agent, str(out.expanduser().absolute()), args.exclude_private
        )
    source = args.file.expanduser().absolute()
    agent = args.agent or read_header(source).agent
    check_agent_name(agent, "--agent (or the file's agent)")
    return BackupCommand("import", agent, str(source), include_forgotten=args.include_forgotten)


def run_backup(settings: Settings, command: BackupCommand) -> None:
    """Run an export or import here, or by the server holding the embedded store."""
    import asyncio

    from ego_mcp.backup.command import run
    from ego_mcp.runtime import Runtime
    from ego_mcp.server.sharing.commands import run_at_holder
    from ego_mcp.server.sharing.holder import store_held, store_is_held

    bar = progress_bar("memories")
    if settings.chroma_url is None and store_is_held(settings):
        summary = asyncio.run(run_at_holder(settings, command, bar))
        if summary is None:
            raise store_held(settings)
    else:
        runtime = Runtime.open(settings)
        try:
            summary = run(runtime, command, bar)
        finally:
            runtime.close()
    sys.stderr.write("\n")
    sys.stdout.write(summary + "\n")


def run_reindex(settings: Settings, agent: str) -> None:
    from ego_mcp.runtime import Runtime

    runtime = Runtime.open(settings)
    try:
        indexed, removed = memory_of_existing(runtime, agent).mend_lexical(rebuild=True)
    finally:
        runtime.close()
    sys.stdout.write(
        f"agent {agent}: lexical index rebuilt, {indexed} memories indexed, "
        f"{removed} entries of memories no longer stored removed\n"
    )


def show_forgotten(settings: Settings, agent: str, as_json: bool) -> None:
    import json

    from ego_mcp.forgotten import log_rows, render_log
    from ego_mcp.runtime import Runtime

    runtime = Runtime.open(settings)
    try:
        memory = memory_of_existing(runtime, agent)
        rows = log_rows(memory.forgotten(), memory.undo_window)
    finally:
        runtime.close()
    sys.stdout.write((json.dumps(rows, indent=2) if as_json else render_log(agent, rows)) + "\n")


def memory_of_existing(runtime: Runtime, agent: str) -> MemoryService:
    """The agent's memory service; an agent the store does not hold is not created."""
    if agent not in runtime.agents():
        raise ConfigError(f"--agent: the store has no agent {agent}; nothing was created")
    return runtime.memory(agent)


def purge_forgotten(settings: Settings, agent: str, everything: bool) -> None:
    from ego_mcp.runtime import Runtime
    from ego_mcp.server.replies import FILE_NAME, ReplyJournal

    runtime = Runtime.open(settings)
    try:
        ids = memory_of_existing(runtime, agent).purge_deletion_log(everything)
    finally:
        runtime.close()
    if (settings.data_dir / FILE_NAME).exists():  # answers that quoted what was purged
        journal = ReplyJournal.open(settings.data_dir)
        try:
            journal.forget_about(ids)
        finally:
            journal.close()
    scope = "every entry" if everything else "entries past the undo window"
    sys.stdout.write(f"agent {agent}: purged {len(ids)} deletion-log entries ({scope})\n")


def run_migrate(settings: Settings, source: Path, agent: str) -> None:
    from ego_mcp.migrate.importer import has_upstream_data, migrate
    from ego_mcp.runtime import Runtime

    source = source.expanduser()
    if not has_upstream_data(source):
        raise ConfigError(
            f"--from: {source} holds no upstream ego-mcp data (no ego_memories collection in "
            "chroma/, no desires.json, self_model.json or relationships/models.json); "
            "nothing was created"
        )
    runtime = Runtime.open(settings)
    try:
        summary = migrate(runtime, agent, source, progress=progress_bar("memories"))
    finally:
        runtime.close()
    sys.stderr.write("\n")
    sys.stdout.write(summary.render(source, agent) + "\n")


def progress_bar(label: str, width: int = 30) -> Callable[[int, int], None]:
    """Draws ``label [#####     ] done/total`` on stderr, redrawn in place."""

    def draw(done: int, total: int) -> None:
        filled = width * done // total if total else width
        bar = "#" * filled + " " * (width - filled)
        sys.stderr.write(f"\r{label} [{bar}] {done}/{total}")
        sys.stderr.flush()

    return draw

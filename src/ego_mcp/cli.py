"""The ``ego-mcp`` command: ``serve`` (the default) runs the MCP server."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from ego_mcp.errors import EgoError
from ego_mcp.logs import setup_logging
from ego_mcp.settings import Settings, load_settings

logger = logging.getLogger(__name__)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="ego-mcp", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("serve", help="run the MCP server (stdio unless EGO_MCP_TRANSPORT=http)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except EgoError as exc:
        sys.stderr.write(f"ego-mcp: {exc}\n")
        raise SystemExit(2) from None
    setup_logging(settings.log_level, settings.log_file)
    try:
        if args.command in (None, "serve"):
            serve(settings)
    except EgoError as exc:
        logger.error("ego-mcp cannot start: %s", exc)
        raise SystemExit(2) from None


def serve(settings: Settings) -> None:
    """Open everything first, so a bad store or model fails before the protocol starts."""
    from ego_mcp.server.app import create_server, open_app_context

    app = open_app_context(settings)
    try:
        server = create_server(settings, app)
        if settings.transport == "stdio":
            server.run("stdio")
        else:
            from ego_mcp.server.http import serve_http

            serve_http(server, settings)
    finally:
        app.runtime.close()

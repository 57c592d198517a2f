"""A do-nothing MCP server: the SDK's stdio round trip with no work behind it.

``stdio_bench`` times ``echo`` beside ego-mcp's tools: what a call costs when the tool
itself costs nothing (the client, two pipes, the SDK's server session and validation).
Its stdout is written by the event loop, as ego-mcp's is.
"""

from __future__ import annotations

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server

from ego_mcp.server.sharing.replay import LineWriter
from ego_mcp.server.stdio import std_streams

server = MCPServer("bare")


@server.tool()
async def echo(text: str, size: int) -> str:
    """An answer of ``size`` characters, whatever was asked."""
    return "x" * size


async def serve_stdio(mcp_server: MCPServer) -> None:
    """One session of ``mcp_server`` on stdin/stdout, written by the event loop as ours."""
    lines, writer = await std_streams()
    lowlevel = mcp_server._lowlevel_server
    async with stdio_server(stdin=lines, stdout=LineWriter(writer)) as (read, write):
        await lowlevel.run(read, write, lowlevel.create_initialization_options())


if __name__ == "__main__":
    anyio.run(serve_stdio, server)

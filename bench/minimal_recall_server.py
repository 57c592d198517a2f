"""The least an MCP server can do to answer ``recall``: the SDK's own server around the
same search.

``stdio_bench`` times it beside ego-mcp on the same store, in the same run. Its one tool
runs ``MemoryService.recall`` inline on the event loop (no thread hop) and builds the
same answer as ego-mcp's ``recall``; it has no call log, metrics, strict arguments,
implicit desires or store-opening wait. What ego-mcp takes beyond it is the cost of
ego-mcp's own layers; what it takes beyond the floor, no SDK server avoids here.

    EGO_MCP_DATA_DIR=... EGO_MCP_AGENT=... python bench/minimal_recall_server.py
"""

from __future__ import annotations

import anyio
from bare_mcp_server import serve_stdio
from mcp.server.mcpserver import MCPServer

from ego_mcp.memory.store import MemoryFilter
from ego_mcp.runtime import Runtime
from ego_mcp.server import scaffolds
from ego_mcp.server.format import compose, hit_line
from ego_mcp.settings import load_settings


def build(runtime: Runtime, agent: str) -> MCPServer:
    memory = runtime.memory(agent)
    server = MCPServer("minimal-recall")

    @server.tool()
    async def recall(context: str, n_results: int = 3) -> str:
        """The memories nearest to ``context``, as ego-mcp's recall answers them."""
        hits = memory.recall(context, n_results, MemoryFilter())
        lines = [f"{len(hits)} related memories:"]
        lines.extend(hit_line(i, hit) for i, hit in enumerate(hits, start=1))
        return compose("\n".join(lines), scaffolds.RECALL_OPEN)

    return server


async def main() -> None:
    settings = load_settings()
    runtime = Runtime.open(settings)
    try:
        runtime.embedder.embed(["warm-up"])
        await serve_stdio(build(runtime, settings.agent))
    finally:
        runtime.close()


if __name__ == "__main__":
    anyio.run(main)

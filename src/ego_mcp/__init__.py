"""ego-mcp: an MCP server that gives an LLM agent a persistent inner life."""

__version__ = "0.3.0"

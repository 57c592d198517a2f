"""The MCP front end: tool definitions, answer formatting and scaffolds."""

from ego_mcp.server.app import create_server

__all__ = ["create_server"]

"""The arq entry of a checkout (the worker itself is ego_mcp.queue.worker)."""

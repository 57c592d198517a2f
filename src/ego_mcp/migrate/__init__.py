"""Importing data written by upstream ego-mcp."""

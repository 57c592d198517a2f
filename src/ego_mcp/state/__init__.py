"""Small per-agent documents (desires, self model, relationships, last consolidation)."""

from ego_mcp.state.documents import DocumentStore, FileDocumentStore

__all__ = ["DocumentStore", "FileDocumentStore"]

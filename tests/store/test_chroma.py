"""The Chroma store refuses a collection filled by another embedding."""

from __future__ import annotations

import pytest

from ego_mcp.embedding.base import EmbeddingSignature
from ego_mcp.errors import EmbeddingMismatch
from ego_mcp.runtime import Runtime
from ego_mcp.store.chroma import collection_name, open_collection


def test_other_embedding_signature_is_a_clear_error(runtime: Runtime) -> None:
    runtime.memory("default")  # creates the collections with the local signature
    other = EmbeddingSignature("openai", "text-embedding-3-small", 1536)
    with pytest.raises(EmbeddingMismatch, match=r"EGO_MCP_EMBEDDING_PROVIDER.*reembed"):
        open_collection(runtime.chroma.client, collection_name("default", "memories"), other)


def test_agents_have_separate_namespaces(runtime: Runtime) -> None:
    from ego_mcp.memory.service import Draft

    runtime.memory("alice").remember(Draft(content="Alice's first memory"))
    assert runtime.memory("alice").store.count() == 1
    assert runtime.memory("bob").store.count() == 0

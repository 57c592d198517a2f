"""Migrating an agent's collections to another embedding model, in batches and resumably.

Memories and episodes are copied, with their metadata, into ``<name>-reembed`` collections
embedded by the new model; ids already copied are skipped, so an interrupted run picks up
where it stopped. When both are complete the old collections are renamed aside
(``<name>-old-<time>``) and the new ones take their names. Front ends of the agent must be
stopped while it runs: they refuse the store until it matches their model anyway.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from ego_mcp.embedding.base import Embedder
from ego_mcp.logs import Plain
from ego_mcp.store.chroma import collection_name, open_collection

logger = logging.getLogger(__name__)
KINDS = ("memories", "episodes")


def signature_of(collection: Any) -> tuple[Any, Any, Any]:
    meta = collection.metadata or {}
    return meta.get("embedding_provider"), meta.get("embedding_model"), meta.get("embedding_dim")


def copy_missing(source: Any, target: Any, embedder: Embedder, batch_size: int) -> int:
    """Copy the records of ``source`` that ``target`` lacks; returns how many were copied."""
    copied = 0
    offset = 0
    while True:
        page = source.get(include=["documents", "metadatas"], limit=batch_size, offset=offset)
        if not page["ids"]:
            return copied
        offset += len(page["ids"])
        present = set(target.get(ids=page["ids"], include=[])["ids"])
        rows = [
            (rid, doc, meta)
            for rid, doc, meta in zip(
                page["ids"], page["documents"], page["metadatas"], strict=True
            )
            if rid not in present
        ]
        if rows:
            target.add(
                ids=[r[0] for r in rows],
                documents=[r[1] for r in rows],
                metadatas=[r[2] for r in rows],
                embeddings=embedder.embed([r[1] or "" for r in rows]),
            )
            copied += len(rows)


def reembed_agent(client: Any, agent: str, embedder: Embedder, batch_size: int = 256) -> int:
    """Re-embed the agent's store with ``embedder``; returns records copied (0: nothing to do)."""
    wanted = embedder.signature
    sources = {
        kind: client.get_or_create_collection(collection_name(agent, kind)) for kind in KINDS
    }
    if all(
        signature_of(c) == (wanted.provider, wanted.model, wanted.dimension)
        for c in sources.values()
    ):
        return 0
    copied = 0
    targets = {}
    for kind, source in sources.items():
        target = open_collection(client, collection_name(agent, kind) + "-reembed", wanted)
        copied += copy_missing(source, target, embedder, batch_size)
        targets[kind] = target
    stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    for kind, source in sources.items():
        name = collection_name(agent, kind)
        source.modify(name=f"{name}-old-{stamp}")
        targets[kind].modify(name=name)
    logger.info("re-embedded agent %s: %d records copied", Plain(agent), copied)
    return copied

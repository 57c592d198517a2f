"""Migrating an agent's collections to another embedding model, in batches and resumably.

Memories and episodes are copied, with their metadata, into ``<name>-reembed`` collections
("staged") embedded by the new model; a resumed run brings the staged copy level with the
live one (``mirror``). A staged collection
is marked complete once every record is in it. Then each kind is switched: the live
collection is renamed aside (``<name>-old-<time>``), the staged one takes its name, and
the old one is deleted once the live one is seen to hold all of it (an old copy would
keep the text of memories forgotten later, for good).

Every step can be interrupted and the next run carries on from what it finds:

- live only, other model: stage and copy; live and staged: bring the staged copy level
  with the live one (what it lacks copied, what changed since updated, what was
  forgotten since removed);
- staged only (the run stopped between the two renames): the staged one, which is
  complete, takes the live name.

A reader never gets an empty store: while a kind has a staged collection but no live one,
:func:`open_live_collection` says a re-embed is in progress. The caller keeps front ends
away while it runs (``Runtime.reembed``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ego_mcp.embedding.base import Embedder, EmbeddingSignature
from ego_mcp.errors import ConfigError, StoreUnavailable
from ego_mcp.logs import Plain
from ego_mcp.store.chroma import (
    collection_name,
    collection_names,
    open_collection,
    pages,
    present_ids,
)

logger = logging.getLogger(__name__)
KINDS = ("memories", "episodes")
STAGED = "-reembed"
COMPLETE = "reembed_complete"
Step = Callable[[str], None]


def signature_of(collection: Any) -> tuple[Any, Any, Any]:
    meta = collection.metadata or {}
    return meta.get("embedding_provider"), meta.get("embedding_model"), meta.get("embedding_dim")


def open_live_collection(client: Any, agent: str, kind: str, signature: EmbeddingSignature) -> Any:
    """The agent's collection of ``kind`` for a reader; created when the agent is new."""
    name = collection_name(agent, kind)
    names = collection_names(client)
    if name not in names and name + STAGED in names:
        raise StoreUnavailable(
            f"agent {agent}: a re-embed is in progress (its {kind} are being switched to a new "
            f"model); run `ego-mcp reembed --agent {agent}` to finish it"
        )
    return open_collection(client, name, signature)


def mirror(source: Any, target: Any, embedder: Embedder, batch_size: int) -> int:
    """Make ``target`` hold exactly what ``source`` holds: the records it lacks copied (and
    embedded), the ones whose text or metadata changed since a run stopped (a merge's
    new text, new links) brought up to date, and the ones ``source`` no longer has (a
    memory forgotten meanwhile) removed. Returns how many were copied or updated."""
    copied = 0
    for page in pages(source, ["documents", "metadatas"], batch_size):
        held = target.get(ids=page["ids"], include=["documents", "metadatas"])
        staged = dict(
            zip(held["ids"], zip(held["documents"], held["metadatas"], strict=True), strict=True)
        )
        rows = list(zip(page["ids"], page["documents"], page["metadatas"], strict=True))
        fresh = [r for r in rows if r[0] not in staged or staged[r[0]][0] != r[1]]
        relinked = [
            r
            for r in rows
            if r[0] in staged and staged[r[0]][0] == r[1] and staged[r[0]][1] != r[2]
        ]
        if fresh:
            target.upsert(
                ids=[r[0] for r in fresh],
                documents=[r[1] for r in fresh],
                metadatas=[r[2] for r in fresh],
                embeddings=embedder.embed([r[1] or "" for r in fresh]),
            )
        if relinked:
            target.update(ids=[r[0] for r in relinked], metadatas=[r[2] for r in relinked])
        copied += len(fresh) + len(relinked)
    _drop_gone(source, target, batch_size)
    return copied


def _drop_gone(source: Any, target: Any, batch_size: int) -> None:
    """Remove from ``target`` what ``source`` no longer holds."""
    gone: list[str] = []
    for page in pages(target, [], batch_size):
        there = present_ids(source, page["ids"])
        gone += [rid for rid in page["ids"] if rid not in there]
    for start in range(0, len(gone), batch_size):
        target.delete(ids=gone[start : start + batch_size])


def reembed_agent(
    client: Any,
    agent: str,
    embedder: Embedder,
    batch_size: int = 256,
    after_step: Step | None = None,
) -> int:
    """Re-embed the agent's store with ``embedder``; returns records copied (0: nothing to do).

    ``after_step`` is called with a step's name after it is done (the tests stop a run
    there, as a crash would).
    """
    wanted = embedder.signature
    names = collection_names(client)
    live = {kind: collection_name(agent, kind) for kind in KINDS}
    if not any(n in names or n + STAGED in names for n in live.values()):
        raise ConfigError(f"--agent: the store has no agent {agent}; nothing was created")
    done = after_step or (lambda _: None)
    copied = 0
    for kind, name in live.items():
        if name not in names:
            continue  # switched already, or only staged (finished below)
        source = client.get_collection(name, embedding_function=None)
        if signature_of(source) == (wanted.provider, wanted.model, wanted.dimension):
            continue
        staged = open_collection(client, name + STAGED, wanted)
        copied += mirror(source, staged, embedder, batch_size)
        staged.modify(metadata={**(staged.metadata or {}), COMPLETE: True})
        done(f"copied {kind}")
    stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    for kind, name in live.items():
        names = collection_names(client)
        if name + STAGED not in names:
            continue
        staged = client.get_collection(name + STAGED, embedding_function=None)
        if not (staged.metadata or {}).get(COMPLETE):
            raise StoreUnavailable(f"agent {agent}: the staged {kind} are incomplete; run again")
        if name in names:
            client.get_collection(name, embedding_function=None).modify(name=f"{name}-old-{stamp}")
            done(f"moved old {kind} aside")
        staged.modify(name=name)
        done(f"switched {kind}")
    for name in live.values():
        if name in collection_names(client):
            drop_old_copies(client, name, this_run=f"{name}-old-{stamp}")
    logger.info("re-embedded agent %s: %d records copied", Plain(agent), copied)
    return copied


def drop_old_copies(client: Any, name: str, this_run: str = "") -> int:
    """Delete the ``<name>-old-<time>`` collections switches left: an old copy would keep
    the text of every memory forgotten later, for good. The one this run set aside
    (``this_run``) goes only once the live collection is seen to hold all of it; older
    ones go regardless (what they hold beyond the live one was forgotten since). Returns
    how many went."""
    live = client.get_collection(name, embedding_function=None)
    dropped = 0
    for old_name in sorted(n for n in collection_names(client) if n.startswith(f"{name}-old-")):
        old = client.get_collection(old_name, embedding_function=None)
        missing = sum(
            len(page["ids"]) - len(live.get(ids=page["ids"], include=[])["ids"])
            for page in pages(old, [])
        )
        if missing and old_name == this_run:
            logger.warning("%s lacks %d records of %s: kept", Plain(name), missing, Plain(old_name))
            continue
        client.delete_collection(old_name)
        dropped += 1
    return dropped

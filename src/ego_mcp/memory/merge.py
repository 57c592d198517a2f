"""Pure rules of ``merge_memories``: what the kept memory becomes, and where links go."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ego_mcp.memory.inputs import tag_key
from ego_mcp.memory.model import Link, Memory


def merged_links(keep: Memory, remove: Memory) -> tuple[Link, ...]:
    """``keep``'s links after taking over ``remove``'s: none between the two, one per
    target, and where both linked the same memory the stronger confidence wins."""
    chosen: dict[str, Link] = {}
    for link in (*keep.linked_ids, *remove.linked_ids):
        if link.target_id in (keep.id, remove.id):
            continue
        held = chosen.get(link.target_id)
        if held is None or link.confidence > held.confidence:
            chosen[link.target_id] = link
    return tuple(chosen.values())


def merged_tags(keep: Memory, remove: Memory) -> tuple[str, ...]:
    """``keep``'s tags, then those of ``remove`` it lacks (as tags compare)."""
    held: dict[str, str] = {}
    for tag in (*keep.tags, *remove.tags):
        held.setdefault(tag_key(tag), tag)
    return tuple(held.values())


def merged_memory(keep: Memory, remove: Memory, content: str | None) -> Memory:
    """The surviving memory: ``keep`` with the new text if given, its own time and feeling,
    the higher importance of the two, private if either was, shared if either was, both
    sides' links and tags, and the moment either anticipates (``keep``'s when both do).
    Its recall counts stay as stored (the store keeps them apart from every rewrite)."""
    return replace(
        keep,
        content=content if content is not None else keep.content,
        importance=max(keep.importance, remove.importance),
        is_private=keep.is_private or remove.is_private,
        linked_ids=merged_links(keep, remove),
        tags=merged_tags(keep, remove),
        anticipated_at=keep.anticipated_at or remove.anticipated_at,
        shared=keep.shared or remove.shared,
    )


def redirected(target: Memory, keep: Memory, remove_id: str) -> Memory:
    """A memory ``keep`` now links to: its link to ``remove_id`` gone, and its link back to
    ``keep`` the reverse of ``keep``'s link to it (so both ends agree)."""
    return target.without_link(remove_id).linked_back(keep)


def episode_members_after_merge(
    memory_ids: Sequence[str], keep_id: str, remove_id: str
) -> tuple[str, ...]:
    """An episode's members with ``remove_id`` replaced by ``keep_id``, listed once."""
    swapped = (keep_id if mid == remove_id else mid for mid in memory_ids)
    return tuple(dict.fromkeys(swapped))


def unmerged_memory(
    current: Memory, before: Memory, removed: Memory, alive: set[str]
) -> tuple[Memory, tuple[str, ...]]:
    """The kept memory of a merge being undone: its own text, privacy, importance, tags,
    anticipation and sharing as ``before`` the merge, its links as then (to memories in
    ``alive``) beside those made since, without the links the merge brought over from
    ``removed``. Also the targets that lost their link to it (their link back must go
    too)."""
    own_before = {link.target_id for link in before.linked_ids}
    brought = {link.target_id for link in removed.linked_ids} - own_before - {before.id}
    links = {lk.target_id: lk for lk in current.linked_ids if lk.target_id not in brought}
    links.update({lk.target_id: lk for lk in before.linked_ids if lk.target_id in alive})
    rolled_back = replace(
        current,
        content=before.content,
        is_private=before.is_private,
        importance=before.importance,
        tags=before.tags,
        anticipated_at=before.anticipated_at,
        shared=before.shared,
        linked_ids=tuple(links.values()),
    )
    dropped = tuple(t for t in sorted(brought) if current.link_to(t) is not None)
    return rolled_back, dropped

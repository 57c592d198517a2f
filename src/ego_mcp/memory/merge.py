"""Pure rules of ``merge_memories``: what the kept memory becomes, and where links go."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

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


def merged_memory(keep: Memory, remove: Memory, content: str | None) -> Memory:
    """The surviving memory: ``keep`` with the new text if given, its own time and feeling,
    the higher importance of the two, private if either was, and both sides' links."""
    return replace(
        keep,
        content=content if content is not None else keep.content,
        importance=max(keep.importance, remove.importance),
        is_private=keep.is_private or remove.is_private,
        linked_ids=merged_links(keep, remove),
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

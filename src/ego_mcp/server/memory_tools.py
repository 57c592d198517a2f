"""Memory tools: parse the arguments, call the memory service, format the answer."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from mcp.server.mcpserver import Context

from ego_mcp.ego import relationships
from ego_mcp.errors import EgoError, InvalidInput
from ego_mcp.memory import inputs
from ego_mcp.memory.fading import day_number
from ego_mcp.memory.model import (
    TYPICAL_AFFECT,
    Category,
    Emotion,
    EmotionalTrace,
    LinkType,
    Memory,
)
from ego_mcp.memory.recall import explore
from ego_mcp.memory.recall.fusion import Ranked
from ego_mcp.memory.service import STATED_CORRECTION, Draft, RememberOutcome
from ego_mcp.memory.store import MemoryFilter
from ego_mcp.queue.jobs import jobs_after_forget, jobs_after_merge, jobs_after_remember
from ego_mcp.server import scaffolds
from ego_mcp.server.context import AppContext, Served, app_of, replayed
from ego_mcp.server.format import (
    compose,
    counted,
    hit_line,
    privacy_flag,
    related_line,
    relative_time,
    shortfall,
    snippet,
    walk_line,
)
from ego_mcp.server.vocabulary import (
    CategoryName,
    Depth,
    EmotionName,
    Flag,
    Fraction,
    Importance,
    LinkTypeName,
    Names,
    RecallMode,
    RecallModeName,
    ResultCount,
    Signed,
    TextMap,
    Texts,
)

Ctx = Context[Served, Any]
logger = logging.getLogger(__name__)
MAX_EPISODE_MEMORIES = 100
LINKS_PENDING = (
    "Links pending: Redis (EGO_MCP_REDIS_URL) does not answer, so {what} when it is back."
)


async def remember(
    ctx: Ctx,
    content: str,
    emotion: EmotionName = "neutral",
    secondary: list[EmotionName] | None = None,
    intensity: Fraction | None = None,
    importance: Importance = 3,
    category: CategoryName = "daily",
    valence: Signed | None = None,
    arousal: Fraction | None = None,
    body_state: TextMap | None = None,
    private: Flag = False,
    force: Flag = False,
    tags: Texts | None = None,
    supersedes: str | None = None,
    anticipated_at: str | None = None,
    shared_with: Names | None = None,
    related_memories: Texts | None = None,
) -> str:
    """Save a memory; a near-duplicate is refused unless force=true; private: not in
    workspace files."""
    app = app_of(ctx)
    now = app.runtime.clock.now()
    people, bundled = _sharing(shared_with, related_memories)
    primary = inputs.choice(emotion, Emotion, "emotion")
    typical = TYPICAL_AFFECT[primary]
    draft = Draft(
        content=inputs.text(content, "content"),
        emotional_trace=EmotionalTrace(
            primary=primary,
            secondary=inputs.choices(secondary, Emotion, "secondary"),
            intensity=_or_typical(intensity, typical.intensity, "intensity", 0.0),
            valence=_or_typical(valence, typical.valence, "valence", -1.0),
            arousal=_or_typical(arousal, typical.arousal, "arousal", 0.0),
            body_state=inputs.string_map(body_state, "body_state"),
        ),
        importance=inputs.whole(importance, "importance", 1, 5),
        category=inputs.choice(category, Category, "category"),
        tags=inputs.tags(tags),
        is_private=private,
        supersedes=None if supersedes is None else inputs.memory_id(supersedes, "supersedes"),
        anticipated_at=inputs.future_moment(anticipated_at, "anticipated_at", now),
        shared=bool(people),
    )
    missing = set(bundled) - (
        await app.blocking(app.memory.store.existing_ids, bundled) if bundled else set()
    )
    if missing:
        raise InvalidInput("related_memories: no memory " + ", ".join(sorted(missing)))
    outcome = await app.blocking(app.memory.remember, draft, force, replayed(ctx))
    await app.enqueue(jobs_after_remember(app.agent, outcome))
    if outcome.duplicate_of is not None:
        existing = outcome.duplicate_of.memory
        data = (
            "Not saved — very similar memory already exists.\n"
            f"Existing (id: {existing.id}, {relative_time(existing.timestamp, now)}): "
            f"{snippet(existing.content, 120)}\n"
            f"Similarity: {outcome.duplicate_of.similarity:.2f}\n"
            f"{scaffolds.DUPLICATE_ADVICE}\n{scaffolds.SAVE_ANYWAY}"
        )
        return compose(data, scaffolds.REMEMBER_DUPLICATE)
    assert outcome.saved is not None
    saved = outcome.saved
    if saved.category is Category.INTROSPECTION:
        await _note_introspection(app, saved.id)
    linked = counted(len(outcome.linked), "existing memory", "existing memories")
    lines = [f"Saved (id: {saved.id}). Linked to {linked}."]
    if outcome.linked:
        lines.append("Most related:")
        lines.extend(related_line(hit, now) for hit in outcome.linked[:3])
    lines.extend(_judgement_lines(outcome, saved.id))
    if people:
        lines.append(await _share(app, saved, people, bundled, outcome.already_saved))
    if outcome.workspace_failed:
        folder = app.runtime.profiles.profile(app.agent).workspace
        lines.append(
            f"Saved, but not synced to the workspace: EGO_MCP_WORKSPACE_DIR ({folder}) is not "
            "writable."
        )
    if saved.anticipated_at is not None:
        when = saved.anticipated_at
        moment = f"{when:%Y-%m-%d}" if inputs.all_day(when) else f"{when:%Y-%m-%d %H:%M} UTC"
        lines.append(f"Anticipates {moment}: wake_up brings it up from a week before.")
    if saved.is_private:
        lines.append("Private: kept internal, not synced to workspace files.")
    scaffold = scaffolds.REMEMBER_LINKED if outcome.linked else scaffolds.REMEMBER_ALONE
    return compose("\n".join(lines), scaffold)


def _judgement_lines(outcome: RememberOutcome, saved_id: str) -> list[str]:
    """What the guard found beside the saved memory, and the correction it links."""
    lines = []
    if outcome.near_miss is not None:
        kind = "Possible duplicate of" if outcome.possible_duplicate else "Similar to"
        near = outcome.near_miss.memory.id
        lines.append(f"{kind} {near}, differs in: " + "; ".join(outcome.differences))
        if not outcome.possible_duplicate and outcome.superseded is None:
            lines.append(
                f"If this corrects it: link_memories(source_id={saved_id}, target_id={near}, "
                "link_type=supersedes)."
            )
    if outcome.superseded is not None:
        kind = "" if outcome.corrects == STATED_CORRECTION else f" ({outcome.corrects})"
        lines.append(
            f"Corrects {outcome.superseded.memory.id}{kind}: linked as superseding it; "
            "recall shows this one first."
        )
    if outcome.links_pending:
        lines.append(LINKS_PENDING.format(what="its links are made"))
    if outcome.supersede_pending is not None:
        lines.append(
            f"Not yet linked as correcting {outcome.supersede_pending}: when Redis is back, "
            f"link_memories(source_id={saved_id}, target_id={outcome.supersede_pending}, "
            "link_type=supersedes)."
        )
    return lines


def _or_typical(value: float | None, typical: float, field: str, low: float) -> float:
    """An emotion's number as given, or (left out) as the emotion usually is."""
    return typical if value is None else inputs.number(value, field, low, 1.0)


def _sharing(
    shared_with: list[str] | None, related_memories: list[str] | None
) -> tuple[list[str], list[str]]:
    """remember's people (names or aliases) and the memories to bundle with them."""
    if shared_with is not None and len(shared_with) > inputs.MAX_LIST_ITEMS:
        raise InvalidInput(f"shared_with takes at most {inputs.MAX_LIST_ITEMS} names")
    people = [relationships.person_name(name, "shared_with") for name in shared_with or []]
    if related_memories and not people:
        raise InvalidInput("related_memories needs shared_with: they join its episode")
    if related_memories is not None and len(related_memories) > MAX_EPISODE_MEMORIES - 1:
        raise InvalidInput(f"related_memories takes at most {MAX_EPISODE_MEMORIES - 1} ids")
    bundled = [inputs.memory_id(mid, "related_memories") for mid in related_memories or []]
    return people, list(dict.fromkeys(bundled))


async def _share(
    app: AppContext, saved: Memory, people: list[str], bundled: list[str], replayed: bool
) -> str:
    """An episode of the new memory (and ``bundled``) in each person's shared history. A
    private memory's words stay out of the episode's summary. A call sent again after a
    hand-over whose first try shared already makes no second episode."""
    members = [saved.id, *(mid for mid in bundled if mid != saved.id)]
    if replayed:
        made = await app.blocking(app.memory.episodes_listing, saved.id)
        if made:
            return f"Shared: episode {made[0].id} (made when this call first ran)."
    try:
        names = await app.blocking(app.ego.kept_names, people)
        summary = f"Shared with {', '.join(names)}"
        if not saved.is_private:
            summary += f": {snippet(saved.content, 100)}"
        episode = await app.blocking(app.memory.create_episode, summary, members, saved.importance)
    except EgoError as error:
        return f"Not shared: {error} (create_episode, then update_relationship later)."
    try:
        names = await app.blocking(app.ego.share_episode, names, episode.id)
    except EgoError as error:
        return (
            f"Episode {episode.id} made, not yet in their histories: {error} "
            f"(update_relationship field=shared_episodes value={episode.id} later)."
        )
    shown = counted(len(members), "memory", "memories")
    return f"Shared with {', '.join(names)}: episode {episode.id} ({shown})."


async def _note_introspection(app: AppContext, memory_id: str) -> None:
    """wake_up finds it by id; the memory is saved even if this note is not."""
    try:
        await app.blocking(app.ego.note_introspection, memory_id)
    except EgoError as exc:
        logger.warning("last introspection not noted: %s", exc)


def _memory_filter(
    emotion_filter: str | None,
    category_filter: str | None,
    date_from: str | None,
    date_to: str | None,
    valence_range: list[float] | None = None,
    arousal_range: list[float] | None = None,
    tags: list[str] | None = None,
) -> MemoryFilter:
    start = inputs.moment(date_from, "date_from")
    end = inputs.moment(date_to, "date_to", end_of_day=True)
    if start is not None and end is not None and start > end:
        raise InvalidInput("date_from must not be after date_to")
    emotion = inputs.choice(emotion_filter, Emotion, "emotion_filter") if emotion_filter else None
    category = (
        inputs.choice(category_filter, Category, "category_filter") if category_filter else None
    )
    return MemoryFilter(
        emotion=emotion,
        category=category,
        date_from=start,
        date_to=end,
        valence_range=inputs.number_range(valence_range, "valence_range", -1.0, 1.0),
        arousal_range=inputs.number_range(arousal_range, "arousal_range", 0.0, 1.0),
        tags=tuple(dict.fromkeys(inputs.tag_key(tag) for tag in inputs.tags(tags))),
    )


def _describe_filter(where: MemoryFilter) -> str:
    shown = {
        "emotion_filter": where.emotion.value if where.emotion else None,
        "category_filter": where.category.value if where.category else None,
        "date_from": where.date_from.date().isoformat() if where.date_from else None,
        "date_to": where.date_to.date().isoformat() if where.date_to else None,
        "valence_range": _shown_range(where.valence_range),
        "arousal_range": _shown_range(where.arousal_range),
        "tags": "[" + ", ".join(where.tags) + "]" if where.tags else None,
    }
    return ", ".join(f"{name}={value}" for name, value in shown.items() if value is not None)


def _shown_range(bounds: tuple[float, float] | None) -> str | None:
    """A range as the agent writes it: ``[-1.0, 1.0]``."""
    return None if bounds is None else f"[{bounds[0]}, {bounds[1]}]"


async def _search(ctx: Ctx, query: str, n_results: int, where: MemoryFilter) -> list[Ranked]:
    app = app_of(ctx)
    text = inputs.text(query, "query", inputs.MAX_CONTENT_CHARS)
    count = inputs.whole(n_results, "n_results", 1, 10)

    def search() -> list[Ranked]:  # people's other names: update_relationship(aliases)
        return app.memory.recall(text, count, where, app.ego.people_named(text))

    hits = await app.blocking(search)
    now = app.runtime.clock.now()
    today = day_number(now)  # what was shown is counted once a day (memory/fading.py)
    uncounted = [found.memory.id for found in hits if found.memory.recalled_on < today]
    await app.enqueue(app.recall_tally.add(app.agent, uncounted, now))
    return hits


async def recall(
    ctx: Ctx,
    context: str | None = None,
    mode: RecallModeName | None = None,  # search
    seed: str | None = None,
    depth: Depth | None = None,  # explore.DEFAULT_DEPTH
    n_results: ResultCount = 3,
    emotion_filter: EmotionName | None = None,
    category_filter: CategoryName | None = None,
    date_from: str | None = None,
    date_to: str | None = None,
    valence_range: list[float] | None = None,
    arousal_range: list[float] | None = None,
    tags: Texts | None = None,
) -> str:
    """Memories related to a context; mode=explore: around seed."""
    where = _memory_filter(
        emotion_filter, category_filter, date_from, date_to, valence_range, arousal_range, tags
    )
    chosen = RecallMode.SEARCH if mode is None else inputs.choice(mode, RecallMode, "mode")
    if chosen is RecallMode.EXPLORE:
        if not where.is_empty:
            raise InvalidInput(
                f"mode=explore takes no filters ({_describe_filter(where)}): it follows "
                "links from seed"
            )
        if seed is None:
            raise InvalidInput("seed is required with mode=explore (a memory id)")
        steps = explore.DEFAULT_DEPTH if depth is None else depth
        return await _explore(ctx, inputs.memory_id(seed, "seed"), steps)
    for name, given in (("seed", seed), ("depth", depth)):
        if given is not None:
            raise InvalidInput(f"{name} is used with mode=explore only")
    if context is None:
        raise InvalidInput("context is required (or mode=explore with seed)")
    hits = await _search(ctx, context, n_results, where)
    if not hits:
        return compose(
            "No related memories found.\nNone matches this in meaning or in words.",
            scaffolds.RECALL_EMPTY,
        )
    lines = [f"{counted(len(hits), 'related memory', 'related memories')}:"]
    lines.extend(hit_line(i, hit) for i, hit in enumerate(hits, start=1))
    lines.extend(shortfall(len(hits), n_results))
    scaffold = (
        scaffolds.RECALL_OPEN
        if where.is_empty
        else scaffolds.RECALL_FILTERED.format(filters=_describe_filter(where))
    )
    if any(found.hit.memory.is_private for found in hits):
        scaffold += "\n" + scaffolds.RECALL_PRIVATE
    return compose("\n".join(lines), scaffold)


async def _explore(ctx: Ctx, seed_id: str, depth: int) -> str:
    app = app_of(ctx)
    steps = inputs.whole(depth, "depth", 1, explore.MAX_DEPTH)
    found = await app.blocking(app.memory.explore, seed_id, steps)
    lines = [
        f"Exploring from {seed_id} (depth {steps}): "
        f"{counted(found.reached, 'linked memory', 'linked memories')}, "
        f"{counted(found.links, 'link', 'links')} among them and the seed.",
        "[seed] " + walk_line(found.seed),
    ]
    for level, reached in enumerate(found.levels, start=1):
        lines.append(f"depth {level}:")
        lines.extend(
            f"  {walk_line(step.memory)} <- {step.link_type.value}"
            + ("" if step.via == seed_id else f" (via {step.via})")
            for step in reached
        )
    if found.cut:
        lines.append(f"Cut at {explore.MAX_REACHED} memories: more are linked beyond these.")
    scaffold = scaffolds.EXPLORE if found.reached else scaffolds.EXPLORE_ALONE
    if any(m.is_private for m in (found.seed, *(r.memory for lv in found.levels for r in lv))):
        scaffold += "\n" + scaffolds.RECALL_PRIVATE
    return compose("\n".join(lines), scaffold)


async def search_memories(
    ctx: Ctx,
    query: str,
    n_results: ResultCount = 5,
    emotion_filter: EmotionName | None = None,
    category_filter: CategoryName | None = None,
    date_from: str | None = None,
    date_to: str | None = None,
) -> str:
    """As recall, with ids, times and links."""
    where = _memory_filter(emotion_filter, category_filter, date_from, date_to, None, None)
    hits = await _search(ctx, query, n_results, where)
    if not hits:
        return compose(
            "No memories match.\nNone is related to this in meaning or in words.",
            scaffolds.RECALL_EMPTY,
        )
    lines = [f"{len(hits)} memories:"]
    for found in hits:
        memory = found.hit.memory
        lines.append(
            f"- {memory.id} [{memory.timestamp:%Y-%m-%d %H:%M}] {snippet(memory.content, 160)} "
            f"(emotion: {memory.emotional_trace.primary.value}, category: {memory.category.value}, "
            f"links: {len(memory.linked_ids)}, private: {privacy_flag(memory)})"
        )
    lines.extend(shortfall(len(hits), n_results))
    return compose("\n".join(lines), scaffolds.SEARCH)


async def forget(ctx: Ctx, memory_id: str) -> str:
    """Delete a memory; restore_memory undoes it."""
    app = app_of(ctx)
    wanted = inputs.memory_id(memory_id)
    forgotten = await app.blocking(app.memory.forget, wanted, replayed(ctx))
    await app.enqueue(jobs_after_forget(app.agent, forgotten, app.runtime.clock.now()))
    memory = forgotten.memory
    age = relative_time(memory.timestamp, app.runtime.clock.now())
    data = (
        f"Forgot (id: {memory.id}, {age}): {snippet(memory.content, 120)}\n"
        f"Emotion: {memory.emotional_trace.primary.value} | Importance: {memory.importance}"
    )
    if forgotten.restorable_until is not None:
        data += "\n" + restore_line(memory.id, forgotten.restorable_until)
    if forgotten.pending_targets is not None:
        data += "\n" + LINKS_PENDING.format(what="the links to it are removed")
    return compose(data, scaffolds.FORGET_DONE)


def restore_line(memory_id: str, until: datetime) -> str:
    return f"restore_memory can bring {memory_id} back until {until:%Y-%m-%d %H:%M} UTC."


async def merge_memories(
    ctx: Ctx, keep_id: str, remove_id: str, merged_content: str | None = None
) -> str:
    """Fold remove_id into keep_id (links, episodes); merged_content: new text."""
    app = app_of(ctx)
    keep = inputs.memory_id(keep_id, "keep_id")
    remove = inputs.memory_id(remove_id, "remove_id")
    content = inputs.text(merged_content, "merged_content") if merged_content is not None else None
    merged = await app.blocking(app.memory.merge, keep, remove, content)
    await app.enqueue(jobs_after_merge(app.agent, merged))
    memory = merged.memory
    now = app.runtime.clock.now()
    lines = [
        f"Merged {merged.removed.id} into {memory.id} ({relative_time(memory.timestamp, now)}): "
        f"{snippet(memory.content, 120)}",
        f"Links moved: {merged.links_moved}. Episodes updated: {merged.episodes_changed}. "
        f"Links now: {len(memory.linked_ids)}.",
    ]
    if merged.became_private:
        lines.append(
            f"Private: {merged.removed.id} was private, so {memory.id} is private now "
            "and left the workspace files."
        )
    if merged.restorable_until is not None:
        lines.append(restore_line(merged.removed.id, merged.restorable_until))
    return compose("\n".join(lines), scaffolds.MERGE_DONE)


async def restore_memory(ctx: Ctx, memory_id: str) -> str:
    """Undo a forget or merge."""
    app = app_of(ctx)
    restored = await app.blocking(app.memory.restore, inputs.memory_id(memory_id))
    memory = restored.memory
    now = app.runtime.clock.now()
    lines = [
        f"Restored (id: {memory.id}, {relative_time(memory.timestamp, now)}): "
        f"{snippet(memory.content, 120)}",
        f"Links re-made: {len(memory.linked_ids)}. Episodes rejoined: {restored.episodes}.",
    ]
    if restored.links_lost:
        lines.append(f"{restored.links_lost} link(s) led to memories that are gone since.")
    if restored.unmerged is not None:
        kept = restored.unmerged
        lines.append(
            f"The merge is undone: {kept.id} has its own text, links and privacy back: "
            f"{snippet(kept.content, 120)} (private: {privacy_flag(kept)})"
        )
    elif restored.merged_into is not None:
        lines.append(
            f"It had been merged into {restored.merged_into}, which is gone since; "
            "only this memory came back."
        )
    if memory.is_private:
        lines.append("Private: kept internal, not synced to workspace files.")
    return compose("\n".join(lines), scaffolds.RESTORED)


async def link_memories(
    ctx: Ctx, source_id: str, target_id: str, link_type: LinkTypeName = "related", note: str = ""
) -> str:
    """Link two memories both ways."""
    app = app_of(ctx)
    source_key = inputs.memory_id(source_id, "source_id")
    target_key = inputs.memory_id(target_id, "target_id")
    if source_key == target_key:
        raise InvalidInput("source_id and target_id must differ")
    kind = inputs.choice(link_type, LinkType, "link_type")
    clean_note = note.strip()
    if len(clean_note) > inputs.MAX_NOTE_CHARS:
        raise InvalidInput(f"note is too long (the limit is {inputs.MAX_NOTE_CHARS})")
    source, target = await app.blocking(app.memory.link, source_key, target_key, kind, clean_note)
    back = target.link_to(source.id)
    assert back is not None
    data = (
        f"Linked {source.id} -> {target.id} ({kind.value}) and "
        f"{target.id} -> {source.id} ({back.link_type.value})."
    )
    return compose(data, scaffolds.LINK_DONE)


async def create_episode(
    ctx: Ctx, summary: str, memory_ids: Texts, importance: Importance = 3
) -> str:
    """Group memories into an episode."""
    app = app_of(ctx)
    text = inputs.text(summary, "summary", 2_000)
    if not memory_ids:
        raise InvalidInput("memory_ids must name at least one memory")
    if len(memory_ids) > MAX_EPISODE_MEMORIES:
        raise InvalidInput(f"memory_ids takes at most {MAX_EPISODE_MEMORIES} ids")
    ids = [inputs.memory_id(mid, "memory_ids") for mid in memory_ids]
    level = inputs.whole(importance, "importance", 1, 5)
    episode = await app.blocking(app.memory.create_episode, text, ids, level)
    data = (
        f"Episode created (id: {episode.id}): {snippet(episode.summary, 120)}\n"
        f"{len(episode.memory_ids)} memories, {episode.start_time:%Y-%m-%d %H:%M} to "
        f"{episode.end_time:%Y-%m-%d %H:%M} UTC."
    )
    return compose(data, scaffolds.EPISODE_CREATED)


async def get_episode(ctx: Ctx, episode_id: str) -> str:
    """An episode and its memories."""
    app = app_of(ctx)
    view = await app.blocking(app.memory.get_episode, inputs.episode_id(episode_id))
    episode = view.episode
    now = app.runtime.clock.now()
    lines = [
        f"Episode {episode.id} (importance {episode.importance}), "
        f"{episode.start_time:%Y-%m-%d %H:%M} to {episode.end_time:%Y-%m-%d %H:%M} UTC",
        f"Summary: {episode.summary}",
        f"Memories ({len(view.members)}):",
    ]
    for memory in view.members:
        lines.append(
            f"- {memory.id} [{relative_time(memory.timestamp, now)}] "
            f"{snippet(memory.content, 120)} (private: {privacy_flag(memory)})"
        )
    if view.missing:
        lines.append(f"Note: {view.missing} memory(ies) no longer exist.")
    return compose("\n".join(lines), scaffolds.EPISODE_SHOWN)


MEMORY_TOOLS: list[Callable[..., Awaitable[str]]] = [
    remember,
    recall,
    search_memories,
    forget,
    merge_memories,
    restore_memory,
    link_memories,
    create_episode,
    get_episode,
]
# Tools whose second run changes nothing (not journaled for a replay: server.replies).
READ_ONLY_MEMORY_TOOLS = frozenset({recall, search_memories, get_episode})

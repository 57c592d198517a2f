"""Ego tools: session start, desires, introspection, people, self model, consolidation."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from mcp.server.mcpserver import Context

from ego_mcp.ego.consolidation import ConsolidationStats
from ego_mcp.ego.desires import Desires, parse_desire, word_for
from ego_mcp.ego.self_model import open_questions
from ego_mcp.errors import DocumentsUnavailable
from ego_mcp.heap import releasing_heap
from ego_mcp.memory import inputs
from ego_mcp.memory.fading import precious
from ego_mcp.memory.guard import mergeable
from ego_mcp.memory.model import LinkType, Memory
from ego_mcp.server import scaffolds
from ego_mcp.server.context import AppContext, Served, app_of
from ego_mcp.server.format import compose, counted, relative_time, snippet, time_until
from ego_mcp.server.vocabulary import DesireName, Fraction, RelationshipField, SelfField

Ctx = Context[Served, Any]
T = TypeVar("T")
FRESH_RESULT = timedelta(minutes=5)


def desire_lines(desires: Desires, now: datetime, limit: int | None = None) -> list[str]:
    ranked = desires.strongest(now, limit)
    return [f"- {name}: {value:.2f} ({word_for(value)})" for name, value in ranked]


def desire_section(title: str, desires: Desires | str, now: datetime) -> list[str]:
    """The three strongest desires under ``title``, or why they cannot be read now."""
    if isinstance(desires, str):
        return [f"{title}: {desires}."]
    return [f"{title}:", *desire_lines(desires, now, limit=3)]


def _last_seen(model: dict[str, Any], now: datetime) -> str:
    last = model.get("last_interaction")
    return relative_time(datetime.fromisoformat(last), now) if last else "never recorded"


async def if_readable(app: AppContext, read: Callable[..., T], *args: Any) -> T | str:
    """``read()``'s result; where the state documents cannot be read now (Redis away and
    no copy seen), the line saying so instead, so a tool shows what it has."""
    try:
        return await app.blocking(read, *args)
    except DocumentsUnavailable as exc:
        return f"unavailable now ({str(exc).partition(' (')[0]})"


async def wake_up(ctx: Ctx) -> str:
    """Start a session: last introspection, desires, companion."""
    app = app_of(ctx)
    ego = app.ego
    now = app.runtime.clock.now()
    thought = await app.blocking(ego.last_introspection)
    anticipated = await app.blocking(ego.anticipations)
    desires = await if_readable(app, ego.desires)
    companion = await if_readable(app, ego.person, None)
    lines = []
    if thought is None:
        lines.append("Last introspection: none yet.")
    else:
        age = relative_time(thought.timestamp, now)
        text = snippet(thought.content, 200)
        lines.append(f"Last introspection ({age}): {text}{_keep_private(thought)}")
    lines += [_anticipation_line(memory, now) for memory in anticipated]
    lines += desire_section("Strongest desires", desires, now)
    if isinstance(companion, str):
        lines.append(f"{ego.companion} last seen: {companion}.")
    else:
        lines.append(f"{companion.name} last seen: {_last_seen(companion.model, now)}.")
    waiting = app.upstream_waiting.pop(app.agent, 0)
    if waiting:
        lines.append(
            f"Your data dir holds {waiting} memories from upstream ego-mcp that "
            "this agent has not imported; ask your companion to run `ego-mcp migrate`."
        )
    return compose("\n".join(lines), scaffolds.WAKE_UP)


def _keep_private(memory: Memory) -> str:
    """What wake_up adds to a private memory it quotes."""
    return " (private: keep it to yourself)" if memory.is_private else ""


def _anticipation_line(memory: Memory, now: datetime) -> str:
    """A memory whose anticipated moment is near (remember's ``anticipated_at``); one
    given as a date is a whole day: today until it is over."""
    when = memory.anticipated_at
    assert when is not None
    text = f"{memory.id}: {snippet(memory.content, 160)}{_keep_private(memory)}"
    if inputs.all_day(when):
        days = (when.date() - now.date()).days
        moment = f"{when:%Y-%m-%d}"
        if days == 0:
            return f"Today ({moment}): {text}"
        if days > 0:
            return f"Coming up (in {counted(days, 'day', 'days')}, {moment}): {text}"
        return f"That day came ({counted(-days, 'day', 'days')} ago, {moment}): {text}"
    moment = f"{when:%Y-%m-%d %H:%M}"
    if when <= now:
        return f"That time came ({relative_time(when, now)}, {moment}): {text}"
    return f"Coming up ({time_until(when, now)}, {moment}): {text}"


async def feel_desires(ctx: Ctx) -> str:
    """Each desire's current level."""
    app = app_of(ctx)
    desires = await app.blocking(app.ego.desires)
    lines = ["Desires (0 = quiet, 1 = urgent):", *desire_lines(desires, app.runtime.clock.now())]
    return compose("\n".join(lines), scaffolds.FEEL_DESIRES)


async def satisfy_desire(ctx: Ctx, name: DesireName, quality: Fraction = 0.8) -> str:
    """A desire satisfied; quality: how well."""
    app = app_of(ctx)
    desire = parse_desire(name)
    amount = inputs.number(quality, "quality", 0.0, 1.0)
    await app.blocking(app.ego.satisfy, [(desire, amount)])
    desires = await app.blocking(app.ego.desires)
    value = desires.levels(app.runtime.clock.now())[desire]
    return compose(
        f"{desire} satisfied (quality {amount:.1f}); now {value:.2f}.", scaffolds.SATISFIED
    )


async def introspect(ctx: Ctx) -> str:
    """Recent memories, desires, open questions to reflect on."""
    app = app_of(ctx)
    ego = app.ego
    now = app.runtime.clock.now()
    recent = await app.blocking(ego.latest_memories, 5, 7)
    desires = await if_readable(app, ego.desires)
    model = await if_readable(app, ego.self_model)
    lines = ["Recent memories:" if recent else "Recent memories: none this week."]
    for memory in reversed(recent):
        lines.append(
            f"- [{relative_time(memory.timestamp, now)}] {snippet(memory.content, 120)} "
            f"({memory.emotional_trace.primary.value}{', private' if memory.is_private else ''})"
        )
    lines += desire_section("Desires", desires, now)
    if isinstance(model, str):
        lines.append(f"Open questions: {model}.")
        return compose("\n".join(lines), scaffolds.INTROSPECT)
    questions = open_questions(model)[:3]
    lines.append("Open questions:" if questions else "Open questions: none.")
    lines.extend(f"- {q['id']} (importance {q['importance']}): {q['question']}" for q in questions)
    return compose("\n".join(lines), scaffolds.INTROSPECT)


async def consider_them(ctx: Ctx, person: str | None = None) -> str:
    """Think about a person (default: companion)."""
    app = app_of(ctx)
    who = await app.blocking(app.ego.person, person)
    model = who.model
    now = app.runtime.clock.now()
    others = model.get("aliases") or []
    lines = [
        f"{who.name}{' (also ' + ', '.join(others) + ')' if others else ''}: "
        f"trust {float(model['trust_level']):.2f}, "
        f"{model['interactions']} interactions, last seen {_last_seen(model, now)}."
    ]
    if not who.known:
        lines.append("Nothing recorded about them yet.")
    for field in ("known_facts", "preferences", "sensitive_topics"):
        if model[field]:
            lines.append(f"{field.replace('_', ' ').capitalize()}: " + "; ".join(model[field][-5:]))
    return compose("\n".join(lines), scaffolds.CONSIDER_THEM.format(person=who.name))


async def update_relationship(
    ctx: Ctx, person: str, field: RelationshipField, value: Any = None
) -> str:
    """Update a person; value: text, trust_level 0..1, interaction none."""
    app = app_of(ctx)
    who, change = await app.blocking(app.ego.update_relationship, person, field, value)
    return compose(f"{who.name}: {change}.", scaffolds.RELATIONSHIP_UPDATED.format(person=who.name))


async def update_self(ctx: Ctx, field: SelfField, value: Any) -> str:
    """Update your self model. value: text, or preferences {key,value}, skill_confidence
    {skill,confidence}, new_question {question,importance}, resolve_question id,
    question_importance {id,importance}."""
    app = app_of(ctx)
    change = await app.blocking(app.ego.update_self, field, value)
    return compose(f"Self model: {change}.", scaffolds.SELF_UPDATED)


async def am_i_being_genuine(ctx: Ctx) -> str:
    """Self-check before an important answer."""
    app = app_of(ctx)
    model = await app.blocking(app.ego.self_model)
    values = model["discovered_values"][-3:]
    data = "Your values: " + ("; ".join(values) if values else "none recorded yet") + "."
    return compose(data, scaffolds.GENUINE)


async def emotion_trend(ctx: Ctx) -> str:
    """Emotional patterns: days, week, month."""
    app = app_of(ctx)
    return compose(await app.blocking(app.ego.emotion_trend), scaffolds.EMOTION_TREND)


async def consolidate(ctx: Ctx) -> str:
    """Replay recent memories, strengthen links, propose merges."""
    app = app_of(ctx)
    stats = await app.blocking(app.ego.last_consolidation, FRESH_RESULT)
    if stats is None:
        # A window read: in the window thread, shared by the agent's sessions asking at
        # once; the heap it freed goes back, as after the scheduled job.
        work = releasing_heap(app.ego.consolidate_now)
        stats = await app.window_reads.run(("consolidate", app.agent), work)
    return await _render_consolidation(app, stats)


def _still_supersedes(found: dict[str, Memory], newer_id: str, older_id: str) -> bool:
    """Both memories are there and the newer still supersedes the older (the agent may have
    made it a plain link since the result was stored)."""
    if newer_id not in found or older_id not in found:
        return False
    link = found[newer_id].link_to(older_id)
    return link is not None and link.link_type is LinkType.SUPERSEDES


LISTED_CORRECTIONS = 5  # as many as merge pairs


async def _render_consolidation(app: AppContext, stats: ConsolidationStats) -> str:
    lines = [
        f"Consolidation complete. Replayed {stats.replay_events} events, "
        f"updated {stats.coactivation_updates} co-activations, created {stats.link_updates} "
        f"links, refreshed {stats.refreshed_memories} memories."
    ]
    ids = [i for c in stats.merge_candidates for i in (c.memory_a_id, c.memory_b_id)]
    ids += [i for c in stats.corrections for i in (c.newer_id, c.older_id)]
    found = {m.id: m for m in await app.blocking(app.memory.store.get_many, ids)} if ids else {}
    # A pair found before one of its memories became precious is not shown either.
    pairs = [
        c
        for c in stats.merge_candidates
        if all(i in found and not precious(found[i]) for i in (c.memory_a_id, c.memory_b_id))
    ]
    corrected = sorted(
        (c for c in stats.corrections if _still_supersedes(found, c.newer_id, c.older_id)),
        key=lambda c: found[c.newer_id].timestamp,
        reverse=True,
    )[:LISTED_CORRECTIONS]
    scaffold = scaffolds.CONSOLIDATE_PLAIN
    if corrected:
        lines.append(f"\nCorrections among recent memories ({len(corrected)}), newer first:")
        for c in corrected:
            lines.append(
                f"- {c.newer_id} supersedes {c.older_id} ({c.kind})\n"
                f"  new: {snippet(found[c.newer_id].content, 100)}\n"
                f"  old: {snippet(found[c.older_id].content, 100)}"
            )
        scaffold = scaffolds.CONSOLIDATE_CORRECTIONS
    if not pairs:
        return compose("\n".join(lines), scaffold)
    lines.append(f"\nFound {len(pairs)} near-duplicate pair(s):")
    for pair in pairs:
        similarity = max(0.0, min(1.0, 1.0 - pair.distance))
        lines.append(
            f"- {pair.memory_a_id} <-> {pair.memory_b_id} (similarity: {similarity:.2f})\n"
            f"  A: {snippet(found[pair.memory_a_id].content, 100)}\n"
            f"  B: {snippet(found[pair.memory_b_id].content, 100)}"
        )
        # Worked out again from the texts: the stored result keeps no words.
        judged = await app.blocking(
            mergeable, found[pair.memory_a_id].content, found[pair.memory_b_id].content
        )
        if judged.differences:
            lines.append(f"  differs in: {'; '.join(judged.differences)}")
    merge = scaffolds.CONSOLIDATE_MERGE
    if corrected:
        merge = f"{merge}\n{scaffolds.CONSOLIDATE_CORRECTIONS}"
    return compose("\n".join(lines), merge)


EGO_TOOLS: list[Callable[..., Awaitable[str]]] = [
    wake_up,
    feel_desires,
    introspect,
    consider_them,
    am_i_being_genuine,
    satisfy_desire,
    consolidate,
    update_relationship,
    update_self,
    emotion_trend,
]
# Tools whose second run changes nothing (not journaled for a replay: server.replies).
READ_ONLY_EGO_TOOLS = frozenset(
    {feel_desires, introspect, consider_them, am_i_being_genuine, emotion_trend}
)

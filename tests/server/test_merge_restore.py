"""merge_memories and restore_memory through an MCP client, in-process, on real Chroma and
the real model; the link invariant is checked over the whole store after every step."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from mcp import Client

from ego_mcp.clock import FixedClock
from ego_mcp.memory.model import LinkType
from ego_mcp.queue.base import JobRequest
from ego_mcp.queue.jobs import RUNTIME_KEY, cleanup_workspace
from ego_mcp.server.context import AppContext
from ego_mcp.settings import Settings
from tests.conftest import START, call, call_error
from tests.helpers import assert_links_bidirectional, memory_id_in, snapshot, workspace_text

pytestmark = pytest.mark.anyio

TEXTS = {
    "keep": "We planted tomatoes in the community garden on Saturday morning.",
    "remove": "On Saturday morning we put tomato seedlings into the shared garden beds.",
    "shared": "The compiler error came from a missing semicolon in the parser.",
    "only_remove": "My sister called from Osaka to say the cherry trees are blooming.",
    "only_keep": "A thunderstorm knocked out the power for two hours last night.",
}
SECRET = "I still feel guilty that I read Master's letter without asking."


async def save_all(client: Client, **extra: object) -> dict[str, str]:
    return {
        name: memory_id_in(await call(client, "remember", content=text, force=True, **extra))
        for name, text in TEXTS.items()
    }


def unlink_all(app: AppContext, ids: dict[str, str]) -> None:
    """Drop the auto-links so each test states the links it is about."""
    store = app.memory.store
    store.replace_links([replace(m, linked_ids=()) for m in store.get_many(list(ids.values()))])


async def test_merge_redirects_links_both_ways_and_the_stronger_link_wins(
    client: Client, app: AppContext
) -> None:
    ids = await save_all(client)
    unlink_all(app, ids)
    memory = app.memory
    memory.link(ids["keep"], ids["shared"], LinkType.CAUSED_BY, "weak", confidence=0.3)
    memory.link(ids["remove"], ids["shared"], LinkType.RELATED, "strong", confidence=0.9)
    memory.link(ids["remove"], ids["only_remove"], LinkType.LEADS_TO, confidence=0.7)
    memory.link(ids["keep"], ids["only_keep"], LinkType.RELATED, confidence=0.6)
    memory.link(ids["keep"], ids["remove"], LinkType.SIMILAR, confidence=0.95)

    answer = await call(client, "merge_memories", keep_id=ids["keep"], remove_id=ids["remove"])

    assert answer.startswith(f"Merged {ids['remove']} into {ids['keep']} (just now): ")
    assert "Links moved: 2. Episodes updated: 0. Links now: 3." in answer
    assert f"restore_memory can bring {ids['remove']} back until 2026-02-28 09:00 UTC" in answer
    kept = memory.get(ids["keep"])
    assert kept.content == TEXTS["keep"]  # no merged_content: the text stays
    links = {link.target_id: link for link in kept.linked_ids}
    assert set(links) == {ids["shared"], ids["only_remove"], ids["only_keep"]}  # no self-link
    assert (links[ids["shared"]].link_type, links[ids["shared"]].confidence) == (
        LinkType.RELATED,
        0.9,
    )
    assert links[ids["only_remove"]].link_type is LinkType.LEADS_TO
    back = memory.get(ids["only_remove"]).link_to(ids["keep"])
    assert back is not None and back.link_type is LinkType.CAUSED_BY
    assert memory.get(ids["shared"]).link_to(ids["remove"]) is None
    assert not memory.store.existing_ids([ids["remove"]])
    assert_links_bidirectional(memory.store)


async def test_merge_with_content_re_embeds_keeps_the_time_and_rewrites_the_workspace(
    client: Client, app: AppContext, settings: Settings, clock: FixedClock
) -> None:
    ids = await save_all(client, importance=2)
    app.memory.store.rewrite(replace(app.memory.get(ids["remove"]), importance=5), None)
    merged_text = "Saturday: tomato seedlings into the community garden, planted together."
    clock.set(START + timedelta(hours=3))

    answer = await call(
        client,
        "merge_memories",
        keep_id=ids["keep"],
        remove_id=ids["remove"],
        merged_content=merged_text,
    )
    await app.queue.join()  # type: ignore[attr-defined]

    assert merged_text in answer
    kept = app.memory.get(ids["keep"])
    assert (kept.content, kept.timestamp, kept.importance) == (merged_text, START, 5)
    recalled = await call(client, "recall", context=merged_text, n_results=1)
    assert ids["keep"] in recalled
    files = workspace_text(settings)
    assert merged_text in files and TEXTS["keep"] not in files
    assert f"[id:{ids['remove']}]" not in files and TEXTS["remove"] not in files
    assert files.count(f"[id:{ids['keep']}]") == 2  # the day's log, and MEMORY.md (now 5)
    assert_links_bidirectional(app.memory.store)


async def test_merge_moves_episode_memberships_once(client: Client, app: AppContext) -> None:
    ids = await save_all(client)
    await call(
        client, "create_episode", summary="Garden day", memory_ids=[ids["keep"], ids["remove"]]
    )
    both = app.memory.episodes.all()[0].id
    await call(
        client,
        "create_episode",
        summary="Weekend",
        memory_ids=[ids["remove"], ids["only_keep"], ids["shared"]],
    )
    weekend = next(e.id for e in app.memory.episodes.all() if e.id != both)

    answer = await call(client, "merge_memories", keep_id=ids["keep"], remove_id=ids["remove"])

    assert "Episodes updated: 2." in answer
    assert app.memory.episodes.get(both).memory_ids == (ids["keep"],)  # type: ignore[union-attr]
    assert app.memory.episodes.get(weekend).memory_ids == (  # type: ignore[union-attr]
        ids["keep"],
        ids["only_keep"],
        ids["shared"],
    )
    shown = await call(client, "get_episode", episode_id=weekend)
    assert "no longer exist" not in shown
    assert_links_bidirectional(app.memory.store)


async def test_merging_a_private_memory_makes_the_kept_one_private_and_unsynced(
    client: Client, app: AppContext, settings: Settings
) -> None:
    keep = memory_id_in(await call(client, "remember", content=TEXTS["keep"], importance=5))
    secret = memory_id_in(await call(client, "remember", content=SECRET, private=True))
    assert f"[id:{keep}]" in workspace_text(settings)

    answer = await call(
        client,
        "merge_memories",
        keep_id=keep,
        remove_id=secret,
        merged_content=TEXTS["keep"] + " " + SECRET,
    )
    await app.queue.join()  # type: ignore[attr-defined]

    assert f"Private: {secret} was private, so {keep} is private now" in answer
    assert app.memory.get(keep).is_private
    files = workspace_text(settings)
    assert f"[id:{keep}]" not in files and "guilty" not in files
    assert_links_bidirectional(app.memory.store)


async def test_merge_refuses_bad_ids_and_writes_nothing(client: Client, app: AppContext) -> None:
    ids = await save_all(client)
    before = snapshot(app.memory.store)

    same = await call_error(client, "merge_memories", keep_id=ids["keep"], remove_id=ids["keep"])
    missing = await call_error(
        client, "merge_memories", keep_id=ids["keep"], remove_id="mem_000000000000"
    )
    malformed = await call_error(client, "merge_memories", keep_id="x", remove_id=ids["keep"])
    empty = await call_error(
        client, "merge_memories", keep_id=ids["keep"], remove_id=ids["remove"], merged_content=" "
    )

    assert same == "keep_id and remove_id must differ"
    assert missing.startswith("Memory not found: mem_000000000000")
    assert malformed == "keep_id must look like mem_0123456789ab"
    assert empty == "merged_content must not be empty"
    assert snapshot(app.memory.store) == before
    assert app.memory.forgotten() == []


async def test_forget_then_restore_brings_everything_back(
    client: Client, app: AppContext, settings: Settings, clock: FixedClock
) -> None:
    ids = await save_all(client, importance=5)
    unlink_all(app, ids)
    memory = app.memory
    memory.link(ids["keep"], ids["shared"], LinkType.LEADS_TO, "because", confidence=0.7)
    memory.link(ids["keep"], ids["only_keep"], LinkType.RELATED, confidence=0.6)
    await call(client, "create_episode", summary="Garden", memory_ids=[ids["keep"], ids["remove"]])
    episode = app.memory.episodes.all()[0].id
    original = memory.get(ids["keep"])

    forgot = await call(client, "forget", memory_id=ids["keep"])
    await call(client, "forget", memory_id=ids["only_keep"])  # a link target gone for good
    await app.queue.join()  # type: ignore[attr-defined]
    assert f"[id:{ids['keep']}]" not in workspace_text(settings)
    assert "restore_memory can bring" in forgot and "until 2026-02-28 09:00 UTC" in forgot
    clock.set(START + timedelta(days=6))

    answer = await call(client, "restore_memory", memory_id=ids["keep"])

    assert answer.startswith(f"Restored (id: {ids['keep']}, 6 days ago): {TEXTS['keep']}")
    assert "Links re-made: 1. Episodes rejoined: 1." in answer
    assert "1 link(s) led to memories that are gone since." in answer
    back = memory.get(ids["keep"])
    assert (back.content, back.timestamp, back.importance) == (
        original.content,
        original.timestamp,
        original.importance,
    )
    assert [link.target_id for link in back.linked_ids] == [ids["shared"]]
    reverse = memory.get(ids["shared"]).link_to(ids["keep"])
    assert reverse is not None and (reverse.link_type, reverse.note) == (
        LinkType.CAUSED_BY,
        "because",
    )
    assert ids["keep"] in memory.episodes.get(episode).memory_ids  # type: ignore[union-attr]
    assert workspace_text(settings).count(f"[id:{ids['keep']}]") == 2  # daily + MEMORY.md
    assert ids["keep"] in await call(client, "recall", context=TEXTS["keep"], n_results=1)
    assert [entry.memory.id for entry in memory.forgotten()] == [ids["only_keep"]]
    assert_links_bidirectional(memory.store)


async def test_a_late_workspace_cleanup_leaves_a_restored_memory_s_lines(
    client: Client, app: AppContext, settings: Settings
) -> None:
    saved = memory_id_in(await call(client, "remember", content=TEXTS["keep"]))
    await call(client, "forget", memory_id=saved)
    await app.queue.join()  # type: ignore[attr-defined]
    await call(client, "restore_memory", memory_id=saved)

    # The forget's cleanup job, delivered late (a busy worker): the lines stay.
    changed = await cleanup_workspace({RUNTIME_KEY: app.runtime}, app.agent, saved)

    assert changed == 0
    assert workspace_text(settings).count(f"[id:{saved}]") == 1


async def test_restore_refuses_after_the_window_unknown_ids_and_twice(
    client: Client, app: AppContext, clock: FixedClock
) -> None:
    ids = await save_all(client)
    await call(client, "forget", memory_id=ids["keep"])
    await call(client, "forget", memory_id=ids["remove"])
    clock.set(START + timedelta(days=7, minutes=1))
    before = snapshot(app.memory.store)

    late = await call_error(client, "restore_memory", memory_id=ids["keep"])
    unknown = await call_error(client, "restore_memory", memory_id="mem_000000000000")
    living = await call_error(client, "restore_memory", memory_id=ids["shared"])

    assert late == (
        f"{ids['keep']} was forgotten on 2026-02-21 09:00 UTC; it could be restored until "
        "2026-02-28 09:00 UTC (7 days, EGO_MCP_FORGET_UNDO_DAYS) and is now past recall"
    )
    assert unknown.startswith("mem_000000000000 is not in the deletion log")
    assert living == f"{ids['shared']} is in memory already; there is nothing to restore"
    assert snapshot(app.memory.store) == before

    clock.set(START + timedelta(days=6))
    await call(client, "restore_memory", memory_id=ids["remove"])
    twice = await call_error(client, "restore_memory", memory_id=ids["remove"])
    assert twice == f"{ids['remove']} is in memory already; there is nothing to restore"


def as_they_are(app: AppContext) -> dict[str, object]:
    """Every memory with its links in a stable order, and the episodes' member sets."""
    memories = {
        mid: replace(m, linked_ids=tuple(sorted(m.linked_ids, key=lambda lk: lk.target_id)))
        for mid, m in snapshot(app.memory.store).items()
    }
    episodes = {e.id: sorted(e.memory_ids) for e in app.memory.episodes.all()}
    return {"memories": memories, "episodes": episodes}


async def test_restoring_a_memory_merged_away_undoes_the_merge_whole(
    client: Client, app: AppContext, settings: Settings
) -> None:
    ids = await save_all(client)
    secret = memory_id_in(await call(client, "remember", content=SECRET, private=True, force=True))
    unlink_all(app, {**ids, "secret": secret})
    app.memory.link(secret, ids["only_remove"], LinkType.RELATED, confidence=0.7)
    app.memory.link(secret, ids["shared"], LinkType.CAUSED_BY, confidence=0.4)
    app.memory.link(ids["keep"], ids["shared"], LinkType.RELATED, confidence=0.9)
    app.memory.link(ids["keep"], secret, LinkType.SIMILAR, confidence=0.8)
    await call(client, "create_episode", summary="Garden", memory_ids=[secret])
    await call(client, "create_episode", summary="Both", memory_ids=[ids["keep"], secret])
    before = as_they_are(app)
    merged_text = "Tomatoes planted in the garden on Saturday."

    await call(
        client, "merge_memories", keep_id=ids["keep"], remove_id=secret, merged_content=merged_text
    )
    assert app.memory.get(ids["keep"]).is_private  # merging in a private memory
    answer = await call(client, "restore_memory", memory_id=secret)

    assert f"The merge is undone: {ids['keep']} has its own text" in answer
    assert as_they_are(app) == before  # both memories, both flags, links and episodes
    assert TEXTS["keep"] in workspace_text(settings)
    assert merged_text not in workspace_text(settings)
    assert_links_bidirectional(app.memory.store)
    found = await call(client, "recall", context=TEXTS["keep"], n_results=1)
    assert ids["keep"] in found  # embedded again with its own text


async def test_a_merge_undone_keeps_what_was_linked_to_the_kept_memory_since(
    client: Client, app: AppContext
) -> None:
    ids = await save_all(client)
    unlink_all(app, ids)
    app.memory.link(ids["remove"], ids["only_remove"], LinkType.RELATED, confidence=0.7)
    await call(client, "merge_memories", keep_id=ids["keep"], remove_id=ids["remove"])
    app.memory.link(ids["keep"], ids["only_keep"], LinkType.LEADS_TO, confidence=0.6)

    await call(client, "restore_memory", memory_id=ids["remove"])

    keep = app.memory.get(ids["keep"])
    assert [lk.target_id for lk in keep.linked_ids] == [ids["only_keep"]]
    assert app.memory.get(ids["only_remove"]).link_to(ids["keep"]) is None
    assert app.memory.get(ids["only_remove"]).link_to(ids["remove"]) is not None
    assert_links_bidirectional(app.memory.store)


async def test_a_memory_merged_into_one_forgotten_since_comes_back_alone(
    client: Client, app: AppContext
) -> None:
    ids = await save_all(client)
    await call(client, "merge_memories", keep_id=ids["keep"], remove_id=ids["remove"])
    await call(client, "forget", memory_id=ids["keep"])

    answer = await call(client, "restore_memory", memory_id=ids["remove"])

    assert f"It had been merged into {ids['keep']}, which is gone since" in answer
    assert app.memory.get(ids["remove"]).content == TEXTS["remove"]
    assert_links_bidirectional(app.memory.store)


async def test_the_purge_job_removes_only_expired_entries(
    client: Client, app: AppContext, clock: FixedClock
) -> None:
    ids = await save_all(client)
    await call(client, "forget", memory_id=ids["keep"])
    clock.set(START + timedelta(days=5))
    await call(client, "forget", memory_id=ids["remove"])
    clock.set(START + timedelta(days=8))

    await app.queue.enqueue(JobRequest("purge_deletion_log", app.agent))
    await app.queue.join()  # type: ignore[attr-defined]

    assert [entry.memory.id for entry in app.memory.forgotten()] == [ids["remove"]]
    gone = await call_error(client, "restore_memory", memory_id=ids["keep"])
    assert gone.startswith(f"{ids['keep']} is not in the deletion log")
    await call(client, "restore_memory", memory_id=ids["remove"])


async def test_merge_does_not_carry_over_a_link_a_crash_left_dangling(
    client: Client, app: AppContext
) -> None:
    ids = await save_all(client)
    unlink_all(app, ids)
    app.memory.link(ids["remove"], ids["shared"], LinkType.RELATED, confidence=0.7)
    app.memory.link(ids["remove"], ids["only_remove"], LinkType.RELATED, confidence=0.7)
    app.memory.store.delete(ids["only_remove"])  # deleted without its reverse links

    answer = await call(client, "merge_memories", keep_id=ids["keep"], remove_id=ids["remove"])

    assert "Links moved: 1." in answer and "Links now: 1." in answer
    assert [link.target_id for link in app.memory.get(ids["keep"]).linked_ids] == [ids["shared"]]
    assert_links_bidirectional(app.memory.store)


async def test_removed_restored_and_removed_again_leaves_no_workspace_line(
    client: Client, app: AppContext, settings: Settings
) -> None:
    ids = await save_all(client)
    for first_removal in (
        {"tool": "forget", "memory_id": ids["keep"]},
        {"tool": "merge_memories", "keep_id": ids["shared"], "remove_id": ids["keep"]},
    ):
        await call(client, str(first_removal.pop("tool")), **first_removal)
        await app.queue.join()  # type: ignore[attr-defined]
        await call(client, "restore_memory", memory_id=ids["keep"])
        assert f"[id:{ids['keep']}]" in workspace_text(settings)
        await call(client, "forget", memory_id=ids["keep"])
        await app.queue.join()  # type: ignore[attr-defined]
        assert f"[id:{ids['keep']}]" not in workspace_text(settings)
        await call(client, "restore_memory", memory_id=ids["keep"])

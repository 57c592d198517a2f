"""Upstream 1.7's memory arguments, on our tools: tags and a tags filter, intensity /
valence / arousal from the emotion when left out, ``supersedes``, and recall's explore
mode; each through the MCP tools, in English and Japanese, and each bad value refused in
one line naming the argument, with nothing written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from mcp import Client

from ego_mcp.memory.model import TYPICAL_AFFECT, Emotion, LinkType
from ego_mcp.memory.service import Draft
from ego_mcp.server.context import AppContext
from tests.conftest import FixedClock, call, call_error
from tests.helpers import assert_links_bidirectional, memory_id_in

pytestmark = pytest.mark.anyio


def recalled_ids(answer: str) -> list[str]:
    """The ids of recall's hits, best first."""
    body = answer.split("\n---\n", maxsplit=1)[0]
    return [line.split(": ")[0].split()[-1] for line in body.splitlines() if " mem_" in line]


async def test_tags_are_kept_and_filter_recall(client: Client, app: AppContext) -> None:
    coffee = memory_id_in(
        await call(
            client, "remember", content="Tried the new roastery by the station with Master.",
            tags=["Coffee", "weekend", "coffee "],
        )
    )  # fmt: skip
    tea = memory_id_in(
        await call(
            client, "remember", content="駅前の新しいお茶屋さんでほうじ茶を買った。",
            tags=["お茶", "週末"],
        )
    )  # fmt: skip
    plain = memory_id_in(
        await call(client, "remember", content="Tried the new bakery by the station.")
    )
    assert app.memory.store.get(coffee).tags == ("Coffee", "weekend")  # type: ignore[union-attr]

    by_tag = await call(client, "recall", context="new shop by the station", n_results=5,
                        tags=["COFFEE"])  # fmt: skip
    assert recalled_ids(by_tag) == [coffee]
    assert "tags=[coffee]" in by_tag  # the scaffold names the filter
    either = await call(client, "recall", context="駅前の新しい店", n_results=5,
                        tags=["お茶", "weekend"])  # fmt: skip
    assert set(recalled_ids(either)) == {coffee, tea}
    assert plain in recalled_ids(
        await call(client, "recall", context="new shop by the station", n_results=5)
    )


async def test_tags_written_before_the_tag_list_are_found_after_an_open(
    app: AppContext,
) -> None:
    """A record an older version wrote (tags as JSON only) gains the list the filter reads
    when the collection is next opened."""
    from ego_mcp.memory.store import MemoryFilter
    from ego_mcp.store.chroma import backfill_time_index

    store = app.memory.store
    saved = app.memory.remember(_draft("Met Ken at the harbour market.", ("market",)))
    assert saved.saved is not None
    collection = store._collection  # type: ignore[attr-defined]
    collection.update(ids=[saved.saved.id], metadatas=[{"tag": None}])
    collection.modify(metadata={"time_index_checked": 2})  # as the previous version left it
    where = MemoryFilter(tags=("market",))
    assert not store.with_vectors([saved.saved.id], where)

    assert backfill_time_index(collection) == 1
    assert [m.id for m, _ in store.with_vectors([saved.saved.id], where)] == [saved.saved.id]


def _draft(content: str, tags: tuple[str, ...]) -> Draft:
    return Draft(content=content, tags=tags)


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ({"tags": ["ok", ""]}, "tags item"),
        ({"tags": ["x" * 51]}, "tags item"),
        ({"tags": [f"t{i}" for i in range(21)]}, "tags"),
        ({"tags": "coffee"}, "tags"),
        ({"supersedes": "yesterday"}, "supersedes"),
        ({"supersedes": "mem_0123456789ab"}, "supersedes names no memory: mem_0123456789ab"),
        ({"valence": 1.5}, "valence"),
        ({"arousal": -0.1}, "arousal"),
        ({"intensity": 2}, "intensity"),
        ({"shared_with": [""]}, "shared_with"),
        ({"shared_with": 3}, "shared_with"),
        ({"shared_with": [f"p{i}" for i in range(21)]}, "shared_with"),
        ({"related_memories": ["mem_0123456789ab"]}, "related_memories needs shared_with"),
        ({"shared_with": "Ken", "related_memories": ["later"]}, "related_memories"),
        ({"shared_with": "Ken", "related_memories": "mem_0123456789ab"}, "related_memories"),
        (
            {"shared_with": "Ken", "related_memories": ["mem_0123456789ab"]},
            "related_memories: no memory mem_0123456789ab",
        ),
    ],
)
async def test_bad_values_are_refused_and_nothing_saved(
    client: Client, app: AppContext, arguments: dict[str, object], named: str
) -> None:
    refused = await call_error(client, "remember", content="気になる本を見つけた。", **arguments)
    assert named in refused and "\n" not in refused.strip()
    assert app.memory.store.count() == 0
    assert not app.runtime.documents(app.agent).load("relationships")


async def test_recall_refuses_bad_tags_mode_seed_and_depth(client: Client) -> None:
    cases = [
        ({"context": "x", "tags": [""]}, "tags item"),
        ({"context": "x", "mode": "wander"}, "mode"),
        ({"mode": "explore"}, "seed"),
        ({"mode": "explore", "seed": "not-an-id"}, "seed"),
        ({"mode": "explore", "seed": "mem_0123456789ab", "depth": 5}, "depth"),
        ({"mode": "explore", "seed": "mem_0123456789ab", "depth": 0}, "depth"),
        ({"mode": "explore", "seed": "mem_0123456789ab", "tags": ["a"]}, "filters (tags=[a])"),
        ({"context": "x", "seed": "mem_0123456789ab"}, "seed is used with mode=explore"),
        ({"context": "x", "depth": 3}, "depth is used with mode=explore"),
        ({}, "context"),
    ]
    for arguments, named in cases:
        refused = await call_error(client, "recall", **arguments)
        assert named in refused, (arguments, refused)


@pytest.mark.parametrize("emotion", [Emotion.EXCITED, Emotion.SAD, Emotion.NEUTRAL])
async def test_an_emotion_gives_its_usual_numbers_unless_they_are_given(
    client: Client, app: AppContext, emotion: Emotion
) -> None:
    derived = memory_id_in(
        await call(client, "remember", content=f"A {emotion.value} evening.", emotion=emotion)
    )
    given = memory_id_in(
        await call(
            client, "remember", content=f"夕方、{emotion.value}な気分だった。", emotion=emotion,
            valence=-0.2, arousal=0.9, intensity=0.1,
        )
    )  # fmt: skip
    typical = TYPICAL_AFFECT[emotion]
    trace = app.memory.store.get(derived).emotional_trace  # type: ignore[union-attr]
    assert (trace.intensity, trace.valence, trace.arousal) == (
        typical.intensity,
        typical.valence,
        typical.arousal,
    )
    trace = app.memory.store.get(given).emotional_trace  # type: ignore[union-attr]
    assert (trace.intensity, trace.valence, trace.arousal) == (0.1, -0.2, 0.9)


async def test_the_valence_range_finds_what_the_emotion_implied(client: Client) -> None:
    glad = memory_id_in(
        await call(client, "remember", content="Master's band played our song.", emotion="happy")
    )
    await call(client, "remember", content="Master's band cancelled the show.", emotion="sad")
    found = await call(client, "recall", context="Master's band", n_results=5,
                       valence_range=[0.5, 1.0])  # fmt: skip
    assert recalled_ids(found) == [glad]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("The book club meets on Thursdays.", "The book club meets every other week now."),
        ("ケンの誕生日会は駅前の店でやる。", "ケンの誕生日会は結局ケンの家でやることになった。"),
    ],
)
async def test_the_agent_names_the_memory_a_save_corrects(
    client: Client, app: AppContext, before: str, after: str
) -> None:
    old = memory_id_in(await call(client, "remember", content=before))
    answer = await call(client, "remember", content=after, supersedes=old)
    new = memory_id_in(answer)
    assert f"Corrects {old}" in answer and "linked as superseding it" in answer
    store = app.memory.store
    assert store.get(new).link_to(old).link_type is LinkType.SUPERSEDES  # type: ignore[union-attr]
    assert_links_bidirectional(store)
    found = await call(client, "recall", context=before, n_results=2)
    assert recalled_ids(found) == [new, old]
    assert f"superseded by: {new}" in found
    assert store.count() == 2


async def test_a_named_correction_is_saved_even_when_it_restates(
    client: Client, app: AppContext
) -> None:
    """The guard would refuse this as a restatement; the agent says it corrects the
    memory, so it is saved and linked (a refusal would lose what the agent asked for)."""
    text = "Watched the sunset with Master today on the hill behind the station."
    old = memory_id_in(await call(client, "remember", content=text))
    again = "Today I watched the sunset with Master on the hill behind the station."
    assert "Not saved" in await call(client, "remember", content=again)
    answer = await call(client, "remember", content=again, supersedes=old)
    assert f"Corrects {old}" in answer
    assert app.memory.store.count() == 2


async def _chain(client: Client, texts: list[str]) -> list[str]:
    """Save ``texts``, each linked (leads_to) to the one before: a chain."""
    ids: list[str] = []
    for text in texts:
        ids.append(memory_id_in(await call(client, "remember", content=text, force=True)))
        if len(ids) > 1:
            await call(client, "link_memories", source_id=ids[-2], target_id=ids[-1],
                       link_type="leads_to")  # fmt: skip
    return ids


async def test_explore_walks_the_links_around_a_seed(client: Client) -> None:
    ids = await _chain(
        client,
        [
            "Bought new running shoes on sale.",
            "チェロの先生は駅の近くに住んでいる。",
            "The library closes early on Sundays.",
            "Planted tomatoes on the balcony.",
        ],
    )
    answer = await call(client, "recall", mode="explore", seed=ids[1], depth=2)
    body = answer.split("\n---\n")[0]
    assert body.startswith(f"Exploring from {ids[1]} (depth 2): 3 linked memories, 3 links")
    seed_line, d1, *rest = body.splitlines()[1:]
    assert seed_line.startswith("[seed] ") and ids[1] in seed_line
    assert d1 == "depth 1:"
    depth2 = rest.index("depth 2:")
    first = rest[:depth2]
    assert {ids[0], ids[2]} == {line.split(": ")[0].split()[-1] for line in first}
    assert any(f"{ids[0]}" in line and line.endswith("<- caused_by") for line in first)
    assert rest[depth2 + 1].endswith(f"<- leads_to (via {ids[2]})") and ids[3] in rest[depth2 + 1]

    shallow = await call(client, "recall", mode="explore", seed=ids[0], depth=1)
    assert "1 linked memory" in shallow and ids[2] not in shallow


async def test_explore_from_a_memory_alone_or_missing(client: Client) -> None:
    alone = memory_id_in(await call(client, "remember", content="一人で海を見に行った。"))
    answer = await call(client, "recall", mode="explore", seed=alone)
    assert "0 linked memories" in answer and "link_memories" in answer
    missing = await call_error(client, "recall", mode="explore", seed="mem_0123456789ab")
    assert "Memory not found: mem_0123456789ab" in missing


async def test_aliases_make_one_person_in_relationships_and_recall(
    client: Client, app: AppContext
) -> None:
    kanji = memory_id_in(await call(client, "remember", content="健二と港の市場で魚を買った。"))
    latin = memory_id_in(
        await call(client, "remember", content="Kenji fixed the balcony door on Sunday.")
    )
    await call(client, "remember", content="Kent lent me his umbrella on Sunday.")
    question = "What did Ken do?"
    assert kanji not in recalled_ids(await call(client, "recall", context=question, n_results=5))

    said = await call(client, "update_relationship", person="Kenji", field="aliases",
                      value=["Ken", "健二"])  # fmt: skip
    assert "Kenji: also known as Ken, 健二" in said
    await call(client, "update_relationship", person="ken", field="known_facts",
               value="plays the cello")  # fmt: skip
    await call(client, "update_relationship", person="健二", field="trust_level", value=0.8)
    about = await call(client, "consider_them", person="KEN")
    assert about.startswith("Kenji (also Ken, 健二): trust 0.80")
    assert "plays the cello" in about
    found = recalled_ids(await call(client, "recall", context=question, n_results=5))
    assert kanji in found and latin in found

    taken = await call_error(client, "update_relationship", person="Aya", field="aliases",
                             value="Ken")  # fmt: skip
    assert taken == "aliases: Ken already names Kenji"
    for bad in ([], [""], 3, ["x" * 101], "master"):
        refused = await call_error(client, "update_relationship", person="Aya",
                                   field="aliases", value=bad)  # fmt: skip
        assert refused.startswith("aliases"), refused
    people = app.runtime.documents(app.agent).load("relationships")
    assert people is not None and set(people) == {"Kenji"}


async def test_recall_answers_when_the_relationships_cannot_be_read(
    client: Client, app: AppContext
) -> None:
    await call(client, "update_relationship", person="Kenji", field="aliases", value="Ken")
    saved = memory_id_in(await call(client, "remember", content="Kenji fixed the door."))
    path = app.runtime.documents(app.agent).path("relationships")  # type: ignore[attr-defined]
    path.write_text("{not json", encoding="utf-8")
    assert saved in recalled_ids(await call(client, "recall", context="Kenji and the door"))


async def test_wake_up_brings_up_what_is_anticipated_as_it_nears(
    client: Client, app: AppContext, clock: FixedClock
) -> None:
    # START is 2026-02-21 09:00 UTC.
    recital = memory_id_in(
        await call(
            client,
            "remember",
            content="Master's cello recital at the city hall.",
            anticipated_at="2026-03-01T18:00:00Z",
            importance=4,
        )
    )
    trip = await call(
        client, "remember", content="来月の京都旅行の予定。", anticipated_at="2026-03-20"
    )
    assert "Anticipates 2026-03-20: wake_up brings it up" in trip
    assert app.memory.store.get(recital).anticipated_at == datetime(2026, 3, 1, 18, tzinfo=UTC)  # type: ignore[union-attr]

    assert recital not in await call(client, "wake_up")  # more than a week ahead
    clock.set(datetime(2026, 2, 26, 18, tzinfo=UTC))
    near = await call(client, "wake_up")
    assert f"Coming up (in 3 days, 2026-03-01 18:00): {recital}: Master's cello" in near
    assert "京都" not in near
    clock.set(datetime(2026, 3, 2, 9, tzinfo=UTC))
    came = await call(client, "wake_up")
    assert f"That time came (15 hours ago, 2026-03-01 18:00): {recital}" in came
    clock.set(datetime(2026, 3, 4, 9, tzinfo=UTC))
    assert recital not in await call(client, "wake_up")  # two days after, it rests


@pytest.mark.parametrize(
    ("value", "named"),
    [("next friday", "anticipated_at must be an ISO 8601 date"),
     ("2026-02-20", "anticipated_at must not be in the past"),
     ("2026-02-21T08:00:00Z", "anticipated_at must not be in the past")],
)  # fmt: skip
async def test_an_anticipation_in_the_past_or_unreadable_is_refused(
    client: Client, app: AppContext, value: str, named: str
) -> None:
    refused = await call_error(client, "remember", content="A plan.", anticipated_at=value)
    assert refused.startswith(named)
    assert app.memory.store.count() == 0
    today = await call(
        client, "remember", content="今日の夕方の約束。", anticipated_at="2026-02-21", private=True
    )
    assert "Anticipates 2026-02-21:" in today  # a date: today counts, all day
    woken = await call(client, "wake_up")
    assert f"Today (2026-02-21): {memory_id_in(today)}: 今日の夕方の約束。 (private: keep" in woken


async def test_what_is_coming_is_shown_before_what_came(client: Client, clock: FixedClock) -> None:
    clock.set(datetime(2026, 2, 10, 9, tzinfo=UTC))
    for when in ("2026-02-16T10:00:00Z", "2026-02-17T10:00:00Z", "2026-02-18T08:00:00Z"):
        await call(client, "remember", content=f"Dentist appointment at {when}.",
                   anticipated_at=when, force=True)  # fmt: skip
    dinner = {"content": "Ken's birthday dinner.", "anticipated_at": "2026-02-20T19:00:00Z"}
    coming = memory_id_in(await call(client, "remember", **dinner))
    clock.set(datetime(2026, 2, 18, 9, tzinfo=UTC))
    lines = [
        line for line in (await call(client, "wake_up")).splitlines()
        if line.startswith(("Coming up", "That time came"))
    ]  # fmt: skip
    assert lines[0].startswith("Coming up (in 2 days") and coming in lines[0]
    # Three that came would fill the three places: the one coming is shown first.
    assert "Dentist appointment at 2026-02-18T08" in lines[1] and len(lines) == 3


async def test_a_merge_keeps_both_tags_the_anticipation_and_sharing_and_its_undo_undoes_them(
    client: Client, app: AppContext
) -> None:
    keep = memory_id_in(
        await call(client, "remember", content="Master's recital is in March.", tags=["cello"])
    )
    remove = memory_id_in(
        await call(
            client,
            "remember",
            content="マスターの発表会は三月。",
            tags=["Cello", "発表会"],
            anticipated_at="2026-03-14",
            shared_with="Ken",
            force=True,
        )
    )
    await call(client, "merge_memories", keep_id=keep, remove_id=remove)
    merged = app.memory.store.get(keep)
    assert merged is not None and merged.tags == ("cello", "発表会") and merged.shared
    assert merged.anticipated_at == datetime(2026, 3, 14, tzinfo=UTC)
    found = await call(client, "recall", context="recital", tags=["発表会"])
    assert recalled_ids(found) == [keep]

    await call(client, "restore_memory", memory_id=remove)
    back = app.memory.store.get(keep)
    assert back is not None and back.tags == ("cello",) and back.anticipated_at is None
    assert not back.shared
    assert recalled_ids(await call(client, "recall", context="recital", tags=["発表会"])) == [
        remove
    ]


async def test_shared_with_makes_an_episode_in_each_persons_history(
    client: Client, app: AppContext
) -> None:
    """As upstream 1.7: the new memory and related_memories become an episode, added to
    the shared history of each person named (by name or alias, one name or a list)."""
    await call(client, "update_relationship", person="Kenji", field="aliases", value="Ken")
    earlier = memory_id_in(await call(client, "remember", content="健二と港の市場で魚を買った。"))
    said = await call(
        client, "remember", content="Grilled the fish from the market with Ken and Emi.",
        shared_with=["Ken", "エミ", "kenji"], related_memories=[earlier],
    )  # fmt: skip
    saved = memory_id_in(said)
    line = next(x for x in said.splitlines() if x.startswith("Shared with"))
    assert line.startswith("Shared with Kenji, エミ: episode ep_") and "(2 memories)" in line
    episode_id = line.split("episode ")[1].split()[0]
    shown = await call(client, "get_episode", episode_id=episode_id)
    assert saved in shown and earlier in shown
    assert "Summary: Shared with Kenji, エミ: Grilled the fish" in shown
    people = app.runtime.documents(app.agent).load("relationships")
    assert people is not None and set(people) == {"Kenji", "エミ"}
    assert all(people[name]["shared_episodes"] == [episode_id] for name in people)

    alone = await call(client, "remember", content="エミと夜の海を見に行った。", shared_with="エミ")
    assert "Shared with エミ: episode ep_" in alone and "(1 memory)" in alone
    people = app.runtime.documents(app.agent).load("relationships")
    assert people is not None and len(people["エミ"]["shared_episodes"]) == 2


async def test_a_private_shared_memory_keeps_its_words_out_of_the_episode(
    client: Client,
) -> None:
    said = await call(client, "remember", content="Told Aya about the zebra-marker-7731 plan.",
                      private=True, shared_with="Aya")  # fmt: skip
    episode_id = said.split("episode ")[1].split()[0]
    shown = await call(client, "get_episode", episode_id=episode_id)
    assert "Summary: Shared with Aya\n" in shown


async def test_recall_counts_each_memory_once_a_day_and_a_rewrite_keeps_the_count(
    client: Client, app: AppContext, clock: FixedClock
) -> None:
    """What recall shows is counted by the note_recalls job: on how many days, and the
    last; a second recall the same day adds nothing, and a link written after keeps it."""
    first = memory_id_in(await call(client, "remember", content="Master's bonsai needs water."))
    other = memory_id_in(await call(client, "remember", content="マスターの盆栽に水をやった。"))

    async def recalled() -> tuple[int, int]:
        await call(client, "recall", context="bonsai water", n_results=5)
        await app.enqueue(app.recall_tally.flush())  # as the server does when it stops
        await app.queue.join()  # type: ignore[attr-defined]
        found = app.memory.store.get(first)
        assert found is not None
        return found.recall_days, found.recalled_on

    today = int(clock.now().timestamp() // 86_400)
    assert await recalled() == (1, today)
    assert await recalled() == (1, today)
    # A merge rewrites the kept memory's record whole, from what it read before.
    spare = memory_id_in(
        await call(client, "remember", content="Watered the bonsai twice.", force=True)
    )
    await call(client, "merge_memories", keep_id=first, remove_id=spare)
    kept = app.memory.store.get(first)
    assert kept is not None and (kept.recall_days, kept.recalled_on) == (1, today)
    clock.set(clock.now() + timedelta(days=2))
    assert await recalled() == (2, today + 2)
    assert other in recalled_ids(await call(client, "recall", context="盆栽", n_results=5))
    assert app.memory.fade is None  # fading is off unless EGO_MCP_FADE_HALF_LIFE_DAYS is set

"""The guard's three answers through remember, on the cases any reader gets right."""

from __future__ import annotations

import pytest
from mcp import Client

from tests.conftest import call
from tests.helpers import memory_id_in

pytestmark = pytest.mark.anyio

SAVED_AS_ANOTHER_FACT = [
    ("I owe Tom 50 dollars.", "Tom owes me 50 dollars."),  # roles reversed
    ("The meeting moved from Monday to Friday.", "The meeting moved from Friday to Monday."),
    ("Tom almost died in the crash.", "Tom died in the crash."),  # a qualifier dropped
    ("I used to love coffee.", "I love coffee."),  # a habit then, a fact now
    ("太郎は花子に本を貸した。", "花子は太郎に本を貸した。"),  # roles reversed
    ("東京に引っ越したい。", "東京に引っ越した。"),  # a wish, then a deed
    ("マスターはケンを殴って、逃げた。", "ケンはマスターを殴って、逃げた。"),  # roles, two verbs
    ("ケンがパーティーに来た。", "ケンだけがパーティーに来た。"),  # only Ken came
    (  # a bare gerund is the preposition's object: the money went the other way
        "Master moved $2,000 from checking into savings.",
        "Master moved $2,000 from savings into checking.",
    ),
    ("コーヒーを二杯、紅茶を一杯飲んだ。", "コーヒーを一杯、紅茶を二杯飲んだ。"),  # 一杯 counts
]
REFUSED_AS_THE_SAME = [
    (  # the seed's own example: the diarist's "I" left out, the day moved
        "Watched the sunset with Master today on the hill behind the station.",
        "Today I watched the sunset with Master on the hill behind the station.",
    ),
    (  # synonyms from WordNet
        "Master bought a used road bike from a coworker.",
        "Master purchased a secondhand road bike from a colleague.",
    ),
    ("マスターは駅の近くでラーメンを食べた。", "マスターは駅のそばでラーメンを食べた。"),
    ("アヤはケーキしか食べなかった。", "アヤはケーキだけ食べた。"),  # one "only"
]


@pytest.mark.parametrize(("existing", "new"), SAVED_AS_ANOTHER_FACT)
async def test_a_different_fact_in_the_same_words_is_saved(
    client: Client, existing: str, new: str
) -> None:
    await call(client, "remember", content=existing, force=True)
    answer = await call(client, "remember", content=new)
    assert answer.startswith("Saved (id: mem_"), answer
    assert "Possible duplicate" not in answer


@pytest.mark.parametrize(("existing", "new"), REFUSED_AS_THE_SAME)
async def test_a_restatement_is_refused_naming_the_memory(
    client: Client, existing: str, new: str
) -> None:
    first = memory_id_in(await call(client, "remember", content=existing, force=True))
    answer = await call(client, "remember", content=new)
    assert answer.startswith("Not saved — very similar memory already exists."), answer
    assert f"(id: {first}," in answer
    assert "force=true" in answer


async def test_before_and_after_are_similar_never_a_merge_candidate(client: Client) -> None:
    first = memory_id_in(
        await call(client, "remember", content="Master called Anna before the party.")
    )
    answer = await call(client, "remember", content="Master called Anna after the party.")
    assert f"Similar to {first}, differs in: order: before → after" in answer
    consolidated = await call(client, "consolidate")
    assert "near-duplicate" not in consolidated


async def test_leaving_out_detail_is_saved_as_a_possible_duplicate(client: Client) -> None:
    first = memory_id_in(
        await call(
            client,
            "remember",
            content="Master sent me a long, rambling voice message from the airport lounge.",
        )
    )
    answer = await call(
        client, "remember", content="Master sent me a voice message from the airport lounge."
    )
    assert answer.startswith("Saved (id: mem_")
    assert f"Possible duplicate of {first}, differs in: leaves out: long, rambling" in answer

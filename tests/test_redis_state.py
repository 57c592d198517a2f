"""Redis-backed documents (fakeredis; the lock, which needs Lua, is tested on real Redis)."""

from __future__ import annotations

import fakeredis
import pytest

from ego_mcp.errors import CorruptState
from ego_mcp.state.redis_documents import RedisDocumentStore


def test_documents_round_trip_per_agent() -> None:
    client = fakeredis.FakeRedis()
    nova, luna = RedisDocumentStore(client, "nova"), RedisDocumentStore(client, "luna")
    nova.save("desires", {"curiosity": 1})
    assert nova.load("desires") == {"curiosity": 1}
    assert luna.load("desires") is None
    client.set("ego:doc:nova:self_model", b"{broken")
    with pytest.raises(CorruptState, match="ego:doc:nova:self_model"):
        nova.load("self_model")

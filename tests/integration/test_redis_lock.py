"""The per-agent Redis lock on a real redis-server (it runs Lua)."""

from __future__ import annotations

import threading
import time

import pytest
import redis

from ego_mcp.errors import StoreUnavailable
from ego_mcp.locks import RedisAgentLocks
from tests.integration.conftest import RedisServer

pytestmark = pytest.mark.redis


def test_lock_excludes_a_second_holder_until_released(redis_server: RedisServer) -> None:
    locks_a = RedisAgentLocks(redis.Redis.from_url(redis_server.url))
    locks_b = RedisAgentLocks(redis.Redis.from_url(redis_server.url), wait=0.2)
    order: list[str] = []
    inside = threading.Event()

    def hold_a() -> None:
        with locks_a.hold("nova"):
            order.append("a in")
            inside.set()
            time.sleep(0.6)
            order.append("a out")

    thread = threading.Thread(target=hold_a)
    thread.start()
    inside.wait(5)
    with pytest.raises(StoreUnavailable, match="agent nova is busy"), locks_b.hold("nova"):
        order.append("b too early")
    with locks_b.hold("luna"):
        order.append("other agent is free")
    thread.join()
    with locks_b.hold("nova"):
        order.append("b in")
    assert order == ["a in", "other agent is free", "a out", "b in"]


def test_redis_down_is_a_clear_error(redis_server: RedisServer) -> None:
    locks = RedisAgentLocks(redis.Redis.from_url(redis_server.url, socket_connect_timeout=1))
    redis_server.stop()
    with pytest.raises(StoreUnavailable, match="EGO_MCP_REDIS_URL"), locks.hold("nova"):
        pass

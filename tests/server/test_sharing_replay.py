"""The relay's bookkeeping (pure): what a new holder is told after a hand-over."""

from __future__ import annotations

import json

from ego_mcp.server.context import REPLAYED_META_KEY
from ego_mcp.server.sharing.replay import SessionLog, mark_replayed

INITIALIZE = '{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}\n'
INITIALIZED = '{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'


def call(request_id: int, tool: str) -> str:
    params = {"name": tool, "arguments": {}}
    return (
        json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})
        + "\n"
    )


def answer(request_id: int) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {}}) + "\n"


def test_a_new_holder_gets_the_handshake_and_the_unanswered_calls_marked() -> None:
    log = SessionLog()
    for line in (INITIALIZE, INITIALIZED, call(1, "recall"), call(2, "remember")):
        log.from_client(line)
    log.from_server(answer(0))
    log.from_server(answer(1))

    lines, dropped = log.replay()

    assert lines[:2] == [INITIALIZE, INITIALIZED]
    assert len(lines) == 3
    replayed = json.loads(lines[2])
    assert replayed["id"] == 2 and replayed["params"]["name"] == "remember"
    assert replayed["params"]["_meta"] == {REPLAYED_META_KEY: True}
    assert dropped == {"0"}  # the client has had initialize's answer


def test_an_unanswered_initialize_is_simply_sent_again() -> None:
    log = SessionLog()
    log.from_client(INITIALIZE)
    lines, dropped = log.replay()
    assert lines == [INITIALIZE] and dropped == set()


def test_notifications_and_garbage_are_not_in_flight() -> None:
    log = SessionLog()
    log.from_client("not json\n")
    log.from_client('{"jsonrpc": "2.0", "method": "notifications/cancelled"}\n')
    assert log.in_flight == {}
    assert mark_replayed("not json\n") == "not json\n"


def test_a_request_the_client_cancelled_is_not_replayed() -> None:
    log = SessionLog()
    for line in (INITIALIZE, INITIALIZED, call(1, "remember"), call(2, "forget")):
        log.from_client(line)
    log.from_server(answer(0))
    for request_id in (1, 1):  # cancelled twice: still nothing grows
        cancel = {"requestId": request_id, "reason": "user pressed Esc"}
        body = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel}
        log.from_client(json.dumps(body) + "\n")

    lines, _ = log.replay()

    assert list(log.in_flight) == ["2"]
    assert [json.loads(line).get("id") for line in lines[2:]] == [2]

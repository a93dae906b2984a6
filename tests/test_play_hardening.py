"""The play server no client can freeze or confuse: stalled clients, stale actions, failing bot
hooks, JSON bombs, foreign origins and hosts, and nothing decided before a page connects."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the play extra is not installed: pip install -e '.[play]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx (the dev extra)")

from playkit import CallAgent
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from holdem_env.engine.errors import IllegalActionError
from holdem_env.play.protocol import MAX_DEPTH, ProtocolError, parse_message
from holdem_env.play.server import PlayServer, is_loopback, serve_in_thread
from holdem_env.play.session import PlayConfig, PlaySession

TOKEN = "hard-token"


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FailingHooks(CallAgent):
    """Calls like CallAgent; its start_hand and end_hand hooks raise."""

    def start_hand(self, info: Any) -> None:
        raise RuntimeError("start boom")

    def end_hand(self, result: Any) -> None:
        raise ValueError("end boom")


def _server(*, clock: float = 0.0, bot_delay: float = 0.0, agents: list[Any] | None = None,
            time_source: Any = None, **kwargs: Any) -> PlayServer:
    config = PlayConfig(seed=3, bot_delay=bot_delay, clock=clock)
    agents = agents if agents is not None else [CallAgent() for _ in range(5)]
    session = PlaySession(config, agents=agents, **({"clock": time_source} if time_source else {}))
    return PlayServer(session, token=TOKEN, allowed_hosts=("testserver",), **kwargs)


def _until(ws: Any, pred: Any, limit: int = 500) -> dict:
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("the awaited message never came")


def _my_turn(msg: dict) -> bool:
    return msg["type"] == "state" and msg["legal"] is not None


# ---------------------------------------------------------------------- nothing decided before the page
def test_the_first_deal_waits_for_the_page_and_the_clock_pauses_without_one() -> None:
    t = FakeClock()
    server = _server(clock=30, time_source=t)
    session = server.session
    with TestClient(server.app) as client:
        assert session.hand is None  # the server runs, nothing is dealt
        t.now += 3600  # an hour with no page: nothing can time out
        with client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
            state = _until(ws, _my_turn)
            assert state["hand"] == 1 and state["clock_left"] == 30 and not state["clock_paused"]
            t.now += 10
            assert session.clock_left() == pytest.approx(20)
        for _ in range(200):  # the server notices the page has gone
            if session.clock_paused:
                break
            time.sleep(0.01)
        assert session.clock_paused
        t.now += 3600
        assert session.expire_clock() is None and session.clock_left() == pytest.approx(20)
        assert not any("time ran out" in line for line in session.logs[-1])
        with client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
            state = _until(ws, _my_turn)
            assert state["clock_left"] == pytest.approx(20) and not session.clock_paused


def test_the_session_clock_pauses_and_resumes_where_it_was() -> None:
    t = FakeClock()
    session = PlaySession(PlayConfig(seed=3, bot_delay=0, clock=30), agents=[CallAgent() for _ in range(5)], clock=t)
    session.pause_clock()  # no page yet
    session.start_hand()
    while session.bot_on_turn():
        session.bot_act()
    assert session.human_on_turn() and session.clock_left() == 30 and session.clock_paused
    t.now += 1000
    assert session.expire_clock() is None
    session.resume_clock()
    t.now += 29
    assert session.expire_clock() is None and session.clock_left() == pytest.approx(1)
    t.now += 1
    assert session.expire_clock() is not None  # the clock runs again once resumed


# ---------------------------------------------------------------------- stale and repeated actions
def test_a_repeated_action_is_refused_not_applied_to_the_next_decision() -> None:
    session = PlaySession(PlayConfig(seed=3, bot_delay=0, clock=0), agents=[CallAgent() for _ in range(5)])
    session.start_hand()
    while session.bot_on_turn():
        session.bot_act()
    first = session.view()
    d = first["decision"]
    assert d == session.decision and d >= 1
    session.act("check" if first["legal"]["check"] else "call", decision=d)
    while session.hand_running and not session.human_on_turn():
        session.bot_act()
    assert session.human_on_turn() and session.decision == d + 1  # the next decision, same hand
    before = json.dumps(session.view(), sort_keys=True)
    with pytest.raises(IllegalActionError, match=f"decision #{d}, which is over .*decision #{d + 1} is on"):
        session.act("check", decision=d)
    assert json.dumps(session.view(), sort_keys=True) == before


def test_a_duplicate_message_is_refused_by_the_server() -> None:
    server = _server()
    session = server.session
    with TestClient(server.app) as client, client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
        state = _until(ws, _my_turn)
        move = {"type": "action", "action": "check" if state["legal"]["check"] else "call",
                "hand": state["hand"], "decision": state["decision"]}
        ws.send_json(move)
        ws.send_json(move)  # a double click
        error = _until(ws, lambda m: m["type"] == "error")
        assert f"decision #{state['decision']}" in error["message"] or "not your turn" in error["message"]
        nxt = _until(ws, lambda m: _my_turn(m) or (m["type"] == "state" and m["hand_over"]))
        mine = [line for line in session.logs[0] if line.startswith("You ")]
        assert len(mine) == 1  # only one of the two was applied
        if _my_turn(nxt):
            assert nxt["decision"] == state["decision"] + 1


# ---------------------------------------------------------------------- failing bot hooks
def test_failing_bot_hooks_are_logged_and_the_table_goes_on() -> None:
    agents: list[Any] = [FailingHooks()] + [CallAgent() for _ in range(4)]
    server = _server(agents=agents)
    session = server.session
    with TestClient(server.app) as client, client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
        while session.hands_played < 3:
            msg = ws.receive_json()
            if _my_turn(msg):
                ws.send_json({"type": "action", "action": "check" if msg["legal"]["check"] else "fold",
                              "decision": msg["decision"]})
            elif msg["type"] == "state" and msg["hand_over"]:
                ws.send_json({"type": "next"})
    for lines in session.logs[:3]:
        text = "\n".join(lines)
        assert "failed in start_hand (RuntimeError: start boom)" in text
        assert "failed in end_hand (ValueError: end boom)" in text


# ---------------------------------------------------------------------- bad messages
@pytest.mark.parametrize(
    "bomb",
    ["[" * 2000 + "]" * 2000, '{"a":' * 600 + "1" + "}" * 600,
     '{"type": "action", "action": "call", "hand": [[[[[1]]]]]}'],
)
def test_a_json_depth_bomb_is_refused_and_the_connection_lives(bomb: str) -> None:
    assert len(bomb.encode()) <= 4096
    with pytest.raises(ProtocolError, match=f"at most {MAX_DEPTH} deep"):
        parse_message(bomb)
    server = _server(bot_delay=60)
    with TestClient(server.app) as client, client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
        _until(ws, lambda m: m["type"] == "state")
        ws.send_text(bomb)
        reply = ws.receive_json()
        assert reply["type"] == "error" and f"at most {MAX_DEPTH} deep" in reply["message"]
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["type"] == "state"  # still connected


def test_brackets_inside_strings_do_not_count_as_depth() -> None:
    with pytest.raises(ProtocolError, match="unknown action"):
        parse_message('{"type": "action", "action": "[[[[[[[[[[\\"{{{{{{{{"}')


# ---------------------------------------------------------------------- origins and hosts
def test_a_websocket_from_a_foreign_origin_is_closed() -> None:
    server = _server(bot_delay=60)
    with TestClient(server.app) as client:
        with pytest.raises(WebSocketDisconnect) as info:
            with client.websocket_connect(f"/t/{TOKEN}/ws", headers={"origin": "http://evil.example"}) as ws:
                ws.receive_json()
        assert info.value.code == 4403
        assert server.session.hand is None  # a refused page deals nothing
        with client.websocket_connect(f"/t/{TOKEN}/ws", headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "history"  # the page's own origin is welcome


def test_a_foreign_host_name_is_refused() -> None:
    server = _server(bot_delay=60)
    with TestClient(server.app) as client:
        for path in (f"/t/{TOKEN}/", f"/t/{TOKEN}/history.phhs", f"/t/{TOKEN}/static/table.js"):
            response = client.get(path, headers={"host": "rebound.example:8765"})
            assert response.status_code == 403 and "Host header 'rebound.example:8765'" in response.text
        assert client.get(f"/t/{TOKEN}/", headers={"host": "127.0.0.1:8765"}).status_code == 200
        assert client.get(f"/t/{TOKEN}/", headers={"host": "[::1]:8765"}).status_code == 200
        assert client.get(f"/t/{TOKEN}/", headers={"host": "localhost:8765"}).status_code == 200
        with pytest.raises(WebSocketDisconnect) as info:
            with client.websocket_connect(f"/t/{TOKEN}/ws", headers={"host": "rebound.example"}) as ws:
                ws.receive_json()
        assert info.value.code == 4403


@pytest.mark.parametrize(("host", "loop"), [("127.0.0.1", True), ("::1", True), ("localhost", True),
                                            ("0.0.0.0", False), ("192.168.1.5", False), ("example.org", False)])
def test_is_loopback(host: str, loop: bool) -> None:
    assert is_loopback(host) is loop


# ---------------------------------------------------------------------- a client that never reads
def _raw_ws_connect(url: str) -> socket.socket:
    """Open a WebSocket by hand with a tiny receive buffer, and never read from it."""
    rest = url.split("://", 1)[1]
    hostport, path = rest.split("/", 1)
    host, port = hostport.rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.connect((host, int(port)))
    sock.sendall(
        (f"GET /{path}ws HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
    )
    assert sock.recv(12) == b"HTTP/1.1 101"  # switched to WebSocket; from here on nothing is read
    return sock


def test_a_stalled_client_does_not_freeze_the_other_tabs() -> None:
    from websockets.sync.client import connect

    server = _server(send_timeout=0.5, send_queue=8)
    session = server.session
    dropped: list[bool] = []
    remove = server._remove_client

    async def spy(client: Any, reason: str | None = None) -> None:
        if reason is not None and not client.dropped:
            dropped.append(True)
        await remove(client, reason)

    server._remove_client = spy  # type: ignore[method-assign]
    after = 5
    with serve_in_thread(server) as url:
        stalled = _raw_ws_connect(url)  # connected, never reads a byte
        try:
            ws_url = url.replace("http://", "ws://") + "ws"
            with connect(ws_url, open_timeout=20) as ws:
                received = 0
                # Play until the stalled client's buffers are full and it is dropped, then on.
                while (not dropped or session.hands_played < after) and session.hands_played < 400:
                    if not dropped:
                        after = session.hands_played + 5
                    msg = json.loads(ws.recv(timeout=20))  # the old server froze here forever
                    received += 1
                    if _my_turn(msg):
                        ws.send(json.dumps({"type": "action", "action": "check" if msg["legal"]["check"] else "call",
                                            "decision": msg["decision"]}))
                    elif msg["type"] == "state" and msg["hand_over"]:
                        ws.send(json.dumps({"type": "next"}))
                assert dropped == [True]  # the stalled one was dropped, this tab stays
                assert session.hands_played >= after and received > 50
                assert len(server._clients) == 1
        finally:
            stalled.close()

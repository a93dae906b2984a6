"""The play server without a browser: the token, the message protocol, bad input, several tabs."""

from __future__ import annotations

import doctest
import importlib
import json
import re

import pytest

pytest.importorskip("starlette", reason="the play extra is not installed: pip install -e '.[play]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx (the dev extra)")

from playkit import CallAgent
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from holdem_env.engine.cards import card_str
from holdem_env.play.server import PlayServer
from holdem_env.play.session import HUMAN_SEAT, PlayConfig, PlaySession

CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
TOKEN = "test-token_123"


def _server(bot_delay: float = 0.0, clock: float = 0.0, seed: int = 3, call_bots: bool = True) -> PlayServer:
    config = PlayConfig(seed=seed, bot_delay=bot_delay, clock=clock)
    agents = [CallAgent() for _ in range(5)] if call_bots else None
    return PlayServer(PlaySession(config, agents=agents), token=TOKEN, allowed_hosts=("testserver",))


def _until(ws, pred):
    """Receive messages until ``pred(message)``; returns (that message, every message received)."""
    got = []
    for _ in range(500):
        msg = ws.receive_json()
        got.append(msg)
        if pred(msg):
            return msg, got
    raise AssertionError("the awaited message never came")


def _my_turn(msg: dict) -> bool:
    return msg["type"] == "state" and msg["legal"] is not None


@pytest.mark.parametrize("name", ["holdem_env.play.protocol", "holdem_env.play.session", "holdem_env.agents.styles"])
def test_play_module_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize(
    "path", ["/", "/t/wrong/", "/t/wrong/static/table.js", "/t/wrong/history.phhs", "/static/table.js", f"/{TOKEN}/"]
)
def test_requests_without_the_token_are_refused(path: str) -> None:
    with TestClient(_server().app) as client:
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 403
        assert "session token" in response.text


def test_a_websocket_without_the_token_is_closed() -> None:
    with TestClient(_server().app) as client:
        with pytest.raises(WebSocketDisconnect) as info:
            with client.websocket_connect("/t/wrong/ws") as ws:
                ws.receive_json()
        assert info.value.code == 4403


def test_the_page_and_its_files_are_served_with_the_token() -> None:
    with TestClient(_server().app) as client:
        page = client.get(f"/t/{TOKEN}/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert 'src="static/table.js"' in page.text and page.headers["referrer-policy"] == "no-referrer"
        assert client.get(f"/t/{TOKEN}", follow_redirects=False).headers["location"] == f"/t/{TOKEN}/"
        for name, kind in (("table.js", "text/javascript"), ("table.css", "text/css")):
            response = client.get(f"/t/{TOKEN}/static/{name}")
            assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
        assert client.get(f"/t/{TOKEN}/static/../server.py").status_code in (403, 404)
        assert client.get(f"/t/{TOKEN}/static/server.py").status_code == 404


def test_connecting_sends_the_history_then_the_state() -> None:
    server = _server(bot_delay=60)  # the bots wait: the first state is the deal
    with TestClient(server.app) as client, client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
        history = ws.receive_json()
        assert history == {"type": "history", "hands": []}
        state = ws.receive_json()
        assert state["type"] == "state" and state["hand"] == 1 and len(state["seats"]) == 6
        assert state["seats"][HUMAN_SEAT]["cards"] is not None
        assert all(seat["cards"] is None and seat["has_cards"] for seat in state["seats"][1:])
        assert sorted(t for seat in state["seats"] for t in seat["tags"]) == ["BB", "BTN", "SB"]


BAD_MESSAGES = [
    ("not json", "must be a JSON object"),
    ("[1, 2]", "must be a JSON object, got list"),
    ('{"type": "dance"}', "unknown message type 'dance'"),
    ('{"type": "action", "action": "shove"}', "unknown action 'shove'"),
    ('{"type": "action", "action": "raise"}', "needs an 'amount'"),
    ('{"type": "action", "action": "raise", "amount": "40"}', "whole number (JSON integer), got str '40'"),
    ('{"type": "action", "action": "raise", "amount": 40.0}', "got float 40.0"),
    ('{"type": "action", "action": "raise", "amount": 40.5}', "got float 40.5"),
    ('{"type": "action", "action": "raise", "amount": true}', "got bool True"),
    ('{"type": "action", "action": "raise", "amount": -5}', "out of range"),
    ('{"type": "action", "action": "raise", "amount": 100000000000000000000000000000}', "out of range"),
    ('{"type": "action", "action": "raise", "amount": NaN}', "must be a JSON object"),
    ('{"type": "action", "action": "raise", "amount": 1e400}', "got float"),
    ('{"type": "action", "action": "call", "amount": 10}', "takes no amount"),
    ('{"type": "action", "action": "call", "seat": 3}', "unknown fields ['seat']"),
    ('{"type": "next", "hand": 2}', "takes no other fields"),
    ('{"type": "action", "action": "call", "hand": 99}', "hand #99"),
    ('{"type": "action", "action": "raise", "amount": 11}', "below the minimum"),
    ('{"type": "action", "action": "raise", "amount": 5000}', "above the maximum"),
    ('{"type": "next"}', "the current hand is not over"),
    ("x" * 5000, "at most 4096 bytes"),
]


def test_malformed_and_illegal_messages_are_refused_and_change_nothing() -> None:
    server = _server(bot_delay=0)
    with TestClient(server.app) as client, client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
        before, _ = _until(ws, _my_turn)
        for text, message in BAD_MESSAGES:
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] == "error" and message in reply["message"], (text, reply)
        ws.send_bytes(b"\xff\xfe")
        assert "UTF-8" in ws.receive_json()["message"]
        ws.send_json({"type": "sync"})
        assert ws.receive_json() == before


def test_an_action_out_of_turn_is_refused() -> None:
    server = _server(bot_delay=60)
    session = server.session
    with TestClient(server.app) as client, client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
        _until(ws, lambda m: m["type"] == "state")
        if session.human_on_turn():  # make it a bot's turn: call, the next bot waits a minute
            ws.send_json({"type": "action", "action": "call"})
            _until(ws, lambda m: m["type"] == "state")
        assert session.bot_on_turn()
        ws.send_json({"type": "action", "action": "fold"})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["message"].startswith("it is not your turn: ")


def test_two_tabs_see_the_same_table_and_a_late_click_is_refused() -> None:
    server = _server(bot_delay=0)
    with TestClient(server.app) as client:
        with client.websocket_connect(f"/t/{TOKEN}/ws") as tab1, client.websocket_connect(f"/t/{TOKEN}/ws") as tab2:
            state1, _ = _until(tab1, _my_turn)
            state2, _ = _until(tab2, lambda m: _my_turn(m) and m["actor"] == state1["actor"])
            assert state1["seats"] == state2["seats"]
            tab1.send_json({"type": "action", "action": "check" if state1["legal"]["check"] else "call",
                            "hand": state1["hand"]})
            after1, _ = _until(tab1, lambda m: m["type"] == "state" and m["legal"] is None)
            after2, _ = _until(tab2, lambda m: m["type"] == "state" and m["legal"] is None)
            assert after1 == after2 and after1["legal"] is None
            # The second tab clicks on the decision that is already gone, naming it as the page does
            # (with bot_delay=0 the person may already be on a later decision of the same hand).
            tab2.send_json({"type": "action", "action": "fold", "hand": state1["hand"], "decision": state1["decision"]})
            reply, _ = _until(tab2, lambda m: m["type"] == "error")
            assert f"decision #{state1['decision']}, which is over" in reply["message"] or "deal the next" in reply["message"]


def _allowed(msg: dict, seen_before: set[str]) -> set[str]:
    me = msg["seats"][msg["you"]]["cards"] or []
    allowed = set(me) | set(msg["board"]) | seen_before
    if msg["hand_over"] and msg["results"]:
        for shown in msg["results"]["shown"].values():
            allowed |= set(shown["cards"])
    return allowed


def test_every_message_of_a_long_session_holds_only_cards_the_person_may_see() -> None:
    # Real bots, the person checks or calls: many showdowns, folds and mucks.
    server = _server(bot_delay=0, seed=21, call_bots=False)
    session = server.session
    received: list[dict] = []
    with TestClient(server.app) as client, client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
        while session.hands_played < 30:
            msg = ws.receive_json()
            received.append(msg)
            if _my_turn(msg):
                ws.send_json({"type": "action", "action": "check" if msg["legal"]["check"] else "call",
                              "hand": msg["hand"]})
            elif msg["type"] == "state" and msg["hand_over"]:
                ws.send_json({"type": "next"})
    states = [m for m in received if m["type"] == "state"]
    assert {m["hand"] for m in states} >= set(range(1, 31))
    # Each message against the engine's record: no card of another seat unless shown.
    for m in states:
        record = session.records[m["hand"] - 1] if m["hand"] <= len(session.records) else session.hand.record()
        tokens = set(CARD.findall(json.dumps(m)))
        assert tokens <= _allowed(m, set()), (m["hand"], tokens - _allowed(m, set()))
        hidden = {card_str(c) for s, cards in enumerate(record.hole_cards)
                  if s != HUMAN_SEAT and cards is not None and s not in record.shown and s not in record.mucked
                  for c in cards}  # at this table every hand still in at showdown is shown; folded ones never
        assert not tokens & hidden
    assert any(m["results"] and len(m["results"]["shown"]) >= 2 for m in states)


def test_the_hand_history_download() -> None:
    server = _server(bot_delay=0)
    with TestClient(server.app) as client, client.websocket_connect(f"/t/{TOKEN}/ws") as ws:
        while server.session.hands_played < 2:
            msg = ws.receive_json()
            if _my_turn(msg):
                ws.send_json({"type": "action", "action": "check" if msg["legal"]["check"] else "fold"})
            elif msg["type"] == "state" and msg["hand_over"]:
                ws.send_json({"type": "next"})
        response = client.get(f"/t/{TOKEN}/history.phhs")
        assert response.status_code == 200
        assert response.headers["content-disposition"] == 'attachment; filename="holdem-session.phhs"'
        assert "[hand-1]" in response.text and "[hand-2]" in response.text
        assert response.text.startswith("[hand-1]\nvariant = \"NT\"")

"""Hand records: contents, JSON round trip, replay."""

from __future__ import annotations

import json

import pytest
from enginekit import make_state

from holdem_env.engine.actions import ActionKind, Street
from holdem_env.engine.cards import card_str
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import HoldemError
from holdem_env.engine.record import ActionEvent, HandRecord
from holdem_env.engine.state import HandState


def _played() -> HandState:
    s = make_state(
        4,
        stacks=[1000, 400, 1000, 35],
        holes={0: "AsAd", 1: "KsKd", 2: "QsQd", 3: "JsJd"},
        board="2c7d9hTc3s",
        ante=1,
    )
    s.all_in()  # seat 3
    s.raise_to(100)
    s.timeout()  # seat 1 folds on the clock
    s.call()
    s.raise_to(50)  # flop bet by seat 2
    s.call()
    s.check() if s.legal_actions().check else s.call()
    while not s.is_over:
        s.check()
    return s


def test_record_holds_setup_results_and_events() -> None:
    s = _played()
    r = s.record()
    assert r.button == 0 and r.starting_stacks == (1000, 400, 1000, 35)
    assert r.antes == (1, 1, 1, 1) and r.blinds == (0, 5, 10, 0)
    assert r.deck == s.deck and r.board == s.board and r.hole_cards == s.hole_cards
    assert r.events == s.events and r.pots == s.pots
    assert r.final_stacks == s.final_stacks and r.payoffs == s.payoffs
    assert sum(r.payoffs) == 0
    assert any(isinstance(e, ActionEvent) and e.timeout for e in r.events)


def test_json_round_trip_is_exact() -> None:
    r = _played().record()
    text = r.to_json()
    assert json.loads(text)["deck"][:2] == card_str(r.deck[0])  # cards are readable strings
    back = HandRecord.from_json(text)
    assert back == r
    assert back.to_json() == text


def test_replay_reproduces_final_state_and_events() -> None:
    s = _played()
    again = HandState.from_record(s.record())
    assert again.events == s.events
    assert again.final_stacks == s.final_stacks and again.payoffs == s.payoffs
    assert again.shown == s.shown and again.mucked == s.mucked and again.pots == s.pots


def test_replay_of_seeded_hand_from_json() -> None:
    s = HandState(TableConfig(num_players=6), seed=123)
    while not s.is_over:
        la = s.legal_actions()
        s.call() if la.call else s.check()
    r = HandRecord.from_json(s.record().to_json())
    assert r.seed == 123
    assert HandState.from_record(r).payoffs == s.payoffs


def test_record_of_unfinished_hand_round_trips_and_replays() -> None:
    s = make_state(3)
    s.raise_to(40)
    r = HandRecord.from_json(s.record().to_json())
    assert r.payoffs is None
    again = HandState.from_record(r)
    assert again.actor == s.actor and again.street_bets == s.street_bets


def test_malformed_record_json_raises_holdem_error() -> None:
    with pytest.raises(HoldemError, match="not valid JSON"):
        HandRecord.from_json("{nope")
    with pytest.raises(HoldemError, match="malformed"):
        HandRecord.from_json('{"button": 0}')
    d = json.loads(_played().record().to_json())
    d["events"][0]["type"] = "teleport"
    with pytest.raises(HoldemError, match="unknown event type 'teleport'"):
        HandRecord.from_dict(d)


def test_replay_detects_divergent_record() -> None:
    r = _played().record()
    events = list(r.events)
    first = events[0]
    events[0] = ActionEvent(first.seat + 1, first.street, first.kind, first.amount, first.to, first.all_in, first.timeout)
    bad = HandRecord(**{**r.__dict__, "events": tuple(events)})
    with pytest.raises(HoldemError, match="replay diverged"):
        HandState.from_record(bad)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("kind", "jump", "action of kind 'jump'; allowed: fold, check, call, bet, raise"),
        ("street", "flopp", "street 'flopp'; allowed: preflop, flop, turn, river, showdown"),
        ("street", 3, "street 3; allowed: preflop"),
    ],
)
def test_record_with_unknown_action_kind_or_street_raises_holdem_error_naming_it(field, value, message) -> None:  # type: ignore[no-untyped-def]
    d = json.loads(_played().record().to_json())
    action = next(e for e in d["events"] if e["type"] == "action")
    action[field] = value
    with pytest.raises(HoldemError, match=message):
        HandRecord.from_dict(d)


def test_replay_of_a_record_with_actions_after_the_end_says_the_hand_is_over() -> None:
    r = _played().record()
    extra = ActionEvent(0, Street.RIVER, ActionKind.CHECK, 0, 0)
    bad = HandRecord(**{**r.__dict__, "events": (*r.events, extra)})
    with pytest.raises(HoldemError, match="replay diverged: event for seat 0 but the hand is already over"):
        HandState.from_record(bad)


def test_the_deprecated_record_replay_warns_and_still_rebuilds_the_hand() -> None:
    s = _played()
    with pytest.deprecated_call(match=r"HandState\.from_record"):
        again = s.record().replay()
    assert again.events == s.events and again.payoffs == s.payoffs


def test_from_record_of_something_else_names_what_it_needs() -> None:
    with pytest.raises(HoldemError, match="needs a HandRecord, got"):
        HandState.from_record({"button": 0})  # type: ignore[arg-type]

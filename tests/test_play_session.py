"""The play session on the engine: the table of the description, top-ups, the clock, the view, PHH."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest
from enginekit import play_passively
from playkit import CallAgent, call_session, finish_hand, play_until_human, stacked_deck

from holdem_env.cli import main as holdem_main
from holdem_env.engine.cards import card_str
from holdem_env.engine.errors import ConfigError, HandOverError, IllegalActionError
from holdem_env.engine.state import HandState
from holdem_env.play.session import DEFAULT_OPPONENTS, HUMAN_SEAT, PlayConfig, PlaySession

CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def test_default_table_is_the_free_play_table_of_the_description() -> None:
    cfg = PlayConfig()
    assert (cfg.players, cfg.small_blind, cfg.big_blind, cfg.buy_in, cfg.clock) == (6, 5, 10, 1000, 30.0)
    session = PlaySession(PlayConfig(seed=4))
    assert session.bots.specs[HUMAN_SEAT] is None
    assert sorted(session.bots.specs[1:]) == sorted(DEFAULT_OPPONENTS)
    # The player is not told who is who: seat names say nothing about the style.
    assert session.names[0] == "You"
    for name in session.names[1:]:
        assert not any(word in name.lower() for spec in DEFAULT_OPPONENTS for word in spec.split("-"))


def test_bots_are_seated_in_an_order_drawn_from_the_seed() -> None:
    seatings = {PlaySession(PlayConfig(seed=s)).bots.specs for s in range(6)}
    assert len(seatings) > 1
    assert PlaySession(PlayConfig(seed=2)).bots.specs == PlaySession(PlayConfig(seed=2)).bots.specs


def test_button_moves_one_seat_every_hand_and_stacks_carry_over() -> None:
    session = call_session(seed=7)
    buttons = []
    for _ in range(4):
        hand = session.start_hand()
        assert hand.starting_stacks == tuple(session.stacks)
        buttons.append(hand.button)
        finish_hand(session)
        assert tuple(session.stacks) == hand.final_stacks
    assert [(b - a) % 6 for a, b in zip(buttons, buttons[1:], strict=False)] == [1, 1, 1]
    assert sum(session.stacks) == 6 * 1000  # the house takes nothing, nobody went broke


#: Hole cards of rising strength on the board Ad Kd 9s 5h 2c (the last: three aces).
RISING = ["7c3d", "8c4h", "Tc6h", "5c6c", "9c7h", "KsQh", "Kc9h", "AsAh"]
SEED = 9  # after hand 1: the person 1000 chips, the next button 1040, the other bots 990


def _side_pot_hand(session: PlaySession) -> int:
    """Hand 1: everyone checks down (the person folds or checks). Hand 2, stacked: the person
    goes all in with a losing hand and every bot calls, the short stacks all in for less (a
    side pot). Strengths rise in showing order (clockwise from the button's left) so every
    hand is shown; the button, the biggest stack, wins everything. Returns the winner's seat."""
    session.start_hand()
    finish_hand(session)
    n = session.config.players
    button = (session.hand.button + 1) % n  # type: ignore[union-attr]
    assert min(session.stacks[1:]) < session.stacks[HUMAN_SEAT] < session.stacks[button], "no side pot: pick a seed"
    showing_order = [(button + k) % n for k in range(1, n + 1)]
    holes = dict(zip(showing_order, RISING[-n:], strict=True))
    hand = session.start_hand(deck=stacked_deck(n, button, holes, board="AdKd9s5h2c"))
    assert hand.button == button
    play_until_human(session)
    session.act("allin")
    play_until_human(session)
    assert not session.hand_running
    return button


def test_side_pots_showdown_and_bust_then_top_up() -> None:
    session = call_session(seed=SEED)
    winner = _side_pot_hand(session)
    view = session.view()
    labels = [p["label"] for p in view["pots"]]
    assert labels[0] == "main pot" and len(labels) >= 2 and all(p["winners"] == [winner] for p in view["pots"])
    assert sum(p["amount"] for p in view["pots"]) == sum(session.hand.contributions) - sum(  # type: ignore[union-attr]
        e.amount for e in session.hand.events if type(e).__name__ == "UncalledBetReturned"  # type: ignore[union-attr]
    )
    shown = view["results"]["shown"]
    assert set(map(int, shown)) == set(range(6))
    assert shown[str(winner)]["hand"] == "three of a kind, aces, kickers king, nine"  # AsAh on Ad Kd 9s 5h 2c
    assert sorted(shown[str(winner)]["best"]) == sorted(["As", "Ah", "Ad", "Kd", "9s"])
    assert any(line.startswith(f"{session.names[winner]} wins the main pot") for line in view["log"])
    assert session.stacks[HUMAN_SEAT] == 0
    net_before = session.net
    session.start_hand()
    assert session.stacks[HUMAN_SEAT] == 1000 and session.topups[HUMAN_SEAT] == 1000
    assert session.logs[-1][:2] == ["Hand #3: Dot has the button", "You are topped up to 1,000"]
    assert session.net == net_before  # a top-up is not a win
    assert sum(session.stacks) == 6 * 1000 + sum(session.topups)


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    session = call_session(seed=3, clock=0)  # no clock: the view does not tick
    session.start_hand()
    play_until_human(session)
    before = json.dumps(session.view(), sort_keys=True)
    legal = session.view()["legal"]
    lo = legal["min_raise_to"]
    cases = [
        (("raise", lo - 1), f"below the minimum {lo}"),
        (("raise", 10**9), "above the maximum"),
        (("raise", 25.0), "whole number of chips"),
        (("raise", "40"), "whole number of chips"),
        (("raise", True), "whole number of chips"),
        (("call", 30), "takes no amount"),
        (("shove", None), "unknown action 'shove'"),
    ]
    if not legal["check"]:
        cases.append((("check", None), "check is not allowed"))
    for (kind, amount), message in cases:
        with pytest.raises(IllegalActionError, match=message):
            session.act(kind, amount)
        assert json.dumps(session.view(), sort_keys=True) == before
    with pytest.raises(IllegalActionError, match="it is not Ada's turn: you are to act"):
        session.act("call", seat=1)
    with pytest.raises(IllegalActionError, match="no bot is on turn"):
        session.bot_act()
    finish_hand(session)
    with pytest.raises(HandOverError, match="deal the next one"):
        session.act("fold")


def test_presets_are_legal_amounts() -> None:
    session = PlaySession(PlayConfig(seed=5, bot_delay=0))
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(12):
        session.start_hand()
        while session.hand_running:
            if session.bot_on_turn():
                session.bot_act()
                continue
            legal = session.view()["legal"]
            if legal["presets"]:
                presets = legal["presets"]
                for amount in presets.values():
                    assert legal["min_raise_to"] <= amount <= legal["max_raise_to"]
                    assert session.hand.can_raise_to(amount)  # type: ignore[union-attr]
                hand = session.hand
                pot_raise = hand.current_bet + hand.pot + legal["call"]  # type: ignore[union-attr]
                assert presets["pot"] == min(legal["max_raise_to"], max(legal["min_raise_to"], pot_raise))
                assert (presets["min"], presets["allin"]) == (legal["min_raise_to"], legal["max_raise_to"])
                checked += 1
            choice = rng.random()
            if legal["presets"] and choice < 0.15:
                session.act("raise", legal["presets"]["half"])
            else:
                session.act("check" if legal["check"] else ("call" if choice < 0.6 else "fold"))
    assert checked > 5


def test_the_view_never_holds_a_card_the_person_may_not_see() -> None:
    session = PlaySession(PlayConfig(seed=9, bot_delay=0))
    rng = np.random.default_rng(1)
    views = 0
    seen: set[str] = set()  # cards of earlier hands the person saw (they stay in the log)
    for _ in range(25):
        session.start_hand()
        hand = session.hand
        assert hand is not None
        while True:
            visible = {card_str(c) for c in hand.board} | {card_str(c) for c in hand.hole_cards[HUMAN_SEAT]}
            for cards in session.table_shown(hand).values():
                visible |= {card_str(c) for c in cards}
            if not session.hand_running:
                seen |= visible
            visible |= seen
            text = json.dumps(session.view()) + json.dumps(session.history_logs())
            assert set(CARD.findall(text)) <= visible
            views += 1
            if not session.hand_running:
                break
            if session.bot_on_turn():
                session.bot_act()
            else:
                legal = session.view()["legal"]
                r = rng.random()
                if legal["presets"] and r < 0.1:
                    session.act("raise", legal["presets"]["pot"])
                else:
                    session.act("check" if legal["check"] else ("call" if r < 0.7 else "fold"))
    assert views > 100


def test_the_clock_runs_out_check_if_free_else_fold() -> None:
    now = [100.0]
    config = PlayConfig(players=3, opponents=("tag", "tag"), seed=2, clock=30, bot_delay=0)
    session = PlaySession(config, agents=[CallAgent(), CallAgent()], clock=lambda: now[0])
    for _ in range(2):
        session.start_hand()
        play_until_human(session)
        while session.hand_running and session.human_on_turn():
            facing = not session.view()["legal"]["check"]
            assert session.clock_left() == 30.0
            now[0] += 29.5
            assert session.expire_clock() is None and session.clock_left() == 0.5
            now[0] += 0.5
            event = session.expire_clock()
            assert event is not None and event.timeout and event.seat == HUMAN_SEAT
            assert event.kind.value == ("fold" if facing else "check")
            assert any(line.startswith("You ") and line.endswith("(time ran out)") for line in session.logs[-1])
            play_until_human(session)
        finish_hand(session)


def test_no_clock_when_it_is_off() -> None:
    session = call_session(seed=2, clock=0)
    session.start_hand()
    play_until_human(session)
    assert session.human_on_turn() and session.clock_left() is None and session.expire_clock() is None


def test_session_result_in_chips_and_bb_per_100() -> None:
    session = call_session(seed=SEED)
    assert session.bb_per_100 is None
    _side_pot_hand(session)
    assert session.hands_played == 2
    expected = session.stacks[0] - 1000
    assert session.net == expected
    assert session.bb_per_100 == pytest.approx(expected / 10 / 2 * 100)
    shown = session.view()["session"]
    assert shown["hands"] == 2 and shown["net"] == expected and shown["bb_per_100"] == round(expected / 10 / 2 * 100, 1)
    assert shown["chart"] == session.net_history and len(shown["chart"]) == 3 and shown["chart"][-1] == expected


def test_hand_history_download_replays_and_hides_unshown_cards(tmp_path, capsys) -> None:
    session = call_session(seed=SEED)
    _side_pot_hand(session)
    text = session.hand_history_phhs()
    first = text.split("[hand-2]")[0]
    # Hand 1: everyone checked down; the person saw only its own cards and those shown.
    hand1 = session.records[0]
    for s in range(6):
        cards = "".join(card_str(c) for c in hand1.hole_cards[s])
        assert (cards in first) == (s == HUMAN_SEAT or s in hand1.shown or s in hand1.mucked)
    assert "seed" not in text
    path = tmp_path / "session.phhs"
    path.write_text(text)
    assert holdem_main(["replay", "--check", str(path)]) == 0
    assert capsys.readouterr().out.endswith("2 hands, 2 match, 0 differ, 0 errors\n")


def test_at_this_table_every_hand_still_in_is_shown_and_the_download_replays(tmp_path, capsys) -> None:
    # Real bots: hands the engine's showing order would muck are shown at this table (the
    # game description: "the players still in show their cards"), in the log, the view
    # and the download, which still replays to the same stacks. Folded hands stay hidden.
    session = PlaySession(PlayConfig(seed=12, bot_delay=0))
    play_passively(session, 30)
    def muck_rule(r):  # type: ignore[no-untyped-def]
        """The seats the engine's muck rule would muck in ``r`` (the same hand on a table that is not show-all)."""
        return HandState.from_record(dataclasses.replace(r, config=dataclasses.replace(r.config, show_all_hands=False))).mucked

    mucked = [(i, s) for i, r in enumerate(session.records, start=1) for s in muck_rule(r) if s != HUMAN_SEAT]
    assert mucked
    text = session.hand_history_phhs()
    for i, s in mucked:
        section = text.split(f"[hand-{i}]")[1].split("[hand-")[0]
        cards = session.records[i - 1].hole_cards[s]
        assert "".join(card_str(c) for c in cards) in section
        said = f"{session.names[s]} shows {card_str(cards[0])} {card_str(cards[1])}: "
        assert any(line.startswith(said) for line in session.logs[i - 1])
    for i, r in enumerate(session.records, start=1):
        section = text.split(f"[hand-{i}]")[1].split("[hand-")[0]
        for s, cards in enumerate(r.hole_cards):
            if s != HUMAN_SEAT and s not in r.shown and s not in r.mucked:  # folded: never shown
                assert "".join(card_str(c) for c in cards) not in section
    path = tmp_path / "session.phhs"
    path.write_text(text)
    assert holdem_main(["replay", "--check", str(path)]) == 0
    assert capsys.readouterr().out.endswith("30 hands, 30 match, 0 differ, 0 errors\n")


def test_a_failing_bot_checks_or_folds_and_the_table_goes_on() -> None:
    class Broken:
        def act(self, observation, info):
            raise RuntimeError("boom")

    config = PlayConfig(players=2, opponents=("mybots:Broken",), seed=1, bot_delay=0)
    session = PlaySession(config, agents=[Broken()])
    session.start_hand()
    while session.hand_running:
        if session.bot_on_turn():
            session.bot_act()
        else:
            session.act("check" if session.view()["legal"]["check"] else "call")
    assert any("bot failed" in line and "boom" in line for line in session.logs[-1])


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"players": 11}, "players"), ({"players": 1}, "players"), ({"opponents": ("tag",) * 3}, "opponents"),
     ({"opponents": "tag"}, "opponents"), ({"clock": -1}, "clock"), ({"clock": float("nan")}, "clock"),
     ({"bot_delay": 100}, "bot_delay"), ({"seed": -3}, "seed"), ({"big_blind": 0}, "big_blind")],
)
def test_bad_play_config_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(ConfigError, match=f"^{field}="):
        PlayConfig(**kwargs)


def test_an_unknown_opponent_spec_is_refused_with_the_registered_names() -> None:
    from holdem_env.agents.base import AgentSpecError

    with pytest.raises(AgentSpecError, match="unknown agent 'nobot'.*calling-station"):
        PlaySession(PlayConfig(players=2, opponents=("nobot",)))


def test_other_table_sizes() -> None:
    for players in (2, 10):
        session = call_session(players=players, seed=players)
        session.start_hand()
        finish_hand(session)
        assert len(session.view()["seats"]) == players and session.hands_played == 1


def test_bots_see_only_their_own_seat() -> None:
    class Spy:
        """Calls, and keeps what it was shown at each decision."""

        def __init__(self) -> None:
            self.seen: list[tuple[int, tuple[str, ...], str]] = []

        def act(self, observation, info):
            view = info["view"]
            assert int(observation["action_mask"][1]) == 1  # its own mask: it is on turn
            self.seen.append((view["seat"], tuple(view["hole_cards"]), json.dumps(view.snapshot(), default=str)))
            return 1

    spies = [Spy() for _ in range(5)]
    session = PlaySession(PlayConfig(seed=6, opponents=("tag",) * 5, bot_delay=0), agents=spies)
    for _ in range(6):
        session.start_hand()
        hand = session.hand
        assert hand is not None
        while session.hand_running:
            if session.bot_on_turn():
                seat = session.actor
                spy = spies[[i for i in range(5) if session.bots.agents[seat] is spies[i]][0]]
                session.bot_act()
                got_seat, hole, snapshot = spy.seen[-1]
                assert got_seat == seat and hole == tuple(card_str(c) for c in hand.hole_cards[seat])
                others = {card_str(c) for s, cards in enumerate(hand.hole_cards) if s != seat for c in cards}
                assert not set(CARD.findall(snapshot)) & others
            else:
                session.act("check" if session.view()["legal"]["check"] else "call")
    assert sum(len(s.seen) for s in spies) > 30


def test_the_log_speaks_correct_english_and_names_split_pots() -> None:
    session = call_session(players=3, seed=4, clock=0)
    firsts = []
    for _ in range(3):
        session.start_hand()
        firsts.append(session.logs[-1][0])
        finish_hand(session)
    assert sum(line.endswith(": You have the button") for line in firsts) == 1
    assert all(line.endswith(" has the button") for line in firsts if "You" not in line)
    # A board that plays for everyone: the three hands split the pot, said in words.
    button = (session.hand.button + 1) % 3  # type: ignore[union-attr]
    order = [(button + k) % 3 for k in range(1, 4)]
    holes = dict(zip(order, ["2c3d", "2d3h", "2h3c"], strict=True))
    session.start_hand(deck=stacked_deck(3, button, holes, board="AsKsQsJsTs"))
    while session.hand_running:
        if session.bot_on_turn():
            session.bot_act()
        else:
            session.act("check" if session.view()["legal"]["check"] else "call")
    lines = session.logs[-1]
    assert "You, Ada and Bea split the pot (30: 10, 10 and 10) with a royal flush" in lines, lines
    assert sum(1 for line in lines if " shows " in line or line.startswith("You show ")) == 3

"""Table: button rotation, first button from the generator, stack reset, bankroll mode."""

from __future__ import annotations

import numpy as np
import pytest
from enginekit import check_down

from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.engine.table import Table


def _fold_out(hand) -> None:  # type: ignore[no-untyped-def]
    while not hand.is_over:
        if hand.legal_actions().fold:
            hand.fold()
        else:
            hand.check()


def test_button_moves_one_seat_clockwise_every_hand() -> None:
    t = Table(TableConfig(num_players=4), seed=3)
    buttons = []
    for _ in range(6):
        h = t.start_hand()
        buttons.append(h.button)
        _fold_out(h)
    first = buttons[0]
    assert buttons == [(first + k) % 4 for k in range(6)]


def test_first_button_drawn_from_the_generator() -> None:
    firsts = {Table(TableConfig(num_players=6), seed=s).start_hand().button for s in range(40)}
    assert len(firsts) > 1 and firsts <= set(range(6))
    a = Table(TableConfig(num_players=6), seed=11).start_hand()
    b = Table(TableConfig(num_players=6), rng=np.random.default_rng(11)).start_hand()
    assert a.button == b.button and a.deck == b.deck


def test_stacks_reset_to_buy_in_every_hand() -> None:
    t = Table(TableConfig(num_players=3), seed=5)
    h = t.start_hand()
    h.raise_to(500)
    h.fold()
    h.fold()
    assert h.payoffs is not None and max(h.payoffs) > 0
    assert t.start_hand().starting_stacks == (1000, 1000, 1000)


def test_button_skips_seats_not_dealt_in_bankroll_mode() -> None:
    cfg = TableConfig(num_players=4, bankroll=True)
    t = Table(cfg, seed=1, cash=[1000, 999, 5000, 5000])
    h = t.start_hand(button=0)
    assert h.dealt_in == (True, False, True, True)
    assert h.starting_stacks == (1000, 0, 1000, 1000)
    assert h.hole_cards[1] is None
    _fold_out(h)
    assert t.start_hand().button == 2  # seat 1 sits out: the button skips it


def test_bankroll_mode_results_go_back_to_cash_and_broke_seats_sit_out() -> None:
    cfg = TableConfig(num_players=3, bankroll=True)
    t = Table(cfg, seed=2, cash=[1000, 3000, 3000])
    h = t.start_hand(button=2)  # seat 0 small blind, seat 1 big blind, seat 2 first to act
    h.fold()
    h.fold()
    assert h.payoffs == (-5, 5, 0)
    assert t.cash == (995, 3005, 3000)
    assert sum(t.cash) == 7000
    h2 = t.start_hand()
    assert h2.dealt_in == (False, True, True)


def test_table_needs_two_seats_that_can_play() -> None:
    t = Table(TableConfig(num_players=3, bankroll=True), cash=[1000, 0, 10])
    with pytest.raises(IllegalActionError, match="only 1 seat"):
        t.start_hand()


def test_cannot_start_next_hand_before_current_is_over() -> None:
    t = Table(TableConfig(num_players=2), seed=0)
    h = t.start_hand()
    with pytest.raises(IllegalActionError, match="not over"):
        t.start_hand()
    check_down(h)
    t.start_hand()
    assert t.hands_played == 2


def test_table_rejects_bad_arguments() -> None:
    with pytest.raises(ConfigError, match="cash"):
        Table(TableConfig(num_players=2), cash=[1, -1])
    with pytest.raises(ConfigError, match="rng"):
        Table(TableConfig(num_players=2), rng=42)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["abc", 2.5, -3])
def test_bad_seed_raises_config_error_naming_seed(seed) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match=r"seed=.* must be a non-negative integer or None"):
        Table(TableConfig(num_players=3), seed=seed)


@pytest.mark.parametrize(
    ("stacks", "message"),
    [
        ([100, "x", -5], r"stacks=\[100, 'x', -5\] is invalid: every entry must be an integer >= 0"),
        ([100, 0, 0], r"stacks=\[100, 0, 0\] is invalid: at least two seats need chips"),
        ([100, 200], r"must be a sequence of 3 integers"),
    ],
)
def test_bad_stacks_name_the_stacks_and_change_nothing(stacks, message) -> None:  # type: ignore[no-untyped-def]
    t = Table(TableConfig(num_players=3), seed=1)
    _fold_out(t.start_hand())
    button, hands = t.button, t.hands_played
    with pytest.raises(ConfigError, match=message):
        t.start_hand(stacks=stacks)
    assert (t.button, t.hands_played) == (button, hands)
    assert t.start_hand(stacks=[100, 0, 100]).starting_stacks == (100, 0, 100)

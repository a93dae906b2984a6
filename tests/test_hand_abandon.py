"""Abandoning an unfinished hand: ``Table.abandon_hand``, ``start_hand(abandon=True)``, ``nlhe_v1`` reset mid-hand."""

from __future__ import annotations

import pytest
from enginekit import check_down

from holdem_env import nlhe_v1
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.engine.record import ActionEvent
from holdem_env.engine.table import Table


def test_abandon_discards_the_unfinished_hand_untouched_and_the_button_moves_on() -> None:
    t = Table(TableConfig(num_players=3), seed=4)
    h = t.start_hand()
    h.raise_to(30)
    events = h.events
    assert t.abandon_hand() is True
    assert t.hand is None and t.hands_played == 1
    assert not h.is_over and h.events == events and h.payoffs is None  # left exactly as it was
    nxt = t.start_hand()
    assert nxt.button == (h.button + 1) % 3
    assert nxt.starting_stacks == (1000, 1000, 1000)
    assert t.hands_played == 2


def test_abandon_is_a_no_op_without_an_unfinished_hand() -> None:
    t = Table(TableConfig(num_players=2), seed=0)
    assert t.abandon_hand() is False and t.hand is None
    h = t.start_hand()
    check_down(h)
    assert t.abandon_hand() is False
    assert t.hand is h  # a finished hand stays the table's last hand


def test_bankroll_cash_ignores_an_abandoned_hand() -> None:
    cfg = TableConfig(num_players=3, bankroll=True)
    t = Table(cfg, seed=2, cash=[1000, 3000, 3000])
    h = t.start_hand(button=2)  # seat 0 small blind, seat 1 big blind
    h.raise_to(400)  # seat 2 puts chips in, then the hand is thrown away
    assert t.abandon_hand()
    assert t.cash == (1000, 3000, 3000)
    h2 = t.start_hand()
    assert h2.button == 0  # moved on from the abandoned hand's button
    h2.fold()  # seat 0 (button, first to act three-handed)
    h2.fold()  # seat 1 (small blind): the big blind wins
    assert h2.payoffs == (0, -5, 5)
    assert t.cash == (1000, 2995, 3005)


def test_start_hand_abandon_flag_replaces_the_hand_and_a_failed_start_abandons_nothing() -> None:
    t = Table(TableConfig(num_players=3), seed=1)
    h = t.start_hand()
    with pytest.raises(IllegalActionError, match="abandon_hand"):
        t.start_hand()
    with pytest.raises(ConfigError, match="abandon"):
        t.start_hand(abandon="yes")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="stacks"):
        t.start_hand(stacks=[100, 100], abandon=True)
    assert t.hand is h and t.hands_played == 1  # nothing changed
    h2 = t.start_hand(abandon=True)
    assert t.hand is h2 and h2 is not h and not h.is_over
    assert h2.button == (h.button + 1) % 3


def test_env_reset_mid_hand_abandons_without_acting_for_anyone() -> None:
    env = nlhe_v1.raw_env(num_players=4)
    env.reset(seed=9)
    env.step(1)  # the first player calls
    old = env.state_object
    n_events = old.num_events
    env.reset()
    assert not old.is_over and old.num_events == n_events
    assert not any(isinstance(e, ActionEvent) and e.timeout for e in old.events)  # nobody timed out
    new = env.state_object
    assert new is not old and new.button == (old.button + 1) % 4
    assert all(r == 0 for r in env.rewards.values()) and not any(env.terminations.values())
    assert new.starting_stacks == (1000,) * 4

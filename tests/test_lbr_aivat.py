"""AIVAT for LBR (holdem_env.training.aivat.lbr): every term has mean zero, exactly, and the re-scored LBR agrees with plain LBR on many hands with a narrower interval.

- The chance term of a turn card: averaged over every card that can come, weighted by its
  probability given the range (computed here from the card counts, not by the module), it is
  zero to rounding.
- An agent action term: averaged over the agent's actions by their probabilities given the
  range, zero.
- A showdown's replacement ``wp * P - m`` equals the result averaged over the range, each
  holding's showdown scored here with the hand evaluator.
- End to end against ``random`` and ``tag``: the mean of (plain - re-scored) is within its
  95% interval of zero, the re-scored interval is narrower, and every showdown's pot bookkeeping
  matches the chips won or lost.
"""

from __future__ import annotations

import numpy as np
import pytest

from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, blocked_by, equity_against_each
from holdem_env.training.aivat.lbr import LbrLuck
from holdem_env.training.lbr import LbrConfig, LocalBestResponse, _play_deals, run_lbr
from holdem_env.training.stats import mean_ci95

OWN = parse_cards("AsKd")


def _table(board: tuple[int, ...]) -> np.ndarray:
    return equity_against_each(OWN, board)


def _random_range(board: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w = rng.random(NUM_HOLDINGS) ** 3  # uneven, as a range after a few actions
    w[blocked_by(OWN + board)] = 0.0
    return w / w.sum()


@pytest.mark.parametrize("flop", ["2c7h9d", "Ts Jc Qh"])
def test_the_chance_term_of_a_card_has_mean_zero_over_the_cards_that_can_come(flop: str) -> None:
    board = parse_cards(flop)
    r = _random_range(board, 1)
    luck = LbrLuck(_table)
    luck.start((), 1000)
    luck.observe(board, r, pot=200, mine=100, theirs=100)
    assert luck.terms == []  # the first equity: no term
    unseen = [c for c in range(52) if c not in OWN + board]
    total, mass = 0.0, 0.0
    for c in unseen:
        # P(c) = sum_h r(h) [c not in h] / (cards unseen by LBR - 2): the deck is uniform given the holding
        p = float(r[~blocked_by((c,))].sum()) / (len(unseen) - 2)
        after = LbrLuck(_table)
        after.start((), 1000)
        after.observe(board, r, pot=200, mine=100, theirs=100)
        after.observe(board + (c,), np.where(blocked_by((c,)), 0.0, r), pot=200, mine=100, theirs=100)
        (term,) = after.terms
        total += p * term
        mass += p
    assert mass == pytest.approx(1.0, abs=1e-12)
    assert abs(total) < 1e-9


def test_an_agent_action_term_has_mean_zero_over_its_actions() -> None:
    board = parse_cards("2c7h9dTs")
    r = _random_range(board, 2)
    live = np.flatnonzero(r > 0)
    rng = np.random.default_rng(3)
    probs = np.zeros((len(live), 9))
    probs[:, [0, 1, 4, 8]] = rng.random((len(live), 4))  # fold, call, two raises
    probs /= probs.sum(axis=1, keepdims=True)
    adds = {1: 50, 4: 150, 8: 850}
    p_action = (r[live] @ probs) / r[live].sum()
    expected = 0.0
    for a in (0, 1, 4, 8):
        luck = LbrLuck(_table)
        luck.start((), 1000)
        luck.observe(board, r, pot=200, mine=150, theirs=50)
        luck.agent_action(r, live, probs, a, adds)
        (term,) = luck.terms
        expected += p_action[a] * term
        if a == 0:
            assert luck.pot == 200  # a fold adds nothing
        else:
            assert (luck.pot, luck.theirs) == (200 + adds[a], 50 + adds[a])
    assert abs(expected) < 1e-9


def test_a_showdown_is_replaced_by_its_mean_over_the_range_scored_with_the_evaluator() -> None:
    board = parse_cards("2c7h9dTsJc")
    r = _random_range(board, 4)
    luck = LbrLuck(_table)
    luck.start((), 1000)
    luck.observe(board[:3], r, pot=400, mine=200, theirs=200)  # the terms start on the flop
    luck.observe(board, r, pot=400, mine=200, theirs=200)
    terms = sum(luck.terms)
    live = np.flatnonzero(r > 0)
    mine = evaluate_batch(np.array([list(OWN + board)], dtype=np.uint8))[0]
    theirs = evaluate_batch(np.array([list(HOLDINGS[h]) + list(board) for h in live], dtype=np.uint8))
    by_holding = np.where(mine > theirs, 200.0, np.where(mine < theirs, -200.0, 0.0))
    mean = float(r[live] @ by_holding / r[live].sum())
    assert luck.adjusted(-200, True, r, board) == pytest.approx(mean - terms, abs=1e-9)
    assert luck.adjusted(150, False, r, board) == pytest.approx(150 - terms, abs=1e-12)  # a fold keeps its result


def test_bad_aivat_settings_are_rejected() -> None:
    with pytest.raises(ConfigError, match="aivat"):
        LbrConfig(agent="tag", aivat="river")
    with pytest.raises(ConfigError, match="aivat_from"):
        LbrLuck(_table, "preflop")


@pytest.mark.parametrize(("agent", "deals", "seed"), [("random", 60, 5), ("tag", 80, 7)])
def test_rescored_lbr_agrees_with_plain_lbr_and_narrows_the_interval(agent: str, deals: int, seed: int) -> None:
    cfg = LbrConfig(agent=agent, hands=2 * deals, seed=seed, small_blind=5, big_blind=10, stack=1000, aivat="flop")
    rows = np.array([row[1:] for row in _play_deals(cfg, list(range(deals)))], dtype=np.float64)
    plain = (rows[:, 0] + rows[:, 1]) / 2
    rescored = (rows[:, 2] + rows[:, 3]) / 2
    diff_mean, diff_half = mean_ci95((plain - rescored).tolist())
    assert abs(diff_mean) <= diff_half  # the same expected value
    assert mean_ci95(rescored.tolist())[1] < 0.8 * mean_ci95(plain.tolist())[1]
    # run_lbr reports the same two figures (in mbb/hand) for the same deals
    res = run_lbr(LbrConfig(**{**cfg.to_dict(), "hands": 8, "bet_sizes": cfg.bet_sizes}))
    assert res.mbb_per_hand == pytest.approx(float(plain[:4].mean()) * 100)
    assert res.aivat_mbb == pytest.approx(float(rescored[:4].mean()) * 100)


def test_showdown_bookkeeping_matches_the_chips_won() -> None:
    from holdem_env.agents.base import make_agent
    from holdem_env.engine.cards import shuffled_deck
    from holdem_env.training.lbr import _make_env

    cfg = LbrConfig(agent="random", hands=2, seed=1, small_blind=5, big_blind=10, stack=1000, aivat="flop")
    env = _make_env(cfg)
    env.reset(seed=1)
    agent = make_agent("random", rng=np.random.default_rng(0))
    lbr = LocalBestResponse(aivat="flop")
    showdowns = 0
    for deal in range(40):
        deck = shuffled_deck(np.random.default_rng([9, deal]))
        u = lbr.play_hand(env, agent, deck=deck, button=deal % 2)
        luck = lbr.luck
        assert luck is not None and luck.pot == luck.mine + luck.theirs
        if lbr.showdown:
            showdowns += 1
            assert luck.mine == luck.theirs and u in (luck.mine, 0, -luck.mine)
    assert showdowns > 0


def test_holdem_lbr_aivat_flag_reports_the_estimate_beside_the_plain_mean(tmp_path, capsys) -> None:
    import json

    from holdem_env.cli import main

    out = tmp_path / "lbr.json"
    args = ["lbr", "random", "--hands", "40", "--seed", "3", "--no-progress", "--json", str(out)]
    assert main([*args, "--aivat", "turn"]) == 0
    text = capsys.readouterr().out
    assert "AIVAT (from the turn, same expected value)" in text
    data = json.loads(out.read_text())
    direct = run_lbr(LbrConfig(agent="random", hands=40, seed=3, aivat="turn"))
    assert data["aivat_mbb_per_hand"] == pytest.approx(direct.aivat_mbb)
    assert data["lbr_mbb_per_hand"] == pytest.approx(direct.mbb_per_hand)
    assert main(args) == 0 and "AIVAT" not in capsys.readouterr().out  # off by default
    with pytest.raises(SystemExit):
        main([*args, "--aivat", "river"])
    assert "invalid choice: 'river' (choose from 'flop', 'turn')" in capsys.readouterr().err

"""Luck adjustment (holdem_env.training.aivat): every correction has mean zero, so the estimate is unbiased."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from holdem_env.agents.base import make_agent
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.equity import exact_equity
from holdem_env.engine.errors import ConfigError
from holdem_env.env import nlhe_v1
from holdem_env.training.aivat import (
    _flop_lead,
    _mean_flop_lead,
    action_corrections,
    action_values,
    chance_corrections,
    luck_adjusted,
)
from holdem_env.training.arena import ArenaConfig, run_match
from holdem_env.training.stats import mean_ci95


def test_the_turn_term_has_mean_zero_over_every_turn_card() -> None:
    holes = [parse_cards("Ah Kh"), parse_cards("9c 9d")]
    flop = list(parse_cards("Qh 7h 2s"))
    before = exact_equity(holes, flop)
    rest = [c for c in range(52) if c not in flop and c not in holes[0] + holes[1]]
    after = np.mean([exact_equity(holes, flop + [c]) for c in rest], axis=0)
    assert np.allclose(after, before, atol=1e-12)


def test_the_flop_term_has_mean_zero_over_every_flop() -> None:
    holes = [parse_cards("Ah Kh"), parse_cards("9c 9d")]
    rest = [c for c in range(52) if c not in holes[0] + holes[1]]
    leads = [_flop_lead(holes, f) for f in itertools.combinations(rest, 3)]
    assert len(leads) == 17296
    assert _mean_flop_lead(holes) == pytest.approx(float(np.mean(leads)), abs=1e-12)
    assert _flop_lead(holes, parse_cards("Ac 5d 3s")) == 1.0  # a pair of aces beats nines
    assert _flop_lead(holes, parse_cards("9h 5d 3s")) == 0.0  # a set of nines


def test_corrections_sum_to_zero_and_vanish_without_a_flop() -> None:
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=40, seed=2, workers=1), keep_records=True)
    saw_turn = 0
    for record in result.records:
        corr = chance_corrections(record)
        assert corr.sum() == pytest.approx(0.0, abs=1e-9)
        if not record.board:
            assert np.all(corr == 0.0)
        saw_turn += len(record.board) >= 4 and bool(np.any(corr != 0.0))
    assert saw_turn > 0


def test_adjusted_mean_agrees_with_plain_duplicate_within_the_interval() -> None:
    cfg = ArenaConfig(agents=("random", "tag"), players=2, hands=400, seed=11, workers=1)
    result = run_match(cfg, keep_records=True)
    out = luck_adjusted(result, actions=False)  # the chance terms alone: their sum is checked below
    row = out["rows"][0]
    # The per-group difference between the two estimates is the corrections' sum: mean zero.
    diffs = []
    for g in range(result.group_net.shape[0]):
        total = 0.0
        for rotation in range(2):
            record = result.records[2 * g + rotation]
            total += chance_corrections(record)[rotation]  # contestant 0 sits at seat `rotation`
        diffs.append(total * 1000.0 / result.config.big_blind / 2)
    mean, half = mean_ci95(diffs)
    assert abs(mean) <= half
    assert row["mbb_per_hand"] - row["adjusted_mbb_per_hand"] == pytest.approx(mean, abs=1e-6)
    assert abs(row["mbb_per_hand"] - row["adjusted_mbb_per_hand"]) <= row["ci95"]
    assert out["variance_reduction"] > 0.0  # random goes to showdown a lot: board luck is a large share


def test_only_heads_up_matches_with_records() -> None:
    result = run_match(ArenaConfig(agents=("random", "random", "random"), players=3, hands=3, seed=1, workers=1))
    with pytest.raises(ConfigError, match="heads-up"):
        luck_adjusted(result)
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=4, seed=1, workers=1))
    with pytest.raises(ConfigError, match="keep_records=True"):
        luck_adjusted(result)


# -- action terms ----------------------------------------------------------------------------


class _FirstMoveMixed:
    """Folds with probability 1/4 and calls with 3/4 at its first decision (``plays`` says
    which it does this time), then checks or calls; answers range queries accordingly."""

    PI = {0: 0.25, 1: 0.75}

    def __init__(self, plays: int) -> None:
        self.plays = plays
        self.decisions = 0

    def start_hand(self, info: Any) -> None:
        self.decisions = 0

    def act(self, observation: Any, info: Any) -> int:
        self.decisions += 1
        return self.plays if self.decisions == 1 else 1

    def action_probabilities(self, observation: Any, info: Any, holdings: np.ndarray) -> np.ndarray:
        out = np.zeros((len(holdings), len(observation["action_mask"])))
        if self.decisions == 0:
            for a, p in self.PI.items():
                out[:, a] = p
        else:
            out[:, 1] = 1.0
        return out


def _play(agents: list[Any], deck: list[int]) -> Any:
    env = nlhe_v1.raw_env(num_players=2, small_blind=50, big_blind=100, buy_in=20000, action_mode="discrete")
    env.reset(seed=0, options={"deck": deck, "button": 0})
    for s, a in enumerate(agents):
        if hasattr(a, "start_hand"):
            a.start_hand(env.infos[env.possible_agents[s]])
    while env.agents and not all(env.terminations.values()):
        name = env.agent_selection
        seat = env.agent_name_mapping[name]
        env.step(int(agents[seat].act(env.observe(name), env.infos[name])))
    return env, env.hand_record()


def test_the_action_term_has_mean_zero_over_the_players_own_draw_by_hand() -> None:
    deck = list(range(52))
    corrections = {}
    for move in (0, 1):
        env, record = _play([_FirstMoveMixed(move), make_agent("always-call")], deck)
        corrections[move] = action_corrections(record, [_FirstMoveMixed(move), make_agent("always-call")], env)
        assert corrections[move].sum() == pytest.approx(0.0, abs=1e-12)
    holes = [tuple(record.hole_cards[0]), tuple(record.hole_cards[1])]
    # The button (seat 0) has put in 50 of a 150 pot: folding is worth -50, calling
    # lead * 200 - 100 (the preflop equity stand-in: the mean flop lead); always-call's
    # answers are one-hot, so only seat 0's first decision has a term.
    lead = _mean_flop_lead(holes)
    v_fold, v_call = -50.0, lead * 200.0 - 100.0
    expected = 0.25 * v_fold + 0.75 * v_call
    assert corrections[0][0] == pytest.approx(v_fold - expected, abs=1e-9)
    assert corrections[1][0] == pytest.approx(v_call - expected, abs=1e-9)
    assert 0.25 * corrections[0][0] + 0.75 * corrections[1][0] == pytest.approx(0.0, abs=1e-9)


def test_action_values_by_hand_at_the_first_decision() -> None:
    env = nlhe_v1.raw_env(num_players=2, small_blind=50, big_blind=100, buy_in=20000, action_mode="discrete")
    env.reset(seed=0, options={"deck": list(range(52)), "button": 0})
    values = action_values(env, 0, 0.6, (20000, 20000))
    assert values[0] == -50.0  # fold: lose the small blind
    assert values[1] == pytest.approx(0.6 * 200 - 100)  # call 50: a 200 pot, 100 in
    raise_to = env.action_amount(2)  # the min-raise, to 200: adds 150
    assert raise_to == 200
    assert values[2] == pytest.approx(0.6 * (150 + 150) - 200)
    all_in = len(values) - 1  # all-in to 20,000: adds 19,950
    assert values[all_in] == pytest.approx(0.6 * (150 + 19950) - 20000)


def test_action_terms_keep_the_estimate_unbiased_on_a_seeded_match() -> None:
    cfg = ArenaConfig(agents=("cfr-lite", "tag"), players=2, hands=120, seed=3, workers=1)
    result = run_match(cfg, keep_records=True)
    both = luck_adjusted(result)
    chance = luck_adjusted(result, actions=False)
    assert both["terms"] == "chance+action" and chance["terms"] == "chance"
    row, row_c = both["rows"][0], chance["rows"][0]
    # the action terms' per-group sums: mean zero within their own 95% interval
    shift = (row_c["adjusted_mbb_per_hand"] - row["adjusted_mbb_per_hand"], row["ci95"])
    assert abs(row["mbb_per_hand"] - row["adjusted_mbb_per_hand"]) <= row["ci95"]
    assert abs(shift[0]) <= max(row["adjusted_ci95"], row_c["adjusted_ci95"])


def test_a_replay_that_acts_differently_is_refused() -> None:
    deck = list(range(52))
    env, record = _play([_FirstMoveMixed(1), make_agent("always-call")], deck)
    with pytest.raises(ConfigError, match="replay"):
        action_corrections(record, [_FirstMoveMixed(0), make_agent("always-call")], env)

"""Luck adjustment (holdem_env.training.aivat): every correction has mean zero, so the estimate is unbiased."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import numpy as np
import pytest

from holdem_env.agents.base import make_agent
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.equity import exact_equity
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, holding_index, strength_against_random
from holdem_env.env import nlhe_v1
from holdem_env.training.aivat import (
    ACTION_POT_GROWTH,
    POT_GROWTH,
    PUBLIC_CHANCE_GROWTH,
    PUBLIC_WEIGHT,
    STACK_SHARE,
    STRENGTH_POWER,
    DealOdds,
    _replay,
    _strengths,
    action_corrections,
    action_values,
    board_values,
    chance_corrections,
    luck_adjusted,
    luck_terms,
    next_card_probabilities,
    public_action_term,
    public_chance_term,
    public_flop_term,
    range_equity,
    range_shares,
    range_showdown_value,
    showdown_stake,
    state_value,
)
from holdem_env.training.arena import ArenaConfig, run_match
from holdem_env.training.stats import mean_ci95

HOLES = [tuple(parse_cards("Ah Kh")), tuple(parse_cards("9c 9d"))]


def _odds(holes: Any = HOLES, seed: int = 0, **kw: Any) -> DealOdds:
    return DealOdds(holes, np.random.default_rng(seed), **kw)


def test_state_value_by_hand() -> None:
    # 60% equity, a 200 pot with 100 in, 800 behind, both hands at strength 0.5:
    # 0.6 * 200 - 100 + 0.5 * 0.1 * 200 + 1.0 * 0.1 * 800 * 0.5 ** 4
    expected = 20.0 + POT_GROWTH * 20.0 + STACK_SHARE * 80.0 * 0.5**STRENGTH_POWER
    assert state_value(0.6, 0.5, 200.0, 100.0, 800.0) == pytest.approx(expected)
    # zero-sum: the other seat (equity 0.4, the other 100 in) gets the negative
    assert state_value(0.4, 0.5, 200.0, 100.0, 800.0) == pytest.approx(-expected)
    assert np.allclose(state_value(np.array([0.6, 0.4]), 0.5, 200.0, 100.0, 800.0), [expected, -expected])
    # the action terms' lighter estimate: a quarter of the growth, no stack term
    light = state_value(0.6, 0.5, 200.0, 100.0, 800.0, growth=ACTION_POT_GROWTH, stack_share=0.0)
    assert light == pytest.approx(20.0 + ACTION_POT_GROWTH * 20.0)


def test_strengths_of_two_hands_match_the_engine_on_many_boards() -> None:
    boards = np.array([parse_cards("Qh 7h 2s"), parse_cards("9h 9s 2c"), parse_cards("Ks Kd 4c")])
    got = _strengths(HOLES, boards)
    for b, board in enumerate(boards):
        ref = strength_against_random(board.tolist())
        for i, hole in enumerate(HOLES):
            assert got[b, i] == pytest.approx(ref[holding_index(*hole)], abs=1e-12)
    turn = np.array([parse_cards("Qh 7h 2s 3d")])
    assert _strengths(HOLES, turn)[0, 1] == pytest.approx(strength_against_random(turn[0].tolist())[holding_index(*HOLES[1])])


@pytest.mark.parametrize("board", ["Qh 7h 2s", "Qh 7h 2s 3h"])
def test_the_turn_and_river_terms_have_mean_zero_over_every_card(board: str) -> None:
    """The means subtracted at the turn and river are the exact means of what the card can
    bring, computed here card by card through other code paths."""
    odds = _odds()
    known = tuple(parse_cards(board))
    rest = [c for c in range(52) if c not in known + HOLES[0] + HOLES[1]]
    equities = np.array([float(exact_equity(HOLES, list(known + (c,)))[0]) for c in rest])
    strengths = np.array([strength_against_random(list(known + (c,)))[[holding_index(*h) for h in HOLES]].min() for c in rest])
    mean_equity, mean_weighted = odds.next_card_means(known)
    assert mean_equity == pytest.approx(float(exact_equity(HOLES, list(known))[0]), abs=1e-12)
    assert mean_equity == pytest.approx(equities.mean(), abs=1e-12)
    assert mean_weighted == pytest.approx(float(((equities - 0.5) * strengths**STRENGTH_POWER).mean()), abs=1e-12)
    for c in rest[:5]:  # the odds' own equity and strength on the dealt board agree too
        assert odds.equity(known + (c,)) == pytest.approx(float(exact_equity(HOLES, list(known + (c,)))[0]))


def test_the_preflop_estimate_and_the_deal_terms() -> None:
    exact = 0.47608252  # exact_equity(HOLES)[0] over all 1,712,304 run-outs (2 s, so not recomputed here)
    odds = _odds(seed=3)
    assert odds.equity(()) == pytest.approx(exact, abs=0.015)  # 20,000 run-outs
    assert odds.equity(()) == odds.equity(())  # kept: every term of the deal sees one estimate
    swapped = DealOdds(HOLES[::-1], np.random.default_rng(3))
    assert odds.equity(()) + swapped.equity(()) == pytest.approx(1.0, abs=1e-12)  # the same run-outs
    # flop: the equity's mean is the preflop estimate; the strength part a sample mean
    mean_equity, _ = odds.next_card_means(())
    assert mean_equity == odds.equity(())
    assert odds.strength(()) == 0.0


def test_the_flop_strength_mean_is_a_sample_of_uniform_flops() -> None:
    """The flop term's mean is the mean over ``flop_samples`` flops drawn from the injected
    generator (independent of the deal): recomputed here from a twin generator."""
    odds = _odds(seed=9, flop_samples=6)
    odds.equity(())  # the preflop estimate draws first, as in a hand
    _, weighted = odds.next_card_means(())
    twin = np.random.default_rng(9)
    DealOdds(HOLES, twin).equity(())
    rest = np.array([c for c in range(52) if c not in HOLES[0] + HOLES[1]])
    flops = [np.sort(twin.choice(rest, 3, replace=False)) for _ in range(6)]
    expected = np.mean(
        [(float(exact_equity(HOLES, f.tolist())[0]) - 0.5) * _strengths(HOLES, f[None]).min() ** STRENGTH_POWER for f in flops]
    )
    assert weighted == pytest.approx(expected, abs=1e-12)


def test_corrections_sum_to_zero_and_are_the_deal_term_alone_without_a_flop() -> None:
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=30, seed=2, workers=1), keep_records=True)
    saw_turn = 0
    for k, record in enumerate(result.records):
        odds = _odds(tuple(tuple(h) for h in record.hole_cards), seed=k)
        corr = chance_corrections(record, odds)
        assert corr.sum() == pytest.approx(0.0, abs=1e-9)
        if not record.board:  # only the deal term: (1 + growth) * blinds * (equity - 1/2)
            assert corr[0] == pytest.approx((1 + POT_GROWTH) * 15 * (odds.equity(()) - 0.5), abs=1e-9)
        saw_turn += len(record.board) >= 4 and bool(np.any(corr != 0.0))
    assert saw_turn > 0


def test_the_deal_terms_of_a_duplicate_group_cancel() -> None:
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=2, seed=5, workers=1), keep_records=True)
    first, second = result.records
    assert tuple(first.hole_cards) == tuple(second.hole_cards)  # one deal, the seats' agents swapped
    odds = _odds(tuple(tuple(h) for h in first.hole_cards), seed=1)
    # Without the board and betting events only the deal term is left: seat 0's is
    # (1 + growth) * (5 + 10) * (equity - 1/2). Contestant 0 sits in seat 0, then in seat 1,
    # so its two deal terms cancel exactly.
    a = chance_corrections(dataclasses.replace(first, events=()), odds)
    b = chance_corrections(dataclasses.replace(second, events=()), odds)
    assert a[0] == pytest.approx((1 + POT_GROWTH) * 15 * (odds.equity(()) - 0.5), abs=1e-12)
    assert a[0] != 0.0 and a[0] + b[1] == 0.0


def test_adjusted_mean_agrees_with_plain_duplicate_within_the_interval() -> None:
    cfg = ArenaConfig(agents=("random", "tag"), players=2, hands=300, seed=11, workers=1)
    result = run_match(cfg, keep_records=True)
    out = luck_adjusted(result, actions=False, showdown=False, per_group=True)  # the chance terms alone
    row = out["rows"][0]
    plain = result.group_net[:, 0] * 1000.0 / cfg.big_blind / 2
    # The per-group difference between the two estimates is the corrections' sum: mean zero.
    diffs = plain - np.array(out["adjusted_groups"])[:, 0]
    mean, half = mean_ci95(diffs.tolist())
    # within the 99% interval (the 95% one misses one seeded sample in twenty: tag's draws moved in issue 25)
    assert abs(mean) <= half * 2.576 / 1.96
    assert row["mbb_per_hand"] - row["adjusted_mbb_per_hand"] == pytest.approx(mean, abs=1e-6)
    assert abs(row["mbb_per_hand"] - row["adjusted_mbb_per_hand"]) <= row["ci95"]
    # the reported narrowing is the ratio of the two half-widths, the variance cut its square
    assert out["ci_ratio"] == pytest.approx(row["ci95"] / row["adjusted_ci95"])
    assert out["variance_reduction"] == pytest.approx(1 - (row["adjusted_ci95"] / row["ci95"]) ** 2)
    assert out["ci_ratio"] > 1.2  # random goes to showdown a lot: board luck is a large share


def test_only_heads_up_matches_with_records_and_matching_odds() -> None:
    result = run_match(ArenaConfig(agents=("random", "random", "random"), players=3, hands=3, seed=1, workers=1))
    with pytest.raises(ConfigError, match="heads-up"):
        luck_adjusted(result)
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=4, seed=1, workers=1), keep_records=True)
    with pytest.raises(ConfigError, match="DealOdds of this hand"):
        chance_corrections(result.records[0], _odds())
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=4, seed=1, workers=1))
    with pytest.raises(ConfigError, match="keep_records=True"):
        luck_adjusted(result)
    with pytest.raises(ConfigError, match="two different cards"):
        DealOdds([HOLES[0], HOLES[0]], np.random.default_rng(0))
    with pytest.raises(ConfigError, match="Generator"):
        DealOdds(HOLES, 7)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="flop_samples"):
        _odds(flop_samples=0)


def test_fresh_deals_per_seat_order_get_their_own_odds() -> None:
    cfg = ArenaConfig(agents=("random", "tag"), players=2, hands=20, seed=4, workers=1, duplicate=False)
    out = luck_adjusted(run_match(cfg, keep_records=True), actions=False, showdown=False)
    again = luck_adjusted(run_match(cfg, keep_records=True), actions=False, showdown=False)
    assert out["rows"] == again["rows"]  # deterministic for a seed
    assert np.isfinite(out["rows"][0]["adjusted_mbb_per_hand"])


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
        odds = _odds(tuple(tuple(h) for h in record.hole_cards))
        corrections[move] = action_corrections(record, [_FirstMoveMixed(move), make_agent("always-call")], env, odds)
        assert corrections[move].sum() == pytest.approx(0.0, abs=1e-12)
    # The button (seat 0) has put in 50 of a 150 pot: folding is worth -50, calling
    # V = e * 200 - 100 + ACTION_POT_GROWTH * (e - 1/2) * 200, e the preflop estimate;
    # always-call's answers are one-hot, so only seat 0's first decision has a term.
    e = odds.equity(())
    v_fold, v_call = -50.0, e * 200.0 - 100.0 + ACTION_POT_GROWTH * (e - 0.5) * 200.0
    expected = 0.25 * v_fold + 0.75 * v_call
    assert corrections[0][0] == pytest.approx(v_fold - expected, abs=1e-9)
    assert corrections[1][0] == pytest.approx(v_call - expected, abs=1e-9)
    assert 0.25 * corrections[0][0] + 0.75 * corrections[1][0] == pytest.approx(0.0, abs=1e-9)


def test_action_values_by_hand_at_the_first_decision() -> None:
    env = nlhe_v1.raw_env(num_players=2, small_blind=50, big_blind=100, buy_in=20000, action_mode="discrete")
    env.reset(seed=0, options={"deck": list(range(52)), "button": 0})
    values = action_values(env, 0, 0.6, (20000, 20000))
    g = ACTION_POT_GROWTH
    assert values[0] == -50.0  # fold: lose the small blind
    assert values[1] == pytest.approx(0.6 * 200 - 100 + g * 0.1 * 200)  # call 50: a 200 pot, 100 in
    raise_to = env.action_amount(2)  # the min-raise, to 200: adds 150
    assert raise_to == 200
    assert values[2] == pytest.approx(0.6 * 300 - 200 + g * 0.1 * 300)
    all_in = len(values) - 1  # all-in to 20,000: adds 19,950
    assert values[all_in] == pytest.approx(0.6 * 20100 - 20000 + g * 0.1 * 20100)


def test_action_terms_keep_the_estimate_unbiased_on_a_seeded_match() -> None:
    cfg = ArenaConfig(agents=("cfr-lite", "tag"), players=2, hands=120, seed=3, workers=1)
    result = run_match(cfg, keep_records=True)
    both = luck_adjusted(result, showdown=False, per_group=True)
    chance = luck_adjusted(result, actions=False, showdown=False, per_group=True)
    assert both["terms"] == "chance+action" and chance["terms"] == "chance"
    row, row_c = both["rows"][0], chance["rows"][0]
    # the action terms' per-group sums: mean zero within their own 95% interval
    action_sums = np.array(chance["adjusted_groups"])[:, 0] - np.array(both["adjusted_groups"])[:, 0]
    mean, half = mean_ci95(action_sums.tolist())
    assert abs(mean) <= half
    assert row_c["adjusted_mbb_per_hand"] - row["adjusted_mbb_per_hand"] == pytest.approx(mean, abs=1e-6)
    assert abs(row["mbb_per_hand"] - row["adjusted_mbb_per_hand"]) <= row["ci95"]


def test_a_replay_that_acts_differently_is_refused() -> None:
    deck = list(range(52))
    env, record = _play([_FirstMoveMixed(1), make_agent("always-call")], deck)
    odds = _odds(tuple(tuple(h) for h in record.hole_cards))
    with pytest.raises(ConfigError, match="replay"):
        action_corrections(record, [_FirstMoveMixed(0), make_agent("always-call")], env, odds)


# -- the range showdown term ------------------------------------------------------------------


def _weights(pairs: dict[str, float]) -> np.ndarray:
    out = np.zeros(NUM_HOLDINGS)
    for cards, w in pairs.items():
        out[holding_index(*parse_cards(cards))] = w
    return out


def test_range_showdown_value_by_hand() -> None:
    board = parse_cards("2c 3d 7h 9s Jc")
    first = _weights({"Ah Ad": 1.0, "Kh Kd": 3.0})
    second = _weights({"As Ac": 2.0, "Qh Qd": 1.0})
    # AA-AA ties (w 2), AA beats QQ (w 1), KK loses to AA (w 6), KK beats QQ (w 3):
    # (0 * 2 + 1 * 1 - 1 * 6 + 1 * 3) / 12 = -2 / 12 of the stake.
    assert range_showdown_value(board, first, second, 100) == pytest.approx(-200 / 12, abs=1e-12)
    # AsKh (w 5) shares the As with AsAc, so only its pair with QQ counts (it loses):
    # (-2 - 5) / (12 + 5); a holding on the board (2c2h) and a zero weight add nothing.
    more = first + _weights({"As Kh": 5.0, "2c 2h": 9.0})
    assert range_showdown_value(board, more, second, 100) == pytest.approx(-700 / 17, abs=1e-12)
    # zero-sum: the other seat's view is the negative
    assert range_showdown_value(board, second, more, 100) == pytest.approx(700 / 17, abs=1e-12)
    with pytest.raises(ConfigError, match="share no card"):
        range_showdown_value(board, _weights({"As Kh": 1.0}), _weights({"As Ac": 1.0}), 100)
    with pytest.raises(ConfigError, match="five different"):
        range_showdown_value(board[:4], first, second, 100)
    with pytest.raises(ConfigError, match="non-negative"):
        range_showdown_value(board, -first, second, 100)


def _brute_force_showdown(board: list[int], first: np.ndarray, second: np.ndarray, stake: float) -> float:
    """Sum over every pair of holdings, one evaluator call per seven-card hand and a card
    set test per pair: the conditional expectation of the showdown result."""
    live = [h for h in range(NUM_HOLDINGS) if not set(HOLDINGS[h].tolist()) & set(board)]
    hands = np.array([[*HOLDINGS[h].tolist(), *board] for h in live], dtype=np.uint8)
    values = evaluate_batch(hands).astype(np.int64)
    cards = HOLDINGS[live]
    num = den = 0.0
    for i, h in enumerate(live):
        apart = ~np.isin(cards, HOLDINGS[h]).any(axis=1)
        w = first[h] * second[live] * apart
        num += float((w * np.sign(values[i] - values)).sum())
        den += float(w.sum())
    return stake * num / den


class _HoldingMixed(_FirstMoveMixed):
    """Like :class:`_FirstMoveMixed`, but its first decision's fold probability depends on
    the holding: ``f(h) = 0.1 + 0.2 * (h mod 5)``, ``h`` the index in HOLDINGS."""

    @staticmethod
    def fold_probability(index: np.ndarray) -> np.ndarray:
        return 0.1 + 0.2 * (np.asarray(index) % 5)

    def action_probabilities(self, observation: Any, info: Any, holdings: np.ndarray) -> np.ndarray:
        out = np.zeros((len(holdings), len(observation["action_mask"])))
        if self.decisions == 0:
            f = self.fold_probability(np.array([holding_index(int(a), int(b)) for a, b in holdings]))
            out[:, 0], out[:, 1] = f, 1.0 - f
        else:
            out[:, 1] = 1.0
        return out


def test_the_range_showdown_is_the_exact_conditional_expectation_of_a_public_history() -> None:
    """A hand checked down after a holding-dependent first call: each seat's reach is the
    probability its policy gives the public actions for each holding (by the formula), and
    the range showdown equals the brute-force expectation over every pair of holdings."""
    deck = list(range(52))
    env, record = _play([_HoldingMixed(1), make_agent("always-call")], deck)
    stake = showdown_stake(record)
    assert stake is not None and len(record.board) == 5
    assert abs(record.payoffs[0]) in (0, stake)
    odds = _odds(tuple(tuple(h) for h in record.hole_cards))
    terms, reach, _, _ = _replay(record, [_HoldingMixed(1), make_agent("always-call")], env, odds, seed=0, rngs=None, reaches=True)
    assert reach is not None
    assert np.array_equal(terms, action_corrections(record, [_HoldingMixed(1), make_agent("always-call")], env, odds))
    on_board = np.isin(HOLDINGS, record.board).any(axis=1)
    # both seats act on the river (the button checks behind), so the holdings on the board
    # are out of both ranges; the rest keep the first decision's call probability 1 - f(h)
    expected_first = np.where(on_board, 0.0, 1.0 - _HoldingMixed.fold_probability(np.arange(NUM_HOLDINGS)))
    assert np.array_equal(reach[0], expected_first)
    assert np.array_equal(reach[1], np.where(on_board, 0.0, 1.0))  # always-call: the same row for every holding
    got = range_showdown_value(record.board, reach[0], reach[1], stake)
    assert got == pytest.approx(_brute_force_showdown(list(record.board), reach[0], reach[1], stake), abs=1e-9)
    assert on_board.sum() == 5 * 51 - 10


def test_showdown_stake_of_showdowns_and_folds() -> None:
    result = run_match(ArenaConfig(agents=("random", "tag"), players=2, hands=40, seed=2, workers=1), keep_records=True)
    kinds = set()
    for record in result.records:
        stake = showdown_stake(record)
        folded = any(getattr(e, "kind", None) == "fold" for e in record.events)
        if folded or len(record.board) < 5:
            assert stake is None
            kinds.add("fold")
        else:
            assert stake is not None and abs(record.payoffs[0]) in (0, stake) and stake >= 10
            kinds.add("showdown")
    assert kinds == {"fold", "showdown"}


def test_the_range_showdown_keeps_the_estimate_unbiased_on_a_seeded_match() -> None:
    # always-call goes to showdown whenever cfr-lite does not fold: many showdowns
    cfg = ArenaConfig(agents=("cfr-lite", "always-call"), players=2, hands=120, seed=3, workers=1)
    result = run_match(cfg, keep_records=True)
    terms = luck_terms(result)
    assert terms["used"] == {"public", "showdown", "chance", "action"}
    assert np.array_equal(terms["payoffs"], result.group_net)
    # the showdown replacement's per-group change: mean zero within its own 95% interval
    change = (terms["showdown"] - terms["payoffs"])[:, 0]
    assert np.count_nonzero(change) > 10
    mean, half = mean_ci95(change.tolist())
    assert abs(mean) <= half
    variants: list[dict[str, Any]] = [{"chance": False}, {"chance": False, "actions": False}]  # (b), (d)
    for kw in variants:
        out = luck_adjusted(result, terms=terms, showdown_weight=1.0, public=False, **kw)
        row = out["rows"][0]
        assert out["terms"].startswith("showdown")
        assert abs(row["mbb_per_hand"] - row["adjusted_mbb_per_hand"]) <= row["ci95"]
        assert out["ci_ratio"] > 1.0
    scale = 1000.0 / cfg.big_blind / 2
    alone = luck_adjusted(
        result, terms=terms, chance=False, actions=False, showdown_weight=1.0, public=False, per_group=True
    )
    assert np.allclose(np.array(alone["adjusted_groups"]), terms["showdown"] * scale)
    assert alone["terms"] == "showdown"
    # without the public terms: half the range showdown, half the realised result less the chance terms
    mixed = luck_adjusted(result, terms=terms, public=False, per_group=True)
    expected = 0.5 * terms["showdown"] + 0.5 * (terms["payoffs"] - terms["chance"]) - terms["action"]
    assert np.allclose(np.array(mixed["adjusted_groups"]), expected * scale)
    assert mixed["terms"] == "showdown+chance+action" and mixed["showdown_weight"] == 0.5
    # the old estimate is the weight 0 (or no showdown term)
    old = luck_adjusted(result, terms=terms, showdown=False)
    assert luck_adjusted(result, terms=terms, showdown_weight=0.0, public=False)["rows"] == old["rows"]
    with pytest.raises(ConfigError, match="showdown_weight"):
        luck_adjusted(result, terms=terms, showdown_weight=1.5)


# -- the command ----------------------------------------------------------------------------


def test_holdem_eval_aivat_prints_and_writes_the_adjusted_result(tmp_path: Any, capsys: Any) -> None:
    import json

    from holdem_env.cli import main

    out = tmp_path / "r.json"
    args = ["eval", "tag", "always-call", "--aivat", "--hands", "8", "--seed", "2", "--workers", "1", "--no-progress"]
    assert main([*args, "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "luck-adjusted (AIVAT-style public, range showdown, chance and action terms" in text and "narrower" in text
    data = json.loads(out.read_text())["aivat"]
    assert data["terms"] == "public+showdown+chance+action" and "adjusted_groups" not in data
    assert data["public_weight"] == PUBLIC_WEIGHT
    assert data["ci_ratio"] == pytest.approx(data["rows"][0]["ci95"] / data["rows"][0]["adjusted_ci95"])
    assert main(["eval", "tag", "tag", "random", "--aivat", "--hands", "3", "--no-progress"]) == 2
    assert "--aivat needs a heads-up match" in capsys.readouterr().err


# -- the public terms -------------------------------------------------------------------------


def _brute_shares(board: list[int], first: np.ndarray, second: np.ndarray) -> tuple[float, float]:
    """``range_shares`` pair by pair: one evaluator call per hand, a card test per pair."""
    live = [h for h in range(NUM_HOLDINGS) if not set(HOLDINGS[h].tolist()) & set(board)]
    values = evaluate_batch(np.array([[*HOLDINGS[h].tolist(), *board] for h in live], dtype=np.uint8)).astype(np.int64)
    share = total = 0.0
    for i, h in enumerate(live):
        for j, k in enumerate(live):
            if set(HOLDINGS[h].tolist()) & set(HOLDINGS[k].tolist()):
                continue
            w = first[h] * second[k]
            total += w
            share += w * (1.0 if values[i] > values[j] else 0.5 if values[i] == values[j] else 0.0)
    return share, total


def _small_range(rng: np.random.Generator, board: list[int], size: int) -> np.ndarray:
    live = np.flatnonzero(~np.isin(HOLDINGS, board).any(axis=1))
    out = np.zeros(NUM_HOLDINGS)
    out[rng.choice(live, size, replace=False)] = rng.random(size) + 0.1
    return out


@pytest.mark.parametrize("board", ["2c 3d 7h", "Kd Qc 7h 3s", "2c 3d 7h 9s Jc", "Ah Kh Qh Jh 2c"])
def test_range_shares_match_every_pair_with_card_removal(board: str) -> None:
    cards = list(parse_cards(board))
    rng = np.random.default_rng(len(cards))
    first, second = _small_range(rng, cards, 40), _small_range(rng, cards, 40)
    # make card removal bite: give both ranges holdings that share cards
    for pair in ("As Ad", "As Ac", "Ad Ac", "Ks Kc"):
        h = holding_index(*parse_cards(pair))
        first[h], second[h] = 1.0, 2.0
    got = range_shares(board_values(cards), first, second)
    assert got == pytest.approx(_brute_shares(cards, first, second), rel=1e-12)
    equity = range_equity(cards, first, second)
    assert equity == pytest.approx(got[0] / got[1], rel=1e-12)
    if len(cards) == 5:  # on the river it is the range showdown: stake * (2 * share - 1)
        assert range_showdown_value(cards, first, second, 1.0) == pytest.approx(2 * equity - 1, abs=1e-12)
    assert range_equity(cards, _weights({"As Kh": 1.0}), _weights({"As Ac": 1.0})) is None
    with pytest.raises(ConfigError, match="3 to 5"):
        board_values(cards[:2])


def _pairs(board: list[int], first: np.ndarray, second: np.ndarray) -> list[tuple[int, int, float]]:
    """Every pair of weighted holdings that share no card with each other or the board."""
    out = []
    for h in np.flatnonzero(first):
        for k in np.flatnonzero(second):
            cards = {*HOLDINGS[h].tolist(), *HOLDINGS[k].tolist()}
            if len(cards) == 4 and not cards & set(board):
                out.append((int(h), int(k), float(first[h] * second[k])))
    return out


def test_next_card_probabilities_by_enumeration() -> None:
    board = list(parse_cards("Kd Qc 7h 3s"))
    first = _weights({"As Ad": 1.0, "Ah Kh": 2.0, "Jc Tc": 0.5})
    second = _weights({"As Ac": 3.0, "Ah 2h": 1.0, "9d 9c": 1.0})
    rest, probs = next_card_probabilities(board, first, second)
    expected = dict.fromkeys(rest.tolist(), 0.0)
    pairs = _pairs(board, first, second)
    total = sum(w for _, _, w in pairs)
    for h, k, w in pairs:
        left = [c for c in range(52) if c not in board and c not in HOLDINGS[h] and c not in HOLDINGS[k]]
        for c in left:
            expected[c] += w / total / len(left)
    assert len(rest) == 48 and probs.sum() == pytest.approx(1.0)
    assert np.allclose(probs, [expected[c] for c in rest.tolist()], atol=1e-14)
    # the cards the ranges hold come less often than the others
    assert probs[rest.tolist().index(parse_cards("As")[0])] < probs[rest.tolist().index(parse_cards("2c")[0])]


@pytest.mark.parametrize("board", ["Kd Qc 7h", "Kd Qc 7h 3s"])
def test_the_public_chance_term_has_mean_zero_over_every_deal_given_the_public_history(board: str) -> None:
    """Summed over every pair of holdings the ranges allow (by weight) and every next card
    the rest of the deck allows, the public chance term averages exactly zero."""
    cards = list(parse_cards(board))
    first = _weights({"As Ad": 1.0, "Ah Kh": 2.0, "Jc Tc": 0.5, "8h 8d": 1.0})
    second = _weights({"As Ac": 3.0, "Ah 2h": 1.0, "9d 9c": 1.0, "Jh Th": 2.0})
    pairs = _pairs(cards, first, second)
    total = sum(w for _, _, w in pairs)
    terms = {c: public_chance_term(cards, c, first, second, 300.0) for c in range(52) if c not in cards}
    mean = 0.0
    for h, k, w in pairs:
        left = [c for c in terms if c not in HOLDINGS[h] and c not in HOLDINGS[k]]
        mean += w / total * float(np.mean([terms[c] for c in left]))
    assert mean == pytest.approx(0.0, abs=1e-9)
    assert max(abs(t) for t in terms.values()) > 10.0  # not zero term by term
    # by hand for one card: 300 * (1 + growth) * (equity after it - the mean)
    rest, probs = next_card_probabilities(cards, first, second)
    after = [range_equity((*cards, int(c)), first, second) or 0.0 for c in rest]
    c = int(rest[0])
    expected = 300.0 * (1.0 + PUBLIC_CHANCE_GROWTH) * (after[0] - float(probs @ np.array(after)))
    assert terms[c] == pytest.approx(expected, abs=1e-9)


def test_the_public_flop_term_samples_flops_from_their_public_distribution() -> None:
    """With one holding in each range the flop is uniform over the other 48 cards; with
    two each, card removal shifts it. The sampled mean matches the exact mean over every
    flop (each pair's flops enumerated) within its sampling error."""
    first = _weights({"As Ad": 1.0, "7c 6c": 1.0})
    second = _weights({"As Ac": 1.0, "Kh Qh": 3.0})
    pairs = _pairs([], first, second)
    total = sum(w for _, _, w in pairs)
    flop = tuple(parse_cards("Kd 7h 2s"))
    exact = 0.0
    for h, k, w in pairs:
        rest = [c for c in range(52) if c not in HOLDINGS[h] and c not in HOLDINGS[k]]
        flops = np.array(list(itertools.combinations(rest, 3)))
        one, two = (
            evaluate_batch(np.concatenate([np.broadcast_to(HOLDINGS[x], (len(flops), 2)), flops], axis=1).astype(np.uint8))
            for x in (h, k)
        )
        exact += w / total * float(np.mean((one > two) + 0.5 * (one == two)))
    at_flop = range_equity(flop, first, second)
    assert at_flop is not None
    draws = np.array([public_flop_term(flop, first, second, 1.0, np.random.default_rng(s), samples=1) for s in range(2000)])
    sampled_means = at_flop - draws / (1.0 + PUBLIC_CHANCE_GROWTH)
    se = sampled_means.std() / np.sqrt(len(draws))
    assert abs(sampled_means.mean() - exact) < 4 * se
    # deterministic for a generator's seed; the pot scales it
    once = public_flop_term(flop, first, second, 100.0, np.random.default_rng(7), samples=50)
    assert once == public_flop_term(flop, first, second, 100.0, np.random.default_rng(7), samples=50)
    assert public_flop_term(flop, first, second, 200.0, np.random.default_rng(7), samples=50) == pytest.approx(2 * once)


@pytest.mark.parametrize("streets", [0, 1])
def test_the_public_action_term_has_mean_zero_over_every_pair_and_action(streets: int) -> None:
    """At a decision preflop (``streets`` 0) or on the flop (1), with holding-dependent
    action probabilities: summed over every pair of holdings the ranges allow (by weight)
    and every action the acting holding may take, the public action term averages exactly
    zero; and the action that is likelier given the ranges is the one the term treats as
    expected (its term is smaller in size)."""
    env = nlhe_v1.raw_env(num_players=2, small_blind=50, big_blind=100, buy_in=20000, action_mode="discrete")
    env.reset(seed=0, options={"deck": list(range(52)), "button": 0})
    for _ in range(2 * streets):
        env.step(1)  # call, check: on to the flop
    seat = env.agent_name_mapping[env.agent_selection]
    board = list(parse_cards(" ".join(env.infos[env.agent_selection]["view"]["board"])))
    assert len(board) == 3 * streets
    mine = _weights({"As Ad": 1.0, "Ah Kh": 2.0, "Jc Tc": 0.5, "8h 8d": 1.0})
    theirs = _weights({"As Ac": 3.0, "Ah 2h": 1.0, "9d 9c": 1.0, "Jh Th": 2.0})
    mask = np.asarray(env.observe(env.agent_selection)["action_mask"], dtype=bool)
    rng = np.random.default_rng(5)
    answers = rng.random((NUM_HOLDINGS, len(mask))) * mask
    answers /= answers.sum(axis=1, keepdims=True)
    legal = np.flatnonzero(mask)
    terms = {int(a): public_action_term(env, seat, board, mine, theirs, answers, int(a), (20000, 20000)) for a in legal}
    pairs = _pairs(board, mine, theirs)
    total = sum(w for _, _, w in pairs)
    mean = sum(w / total * sum(answers[h, a] * terms[a] for a in terms) for h, _, w in pairs)
    assert mean == pytest.approx(0.0, abs=1e-9)
    assert max(abs(t) for t in terms.values()) > 1.0


def test_the_public_terms_keep_the_estimate_unbiased_on_a_seeded_match() -> None:
    """cfr-lite against tag (both answer range queries): the public chance and action
    terms' per-group sums have mean zero within their 95% intervals, the default estimate is
    the fixed mix of the public and the private ones, and both seat orders' terms are
    opposite for each hand (zero-sum)."""
    cfg = ArenaConfig(agents=("cfr-lite", "tag"), players=2, hands=160, seed=5, workers=1)
    result = run_match(cfg, keep_records=True)
    terms = luck_terms(result)
    assert terms["used"] == {"public", "showdown", "chance", "action"}
    for key in ("public_chance", "public_action"):
        assert np.allclose(terms[key].sum(axis=1), 0.0)
        assert np.count_nonzero(terms[key][:, 0]) > 20
        mean, half = mean_ci95(terms[key][:, 0].tolist())
        assert abs(mean) <= half, key
    scale = 1000.0 / cfg.big_blind / 2
    out = luck_adjusted(result, terms=terms, per_group=True)
    assert out["terms"] == "public+showdown+chance+action" and out["public_weight"] == PUBLIC_WEIGHT
    public = terms["showdown"] - terms["public_chance"] - terms["public_action"]
    private = 0.5 * terms["showdown"] + 0.5 * (terms["payoffs"] - terms["chance"]) - terms["action"]
    expected = PUBLIC_WEIGHT * public + (1 - PUBLIC_WEIGHT) * private
    assert np.allclose(np.array(out["adjusted_groups"]), expected * scale)
    row = out["rows"][0]
    assert abs(row["mbb_per_hand"] - row["adjusted_mbb_per_hand"]) <= row["ci95"]
    alone = luck_adjusted(result, terms=terms, public_weight=1.0)
    assert alone["terms"] == "public+showdown" and alone["ci_ratio"] > 1.0
    without = luck_terms(result, public=False)
    assert "public" not in without["used"] and not without["public_action"].any()
    assert np.array_equal(without["showdown"], terms["showdown"]) and np.array_equal(without["action"], terms["action"])
    with pytest.raises(ConfigError, match="public_weight"):
        luck_adjusted(result, terms=terms, public_weight=-0.5)


def test_the_replay_on_worker_processes_gives_the_same_terms_to_the_bit(capsys: pytest.CaptureFixture[str]) -> None:
    """``luck_terms(workers=2)`` replays fixed tasks of REPLAY_CHUNK groups on two processes:
    every part equals the one-process replay exactly (40 groups: three tasks, the last one
    short), the progress bar counts every hand, and a bad ``workers`` is refused before
    anything is replayed."""
    from holdem_env.training.aivat.match import REPLAY_CHUNK

    cfg = ArenaConfig(agents=("cfr-lite", "tag"), players=2, hands=80, seed=9, workers=1)
    result = run_match(cfg, keep_records=True)
    assert result.group_net.shape[0] == 40 and 40 % REPLAY_CHUNK != 0
    serial = luck_terms(result)
    parallel = luck_terms(result, workers=2, progress=True)
    assert serial["used"] == parallel["used"] == {"public", "showdown", "chance", "action"}
    for key in ("payoffs", "showdown", "chance", "action", "public_chance", "public_action"):
        assert np.array_equal(serial[key], parallel[key]), key
    assert np.count_nonzero(serial["public_action"]) > 10
    err = capsys.readouterr().err
    assert "AIVAT replay" in err and "80/80" in err
    again = luck_adjusted(result, workers=2)
    assert again["rows"] == luck_adjusted(result, terms=serial)["rows"]
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(ConfigError, match="workers"):
            luck_terms(result, workers=bad)

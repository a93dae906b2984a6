"""Local Best Response (holdem_env.training.lbr): checks that do not trust the implementation.

- Against always-fold LBR wins the blinds: 750 mbb/hand exactly.
- Against always-call with a fixed board, LBR's play follows the closed form from its
  equity against a uniform range (computed here by brute force with the evaluator).
- On a river-only game (everything before the river checked down, the agent calling a
  river bet with a fixed set of holdings) the exact best response is computed here from
  payoffs written out by hand; LBR never beats it and matches it with every raise size.
- The range after an agent action is the Bayes update computed by hand.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from holdem_env.agents.ranges import RangeQueryError
from holdem_env.cli import main
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate_batch, hand_strength
from holdem_env.engine.ranges import HOLDINGS, blocked_by, holding_index
from holdem_env.env import nlhe_v1
from holdem_env.training.lbr import LbrConfig, LocalBestResponse, run_lbr

SB, BB, STACK = 50, 100, 20000


def heads_up_env() -> Any:
    env = nlhe_v1.env(num_players=2, small_blind=SB, big_blind=BB, buy_in=STACK, reward_unit="chips")
    env.reset(seed=0)
    return env


def deck_for(lbr_hole: str, agent_hole: str, board: str, button: int) -> list[int]:
    """A deck that deals ``lbr_hole`` to seat 0 and ``agent_hole`` to seat 1 and then ``board``.

    Heads-up the deal starts left of the button, one card at a time; a burn card precedes
    the flop, the turn and the river.
    """
    lbr, agent, b = parse_cards(lbr_hole), parse_cards(agent_hole), parse_cards(board)
    first, second = (agent, lbr) if button == 0 else (lbr, agent)
    used = set(lbr) | set(agent) | set(b)
    spare = [c for c in range(52) if c not in used]
    order = [first[0], second[0], first[1], second[1], spare[0], *b[:3], spare[1], b[3], spare[2], b[4]]
    return order + list(spare[3:])


# -- always-fold -----------------------------------------------------------------------------


def test_lbr_against_always_fold_wins_750_mbb_per_hand() -> None:
    result = run_lbr(LbrConfig(agent="always-fold", hands=16, seed=3))
    assert result.mbb_per_hand == 750.0
    assert result.ci95 == 0.0  # every deal: +50 in the big blind (the button folds), +100 on the button
    assert result.by_position == {"button": 1000.0, "big_blind": 500.0}
    assert result.hands == 16


# -- always-call: the closed form from equity ------------------------------------------------


def equity_vs_uniform(hole: str, board: str) -> float:
    """Brute force: the share of the pot ``hole`` wins on ``board`` against every holding."""
    h, b = parse_cards(hole), parse_cards(board)
    mine = hand_strength(h + b)
    opp = HOLDINGS[~blocked_by(h + b)]
    values = evaluate_batch(np.concatenate([opp, np.broadcast_to(b, (len(opp), 5))], axis=1))
    return float(((values < mine).sum() + 0.5 * (values == mine).sum()) / len(opp))


@pytest.mark.parametrize(
    ("lbr_hole", "board"),
    [("Ah Kh", "Qh Jh 2c 7d 3s"), ("9c 8d", "Ks Qs 4h 4c 2d"), ("As Qd", "Ac 7h 7d 2s Jc")],
)
def test_lbr_against_always_call_on_a_fixed_board_is_the_closed_form(lbr_hole: str, board: str) -> None:
    # LBR acts only on the river; always-call's range stays uniform, so LBR's river equity
    # is e = equity_vs_uniform. Betting d more wins d more with probability e and loses it
    # otherwise: all-in when e > 1/2, else check. The result of each hand is then
    # +-(stake) by the showdown, the stake being the whole stack or the big blind.
    e = equity_vs_uniform(lbr_hole, board)
    stake = STACK if e > 0.5 else BB
    env = heads_up_env()
    lbr = LocalBestResponse("fcpa", check_until="river")
    agent = _make("always-call")
    known = parse_cards(lbr_hole) + parse_cards(board)
    holdings = HOLDINGS[~blocked_by(known)][::97]  # a spread of the agent's possible holdings
    for i, opp in enumerate(holdings):
        opp_text = " ".join(map(str, opp))
        hand = " ".join(_card_strs(opp))
        button = i % 2
        result = lbr.play_hand(env, agent, deck=deck_for(lbr_hole, hand, board, button), button=button)
        mine = hand_strength(known)
        theirs = hand_strength(tuple(int(c) for c in opp) + parse_cards(board))
        expected = stake * int(np.sign(mine - theirs))
        assert result == expected, (opp_text, e)
        assert lbr.decisions[-1]["wp"] == pytest.approx(e, abs=1e-12)


def _card_strs(cards: Any) -> list[str]:
    from holdem_env.engine.cards import card_str

    return [card_str(int(c)) for c in cards]


def _make(spec: str) -> Any:
    from holdem_env.agents.base import make_agent

    return make_agent(spec)


# -- the exact best response on a river-only game ---------------------------------------------


class RiverCaller:
    """Checks and calls before the river; on the river checks when free and, facing a bet,
    calls with hands worth at least ``threshold`` (the evaluator's value) and folds the rest."""

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold

    def _calls(self, info: Mapping[str, Any], holdings: np.ndarray) -> np.ndarray:
        board = parse_cards(info["view"]["board"])
        values = evaluate_batch(np.concatenate([holdings, np.broadcast_to(board, (len(holdings), 5))], axis=1))
        return values >= self.threshold

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        out = np.zeros((len(holdings), len(observation["action_mask"])))
        if info["view"]["street"] != "river" or info["legal"]["check"]:
            out[:, 1] = 1.0
            return out
        calls = self._calls(info, np.asarray(holdings))
        out[calls, 1] = 1.0
        out[~calls, 0] = 1.0
        return out

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        own = np.array([parse_cards(info["view"]["hole_cards"])])
        return int(np.argmax(self.action_probabilities(observation, info, own)[0]))


def river_payoffs(lbr_hole: str, board: str, threshold: int, bets: list[int]) -> dict[int, float]:
    """LBR's expected chips for checking (key 0) and for each river bet, by hand.

    Everything before the river is checked down: the pot is 2 big blinds, LBR has put in
    one. Checking: a showdown for one big blind. Betting ``x``: the agent folds the
    holdings below ``threshold`` (LBR wins one big blind) and calls the rest (a showdown
    for ``BB + x``). Each of the agent's holdings is equally likely.
    """
    h, b = parse_cards(lbr_hole), parse_cards(board)
    mine = hand_strength(h + b)
    opp = HOLDINGS[~blocked_by(h + b)]
    values = evaluate_batch(np.concatenate([opp, np.broadcast_to(b, (len(opp), 5))], axis=1))
    showdown = np.sign(mine - values)  # +1 win, 0 tie, -1 loss
    calls = values >= threshold
    out = {0: float(np.mean(showdown * BB))}
    for x in bets:
        out[x] = float(np.mean(np.where(calls, showdown * (BB + x), BB)))
    return out


@pytest.mark.parametrize(
    ("lbr_hole", "board", "threshold_hand"),
    [
        ("Ah Kh", "Qh Jh 2c 7d 3s", "Qc Qd"),  # LBR has ace high: a bluff candidate
        ("Qs Qc", "Qh Jh 2c 7d 3s", "Jc Td"),  # LBR has a set: value bets
        ("9c 8d", "Ks Qs 4h 4c 2d", "Kd 3c"),  # LBR has nothing
        ("Jc Tc", "Qh 9h 2c 7d 3s", "2d 2h"),  # a missed draw against a wide calling range
    ],
)
def test_lbr_never_beats_the_exact_best_response_and_matches_it_with_every_size(
    lbr_hole: str, board: str, threshold_hand: str
) -> None:
    threshold = hand_strength(parse_cards(threshold_hand) + parse_cards(board))
    agent = RiverCaller(threshold)
    known = parse_cards(lbr_hole) + parse_cards(board)
    opp = " ".join(_card_strs(HOLDINGS[~blocked_by(known)][0]))
    env = heads_up_env()
    for actions in ("fc", "fcpa", "all"):
        for button in (0, 1):
            lbr = LocalBestResponse(actions, check_until="river")
            lbr.play_hand(env, agent, deck=deck_for(lbr_hole, opp, board, button), button=button)
            # The river bets LBR considered, in chips: read from the env at the same decision.
            river = lbr.decisions[-1]
            sizes = _river_bet_sizes(env, lbr, agent, lbr_hole, opp, board, button)
            payoffs = river_payoffs(lbr_hole, board, threshold, sorted(set(sizes.values())))
            best_response = max(payoffs.values())  # over every discrete size
            # LBR's utilities are relative to folding now (losing its big blind).
            for action, util in river["utils"].items():
                if action == 0:
                    continue
                expected = payoffs[0] if action == 1 else payoffs[sizes[action]]
                assert util - BB == pytest.approx(expected, abs=1e-9), (actions, action)
            chosen = max(river["utils"].values()) - BB
            assert chosen <= best_response + 1e-9
            if actions == "all":
                assert chosen == pytest.approx(best_response, abs=1e-9)


def _river_bet_sizes(
    env: Any, lbr: LocalBestResponse, agent: Any, lbr_hole: str, opp: str, board: str, button: int
) -> dict[int, int]:
    """Action id -> chips bet, for LBR's river raises (replays the hand up to LBR's river decision)."""
    env.reset(options={"deck": deck_for(lbr_hole, opp, board, button), "button": button})
    for name in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if name == "player_0" and info["view"]["street"] == "river":
            mask = obs["action_mask"]
            return {a: int(env.unwrapped.action_amount(a)) for a in range(2, len(mask)) if mask[a]}
        env.step(1 if obs["action_mask"][1] else 0)
    raise AssertionError("the hand ended before LBR's river decision")


# -- the Bayes update ------------------------------------------------------------------------


class PairRaiser:
    """Preflop first in: raises with every pair, with a quarter of the time with suited hands,
    otherwise calls; checks or calls everything later."""

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        out = np.zeros((len(holdings), len(observation["action_mask"])))
        first_in = info["view"]["street"] == "preflop" and not info["view"]["history"]
        if not first_in:
            out[:, 1] = 1.0
            return out
        h = np.asarray(holdings)
        pair = h[:, 0] // 4 == h[:, 1] // 4
        suited = h[:, 0] % 4 == h[:, 1] % 4
        raise_p = np.where(pair, 1.0, np.where(suited, 0.25, 0.0))
        out[:, 2] = raise_p  # the min-raise
        out[:, 1] = 1.0 - raise_p
        return out

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        own = np.array([parse_cards(info["view"]["hole_cards"])])
        return int(np.argmax(self.action_probabilities(observation, info, own)[0]))


def test_range_after_an_agent_action_is_the_bayes_update_by_hand() -> None:
    # LBR holds As Kd in the big blind; the agent (button) holds 7c 7d and raises.
    # Prior: uniform over the 1,225 holdings without As or Kd. Raise likelihood: 1 for the
    # 72 pairs left (AA and KK lose 3 combos each), 1/4 for the 288 suited hands left
    # (312 minus the 12 with As and the 12 with Kd), 0 otherwise. Total 72 + 72 = 144:
    # each pair has posterior 1/144, each suited hand 1/576.
    env = heads_up_env()
    lbr = LocalBestResponse("fcpa", check_until="river")
    board = "2h 5c 9s Jd 3c"
    lbr.play_hand(env, PairRaiser(), deck=deck_for("As Kd", "7c 7d", board, button=1), button=1)
    first = lbr.ranges[0]
    idx = lambda text: holding_index(*parse_cards(text))  # noqa: E731
    assert first[idx("7c 7d")] == pytest.approx(1 / 144, abs=1e-15)
    assert first[idx("Ac Ah")] == pytest.approx(1 / 144, abs=1e-15)
    assert first[idx("9h 8h")] == pytest.approx(1 / 576, abs=1e-15)
    assert first[idx("As Ks")] == 0.0  # blocked by LBR's As
    assert first[idx("Qs Jd")] == 0.0  # never raises
    assert np.count_nonzero(first) == 72 + 288
    assert first.sum() == pytest.approx(1.0, abs=1e-12)
    # On the flop (2h 5c 9s) the holdings with a board card drop out: the next update (a
    # check, likelihood 1 for all) renormalises what is left.
    flop = lbr.ranges[1]
    left = first * ~blocked_by("2h 5c 9s")
    assert np.allclose(flop, left / left.sum(), atol=1e-15)


# -- errors, determinism and the command ----------------------------------------------------------


class NoRanges:
    def act(self, observation: Any, info: Any) -> int:
        return 1


def test_agents_without_range_queries_are_refused_with_a_clear_error() -> None:
    with pytest.raises(RangeQueryError, match="does not answer range queries"):
        run_lbr(LbrConfig(agent="tests.test_lbr:NoRanges", hands=2))


def test_bad_settings_are_rejected() -> None:
    with pytest.raises(ConfigError, match="actions='fcp' is invalid: must be one of fc, fcpa, all"):
        LbrConfig(agent="random", actions="fcp")
    with pytest.raises(ConfigError, match="check_until='showdown' is invalid"):
        LbrConfig(agent="random", check_until="showdown")
    with pytest.raises(ConfigError, match="bet_sizes=.* must include the pot fraction 1.0"):
        LbrConfig(agent="random", bet_sizes=(0.5, 2.0))
    with pytest.raises(ConfigError, match="hands=1 is invalid"):
        LbrConfig(agent="random", hands=1)


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    one = run_lbr(LbrConfig(agent="random", hands=8, seed=5, workers=1, check_until="flop"))
    two = run_lbr(LbrConfig(agent="random", hands=8, seed=5, workers=2, check_until="flop"))
    assert one.mbb_per_hand == two.mbb_per_hand and one.by_position == two.by_position


def test_holdem_lbr_command_prints_the_figure_and_writes_json(tmp_path: Any, capsys: Any) -> None:
    out = tmp_path / "lbr.json"
    assert main(["lbr", "always-fold", "--hands", "6", "--no-progress", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "LBR vs always-fold: 750 +- 0 mbb/hand" in text
    data = json.loads(out.read_text())
    assert data["lbr_mbb_per_hand"] == 750.0 and data["hands"] == 6 and data["config"]["stack"] == 20000
    assert main(["lbr", "tests.test_lbr:NoRanges", "--hands", "2", "--no-progress"]) == 2
    assert "does not answer range queries" in capsys.readouterr().err

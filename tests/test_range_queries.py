"""Range queries (holdem_env.agents.ranges): answers agree with ``act`` and with the cards.

The range answer for the seat's own holding must be the distribution ``act`` draws from:
checked exactly for ``tag`` (its only randomness, one uniform draw, is replaced by a grid
of values), for ``cfr-lite`` (the generator's ``choice`` is intercepted to read the
probabilities it samples from) and for ``random``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.agents.base import make_agent
from holdem_env.agents.ranges import RangeQueryError, query_range, supports_range_queries
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.equity import exact_equity
from holdem_env.engine.errors import CardError
from holdem_env.engine.evaluator import hand_strength
from holdem_env.engine.ranges import (
    HOLDINGS,
    NUM_HOLDINGS,
    blocked_by,
    equity_against_each,
    equity_against_range,
    holding_index,
    strength_against_random,
    uniform_range,
)
from holdem_env.env.loop import decisions as env_decisions


def decisions(spec: str, hands: int, seed: int = 0, **env_kwargs: Any) -> Iterator[tuple[Any, dict, dict, Any]]:
    """(agent, observation, info, env) at every decision of ``hands`` heads-up hands where ``spec`` plays both seats."""
    kwargs = {"num_players": 2, "small_blind": 50, "big_blind": 100, "buy_in": 20000, **env_kwargs}
    env = nlhe_v1.env(**kwargs)
    agents = [make_agent(spec, rng=np.random.default_rng(seed + i)) for i in range(2)]
    for hand in range(hands):
        env.reset(seed=seed * 1000 + hand)
        for a in agents:
            if hasattr(a, "start_hand"):
                a.start_hand({})
        for name in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            agent = agents[int(name.rsplit("_", 1)[1])]
            yield agent, obs, info, env
            env.step(agent.act(obs, info))


def own_row(probs: np.ndarray, holdings: np.ndarray, info: dict) -> np.ndarray:
    own = parse_cards(info["view"]["hole_cards"])
    j = np.flatnonzero((holdings[:, 0] == min(own)) & (holdings[:, 1] == max(own)))
    assert len(j) == 1
    return probs[j[0]]


def public_holdings(info: dict) -> np.ndarray:
    board = parse_cards(info["view"]["board"]) if info["view"]["board"] else ()
    return HOLDINGS[~blocked_by(board)]


# -- the holdings table and exact equity ---------------------------------------------------


def test_holdings_table_is_every_pair_once() -> None:
    assert HOLDINGS.shape == (NUM_HOLDINGS, 2)
    assert (HOLDINGS[:, 0] < HOLDINGS[:, 1]).all()
    assert len({tuple(r) for r in HOLDINGS.tolist()}) == 1326
    assert holding_index(7, 3) == holding_index(3, 7)
    assert tuple(HOLDINGS[holding_index(10, 40)]) == (10, 40)


def test_equity_against_each_matches_exact_equity_on_the_turn() -> None:
    board = "Kd Qc 7h 2s"
    e = equity_against_each("AsAh", board)
    for opp in ("KsKh", "Jc Tc", "7c 2c", "Ad 3d"):
        ref = float(exact_equity(["AsAh", opp], board=board)[0])
        assert e[holding_index(*parse_cards(opp))] == pytest.approx(ref, abs=1e-12)
    assert np.isnan(e[blocked_by("AsAh Kd Qc 7h 2s")]).all()
    assert not np.isnan(e[~blocked_by("AsAh Kd Qc 7h 2s")]).any()


def test_equity_against_a_range_is_the_weighted_mean_of_pairwise_equities() -> None:
    board = "Kd Qc 7h 2s"
    e = equity_against_each("Jh Th", board)
    w = np.zeros(NUM_HOLDINGS)
    w[holding_index(*parse_cards("KsKh"))] = 3.0
    w[holding_index(*parse_cards("9c8c"))] = 1.0
    expected = (3 * exact_equity(["JhTh", "KsKh"], board=board)[0] + exact_equity(["JhTh", "9c8c"], board=board)[0]) / 4
    assert equity_against_range(e, w) == pytest.approx(float(expected), abs=1e-12)
    w_blocked = w.copy()
    w_blocked[holding_index(*parse_cards("KdKh"))] = 100.0  # impossible: the Kd is on the board
    assert equity_against_range(e, w_blocked) == pytest.approx(float(expected), abs=1e-12)


def test_strength_against_random_river_counts_by_hand() -> None:
    # On a board of four aces and a king, every holding plays the board except a queen
    # kicker (none here: the board's king plays) -- all holdings tie: strength 0.5.
    s = strength_against_random("Ac Ad Ah As Kc")
    assert np.allclose(s[~np.isnan(s)], 0.5)


@pytest.mark.parametrize("board", ["Kd Qc 7h", "Kd Qc 7h 7s", "2c 3c 4c 5c 6c", "Ah Ad 9s 9c 2h"])
def test_strength_against_random_equals_a_pairwise_count(board: str) -> None:
    # The binary-search count equals counting every pair of disjoint holdings directly.
    b = parse_cards(board)
    s = strength_against_random(board)
    possible = np.flatnonzero(~blocked_by(b))
    values = {int(i): hand_strength(tuple(int(c) for c in HOLDINGS[i]) + b) for i in possible}
    for i in possible[::37]:
        mine = set(HOLDINGS[i].tolist())
        opp = [values[int(j)] for j in possible if not mine & set(HOLDINGS[j].tolist())]
        v = values[int(i)]
        expected = (sum(o < v for o in opp) + 0.5 * sum(o == v for o in opp)) / len(opp)
        assert s[i] == expected


def test_bad_cards_are_rejected() -> None:
    with pytest.raises(CardError, match="repeat a card"):
        equity_against_each("AsKs", "As 2c 3d")
    with pytest.raises(CardError, match="0, 3, 4 or 5 cards"):
        equity_against_each("AsKs", "2c 3d")
    assert uniform_range("AsKs")[holding_index(*parse_cards("AsQd"))] == 0.0


# -- the agents' answers -------------------------------------------------------------------


def test_random_answers_uniform_over_legal_ids() -> None:
    for agent, obs, info, _ in decisions("random", hands=3):
        hold = public_holdings(info)
        probs = query_range(agent, obs, info, hold)
        legal = np.flatnonzero(obs["action_mask"])
        assert np.allclose(probs[:, legal], 1.0 / len(legal))


class _FixedU:
    """A stand-in generator whose ``random()`` returns a chosen value."""

    def __init__(self, u: float) -> None:
        self.u = u

    def random(self, size: int | None = None) -> float | np.ndarray:
        return self.u if size is None else np.full(size, self.u)  # tag draws ``rng.random(1)``


def test_tag_range_answer_is_the_distribution_act_draws_from() -> None:
    checked_pre = checked_post = 0
    grid = (np.arange(40) + 0.5) / 40
    for agent, obs, info, _ in decisions("tag", hands=20, seed=3):
        hold = public_holdings(info)
        probs = query_range(agent, obs, info, hold)
        row = own_row(probs, hold, info)
        rng = agent.rng
        counts = np.zeros(len(row))
        for u in grid if info["view"]["street"] != "preflop" else grid[:1]:
            agent.rng = _FixedU(float(u))
            counts[agent.act(obs, info)] += 1
        agent.rng = rng
        if info["view"]["street"] == "preflop":
            assert row.max() == 1.0 and counts[np.argmax(row)] == 1
            checked_pre += 1
        else:
            # Breakpoints of the draw are multiples of 0.05 here: the grid hits every piece exactly.
            assert np.allclose(counts / len(grid), row, atol=1e-12)
            checked_post += 1
    assert checked_pre >= 15 and checked_post >= 8


def test_tag_equity_is_deterministic_given_the_board() -> None:
    a = make_agent("tag", rng=np.random.default_rng(1))
    b = make_agent("tag", rng=np.random.default_rng(2))
    seen = 0
    for _agent, _obs, info, _ in decisions("tag", hands=10, seed=5):
        if info["view"]["street"] == "preflop":
            continue
        hold = public_holdings(info)[:200]
        full = a._equities(hold, info["view"])
        assert np.array_equal(full, b._equities(hold, info["view"]))
        # a decision asks for its own hand alone: the same numbers as the batch
        fresh = make_agent("tag", rng=np.random.default_rng(3))
        assert np.array_equal(fresh._equities(hold[:3], info["view"]), full[:3])
        seen += 1
    assert seen > 0


class _DistributionSpy:
    """Wraps a cfr-lite agent's ``_distribution`` and records the probabilities of each policy lookup
    (what ``act`` then draws from with its uniform)."""

    def __init__(self, agent: Any) -> None:
        self.seen: list[np.ndarray] = []
        inner = agent._distribution

        def spy(*args: Any, **kwargs: Any) -> Any:
            moves, p, off_tree = inner(*args, **kwargs)
            if not off_tree:
                self.seen.append(np.asarray(p))
            return moves, p, off_tree

        agent._distribution = spy


def test_cfr_lite_range_answer_is_the_distribution_act_draws_from() -> None:
    checked = mixed = 0
    for agent, obs, info, _ in decisions("cfr-lite", hands=8, seed=1):
        hold = public_holdings(info)
        probs = query_range(agent, obs, info, hold)
        row = own_row(probs, hold, info)
        # Repeat the decision many times: the actions act picks are exactly those the row allows,
        # and the frequencies match within sampling error.
        base = agent.rng
        agent.rng = np.random.default_rng(99)
        recorder = _DistributionSpy(agent)
        picks = np.bincount([agent.act(obs, info) for _ in range(60)], minlength=len(row))
        agent.rng = base
        del agent._distribution  # the class's method again
        assert set(np.flatnonzero(picks)) <= set(np.flatnonzero(row > 0))
        if recorder.seen:  # a policy lookup: the row is the looked-up mix, mapped to action ids
            mixed += row.max() < 1.0
            sampled = np.sort(recorder.seen[0][recorder.seen[0] > 0])
            answered = np.sort(row[row > 0])
            if len(answered) == len(sampled):
                assert np.allclose(sampled, answered, atol=1e-12)
            else:  # two abstract moves mapped to one action id: the row holds their sum
                assert len(answered) < len(sampled)
        elif agent._tag_plays(agent._shadow(agent.policy_for(2), info["view"])):  # a missing infoset: tag's answer
            tag_rows = agent._chart_agent().action_probabilities(obs, info, hold)
            assert np.array_equal(row, own_row(tag_rows, hold, info))
        else:  # after an overbet, the pot-odds rule: deterministic
            assert row.max() == 1.0 and picks[np.argmax(row)] == 60
        tol = 4 * np.sqrt(row * (1 - row) / 60)
        assert np.all(np.abs(picks / 60 - row) <= tol + 0.02)
        checked += 1
    assert checked >= 12 and mixed > 0


def test_cfr_lite_batched_answer_equals_one_holding_at_a_time() -> None:
    # The batch shares rows between holdings alike to the agent (class, bucket, strength);
    # here every sampled holding is answered alone through the agent's own lookup path.
    from holdem_env.engine.cards import parse_cards as cards

    checked = off = 0
    for agent, obs, info, _ in decisions("cfr-lite", hands=6, seed=4):
        view, mask = info["view"], np.asarray(obs["action_mask"])
        hold = public_holdings(info)[::53]
        batched = query_range(agent, obs, info, hold)
        policy = agent.policy_for(2)
        shadow = agent._shadow(policy, view)
        board = cards(view["board"]) if view["board"] else ()
        for row, (a, b) in zip(batched, hold, strict=True):
            seat = int(view["seat"])
            moves, p, off_tree = agent._distribution(policy, shadow, view, info["legal"], seat, (int(a), int(b)), board)
            alone = np.zeros(len(mask))
            if off_tree and agent._tag_plays(shadow):  # played by tag: its answer for this holding alone
                alone = agent._chart_agent().action_probabilities(obs, info, np.array([[a, b]]))[0]
                off += 1
            for move, q in zip(moves, p, strict=True):
                if not (off_tree and agent._tag_plays(shadow)):
                    alone[agent._to_action_id(move, mask, view, info["legal"], int(view["seat"]))] += q
            assert np.allclose(row, alone, atol=1e-12)
        checked += 1
    assert checked >= 8 and off > 0


def test_agents_without_range_queries_get_a_clear_error() -> None:
    class Plain:
        def act(self, observation: Any, info: Any) -> int:
            return 1

    assert not supports_range_queries(Plain())
    obs = {"action_mask": np.array([1, 1, 0, 0], dtype=np.int8)}
    with pytest.raises(RangeQueryError, match="does not answer range queries: define action_probabilities"):
        query_range(Plain(), obs, {}, HOLDINGS[:3])


def test_malformed_range_answers_are_rejected() -> None:
    class Bad:
        def __init__(self, answer: np.ndarray) -> None:
            self.answer = answer

        def act(self, observation: Any, info: Any) -> int:
            return 1

        def action_probabilities(self, observation: Any, info: Any, holdings: np.ndarray) -> np.ndarray:
            return self.answer

    obs = {"action_mask": np.array([1, 1, 0], dtype=np.int8)}
    with pytest.raises(RangeQueryError, match="shape"):
        query_range(Bad(np.ones((2, 2))), obs, {}, HOLDINGS[:2])
    with pytest.raises(RangeQueryError, match="masked action id 2"):
        query_range(Bad(np.array([[0.5, 0.0, 0.5], [1.0, 0.0, 0.0]])), obs, {}, HOLDINGS[:2])
    with pytest.raises(RangeQueryError, match="sums to"):
        query_range(Bad(np.array([[0.5, 0.4, 0.0], [1.0, 0.0, 0.0]])), obs, {}, HOLDINGS[:2])


def _checked_down(spec: str, hands: int, seed: int) -> Iterator[tuple[Any, dict, dict]]:
    """(agent, observation, info) at every decision of heads-up hands both seats check or call
    down (discrete mode, 50/100, 20,000 chips): every street is reached."""
    env = nlhe_v1.env(num_players=2, small_blind=50, big_blind=100, buy_in=20000, action_mode="discrete")
    agent = make_agent(spec, rng=np.random.default_rng(seed))
    for obs, info in env_decisions(env, hands=hands, seed=seed * 1000):
        yield agent, obs, info
        env.step(1)


def test_ppo_range_answer_is_the_masked_softmax_act_samples_from() -> None:
    checked = 0
    streets: set[str] = set()
    for agent, obs, info in _checked_down("ppo", hands=1, seed=2):
        hold = public_holdings(info)
        probs = query_range(agent, obs, info, hold)
        mask = np.asarray(obs["action_mask"])
        # what act samples from: the policy's masked softmax of the seat's own observation
        expected = agent.policy.probabilities(obs["observation"][None, :], mask[None, :])[0]
        assert np.allclose(own_row(probs, hold, info), expected, rtol=0, atol=1e-6)
        assert (probs[:, mask == 0] == 0.0).all()
        # another holding's row: the observation with that holding's one-hot, features recomputed row by row
        other = hold[len(hold) // 2]
        swapped = np.array(obs["observation"], dtype=np.float32)
        swapped[:52] = 0.0
        swapped[other] = 1.0
        direct = agent.policy.probabilities(swapped[None, :], mask[None, :])[0]
        assert np.allclose(probs[len(hold) // 2], direct, rtol=0, atol=1e-6)
        streets.add(info["view"]["street"])
        checked += 1
    assert checked >= 8 and streets == {"preflop", "flop", "turn", "river"}


def test_greedy_ppo_range_answer_puts_all_weight_on_the_played_action() -> None:
    for agent, obs, info in _checked_down("ppo(greedy=True)", hands=1, seed=4):
        hold = public_holdings(info)
        row = own_row(query_range(agent, obs, info, hold), hold, info)
        assert row.max() == 1.0 and int(np.argmax(row)) == agent.act(obs, info)


def test_equity_table_matches_the_feature_row_by_row() -> None:
    from holdem_env.agents.features import equity_batch, equity_table

    rng = np.random.default_rng(7)
    for m in (0, 3, 4, 5):
        board = np.sort(rng.permutation(52)[:m])
        table = equity_table(board)
        ok = np.flatnonzero(~blocked_by(board.tolist()))
        pick = ok[rng.choice(len(ok), 60, replace=False)]
        rows = equity_batch(HOLDINGS[pick], [board] * len(pick), np.ones(len(pick), dtype=np.int64))
        assert np.array_equal(table[pick], rows)  # bit for bit: act and the range answer agree
        assert np.isnan(table[~np.isin(np.arange(len(table)), ok)]).all()


def test_strengths_on_boards_equal_strength_against_random_board_by_board() -> None:
    from holdem_env.engine.ranges import strengths_on_boards

    rng = np.random.default_rng(11)
    boards = np.array([rng.permutation(52)[:5] for _ in range(70)])  # more than one block of boards
    boards[0] = parse_cards("Ah Kh Qh Jh 2c")  # flush and straight flush heavy
    boards[1] = parse_cards("2c 2d 2h 3s 3c")  # a full house on board: many ties
    many = strengths_on_boards(boards)
    for row, board in zip(many, boards, strict=True):
        assert np.allclose(row, strength_against_random(board.tolist()), equal_nan=True, rtol=0, atol=1e-12)


def test_equity_against_random_is_the_exact_equity_against_a_uniform_range() -> None:
    from holdem_env.engine.ranges import equity_against_random, flop_runouts

    rng = np.random.default_rng(12)
    for size in (4, 3):
        cards = rng.permutation(52)[: size + 2]
        hole, board = tuple(int(c) for c in cards[:2]), [int(c) for c in cards[2:]]
        table = equity_against_random(board)
        exact = equity_against_range(equity_against_each(hole, board), uniform_range(list(hole) + board))
        assert table[holding_index(*hole)] == pytest.approx(exact, abs=1e-12)
        assert np.isnan(table[blocked_by(board)]).all()
    # a sample of flop run-outs: the mean over those that avoid the holding
    flop = [int(c) for c in rng.permutation(52)[:3]]
    sample = flop_runouts(flop)[[0, 5, 700, 1175]]
    part = equity_against_random(flop, sample)
    h = holding_index(*sample[1])  # meets run-out 5 (and any other sharing a card): those do not count
    by_hand = np.nanmean([strength_against_random(flop + r.tolist())[h] for r in sample])  # NaN: a clash
    assert part[h] == pytest.approx(by_hand, abs=1e-12)
    with pytest.raises(CardError):
        equity_against_random(flop, np.array([[flop[0], 51 if flop[0] != 51 else 50]]))

"""The batched core (holdem_env.batched) against the engine's HandState: legal sets, pots, payoffs, rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.batched import BatchedTables
from holdem_env.batched.verify import MismatchError, play_differential, replay_opponents
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.engine.evaluator import hand_strength
from holdem_env.engine.state import HandState


@pytest.mark.parametrize("num_players", [2, 3, 6, 10])
def test_differential_against_handstate_with_uneven_stacks(num_players: int) -> None:
    rng = np.random.default_rng(num_players)
    stacks = rng.integers(11, 400, size=(32, num_players))
    bt = BatchedTables(32, num_players, 5, 10, 1000, seed=num_players, stacks=stacks)
    stats = play_differential(bt, 800, seed=num_players)
    assert stats.hands >= 800
    assert stats.split_pots > 0 and stats.showdowns > 0
    if num_players > 2:
        assert stats.side_pots > 0  # several all-ins for different amounts happened and matched


def test_differential_deep_stacks_odd_blinds_and_antes() -> None:
    # blinds 1/2 and an ante of 1: odd pots, so odd chips at split pots
    bt = BatchedTables(32, 4, 1, 2, 301, seed=11, ante=1)
    stats = play_differential(bt, 800, seed=11, ante=1)
    assert stats.split_pots > 0
    bt = BatchedTables(16, 6, 5, 10, 20_000, seed=12)  # deep: most hands end before anyone is all-in
    stats = play_differential(bt, 300, seed=12, shove=False)
    assert stats.showdowns - stats.runouts > 50  # showdowns with chips behind


def test_random_opponents_replay_on_handstate() -> None:
    bt = BatchedTables(16, 6, 5, 10, 300, seed=4, random_opponents=True, record=True, learner_seat=2)
    stats = replay_opponents(bt, 150, seed=4)
    assert stats.hands > 150 and stats.decisions > 1000
    assert (bt.actor == 2).all()


def test_differential_catches_a_wrong_payoff() -> None:
    class Corrupted(BatchedTables):
        def step(self, actions: object) -> None:
            super().step(actions)
            if self.terminated[0]:
                self.rewards[0, 0] += 1  # a chip created: the check must notice

    bt = Corrupted(4, 3, 5, 10, 200, seed=1)
    with pytest.raises(MismatchError, match="payoffs differ"):
        play_differential(bt, 50, seed=1)


def _seats(seed: int, n: int) -> tuple[int, int, int]:
    b = int(BatchedTables(1, n, seed=seed).button[0])
    return b, (b + 1) % n, (b + 2) % n


def _engine(bt: BatchedTables) -> HandState:
    cfg = TableConfig(num_players=bt.num_players, small_blind=bt.small_blind, big_blind=bt.big_blind)
    return HandState(cfg, button=int(bt.button[0]), stacks=bt.starting[0].tolist(), deck=bt.deck[0].tolist())


def test_short_allin_does_not_reopen_for_players_who_acted() -> None:
    b, sb, bb = _seats(5, 3)
    stacks = [1000, 1000, 1000]
    stacks[sb] = 45
    bt = BatchedTables(1, 3, 5, 10, seed=5, stacks=stacks)
    hs = _engine(bt)
    assert bt.actor[0] == b and bt.min_raise_to[0] == 20
    for a in (31, 46, 1):  # button raises to 30; small blind all-in to 45 (short); big blind calls
        bt.step([a])
        hs.raise_to(a - 1) if a > 1 else hs.call()
    assert bt.actor[0] == b == hs.actor
    assert bt.legal_call[0] == 15 and bt.min_raise_to[0] == 0 and bt.max_raise_to[0] == 0  # call or fold only
    assert hs.legal_actions().min_raise_to is None
    with pytest.raises(IllegalActionError, match="table 0: action 66 is not legal"):
        bt.step([66])


def test_short_allin_leaves_the_raise_open_to_players_yet_to_act_and_min_raise_is_last_full() -> None:
    b, sb, bb = _seats(6, 3)
    stacks = [1000, 1000, 1000]
    stacks[sb] = 45
    bt = BatchedTables(1, 3, 5, 10, seed=6, stacks=stacks)
    bt.step([31])  # raise to 30: increment 20
    bt.step([46])  # all-in to 45: short (15 < 20)
    assert bt.actor[0] == bb and bt.legal_call[0] == 35
    assert bt.min_raise_to[0] == 65 and bt.max_raise_to[0] == 1000  # 45 + the last full increment 20


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after() -> None:
    bt = BatchedTables(1, 2, 5, 10, seed=7)
    b = int(bt.button[0])
    assert bt.actor[0] == b and bt.bets[0, b] == 5 and bt.bets[0, 1 - b] == 10
    bt.step([1])  # button calls
    assert bt.actor[0] == 1 - b and bt.legal_call[0] == 0  # big blind's option
    bt.step([1])  # checks: flop
    assert bt.street[0] == 1 and bt.actor[0] == 1 - b  # the non-button acts first after the flop


def test_uncalled_bet_is_returned() -> None:
    bt = BatchedTables(1, 3, 5, 10, seed=8)
    bt.step([501])  # raise to 500
    bt.step([0])
    bt.step([0])
    assert bt.terminated[0] == 1
    assert sorted(bt.rewards[0].tolist()) == [-10, -5, 15]  # the raiser wins the blinds; the 500 came back


def test_strengths_equal_the_evaluator_on_random_hands() -> None:
    # the showdown path in C: a full hand of check-downs, compared with hand_strength
    bt = BatchedTables(64, 2, 5, 10, seed=9)
    hole, board = bt.hole.copy(), None
    for _ in range(8):  # call, check, then check each street to the river showdown
        board = bt.board.copy()
        bt.step(np.ones(64, dtype=np.int64))
    assert board is not None and bt.terminated.all()
    for t in range(64):
        s = [hand_strength([*hole[t, 2 * i : 2 * i + 2].tolist(), *board[t].tolist()]) for i in range(2)]
        expected = 0 if s[0] == s[1] else (10 if s[0] > s[1] else -10)
        assert bt.rewards[t, 0] == expected


def test_same_seed_same_hands_and_results() -> None:
    def run(seed: int) -> list:
        bt = BatchedTables(8, 6, seed=seed, random_opponents=True)
        out = []
        for _ in range(30):
            bt.step(bt.random_actions())
            out.append((bt.rewards.tolist(), bt.terminated.tolist(), bt.deck.tolist()))
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_bad_input_is_refused_and_changes_nothing() -> None:
    with pytest.raises(ConfigError, match="num_players"):
        BatchedTables(2, 11)
    with pytest.raises(ConfigError, match="exceed the ante plus the big blind"):
        BatchedTables(2, 3, 5, 10, 10)
    bt = BatchedTables(2, 3, seed=1)
    before = bt.stacks.copy(), bt.actor.copy()
    with pytest.raises(IllegalActionError, match="2 integer action ids"):
        bt.step([1])
    with pytest.raises(IllegalActionError, match="table 1: action 5 is not legal"):
        bt.step([1, 5])  # table 0's legal call is not applied either
    assert (bt.stacks == before[0]).all() and (bt.actor == before[1]).all()


@settings(max_examples=25, deadline=None)
@given(
    num_players=st.integers(2, 10),
    seed=st.integers(0, 2**32),
    buy_in=st.integers(11, 3000),
    opponents=st.booleans(),
)
def test_chips_are_conserved_and_payoffs_sum_to_zero(num_players: int, seed: int, buy_in: int, opponents: bool) -> None:
    rng = np.random.default_rng(seed)
    stacks = rng.integers(11, buy_in + 1, size=(8, num_players))
    bt = BatchedTables(8, num_players, 5, 10, seed=seed, stacks=stacks, random_opponents=opponents)
    total = stacks.sum(axis=1)
    for _ in range(40):
        bt.step(bt.random_actions())
        assert (bt.rewards.sum(axis=1) == 0).all()
        assert ((bt.stacks + bt.contrib).sum(axis=1) == total).all()
        assert (bt.stacks >= 0).all()


def test_table_seeds_deal_the_engine_tables_hands() -> None:
    # the digest check: with table_seeds, table t deals what Table(config, seed=s) deals, and random
    # play on both gives the same payoffs hand after hand (nlhe_v1's reset(seed=s) builds that Table)
    from holdem_env.engine.table import Table

    seeds = [7, 8, 123, 2**40]
    bt = BatchedTables(4, 6, 5, 10, 1000, seed=0, table_seeds=seeds)
    cfg = TableConfig(num_players=6)
    tables = [Table(cfg, seed=s) for s in seeds]
    hands = [tb.start_hand() for tb in tables]
    digest_engine, digest_batched, finished = [], [], 0
    while finished < 200:
        acts = bt.random_actions()
        for t, hs in enumerate(hands):
            assert hs.deck == tuple(bt.deck[t].tolist()) and hs.button == bt.button[t]
            a = int(acts[t])
            if a == 0:
                hs.fold()
            elif a == 1:
                hs.call() if hs.legal_actions().call else hs.check()
            else:
                hs.raise_to(a - 1)
        bt.step(acts)
        for t, hs in enumerate(hands):
            if hs.is_over:
                digest_engine.append((t, hs.payoffs))
                digest_batched.append((t, tuple(bt.rewards[t].tolist())))
                hands[t] = tables[t].start_hand()
                finished += 1
    assert digest_engine == digest_batched


def test_table_seeds_are_checked() -> None:
    with pytest.raises(ConfigError, match="table_seeds"):
        BatchedTables(2, 3, table_seeds=[1])
    with pytest.raises(ConfigError, match="table_seeds"):
        BatchedTables(2, 3, table_seeds=[1, -2])

"""BatchedTables.fill_views against the single-table nlhe_v1 env: the same hands, the same views."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.batched import BatchedTables
from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import ConfigError
from holdem_env.env import nlhe_v1

_ROW_FIELDS = [f.name for f in fields(BatchViews) if f.name not in ("num_players", "small_blind", "big_blind")]


def _choose(rng: np.random.Generator, legal: dict, bb: int, shove: bool) -> int:
    """A varied legal exact id: mostly check/call (hands reach the river), some folds, min raises,
    small raises and (``shove``) all-ins."""
    r = rng.random()
    lo, hi = legal["min_raise_to"], legal["max_raise_to"]
    if legal["fold"] and r < 0.12:
        return 0
    if not lo or r < 0.62:
        return 1
    if r < 0.8:
        return lo + 1
    if shove and r < 0.86:
        return hi + 1
    return int(rng.integers(lo, min(hi, lo + 4 * bb) + 1)) + 1


def _assert_rows_equal(got: BatchViews, want: BatchViews, k: int, where: str) -> None:
    h = want.hist_seat.shape[1]
    for name in _ROW_FIELDS:
        a, b = getattr(got, name)[:k], getattr(want, name)
        if name.startswith("hist_") and name != "hist_len":
            assert (a[:, h:] == 0).all(), f"{where}: {name} not zero past the history"
            a = a[:, :h]
        assert a.shape == b.shape and (a == b).all(), f"{where}: {name} differs:\nbatched {a}\nenv     {b}"


def _play_both(players: int, tables: int, hands: int, seed: int, buy_in: int = 1000, shove: bool = True) -> int:
    """Play the same hands on the batched core (table_seeds) and on one nlhe_v1 env per table with the
    same actions; compare every decision's fill_views row with BatchViews.from_seat_views."""
    seeds = [seed * 1000 + t for t in range(tables)]
    bt = BatchedTables(tables, players, 5, 10, buy_in, table_seeds=seeds)
    envs = [nlhe_v1.env(num_players=players, action_mode="exact", buy_in=buy_in) for _ in seeds]
    for env, s in zip(envs, seeds, strict=True):
        env.reset(seed=s)
    out = BatchViews.empty(tables, players, 5, 10, history=4)  # too little room: fill_views widens it
    rng = np.random.default_rng(seed)
    finished = decisions = 0
    step = 0
    while finished < hands:
        infos = [env.infos[env.agent_selection] for env in envs]
        want = BatchViews.from_seat_views([i["view"] for i in infos], [i["legal"] for i in infos])
        assert bt.fill_views(None, out) == tables
        _assert_rows_equal(out, want, tables, f"step {step}")
        acts = np.array([_choose(rng, i["legal"], 10, shove) for i in infos], dtype=np.int64)
        for env, a in zip(envs, acts, strict=True):
            env.step(int(a))
        bt.step(acts)
        decisions += tables
        for t, env in enumerate(envs):
            over = all(env.terminations.values())
            assert bool(bt.terminated[t]) == over, f"step {step} table {t}"
            if over:
                payoffs = env.unwrapped.state_object.payoffs
                assert tuple(bt.rewards[t].tolist()) == payoffs
                finished += 1
                env.reset()
        step += 1
    return decisions


@pytest.mark.parametrize("players", [2, 6])
def test_fill_views_equal_the_single_table_views_at_every_decision(players: int) -> None:
    decisions = _play_both(players, 16, 2000, seed=players)
    assert decisions > 2000 * 3


def test_fill_views_long_histories_grow_and_stay_equal() -> None:
    # deep stacks and many min raises: hands outgrow the first history room (64 actions)
    bt_cap = BatchedTables(1, 2).hist.shape[1]
    seeds = [5, 6]
    bt = BatchedTables(2, 2, 5, 10, 50_000, table_seeds=seeds)
    envs = [nlhe_v1.env(num_players=2, action_mode="exact", buy_in=50_000) for _ in seeds]
    for env, s in zip(envs, seeds, strict=True):
        env.reset(seed=s)
    out = BatchViews.empty(2, 2, 5, 10)
    longest = 0
    for step in range(3 * bt_cap):
        infos = [env.infos[env.agent_selection] for env in envs]
        want = BatchViews.from_seat_views([i["view"] for i in infos], [i["legal"] for i in infos])
        bt.fill_views([0, 1], out)
        _assert_rows_equal(out, want, 2, f"step {step}")
        longest = max(longest, int(out.hist_len.max()))
        acts = np.array([i["legal"]["min_raise_to"] + 1 for i in infos], dtype=np.int64)
        for env, a in zip(envs, acts, strict=True):
            env.step(int(a))
        bt.step(acts)
        assert not bt.terminated.any()
    assert longest > 2 * bt_cap and bt.hist.shape[1] > bt_cap


def test_fill_views_subsets_and_order_of_rows() -> None:
    bt = BatchedTables(8, 3, seed=2)
    for _ in range(5):
        bt.step(bt.random_actions())
    every = BatchViews.empty(8, 3, 5, 10)
    bt.fill_views(None, every)
    some = BatchViews.empty(5, 3, 5, 10)
    rows = [6, 1, 1, 0]
    assert bt.fill_views(rows, some) == 4
    for name in _ROW_FIELDS:
        a, b = getattr(some, name)[:4], getattr(every, name)[rows]
        assert (a[..., : b.shape[-1]] == b[..., : a.shape[-1]]).all(), name
    assert (some.seat[:4] == bt.actor[rows]).all()
    assert some.hist_len[:4].max() > 0
    for i, t in enumerate(rows):  # the packed per-table history unpacks to the rows' history
        h = int(some.hist_len[i])
        assert bt.history(t) == list(zip(some.hist_seat[i, :h].tolist(), some.hist_street[i, :h].tolist(),
                                         some.hist_kind[i, :h].tolist(), some.hist_to[i, :h].tolist(), strict=True))


def test_fill_views_refuses_bad_rows_and_outputs() -> None:
    bt = BatchedTables(4, 3, seed=1)
    out = BatchViews.empty(4, 3, 5, 10)
    before = {name: getattr(out, name).copy() for name in _ROW_FIELDS}
    with pytest.raises(ConfigError, match="rows"):
        bt.fill_views([0, 4], out)
    with pytest.raises(ConfigError, match="rows"):
        bt.fill_views([[0]], out)
    with pytest.raises(ConfigError, match="out"):
        bt.fill_views(None, BatchViews.empty(3, 3, 5, 10))  # too few rows
    with pytest.raises(ConfigError, match="out"):
        bt.fill_views(None, BatchViews.empty(4, 2, 5, 10))  # another table size
    with pytest.raises(ConfigError, match="out"):
        bt.fill_views(None, {"seat": np.zeros(4)})  # type: ignore[arg-type]
    for name in _ROW_FIELDS:
        assert (getattr(out, name) == before[name]).all()


def test_the_differential_checks_the_views_too() -> None:
    from holdem_env.batched.verify import MismatchError, play_differential

    class Corrupted(BatchedTables):
        def fill_views(self, rows: object, out: BatchViews) -> int:
            k = super().fill_views(rows, out)
            out.hist_to[0, max(int(out.hist_len[0]) - 1, 0)] += 1  # one history amount off by a chip
            return k

    stats = play_differential(BatchedTables(4, 3, 5, 10, 200, seed=1), 40, seed=1)
    assert stats.hands >= 40
    with pytest.raises(MismatchError, match="view history"):
        play_differential(Corrupted(4, 3, 5, 10, 200, seed=1), 40, seed=1)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32), top=st.integers(30, 2000), ante=st.integers(0, 3))
def test_views_equal_the_engine_on_uneven_stacks_and_antes(players: int, seed: int, top: int, ante: int) -> None:
    # play_differential compares every decision's fill_views row with HandState's state and events
    from holdem_env.batched.verify import play_differential

    stacks = np.random.default_rng(seed).integers(ante + 11, top + ante + 12, size=(4, players))
    bt = BatchedTables(4, players, 5, 10, 1000, seed=seed, ante=ante, stacks=stacks)
    assert play_differential(bt, 20, seed=seed, ante=ante).hands >= 20

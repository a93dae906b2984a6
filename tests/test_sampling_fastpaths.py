"""The sampling's internal fast paths (issue 25) against the checked paths they skip: tag's ``_decide_trusted``,
``row_opponents`` and the batched core's ``_step_checked`` with its per-table clears."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents.styles import CallingStationAgent, LooseAggressiveAgent
from holdem_env.agents.tag import TagAgent, row_opponents
from holdem_env.batched import BatchedTables
from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import ConfigError, IllegalActionError


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 10), st.integers(0, 12), st.data())
def test_row_opponents_is_the_clamped_count_of_other_live_seats(n: int, rows: int, data: st.DataObject) -> None:
    v = BatchViews.empty(rows, n, 1, 2)
    cells = st.lists(st.integers(0, 2), min_size=rows * n, max_size=rows * n)
    v.dealt_in[:] = np.array(data.draw(cells), dtype=np.int8).reshape(rows, n)
    v.folded[:] = np.array(data.draw(cells), dtype=np.int8).reshape(rows, n) % 2
    v.seat[:] = data.draw(st.lists(st.integers(0, n - 1), min_size=rows, max_size=rows))
    want = [
        min(9, max(1, sum(1 for s in range(n) if s != int(v.seat[i]) and v.dealt_in[i, s] and not v.folded[i, s])))
        for i in range(rows)
    ]
    got = row_opponents(v)
    assert got.dtype == np.int64 and got.tolist() == want


def _views_and_draws(players: int, seed: int) -> list[tuple[BatchViews, np.ndarray]]:
    """Views of the seat to act at many tables, as the core fills them, through hands played at random."""
    bt = BatchedTables(24, players, 5, 10, 400, seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(40):
        v = BatchViews.empty(bt.num_tables, players, 5, 10)
        bt.fill_views(None, v)
        out.append((v, rng.random((bt.num_tables, 1))))
        bt.step(bt.random_actions())
    return out


@pytest.mark.parametrize("players", [2, 3, 6])
def test_trusted_decide_is_decide(players: int) -> None:
    bots = [TagAgent(), TagAgent(tightness=1.5, aggression=2.0, samples=40), LooseAggressiveAgent(), CallingStationAgent()]
    streets = set()
    for v, u in _views_and_draws(players, seed=players):
        streets.update(v.street.tolist())
        for bot in bots:
            assert bot._decide_trusted(v, u).tolist() == bot.decide(v, u).tolist()
    assert streets == {0, 1, 2, 3}  # every street was decided


def test_trusted_decide_keeps_a_subclass_decide_and_decide_keeps_its_checks() -> None:
    class Caller(TagAgent):
        def decide(self, views: BatchViews, uniforms: np.ndarray) -> np.ndarray:
            return np.ones(views.rows, dtype=np.int64)

    v, u = _views_and_draws(2, seed=5)[3]
    assert Caller()._decide_trusted(v, u).tolist() == [1] * v.rows
    with pytest.raises(ConfigError, match="uniforms"):
        TagAgent().decide(v, u + 1.0)


def _state(bt: BatchedTables) -> dict[str, list[int]]:
    names = ("stacks", "bets", "rewards", "terminated", "learner_reward", "learner_done", "final_seat",
             "learner_walks", "walk_reward", "final_member", "actor", "street", "board_len", "hands_played")
    return {k: np.asarray(getattr(bt, k)).tolist() for k in names}


@pytest.mark.parametrize("players", [2, 6])
def test_step_checked_is_step_and_clears_each_steps_results(players: int) -> None:
    a = BatchedTables(16, players, 5, 10, 300, seed=7, opponents={"others": TagAgent(samples=20)}, random_learner_seat=True)
    b = BatchedTables(16, players, 5, 10, 300, seed=7, opponents={"others": TagAgent(samples=20)}, random_learner_seat=True)
    finished = 0
    for _ in range(150):
        acts = a.random_actions()
        assert b.random_actions().tolist() == acts.tolist()  # (the same generator draws the opponents' uniforms)
        a.step(acts)
        b._step_checked(np.ascontiguousarray(acts))
        assert _state(a) == _state(b)
        done = a.learner_done != 0
        finished += int(done.sum())
        # this step's results only: nothing left over from an earlier step at a table whose hand did not end now
        assert (a.learner_reward[~done] == 0).all() and (a.final_seat[~done] == -1).all()
        assert (a.rewards[a.terminated == 0] == 0).all()
    assert finished > 50


def test_step_still_checks_the_actions() -> None:
    bt = BatchedTables(4, 2, 5, 10, 300, seed=1)
    before = _state(bt)
    with pytest.raises(IllegalActionError, match="table"):
        bt.step(np.full(4, 10**6, dtype=np.int64))
    assert _state(bt) == before


@pytest.mark.parametrize("players", [2, 4])
def test_kept_equities_are_the_computed_ones(players: int) -> None:
    kept = TagAgent(samples=30, flop_runouts=16)
    hits = 0
    for v, _ in _views_and_draws(players, seed=20 + players):
        post = (v.street > 0).nonzero()[0]
        before = len(kept._memo)
        got, want = np.full(v.rows, np.nan), np.full(v.rows, np.nan)
        kept._row_equities(v, post, got)
        TagAgent(samples=30, flop_runouts=16)._row_equities(v, post, want)  # a fresh agent: nothing kept
        np.testing.assert_array_equal(got, want)
        hits += len(post) - (len(kept._memo) - before)
    assert hits > 0  # some rows were answered from what was kept
    kept.samples = 31  # another setting: nothing kept is reused
    v, _ = _views_and_draws(players, seed=20 + players)[-1]
    post = (v.street > 0).nonzero()[0]
    got, want = np.full(v.rows, np.nan), np.full(v.rows, np.nan)
    kept._row_equities(v, post, got)
    TagAgent(samples=31, flop_runouts=16)._row_equities(v, post, want)
    np.testing.assert_array_equal(got, want)

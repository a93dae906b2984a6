"""The sampling's glue kept between steps gives what the per-call code gives: block-read uniforms, the checked-once encoder."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents.tag import TagAgent
from holdem_env.env._vector_batched import _SeatUniforms
from holdem_env.env.vector import FixedOpponents


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.integers(0, 40)), min_size=1, max_size=40),
       st.integers(1, 8))
def test_seat_uniforms_are_each_generators_next_draws(calls: list[tuple[int, int, int]], block: int) -> None:
    """Any sequence of (table, seat, k) requests gets exactly ``seat_rngs[t][s].random(k)``, call by call."""
    def rngs() -> list[list[np.random.Generator]]:
        return [[np.random.default_rng([t, s]) for s in range(3)] for t in range(4)]
    direct, ahead = rngs(), _SeatUniforms(rngs(), block=block)
    for t, s, k in calls:
        got = ahead(np.array([t]), np.array([s]), k)
        assert got.shape == (1, k)
        assert np.array_equal(got[0], direct[t][s].random(k))


def test_seat_uniforms_many_rows_at_once() -> None:
    """Several (table, seat) rows per call, in the order given."""
    direct = [[np.random.default_rng([t, s]) for s in range(2)] for t in range(5)]
    ahead = _SeatUniforms([[np.random.default_rng([t, s]) for s in range(2)] for t in range(5)], block=4)
    rng = np.random.default_rng(0)
    for _ in range(50):
        rows = rng.permutation(5)[: rng.integers(1, 6)]
        seats = rng.integers(0, 2, size=rows.size)
        k = int(rng.integers(0, 6))
        want = np.array([direct[t][s].random(k) for t, s in zip(rows.tolist(), seats.tolist(), strict=True)])
        assert np.array_equal(ahead(rows, seats, k), want.reshape(rows.size, k))


@pytest.mark.parametrize("players", [2, 6])
def test_step_encoder_writes_what_encode_gives(players: int) -> None:
    """``StepEncoder`` gives ``PpoPolicy.encode``'s bytes on the env's observations (preflop to river, folds,
    all-ins), and on rows it hands back to ``features_batch`` (no hole cards)."""
    from holdem_env.agents.ppo import PolicyConfig, PpoPolicy
    from holdem_env.env.vector import HoldemVectorEnv
    from holdem_env.training.ppo._encode import StepEncoder

    policy = PpoPolicy(PolicyConfig(num_players=players, hidden=(8,)))
    enc = StepEncoder(policy)
    venv = HoldemVectorEnv(24, FixedOpponents([TagAgent]), num_players=players, action_mode="discrete")
    obs, _ = venv.reset(seed=players)
    rng = np.random.default_rng(players)
    streets = set()
    for _ in range(60):
        x = obs["observation"]
        out = np.full((len(x), policy.config.input_size), np.nan, dtype=np.float32)
        enc.encode(x, out)
        assert out.tobytes() == policy.encode(x).tobytes()
        board = x[:, StepEncoder(policy).board].sum(axis=1)
        streets.update(board.astype(int).tolist())
        legal = obs["action_mask"] > 0
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in legal])
        obs, *_ = venv.step(acts)
    assert streets >= {0, 3, 4, 5}  # every street was compared
    odd = x.copy()
    odd[0, StepEncoder(policy).hole] = 0.0  # a seat without hole cards: features_batch's path
    out = np.empty((len(odd), policy.config.input_size), dtype=np.float32)
    enc.encode(odd, out)
    assert out.tobytes() == policy.encode(odd).tobytes()


@pytest.mark.parametrize("backend", ["batched", "tables"])
def test_step_arrays_is_step_without_infos(backend: str) -> None:
    """``HoldemVectorEnv.step_arrays`` gives ``step``'s observations, masks, rewards and terminations."""
    from holdem_env.env.vector import HoldemVectorEnv

    envs = [HoldemVectorEnv(8, FixedOpponents([TagAgent]), num_players=3, action_mode="discrete", backend=backend)
            for _ in range(2)]
    a, _ = envs[0].reset(seed=4)
    b, _ = envs[1].reset(seed=4)
    rng = np.random.default_rng(1)
    done_any = False
    for _ in range(40):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in a["action_mask"] > 0])
        a, ra, da, _, _ = envs[0].step(acts)
        x, m, rb, db = envs[1].step_arrays(acts)
        assert np.array_equal(a["observation"], x) and np.array_equal(a["action_mask"], m)
        assert ra.dtype == rb.dtype and np.array_equal(ra, rb) and np.array_equal(da, db)
        done_any |= bool(da.any())
    assert done_any


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 12), st.integers(2, 9), st.integers(0, 2**32 - 1), st.sampled_from(["plain", "tiny", "zeros"]))
def test_compiled_draw_is_sample_with_uniforms(rows: int, actions: int, seed: int, kind: str) -> None:
    """``_kernels.draw_rows`` picks ``sample_with_uniforms``' ids (also where the legal mass underflows to 0)."""
    from holdem_env.agents.ppo import sample_with_uniforms
    from holdem_env.training.ppo import _kernels
    from holdem_env.training.ppo.algorithm import _draw

    rng = np.random.default_rng(seed)
    masks = (rng.random((rows, actions)) < 0.6).astype(np.int8)
    masks[np.arange(rows), rng.integers(0, actions, rows)] = 1
    probs = rng.dirichlet(np.ones(actions), size=rows)
    if kind == "tiny":
        probs *= 1e-320
    elif kind == "zeros":
        probs[rng.random(rows) < 0.5] = 0.0
    u = rng.random(rows)
    if rows > 1:
        u[0] = 0.0
        u[-1] = np.nextafter(1.0, 0.0)
    want = sample_with_uniforms(probs, masks, u)
    assert np.array_equal(_draw(probs, masks, u, np.empty_like(probs)), want)
    if _kernels.COMPILED:
        out = np.full(rows, -1, dtype=np.int64)
        assert _kernels.draw_rows(probs, masks, u, np.empty_like(probs), out) == -1
        assert np.array_equal(out, want)


def test_compiled_draw_refuses_a_row_without_actions() -> None:
    from holdem_env.engine.errors import HoldemError
    from holdem_env.training.ppo.algorithm import _draw

    masks = np.array([[1, 0], [0, 0]], dtype=np.int8)
    with pytest.raises(HoldemError, match="allows no action"):
        _draw(np.full((2, 2), 0.5), masks, np.array([0.1, 0.2]), np.empty((2, 2)))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.lists(st.floats(-400, 400), max_size=30)), max_size=12),
       st.sampled_from([1.0, 0.3]))
def test_pool_record_many_is_record_in_order(batches: list[tuple[int, list[float]]], share: float) -> None:
    """``OpponentPool.record_many`` (its loop inlined) leaves the pool as ``record`` hand by hand does."""
    from holdem_env.training.pool import OpponentPool

    one, many = (OpponentPool(["random", "tag"], window=7, uniform_share=share) for _ in range(2))
    for member, payoffs in batches:
        for p in payoffs:
            one.record(member, p)
        many.record_many(member, np.array(payoffs))
        assert many.results_state() == one.results_state() and many.weights() == one.weights()

"""The sampling's glue kept between steps gives what the per-call code gives: block-read uniforms, the checked-once encoder."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.env._vector_batched import _SeatUniforms


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

"""ObservationBuilder: gathers, per-decision scalars and masks, and its argument checks."""

from __future__ import annotations

import numpy as np
import pytest

from holdem_env.env._obsbuild import ObservationBuilder as PureBuilder

BUILDERS = [pytest.param(PureBuilder, id="pure")]


def _setup(builder: type, num_actions: int = 30) -> tuple[np.ndarray, np.ndarray, object]:
    rng = np.random.default_rng(4)
    buffer = rng.random(50).astype(np.float32)
    gather = rng.integers(0, 50, size=(3, 20)).astype(np.intp)
    return buffer, gather, builder(buffer, gather, num_actions, 5)


@pytest.mark.parametrize("builder", BUILDERS)
def test_idle_and_waiting_observations_gather_the_buffer(builder: type) -> None:
    buffer, gather, b = _setup(builder)
    out = b.idle(1)
    assert out["observation"].dtype == np.float32 and out["action_mask"].dtype == np.int8
    assert np.array_equal(out["observation"], buffer[gather[1]])
    assert not out["action_mask"].any() and out["action_mask"].shape == (30,)
    waiting = b.waiting(2, 1.25)["observation"]
    expected = buffer[gather[2]]
    expected[5] = 1.25
    assert np.array_equal(waiting, expected)
    buffer[gather[1, 0]] = 7.0  # observations are copies taken at call time
    assert out["observation"][0] != 7.0 and b.idle(1)["observation"][0] == 7.0


@pytest.mark.parametrize("builder", BUILDERS)
def test_actor_observation_has_scalars_and_mask(builder: type) -> None:
    buffer, gather, b = _setup(builder)
    out = b.actor(0, 0.5, 2.0, 9.75, True, True, 10, 14, [20, 29])
    expected = buffer[gather[0]]
    expected[5:8] = (0.5, 2.0, 9.75)
    assert np.array_equal(out["observation"], expected)
    assert np.flatnonzero(out["action_mask"]).tolist() == [0, 1, 10, 11, 12, 13, 20, 29]
    only_call = b.actor(0, 0.1, 0.0, 0.0, False, True, 0, 0, None)["action_mask"]
    assert np.flatnonzero(only_call).tolist() == [1]


@pytest.mark.parametrize("builder", BUILDERS)
def test_bad_arguments_raise_clear_errors(builder: type) -> None:
    buffer, gather, b = _setup(builder)
    with pytest.raises(IndexError, match="seat 3 is out of range 0..2"):
        b.idle(3)
    with pytest.raises(IndexError, match="raise ids 25..30 are outside 0..29"):
        b.actor(0, 0.0, 0.0, 0.0, True, True, 25, 31, None)
    with pytest.raises(IndexError, match="action id 30 is outside 0..29"):
        b.actor(0, 0.0, 0.0, 0.0, True, True, 0, 0, [2, 30])
    with pytest.raises(ValueError, match="float32"):
        builder(buffer.astype(np.float64), gather, 30, 5)
    with pytest.raises(ValueError, match="inside the buffer"):
        builder(buffer, gather + 50, 30, 5)
    with pytest.raises(ValueError, match="room for three scalars"):
        builder(buffer, gather, 30, 18)

"""Infos batch: the same keys and types at every step, so vectorised wrappers can stack them.

Gymnasium's ``SyncVectorEnv``/``AsyncVectorEnv`` put each info value into a numpy array typed by
the first value they see (an int that later turns into None crashed them under ``nlhe_v0``) and
``AsyncVectorEnv`` pickles infos between processes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.engine.errors import ConfigError
from holdem_env.env._view import SeatView
from holdem_env.env.gym_wrapper import HoldemGymEnv

_LEGAL_TYPES = {"fold": bool, "check": bool, "call": int, "min_raise_to": int, "max_raise_to": int}


def _signature(info: dict[str, Any]) -> tuple:
    legal = info["legal"]
    return tuple(sorted((k, type(v)) for k, v in legal.items())) + tuple(sorted(k for k in info))


@pytest.mark.parametrize("info_mode", ["full", "minimal"])
def test_every_info_has_the_same_keys_and_types_and_zero_means_no_raise(info_mode: str) -> None:
    env = nlhe_v1.env(num_players=4, action_mode="exact", info_mode=info_mode)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    signatures = set()
    no_raise = with_raise = 0
    for _ in range(30):
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            signatures.add(_signature(info))
            assert {k: type(v) for k, v in info["legal"].items()} == _LEGAL_TYPES
            lo, hi = info["legal"]["min_raise_to"], info["legal"]["max_raise_to"]
            if term or trunc:
                assert (lo, hi) == (0, 0)
                env.step(None)
                continue
            raises = np.flatnonzero(obs["action_mask"][2:]) + 2
            if lo == 0:
                assert hi == 0 and len(raises) == 0
                no_raise += 1
            else:
                assert raises.tolist() == list(range(lo + 1, hi + 2))
                with_raise += 1
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(signatures) == 1
    assert (("view" in next(iter(signatures))) is (info_mode == "full")) and no_raise > 5 and with_raise > 50


def test_info_mode_is_validated() -> None:
    with pytest.raises(ConfigError, match="info_mode"):
        nlhe_v1.raw_env(info_mode="lean")


def _make(seed: int, info_mode: str) -> Callable[[], gymnasium.Env]:
    def thunk() -> gymnasium.Env:
        return HoldemGymEnv(learner=seed % 3, num_players=3, action_mode="exact", info_mode=info_mode)

    return thunk


def _run_vector(vec: gymnasium.vector.VectorEnv, steps: int) -> tuple[int, np.ndarray]:
    rng = np.random.default_rng(0)
    obs, infos = vec.reset(seed=11)
    episodes = 0
    total = np.zeros(vec.num_envs)
    for _ in range(steps):
        masks = obs["action_mask"]
        # a finished hand's mask is all zeros; the vector env resets it on this step (any action)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        assert infos["legal"]["min_raise_to"].dtype.kind == "i" and infos["legal"]["fold"].dtype == bool
        episodes += int(terminated.sum())
        total += rewards
    return episodes, total


@pytest.mark.parametrize("info_mode", ["full", "minimal"])
def test_sync_vector_env_runs_hundreds_of_steps(info_mode: str) -> None:
    vec = gymnasium.vector.SyncVectorEnv([_make(i, info_mode) for i in range(4)])
    episodes, _ = _run_vector(vec, 300)
    vec.close()
    assert episodes > 100


def test_async_vector_env_runs_hundreds_of_steps_and_matches_sync() -> None:
    fns = [_make(i, "full") for i in range(3)]
    vec = gymnasium.vector.AsyncVectorEnv(fns, context="fork")
    try:
        obs, infos = vec.reset(seed=11)
        views = infos["view"]
        assert all(isinstance(v, SeatView) for v in views) and [v["seat"] for v in views] == [0, 1, 2]
        async_result = _run_vector(vec, 300)
    finally:
        vec.close()
    sync = gymnasium.vector.SyncVectorEnv(fns)
    sync_result = _run_vector(sync, 300)
    sync.close()
    assert async_result[0] == sync_result[0] > 80
    np.testing.assert_array_equal(async_result[1], sync_result[1])

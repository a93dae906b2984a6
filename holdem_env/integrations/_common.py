"""Builds a :class:`HoldemGymEnv` from a plain config dict (agent specs for the opponents), for every adapter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np

from holdem_env.agents.base import make_agent
from holdem_env.engine.errors import ConfigError
from holdem_env.env.gym_wrapper import HoldemGymEnv

__all__ = ["IllegalCountWrapper", "holdem_env_from_config", "opponent_from_spec", "add_script_arguments"]


def opponent_from_spec(opponent: Any, seed: int = 0) -> Any:
    """An opponent policy: ``None`` stays None (the env's uniform random play), an agent spec string is built
    with a generator from ``seed``, anything else (an agent object or callable) is used as given."""
    if isinstance(opponent, str):
        return make_agent(opponent, rng=np.random.default_rng(seed))
    return opponent


def holdem_env_from_config(config: Mapping[str, Any] | None) -> HoldemGymEnv:
    """A ``HoldemGymEnv`` from ``config``: ``opponent`` (an agent spec such as ``"tag"``; ``None`` or
    ``"random"`` for uniform legal play, the default), ``seed`` (the opponent's first generator; ``reset(seed=...)``
    reseeds it anyway) and every other key as a ``HoldemGymEnv`` keyword (``num_players``, ``reward_scale``, ...).

    >>> env = holdem_env_from_config({"opponent": "tag", "num_players": 2, "reward_scale": 0.1})
    >>> type(env.unwrapped).__name__, env.reward_scale
    ('HoldemGymEnv', 0.1)
    """
    if config is not None and not isinstance(config, Mapping):
        raise ConfigError("env_config", config, "must be a dict (opponent, seed and HoldemGymEnv keywords)")
    kwargs = dict(config or {})
    opponent = kwargs.pop("opponent", None)
    seed = kwargs.pop("seed", 0)
    kwargs.setdefault("num_players", 2)
    return HoldemGymEnv(opponents=opponent_from_spec(opponent, seed), **kwargs)


class IllegalCountWrapper(gymnasium.ObservationWrapper):
    """An observation wrapper whose ``reset``/``step`` infos keep only ``illegal_actions`` and whose reward is a
    float (what RLlib and Tianshou expect); subclasses say how the observation is renamed."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        obs, info = super().reset(seed=seed, options=options)
        return obs, {"illegal_actions": info["illegal_actions"]}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, float(reward), terminated, truncated, {"illegal_actions": info["illegal_actions"]}


def add_script_arguments(parser: Any, *, out: str, opponent: str | None = None) -> Any:
    """Add the options every training script of ``examples/`` shares to an ``argparse`` parser:
    ``--seed`` (0), ``--out`` (``out``: where the trained policy goes), ``--threads`` (torch
    threads, 1: on a busy machine torch's default of one per core makes small networks many times
    slower) and ``--eval-hands`` (the closing duplicate evaluation's hands per opponent, 2000);
    with ``opponent``, also ``--opponent`` (the agent spec in the other seat, that default).
    Returns the parser."""
    if opponent is not None:
        parser.add_argument("--opponent", default=opponent, help="agent spec in the other seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=out, help="where the trained policy is saved")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--eval-hands", type=int, default=2000, help="duplicate hands against each of tag and random")
    return parser

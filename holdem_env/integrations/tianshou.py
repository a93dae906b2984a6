"""Tianshou: ``HoldemGymEnv`` with the ``{"obs", "mask"}`` observation Tianshou's masked Q-learning reads.

Tianshou (2.x) masks Q-values when an observation is a dict with ``obs`` and a bool ``mask``, and
stores every info in its replay buffer, which needs the same keys and plain values at every step.
:class:`TianshouHoldemEnv` renames, converts, and keeps only ``illegal_actions`` in the infos. The
single-agent path::

    from tianshou.env import DummyVectorEnv
    from holdem_env.integrations.tianshou import make_tianshou_env

    train_envs = DummyVectorEnv([make_tianshou_env("random", seed=i, reward_scale=0.1) for i in range(4)])

>>> env = make_tianshou_env("tag", seed=1)()
>>> obs, info = env.reset(seed=0)
>>> sorted(obs), obs["mask"].dtype.name, info
(['mask', 'obs'], 'bool', {'illegal_actions': 0})
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from holdem_env.integrations._common import IllegalCountWrapper, holdem_env_from_config

__all__ = ["TianshouHoldemEnv", "make_tianshou_env", "export_q_network"]


class TianshouHoldemEnv(IllegalCountWrapper):
    """``{"obs": float32 vector, "mask": bool mask}`` observations and ``{"illegal_actions": n}`` infos."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        space = env.observation_space
        assert isinstance(space, gymnasium.spaces.Dict)  # HoldemGymEnv's default dict format
        shape = space["action_mask"].shape
        assert shape is not None  # a Box has a shape
        size = int(np.prod(shape))
        self.observation_space = gymnasium.spaces.Dict(
            {"obs": space["observation"], "mask": gymnasium.spaces.MultiBinary(size)}
        )

    def observation(self, observation: dict) -> dict:
        """Rename and make the mask bool."""
        return {"obs": observation["observation"], "mask": observation["action_mask"].astype(bool)}


def make_tianshou_env(opponent: str | None = "random", seed: int = 0, **kwargs: Any) -> Callable[[], TianshouHoldemEnv]:
    """A thunk for Tianshou's vector envs: one heads-up table (unless ``num_players``) against ``opponent``
    (an agent spec), its generator from ``seed``; ``kwargs`` are ``HoldemGymEnv`` keywords."""

    def thunk() -> TianshouHoldemEnv:
        return TianshouHoldemEnv(holdem_env_from_config({"opponent": opponent, "seed": seed, **kwargs}))

    return thunk


def export_q_network(net: Any, obs_dim: int, num_actions: int, path: str | Path) -> None:
    """Save a Tianshou ``Net`` (``q, state = net(obs)``) as ``scores = policy(obs, mask)`` for ``holdem eval``'s
    ``torchscript(path=...)`` (the agent applies the mask)."""
    import torch

    class Exported(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            return self.inner(obs)[0]

    example = (torch.zeros(1, obs_dim), torch.ones(1, num_actions))
    torch.jit.save(torch.jit.trace(Exported(net).eval(), example), str(path))

"""Flat observations: the observation vector followed by the action mask as 0/1, in one float32 ``Box``.

For libraries and wrappers that take a ``Box`` but not a ``Dict`` observation (Stable-Baselines3's
``MlpPolicy``, SuperSuit's observation wrappers, plain CleanRL loops). The Gymnasium wrapper offers it
as ``HoldemGymEnv(observation_format="flat")``; for the multi-agent (AEC) env, wrap it:

>>> import numpy as np
>>> from holdem_env.env import nlhe_v1
>>> from holdem_env.env.flat import flat_observation_v0, split_flat_observation
>>> env = flat_observation_v0(nlhe_v1.env(num_players=2))
>>> env.reset(seed=1)
>>> obs, _, _, _, info = env.last()
>>> obs.shape == env.observation_space(env.agent_selection).shape, obs.dtype.name
(True, 'float32')
>>> vector, mask = split_flat_observation(obs, env.action_space(env.agent_selection).n)
>>> bool(mask[1])  # call is legal for the small blind facing the big blind
True

The wrapped env is the same env: the same hands, rewards, infos and legality checks; only the
observation's form changes (nothing is dropped, the mask is the last ``action_space.n`` entries).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo.utils.env import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from holdem_env.engine.errors import ConfigError

__all__ = [
    "FlatObservationWrapper",
    "flat_observation_space",
    "flat_observation_v0",
    "flatten_observation",
    "split_flat_observation",
]


def flat_observation_space(space: gymnasium.spaces.Space) -> gymnasium.spaces.Box:
    """The ``Box`` of :func:`flatten_observation`'s output for the env's ``Dict`` observation space.

    Bounds are the vector's bounds followed by ``[0, 1]`` for each mask entry.
    """
    if not isinstance(space, gymnasium.spaces.Dict) or set(space.spaces) != {"observation", "action_mask"}:
        raise ConfigError("observation_space", space, "a Dict with keys 'observation' and 'action_mask'")
    vector, mask = space["observation"], space["action_mask"]
    if not isinstance(vector, gymnasium.spaces.Box) or mask.shape is None:
        raise ConfigError("observation_space", space, "its 'observation' must be a Box and 'action_mask' sized")
    n = int(np.prod(mask.shape))
    return gymnasium.spaces.Box(
        low=np.concatenate([vector.low, np.zeros(n, np.float32)]),
        high=np.concatenate([vector.high, np.ones(n, np.float32)]),
        dtype=np.float32,
    )


def flatten_observation(obs: Mapping[str, np.ndarray]) -> np.ndarray:
    """One float32 vector: ``obs["observation"]`` then ``obs["action_mask"]`` as 0.0/1.0."""
    return np.concatenate([obs["observation"], obs["action_mask"].astype(np.float32)])


def split_flat_observation(flat: np.ndarray, num_actions: int) -> tuple[np.ndarray, np.ndarray]:
    """``(observation, action_mask)`` of a flat observation (the mask as int8), batched or not.

    >>> split_flat_observation(np.array([0.5, 2.0, 1.0, 0.0, 1.0], dtype=np.float32), 3)
    (array([0.5, 2. ], dtype=float32), array([1, 0, 1], dtype=int8))
    """
    return flat[..., :-num_actions], flat[..., -num_actions:].astype(np.int8)


class FlatObservationWrapper(BaseWrapper):
    """A PettingZoo AEC wrapper giving every agent the flat observation (see the module docstring).

    Each agent's info also carries ``"action_mask"`` (int8), where PettingZoo's tools (``api_test``)
    and libraries look for the mask when the observation is not a dict.
    """

    def __init__(self, env: AECEnv) -> None:
        if not isinstance(env, AECEnv):
            raise ConfigError("env", env, "a PettingZoo AEC env such as holdem_env.env.nlhe_v1.env()")
        super().__init__(env)
        self._spaces: dict[Any, gymnasium.spaces.Box] = {}
        self._info_cache: dict[Any, tuple[Any, np.ndarray, dict[str, Any]]] = {}

    def observation_space(self, agent: Any) -> gymnasium.spaces.Box:
        """The flat ``Box`` of ``agent`` (computed once per agent)."""
        space = self._spaces.get(agent)
        if space is None:
            space = self._spaces[agent] = flat_observation_space(self.env.observation_space(agent))
        return space

    @property
    def infos(self) -> dict[Any, dict[str, Any]]:
        """The wrapped env's infos, each with the agent's ``"action_mask"`` added (the env's own dicts untouched).

        Reading the same agent twice with nothing changed in between gives the same dict, so ``info ==
        env.infos[agent]`` holds (PettingZoo's ``api_test`` checks it) although the mask is an array.
        """
        return {agent: self._info_with_mask(agent, info) for agent, info in self.env.infos.items()}

    def _info_with_mask(self, agent: Any, info: dict[str, Any]) -> dict[str, Any]:
        obs = self.env.observe(agent)
        if obs is None:
            return info
        mask = obs["action_mask"]
        cached = self._info_cache.get(agent)
        if cached is not None and cached[0] is info and np.array_equal(cached[1], mask):
            return cached[2]
        out = {**info, "action_mask": mask}
        self._info_cache[agent] = (info, mask, out)
        return out

    def observe(self, agent: Any) -> np.ndarray | None:
        """The wrapped env's observation of ``agent``, flattened."""
        obs = self.env.observe(agent)
        return None if obs is None else flatten_observation(obs)


flat_observation_v0 = FlatObservationWrapper

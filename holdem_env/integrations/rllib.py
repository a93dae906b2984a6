"""RLlib: ``HoldemGymEnv`` with the observation RLlib's action-masking RLModule reads, and a TorchScript export.

RLlib's ``ActionMaskingTorchRLModule`` wants ``{"observations": vector, "action_mask": float32}``;
the env gives ``{"observation", "action_mask" (int8)}`` (``KeyError: 'observations'`` otherwise).
:class:`RLlibHoldemEnv` renames and converts, takes RLlib's ``env_config`` dict and passes RLlib's env
checker (which steps unmasked random actions: they are played as timeouts, see
:mod:`holdem_env.env.gym_wrapper`). PPO in a few lines (``pip install "holdem-env[rllib]"``)::

    from ray.rllib.algorithms.ppo import PPOConfig
    from holdem_env.integrations.rllib import RLlibHoldemEnv, action_masking_module_spec

    config = (PPOConfig().environment(RLlibHoldemEnv, env_config={"opponent": "tag", "reward_scale": 0.1})
              .rl_module(rl_module_spec=action_masking_module_spec()))
    algo = config.build_algo()
    algo.train()

>>> env = RLlibHoldemEnv({"opponent": "tag", "num_players": 2})
>>> obs, info = env.reset(seed=0)
>>> sorted(obs), obs["action_mask"].dtype.name, info
(['action_mask', 'observations'], 'float32', {'illegal_actions': 0})
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from holdem_env.integrations._common import IllegalCountWrapper, holdem_env_from_config

__all__ = ["RLlibHoldemEnv", "action_masking_module_spec", "export_torchscript"]


class RLlibHoldemEnv(IllegalCountWrapper):
    """``HoldemGymEnv`` (built from ``config``, see :func:`~holdem_env.integrations._common.holdem_env_from_config`)
    with ``{"observations": float32 vector, "action_mask": float32 0/1}`` observations.

    Infos keep only ``illegal_actions`` (RLlib stores every info in its episodes; the env's
    ``view`` snapshots would only cost memory there). ``action_masks()`` is the env's.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__(holdem_env_from_config(config))
        space = self.env.observation_space
        assert isinstance(space, gymnasium.spaces.Dict)  # the wrapper's default dict format
        mask = space["action_mask"]
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observations": space["observation"],
                "action_mask": gymnasium.spaces.Box(0.0, 1.0, mask.shape, np.float32),
            }
        )

    def observation(self, observation: dict) -> dict:
        """Rename ``observation`` and make the mask float32."""
        return {"observations": observation["observation"], "action_mask": observation["action_mask"].astype(np.float32)}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as bools."""
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


def action_masking_module_spec(**kwargs: Any) -> Any:
    """RLlib's ``RLModuleSpec`` for its ``ActionMaskingTorchRLModule`` (``kwargs`` go to ``RLModuleSpec``)."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, **kwargs)


def export_torchscript(module: Any, obs_dim: int, num_actions: int, path: str | Path) -> None:
    """Save an RLlib action-masking module as ``logits = policy(obs, mask)`` (what ``holdem eval`` loads
    with ``torchscript(path=...)``)."""
    import torch

    class Exported(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            batch = {"obs": {"observations": obs, "action_mask": mask}}
            return self.inner.forward_inference(batch)["action_dist_inputs"]

    example = (torch.zeros(1, obs_dim), torch.ones(1, num_actions))
    traced = torch.jit.trace(Exported(module.eval()), example, strict=False)
    torch.jit.save(traced, str(path))

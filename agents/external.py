"""Agents that play a policy trained outside this package: a Stable-Baselines3 model or a TorchScript file.

Both load once, then act from the seat's observation alone, so ``holdem eval`` and the arena can
seat what an RL library saved::

    holdem eval "sb3(path='ppo_holdem.zip')" tag --players 2
    holdem eval "torchscript(path='policy.pt')" random --players 2

``sb3(path=..., deterministic=True)``
    A ``.zip`` saved by sb3-contrib's ``MaskablePPO`` (or any Stable-Baselines3 algorithm whose
    ``predict`` takes ``action_masks``). The model's observation space says which format it was
    trained on: a ``Dict`` gets the environment's observation dict, a ``Box`` the flat vector of
    :class:`~holdem_env.env.gym_wrapper.HoldemGymEnv` ``observation_format="flat"``.

``torchscript(path=..., deterministic=True)``
    A TorchScript module (``torch.jit.save``) called as ``logits = policy(obs, mask)`` on a batch
    of one: ``obs`` the float32 observation vector ``[1, D]``, ``mask`` the float32 action mask
    ``[1, A]``; it returns ``[1, A]`` action scores. This is the library-independent format the
    CleanRL-style example writes; any library's network exports to it in three lines.

Either way the agent never plays a masked-out action: the mask is applied to what the model
returns (greedy with ``deterministic=True``, else sampled from the masked softmax with the
agent's seeded generator). A model built for another table (seat count, action mode, bet sizes)
is refused on its first decision with an :class:`ExternalPolicyError` naming both shapes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.agents.base import agent_rng
from holdem_env.engine.errors import HoldemError
from holdem_env.safefiles import UnsafeFileError, check_zip

__all__ = ["ExternalPolicyError", "Sb3Agent", "TorchScriptAgent", "masked_choice", "MAX_EXTERNAL_BYTES"]

#: Largest model file accepted, uncompressed (checked from its zip headers before loading).
MAX_EXTERNAL_BYTES = 2 << 30


class ExternalPolicyError(HoldemError):
    """A saved policy cannot be loaded, or does not fit the table it is asked to play."""


def masked_choice(scores: np.ndarray, mask: np.ndarray, deterministic: bool, rng: np.random.Generator) -> int:
    """The action among ``mask``'s legal ids: the best score, or a draw from the masked softmax.

    >>> rng = np.random.default_rng(0)
    >>> masked_choice(np.array([5.0, 1.0, 9.0]), np.array([1, 1, 0]), True, rng)   # id 2 is masked out
    0
    >>> masked_choice(np.array([0.0, 0.0]), np.array([0, 0]), True, rng)
    Traceback (most recent call last):
    ...
    holdem_env.agents.external.ExternalPolicyError: the action mask allows no action
    """
    legal = np.asarray(mask).astype(bool)
    if not legal.any():
        raise ExternalPolicyError("the action mask allows no action")
    masked = np.where(legal, np.asarray(scores, dtype=np.float64), -np.inf)
    if deterministic:
        return int(np.argmax(masked))
    probs = np.exp(masked - masked.max())
    probs /= probs.sum()
    return int(rng.choice(probs.size, p=probs))


def _existing_file(path: Any, what: str) -> Path:
    if not isinstance(path, (str, Path)) or not str(path):
        raise ExternalPolicyError(f"{what}: path={path!r} is invalid: give the file the training script saved")
    file = Path(path).expanduser()
    if not file.is_file():
        raise ExternalPolicyError(f"{what}: path={str(path)!r} is not a file")
    return file


class Sb3Agent:
    """Plays a Stable-Baselines3 / sb3-contrib model saved with ``model.save(path)``."""

    def __init__(
        self,
        path: str,
        algo: str = "MaskablePPO",
        deterministic: bool = True,
        seed: int | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        file = _existing_file(path, "sb3")
        try:
            algo_class: Any
            if algo == "MaskablePPO":
                from sb3_contrib import MaskablePPO

                algo_class = MaskablePPO
            else:
                import stable_baselines3

                algo_class = getattr(stable_baselines3, algo)
        except (ImportError, AttributeError) as exc:
            raise ExternalPolicyError(
                f"sb3: algo={algo!r} cannot be loaded ({exc}): install holdem-env[examples] "
                "or name a Stable-Baselines3 algorithm class"
            ) from None
        try:
            check_zip(file, MAX_EXTERNAL_BYTES)
            self.model = algo_class.load(str(file), device="cpu")
        except UnsafeFileError as exc:
            raise ExternalPolicyError(f"sb3: {exc}") from None
        except Exception as exc:  # a damaged or foreign file fails anywhere inside Stable-Baselines3
            raise ExternalPolicyError(
                f"sb3: {str(path)!r} cannot be loaded as a {algo} model ({type(exc).__name__}: {str(exc)[:300]})"
            ) from None
        self.flat = not hasattr(self.model.observation_space, "spaces")
        self.deterministic = bool(deterministic)
        self.rng = agent_rng(rng, seed)
        self.takes_masks = algo == "MaskablePPO"

    def set_rng(self, rng: np.random.Generator) -> None:
        """Take the arena's per-hand generator (used only when ``deterministic=False``)."""
        self.rng = rng

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """The model's action for this seat, never a masked-out one."""
        mask = np.asarray(observation["action_mask"])
        vector = np.asarray(observation["observation"], dtype=np.float32)
        obs: Any = np.concatenate([vector, mask.astype(np.float32)]) if self.flat else dict(observation)
        space: Any = self.model.observation_space
        expected = space.shape if self.flat else space["observation"].shape
        got = obs.shape if self.flat else vector.shape
        if tuple(expected) != tuple(got):
            raise ExternalPolicyError(
                f"sb3: the model expects observations of shape {tuple(expected)}, this table gives {tuple(got)}: "
                "evaluate with the seat count, action mode and bet sizes it was trained with"
            )
        if self.takes_masks:
            action, _ = self.model.predict(obs, action_masks=mask.astype(bool), deterministic=self.deterministic)
            return int(action)
        action, _ = self.model.predict(obs, deterministic=self.deterministic)
        a = int(action)
        return a if mask[a] else masked_choice(np.zeros(mask.size), mask, False, self.rng)


class TorchScriptAgent:
    """Plays a TorchScript policy ``logits = policy(obs[1, D], mask[1, A])``."""

    def __init__(
        self, path: str, deterministic: bool = True, seed: int | None = None, rng: np.random.Generator | None = None
    ) -> None:
        import torch

        file = _existing_file(path, "torchscript")
        try:
            check_zip(file, MAX_EXTERNAL_BYTES)
            self.policy = torch.jit.load(str(file), map_location="cpu").eval()
        except UnsafeFileError as exc:
            raise ExternalPolicyError(f"torchscript: {str(path)!r} is not a TorchScript file we may load: {exc}") from None
        except Exception as exc:  # RuntimeError mostly; a crafted archive can fail in other ways
            raise ExternalPolicyError(f"torchscript: {str(path)!r} is not a TorchScript file ({str(exc)[:300]})") from None
        self._torch = torch
        self.deterministic = bool(deterministic)
        self.rng = agent_rng(rng, seed)

    def set_rng(self, rng: np.random.Generator) -> None:
        """Take the arena's per-hand generator (used only when ``deterministic=False``)."""
        self.rng = rng

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """The policy's action for this seat, never a masked-out one."""
        torch = self._torch
        mask = np.asarray(observation["action_mask"])
        obs = torch.as_tensor(np.asarray(observation["observation"], dtype=np.float32))[None]
        with torch.no_grad():
            try:
                scores = self.policy(obs, torch.as_tensor(mask, dtype=torch.float32)[None])
            except RuntimeError as exc:
                raise ExternalPolicyError(
                    f"torchscript: the policy cannot take an observation of shape {tuple(obs.shape)} and a mask of "
                    f"{mask.size} actions ({str(exc).splitlines()[0]}): evaluate with the table it was trained on"
                ) from None
        scores = scores.reshape(-1).numpy()
        if scores.size != mask.size:
            raise ExternalPolicyError(f"torchscript: the policy returned {scores.size} scores for {mask.size} actions")
        if not np.isfinite(scores[mask > 0]).all():
            raise ExternalPolicyError("torchscript: the policy returned NaN or infinite scores for legal actions")
        return masked_choice(scores, mask, self.deterministic, self.rng)

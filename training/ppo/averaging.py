"""Weight averaging of ppo networks (checkpoint averaging, as in SWA: Izmailov et al. 2018).

A run with ``average_from`` set (:class:`~holdem_env.training.ppo.config.PpoRunConfig`) adds the
learner's network to a :class:`WeightAverage` after rounds ``average_from``, ``average_from +
average_every``, ... and writes their equal-weight mean as its policy; :func:`average_files`
averages policy files of one network (``benchmarks/average_ppo_policies.py``). The mean is taken
in float64 and cast back to each tensor's dtype, so the two give the same weights for the same
networks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch

from holdem_env.agents.ppo import PpoPolicy
from holdem_env.engine.errors import ConfigError

__all__ = ["WeightAverage", "average_files"]


class WeightAverage:
    """A running weighted sum of networks' weights (``state_dict`` tensors) and the rounds added.

    >>> avg = WeightAverage()
    >>> avg.add({"w": torch.tensor([1.0, 2.0])}, round_no=10)
    >>> avg.add({"w": torch.tensor([3.0, 6.0])}, round_no=20)
    >>> avg.mean()["w"].tolist(), avg.rounds
    ([2.0, 4.0], [10, 20])
    """

    def __init__(self) -> None:
        self._sum: dict[str, torch.Tensor] = {}
        self._dtypes: dict[str, torch.dtype] = {}
        self._weight = 0.0
        self.rounds: list[int] = []

    def add(self, state: Mapping[str, torch.Tensor], round_no: int, weight: float = 1.0) -> None:
        """Add one network's weights (``weight`` times) as of round ``round_no``."""
        if self._sum and set(state) != set(self._sum):
            raise ConfigError("average", sorted(state), f"must be the same network's tensors as before ({sorted(self._sum)})")
        for key, tensor in state.items():
            term = weight * tensor.detach().double()
            self._sum[key] = self._sum[key] + term if key in self._sum else term
            self._dtypes.setdefault(key, tensor.dtype)
        self._weight += weight
        self.rounds.append(int(round_no))

    def mean(self) -> dict[str, torch.Tensor]:
        """The weighted mean of the networks added, in each tensor's own dtype."""
        if not self._weight:
            raise ConfigError("average", self.rounds, "holds no network yet: add one first")
        return {k: (s / self._weight).to(self._dtypes[k]) for k, s in self._sum.items()}

    def state_dict(self) -> dict[str, Any]:
        """What a checkpoint keeps, so that a resumed run averages the same networks."""
        return {"sum": dict(self._sum), "dtypes": {k: str(v) for k, v in self._dtypes.items()},
                "weight": self._weight, "rounds": list(self.rounds)}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Restore :meth:`state_dict`'s contents."""
        self._sum = dict(state["sum"])
        self._dtypes = {k: getattr(torch, v.removeprefix("torch.")) for k, v in state["dtypes"].items()}
        self._weight = float(state["weight"])
        self.rounds = [int(r) for r in state["rounds"]]


def average_files(paths: Sequence[str | Path], weights: Sequence[float] | None = None) -> PpoPolicy:
    """The weighted weight average of the policy files at ``paths`` (one network config), as a new
    :class:`PpoPolicy` with the first file's metadata plus ``averaged_from`` (names and weights)."""
    if not paths:
        raise ConfigError("inputs", [], "give at least one policy file to average")
    w = [1.0] * len(paths) if weights is None else [float(x) for x in weights]
    if len(w) != len(paths) or min(w) < 0 or sum(w) <= 0:
        raise ConfigError("weights", list(w), f"needs one non-negative weight per input ({len(paths)}), not all 0")
    policies = [PpoPolicy.load(p) for p in paths]
    first = policies[0]
    avg = WeightAverage()
    for path, pol, wi in zip(paths, policies, w, strict=True):
        if pol.config != first.config:
            raise ConfigError("inputs", str(path), f"has another network config than {paths[0]}")
        avg.add(pol.model.state_dict(), 0, wi / sum(w))
    first.model.load_state_dict(avg.mean())
    first.metadata = {**first.metadata, "averaged_from": [[Path(p).name, round(wi / sum(w), 6)] for p, wi in zip(paths, w, strict=True)]}
    return first

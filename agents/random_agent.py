"""Random agents: uniform over legal action ids, or over action types then sizes.

Both read only the ``action_mask`` (id 0 fold, id 1 check/call, ids 2.. bets/raises, in
either action mode of ``nlhe_v0``) and draw from a seeded ``numpy.random.Generator``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from holdem_env.errors import IllegalActionError

__all__ = ["RandomAgent", "RandomTypeAgent"]


def _legal_ids(observation: Mapping[str, Any]) -> np.ndarray:
    ids = np.flatnonzero(np.asarray(observation["action_mask"]))
    if ids.size == 0:
        raise IllegalActionError("the action mask allows no action: this seat is not on turn")
    return ids


class RandomAgent:
    """Uniform over every legal action id (``random``)."""

    def __init__(self, rng: np.random.Generator | None = None, seed: int | None = None) -> None:
        self.rng = rng if rng is not None else np.random.default_rng(seed)

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on (the arena reseeds before every hand)."""
        self.rng = rng

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """A uniformly random legal action id."""
        ids = _legal_ids(observation)
        return int(ids[self.rng.integers(ids.size)])


class RandomTypeAgent(RandomAgent):
    """Uniform over the legal action *types* (fold, check/call, bet/raise), then a
    uniform legal size (``random-type``; the benchmarks' workload).

    Fold is a type only when it is offered (when facing a bet, by default).
    """

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """A random legal type, then a random legal id of that type."""
        ids = _legal_ids(observation)
        groups = [g for g in (ids[ids == 0], ids[ids == 1], ids[ids >= 2]) if g.size]
        group = groups[self.rng.integers(len(groups))]
        return int(group[self.rng.integers(group.size)])

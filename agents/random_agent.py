"""Random agents: uniform over legal action ids, or over action types then sizes.

Both read only the ``action_mask`` (id 0 fold, id 1 check/call, ids 2.. bets/raises, in
either action mode of ``nlhe_v1``), draw from a seeded ``numpy.random.Generator`` and
answer range queries (:mod:`holdem_env.agents.ranges`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from holdem_env.engine.errors import IllegalActionError
from holdem_env.engine.validate import check_bool

from .base import agent_rng

__all__ = ["RandomAgent", "RandomTypeAgent"]


def _legal_ids(observation: Mapping[str, Any]) -> np.ndarray:
    ids = np.flatnonzero(np.asarray(observation["action_mask"]))
    if ids.size == 0:
        raise IllegalActionError("the action mask allows no action: this seat is not on turn")
    return ids


class RandomAgent:
    """Uniform over every legal action id (``random``).

    ``by_type=True`` (spec ``random(by_type=True)``, or the name ``random-type``) first
    draws a uniform legal action *type* -- fold, check/call, bet/raise -- then a uniform
    legal size of that type: the workload used in the benchmarks. Fold is a type only
    when it is offered (when facing a bet, by default).
    """

    def __init__(self, by_type: bool = False, rng: np.random.Generator | None = None, seed: int | None = None) -> None:
        self.by_type = check_bool("by_type", by_type)
        self.rng = agent_rng(rng, seed)

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on (the arena reseeds before every hand)."""
        self.rng = rng

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """A random legal action id."""
        return self._choose(_legal_ids(observation), self.rng)

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, rngs: Sequence[np.random.Generator] | None = None
    ) -> np.ndarray:
        """One action per mask row (``(B, A)``), row ``i`` drawn with ``rngs[i]`` (default: the agent's
        generator) exactly as :meth:`act` would draw it; ``observations`` are not needed."""
        masks = np.asarray(masks)
        gens = rngs if rngs is not None else [self.rng] * len(masks)
        return np.array([self._choose(_legal_ids({"action_mask": m}), g) for m, g in zip(masks, gens, strict=True)],
                        dtype=np.int64)

    def _choose(self, ids: np.ndarray, rng: np.random.Generator) -> int:
        if self.by_type:
            groups = [g for g in (ids[ids == 0], ids[ids == 1], ids[ids >= 2]) if g.size]
            ids = groups[rng.integers(len(groups))]
        return int(ids[rng.integers(ids.size)])

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        """Range query (:mod:`holdem_env.agents.ranges`): the cards do not matter, every row
        is the distribution :meth:`act` draws from."""
        ids = _legal_ids(observation)
        row = np.zeros(len(np.asarray(observation["action_mask"])))
        if self.by_type:
            groups = [g for g in (ids[ids == 0], ids[ids == 1], ids[ids >= 2]) if g.size]
            for g in groups:
                row[g] += 1.0 / (len(groups) * g.size)
        else:
            row[ids] = 1.0 / ids.size
        return np.tile(row, (len(holdings), 1))


class RandomTypeAgent(RandomAgent):
    """``random-type``: :class:`RandomAgent` with ``by_type=True``."""

    def __init__(self, by_type: bool = True, rng: np.random.Generator | None = None, seed: int | None = None) -> None:
        super().__init__(by_type=by_type, rng=rng, seed=seed)

"""Random agents: uniform over legal action ids, or over action types then sizes.

Both read only the ``action_mask`` (id 0 fold, id 1 check/call, ids 2.. bets/raises, in
either action mode of ``nlhe_v1``), draw from a seeded ``numpy.random.Generator`` and
answer range queries (:mod:`holdem_env.agents.ranges`). For the batched core they also
``decide`` for many waiting tables at once from a :class:`~holdem_env.batched.views.BatchViews`
and given uniforms: the same choice :meth:`RandomAgent.act` makes at each row's single-table
decision in exact action mode (the core's ids), when act's draw picks the same index.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from holdem_env.engine.errors import IllegalActionError
from holdem_env.engine.validate import check_bool

from .base import agent_rng

if TYPE_CHECKING:
    from holdem_env.batched.views import BatchViews

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

    @property
    def uniforms_per_decision(self) -> int:
        """Uniforms :meth:`decide` reads per row: one (the id), two with ``by_type`` (type, then size)."""
        return 2 if self.by_type else 1

    def decide(self, views: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        """Exact action ids ``(R,)`` (0 fold, 1 check/call, ``k + 1`` a bet/raise to ``k`` chips) for the
        rows of ``views``, from ``uniforms`` ``(R, uniforms_per_decision)`` in [0, 1).

        Row by row the choice :meth:`act` makes in ``nlhe_v1``'s exact mode: the legal ids in
        increasing order (fold when offered, check/call, every raise-to from ``min_raise_to`` to
        ``max_raise_to``), index ``floor(u * count)`` of them -- the id ``act`` returns when its
        ``rng.integers(count)`` is that index (``by_type``: the type from the first uniform, the
        size from the second, as ``act`` draws them).
        """
        u = np.asarray(uniforms, dtype=np.float64)
        r = views.rows
        if u.ndim != 2 or u.shape[0] != r or u.shape[1] < self.uniforms_per_decision:
            raise IllegalActionError(
                f"uniforms must have shape ({r}, {self.uniforms_per_decision}) for {r} rows, got {u.shape}"
            )
        fold = np.asarray(views.legal_fold, dtype=np.int64)
        lo = np.asarray(views.min_raise_to, dtype=np.int64)
        sizes = np.where(lo > 0, np.asarray(views.max_raise_to, dtype=np.int64) - lo + 1, 0)

        def pick(n: np.ndarray, x: np.ndarray) -> np.ndarray:
            return np.minimum((x * n).astype(np.int64), n - 1)

        if self.by_type:  # groups in order: fold (when offered), check/call, raises (when any)
            g = pick(fold + 1 + (sizes > 0), u[:, 0]) - fold  # -1 fold, 0 check/call, 1 raises
            return np.where(g < 0, 0, np.where(g == 0, 1, lo + 1 + pick(np.maximum(sizes, 1), u[:, 1])))
        k = pick(fold + 1 + sizes, u[:, 0]) - fold  # -1 fold, 0 check/call, j >= 1 the j-th raise-to
        return np.where(k < 0, 0, np.where(k == 0, 1, lo + k)).astype(np.int64)

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

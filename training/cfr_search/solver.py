"""The blueprint solver: Linear / Discounted external-sampling MCCFR with pruning, driving the compiled core in batches of deals.

:class:`MCCFRSolver` owns the flat regret and strategy tables of a
:class:`~holdem_env.training.cfr_search.tree.BettingTree`, draws a batch of deals from its
deal sampler (a callable ``(rng, count) -> (buckets, results)``), hands them to
:func:`holdem_env.training.cfr_search._core.run_iterations`, and applies the discounts of
:class:`holdem_env.training.cfr.mccfr.Averaging` between batches (a batch never crosses a
discount boundary, so the result does not depend on the batch size). Everything random comes
from the ``numpy.random.Generator`` it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from holdem_env.engine.validate import is_int
from holdem_env.training.cfr.game import GameError
from holdem_env.training.cfr.mccfr import Averaging
from holdem_env.training.cfr_search._core import run_iterations
from holdem_env.training.cfr_search.tree import BettingTree

__all__ = ["Pruning", "MCCFRSolver", "DealSampler", "normalise_blocks"]

DealSampler = Callable[[np.random.Generator, int], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Pruning:
    """Regret-based pruning as in Pluribus: after ``after`` iterations, an iteration prunes with
    probability ``probability``, skipping the traverser's actions whose regret is below
    ``threshold`` (actions into a terminal node are never skipped); regrets never go below
    ``floor``. ``Pruning.off()`` disables it."""

    after: int = 10_000
    probability: float = 0.95
    threshold: float = -3.0e5
    floor: float = -3.1e5

    def __post_init__(self) -> None:
        if not is_int(self.after) or self.after < 0:
            raise GameError(f"pruning after={self.after!r} is invalid: expected an int >= 0")
        if not 0.0 <= float(self.probability) <= 1.0:
            raise GameError(f"pruning probability={self.probability!r} is invalid: expected a number in [0, 1]")
        if not float(self.floor) <= float(self.threshold) <= 0.0:
            raise GameError(
                f"pruning threshold={self.threshold!r}, floor={self.floor!r} are invalid: need floor <= threshold <= 0"
            )

    @staticmethod
    def off() -> Pruning:
        """No pruning and no regret floor."""
        return Pruning(after=0, probability=0.0, threshold=0.0, floor=-np.inf)


def normalise_blocks(tree: BettingTree, sums: np.ndarray) -> np.ndarray:
    """Each information set's cells of ``sums`` divided by their total (uniform where it is 0)."""
    out = np.zeros_like(sums)
    for k in np.unique(tree.num_children[tree.decision_nodes]):
        nodes = tree.decision_nodes[tree.num_children[tree.decision_nodes] == k]
        for node in nodes:
            b = tree.num_buckets[int(tree.street[node])]
            start = int(tree.cell[node])
            block = sums[start : start + b * int(k)].reshape(b, int(k))
            total = block.sum(axis=1, keepdims=True)
            out[start : start + b * int(k)] = np.where(
                total > 0, block / np.where(total > 0, total, 1.0), 1.0 / k
            ).ravel()
    return out


class MCCFRSolver:
    """External-sampling MCCFR on ``tree`` with deals from ``deals``.

    ``averaging`` is ``"linear"`` (Linear CFR: regrets and strategy sums weighted by the
    iteration), ``"discounted"`` (DCFR, α=1.5, β=0, γ=2 by default, discounted every
    ``discount_interval`` iterations), ``"linear-average"`` or ``"uniform"``
    (:class:`holdem_env.training.cfr.mccfr.Averaging`).
    """

    def __init__(
        self,
        tree: BettingTree,
        deals: DealSampler,
        *,
        rng: np.random.Generator,
        averaging: Averaging | str = "linear",
        pruning: Pruning | None = None,
        batch_size: int = 1000,
    ) -> None:
        if not isinstance(rng, np.random.Generator):
            raise GameError(f"rng={rng!r} is invalid: pass a numpy.random.Generator (e.g. default_rng(seed))")
        if not is_int(batch_size) or batch_size < 1:
            raise GameError(f"batch_size={batch_size!r} is invalid: expected an int >= 1")
        self.tree = tree
        self.deals = deals
        self.rng = rng
        self.averaging = averaging if isinstance(averaging, Averaging) else Averaging(averaging)
        self.pruning = pruning if pruning is not None else Pruning.off()
        self.batch_size = int(batch_size)
        self.iteration = 0
        self.regret = np.zeros(tree.num_cells)
        self.strategy_sum = np.zeros(tree.num_cells)
        self.value_estimates: list[float] = []

    def run(self, iterations: int, progress: Callable[[int], None] | None = None) -> None:
        """Run ``iterations`` iterations; ``progress(done)`` is called after each batch."""
        if not is_int(iterations) or iterations < 0:
            raise GameError(f"iterations={iterations!r} is invalid: expected an int >= 0")
        kind = self.averaging.kind
        interval = self.averaging.discount_interval if kind == "discounted" else None
        tree = self.tree
        done = 0
        while done < iterations:
            count = min(self.batch_size, iterations - done)
            if interval is not None:
                count = min(count, interval - self.iteration % interval)
            buckets, results = self.deals(self.rng, count)
            seed = int(self.rng.integers(0, 2**63))
            p = self.pruning
            v = run_iterations(
                tree.actor, tree.street, tree.first, tree.num_children, tree.cell, tree.value,
                self.regret, self.strategy_sum, np.ascontiguousarray(buckets, dtype=np.int64),
                np.ascontiguousarray(results, dtype=np.float64), self.iteration, kind == "linear",
                kind in ("linear", "linear-average"), p.after, float(p.probability), float(p.threshold),
                float(p.floor), seed, tree.max_depth,
            )  # fmt: skip
            self.value_estimates.append(float(v))
            before = self.iteration
            self.iteration += count
            self.averaging.discount(self.regret, self.strategy_sum, before, self.iteration)
            done += count
            if progress is not None:
                progress(done)

    def average_policy(self) -> np.ndarray:
        """The average strategy, normalised per information set (flat cells)."""
        return normalise_blocks(self.tree, self.strategy_sum)

    def current_policy(self) -> np.ndarray:
        """Regret matching of the current regrets (flat cells)."""
        return normalise_blocks(self.tree, np.maximum(self.regret, 0.0))

"""Dealt hands of abstracted heads-up hold'em for the MCCFR core: a pool of flops with every holding's bucket precomputed.

Computing a flop bucket takes 47 x 46 board evaluations, far too slow once per iteration, so
the trainer deals from a :class:`DealPool`: ``flops`` random flops, and for each one every
holding's flop bucket, turn bucket (each turn card) and river bucket (each run-out), from
the exact equities of :func:`holdem_env.agents.cfr_search.abstraction.flop_strengths` (about
2 s and 1.6 MB a flop). A deal draws one pool flop uniformly, then two holdings, a turn and a
river uniformly from the 49 other cards; the showdown result comes from the hand evaluator.
With every flop in the pool this would be the true deal distribution; with a sample of
flops it is a sample-average approximation of it (the buckets, not the flops, are what the
blueprint's information sets see).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from holdem_env.agents.cfr_lite.buckets import preflop_class
from holdem_env.agents.cfr_search.abstraction import CardAbstraction, flop_strengths, histograms_from_strengths
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.ranges import HOLDINGS, holding_indices
from holdem_env.training.cfr.game import GameError

__all__ = ["DealPool", "PREFLOP_CLASS"]

#: The preflop class of each of the 1,326 holdings.
PREFLOP_CLASS = np.array([preflop_class((int(a), int(b))) for a, b in HOLDINGS], dtype=np.int64)


class DealPool:
    """Bucket tables of ``flops`` random flops under ``abstraction``; call it as a deal sampler."""

    def __init__(
        self,
        abstraction: CardAbstraction,
        flops: int,
        rng: np.random.Generator,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        if not isinstance(flops, int) or flops < 1:
            raise GameError(f"flops={flops!r} is invalid: expected an int >= 1")
        self.abstraction = abstraction
        bins = abstraction.config.bins
        self.flops = np.zeros((flops, 3), dtype=np.int64)
        self.flop_bucket = np.zeros((flops, len(HOLDINGS)), dtype=np.uint8)
        self.turn_bucket = np.zeros((flops, 52, len(HOLDINGS)), dtype=np.uint8)
        self.river_bucket = np.zeros((flops, 52 * 52, len(HOLDINGS)), dtype=np.uint8)  # by turn * 52 + river
        for i in range(flops):
            flop = [int(c) for c in rng.choice(52, size=3, replace=False)]
            self.flops[i] = flop
            runouts, strengths = flop_strengths(flop)
            flop_hist, turn_hist = histograms_from_strengths(flop, runouts, strengths, bins)
            self.flop_bucket[i] = abstraction.flop_bucket_of(flop_hist)
            self.turn_bucket[i] = abstraction.turn_bucket_of(turn_hist)
            river = abstraction.river_bucket_of(np.nan_to_num(strengths, nan=0.0))
            self.river_bucket[i, runouts[:, 0] * 52 + runouts[:, 1]] = river
            self.river_bucket[i, runouts[:, 1] * 52 + runouts[:, 0]] = river
            if progress is not None:
                progress(i + 1, flops)

    def deal(self, rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``count`` deals: cards ``[count, 9]`` (hole 0, hole 1, flop, turn, river), buckets
        ``[count, 8]`` (player 0 preflop..river, then player 1) and player 0's result ``[count]``."""
        f = rng.integers(len(self.flops), size=count)
        flop = self.flops[f]
        # six cards off the flop: a random permutation of the 52, flop cards pushed to the end
        keys = rng.random((count, 52))
        keys[np.arange(count)[:, None], flop] = 2.0
        rest = np.argsort(keys, axis=1)[:, :6]
        cards = np.concatenate([rest[:, :4], flop, rest[:, 4:]], axis=1)
        h0 = holding_indices(np.sort(cards[:, 0:2], axis=1))
        h1 = holding_indices(np.sort(cards[:, 2:4], axis=1))
        turn, river = cards[:, 7], cards[:, 8]
        runout = turn * 52 + river
        buckets = np.empty((count, 8), dtype=np.int64)
        for p, h in ((0, h0), (1, h1)):
            buckets[:, 4 * p] = PREFLOP_CLASS[h]
            buckets[:, 4 * p + 1] = self.flop_bucket[f, h]
            buckets[:, 4 * p + 2] = self.turn_bucket[f, turn, h]
            buckets[:, 4 * p + 3] = self.river_bucket[f, runout, h]
        board = cards[:, 4:9]
        v0 = evaluate_batch(np.concatenate([cards[:, 0:2], board], axis=1).astype(np.uint8), validate=False)
        v1 = evaluate_batch(np.concatenate([cards[:, 2:4], board], axis=1).astype(np.uint8), validate=False)
        return cards, buckets, np.sign(v0.astype(np.int64) - v1).astype(np.float64)

    def __call__(self, rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
        """The deal sampler of :class:`~holdem_env.training.cfr_search.solver.MCCFRSolver`: buckets and results."""
        _, buckets, results = self.deal(rng, count)
        return buckets, results

"""Ranges updated by Bayes' rule from a strategy's action probabilities along the actions seen.

A range is a weight per holding (1,326, indexed like :data:`~holdem_env.engine.ranges.HOLDINGS`).
Seeing a player take an action multiplies each holding's weight by the probability that the player's
strategy takes that action with that holding (Bayes' rule, up to the normalisation); a card seen (a
board card, one's own holding) zeroes every holding that contains it. :func:`range_after` applies a
line of such steps and normalises once at the end.

>>> import numpy as np
>>> from holdem_env.engine.ranges import holding_index
>>> w = np.zeros(1326); w[[holding_index(0, 1), holding_index(0, 2), holding_index(4, 8)]] = 1.0
>>> p = np.full(1326, 0.5); p[holding_index(4, 8)] = 1.0
>>> r = range_after(w, [p], dead=[2])
>>> float(r[holding_index(0, 1)]), float(r[holding_index(0, 2)]), float(r[holding_index(4, 8)])
(0.3333333333333333, 0.0, 0.6666666666666666)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from holdem_env.agents.cfr_search.tree import SubgameError
from holdem_env.engine.ranges import NUM_HOLDINGS, blocked_by

__all__ = ["update_range", "remove_cards", "range_after"]


def _weights(values: np.ndarray, what: str) -> np.ndarray:
    w = np.asarray(values, dtype=np.float64)
    if w.shape != (NUM_HOLDINGS,) or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise SubgameError(f"{what} is {NUM_HOLDINGS} finite numbers >= 0 (one per holding), got shape {w.shape}")
    return w


def update_range(weights: np.ndarray, action_probs: np.ndarray) -> np.ndarray:
    """``weights`` times each holding's probability of the action seen (not normalised)."""
    p = _weights(action_probs, "action_probs")
    if np.any(p > 1.0 + 1e-9):
        raise SubgameError("action_probs are probabilities, at most 1")
    return _weights(weights, "weights") * p


def remove_cards(weights: np.ndarray, cards: Sequence[int]) -> np.ndarray:
    """``weights`` with every holding that contains one of ``cards`` (seen elsewhere) set to 0."""
    out = _weights(weights, "weights").copy()
    if len(cards):
        out[blocked_by(list(cards))] = 0.0
    return out


def range_after(weights: np.ndarray, steps: Iterable[np.ndarray], dead: Sequence[int] = ()) -> np.ndarray:
    """The range after each action probability vector of ``steps`` (the player's strategy for the
    actions it was seen to take, in order) and the ``dead`` cards, normalised to sum to 1. Raises
    :class:`SubgameError` when no holding is left (the strategy never takes that line)."""
    w = remove_cards(weights, dead)
    for probs in steps:
        w = update_range(w, probs)
    total = w.sum()
    if total <= 0:
        raise SubgameError("no holding is left in the range: its strategy never takes the actions seen")
    return w / total

"""Fixed-strategy agents for sanity checks: ``always-fold`` and ``always-call``.

``always-fold`` folds whenever folding is offered and checks otherwise; ``always-call``
checks or calls every time. Neither looks at its cards, so both answer range queries
(:mod:`holdem_env.agents.ranges`) with the same row for every holding. Against
``always-fold`` a best response wins the blinds: 750 mbb per hand heads-up (the small
blind's 0.5 big blinds on the button, one big blind otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from holdem_env.engine.errors import IllegalActionError

__all__ = ["AlwaysFoldAgent", "AlwaysCallAgent"]

_FOLD, _CHECK_CALL = 0, 1


def _mask(observation: Mapping[str, Any]) -> np.ndarray:
    mask = np.asarray(observation["action_mask"])
    if not mask.any():
        raise IllegalActionError("the action mask allows no action: this seat is not on turn")
    return mask


class _CardBlindAgent:
    """An agent whose action ignores its cards: every holding gets :meth:`act`'s action."""

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        raise NotImplementedError

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        """Range query: the action of :meth:`act` with probability 1 for every holding."""
        row = np.zeros(len(_mask(observation)))
        row[self.act(observation, info)] = 1.0
        return np.tile(row, (len(holdings), 1))


class AlwaysFoldAgent(_CardBlindAgent):
    """``always-fold``: fold when fold is offered, else check (or call when nothing else is legal)."""

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """Fold if the mask allows it, otherwise check/call."""
        return _FOLD if _mask(observation)[_FOLD] else _CHECK_CALL


class AlwaysCallAgent(_CardBlindAgent):
    """``always-call``: check or call every time (fold only when check/call is masked)."""

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """Check/call if the mask allows it, otherwise fold."""
        return _CHECK_CALL if _mask(observation)[_CHECK_CALL] else _FOLD

"""Range queries: an agent's action probabilities for every holding it could have.

An agent opts into exploitability measurement (:mod:`holdem_env.training.lbr`, the
``holdem lbr`` command) by defining one more method::

    def action_probabilities(self, observation, info, holdings) -> np.ndarray: ...

Called at the acting seat's decision with that seat's ``observation`` and ``info`` (the
same ones ``act`` gets) and ``holdings``, an ``(n, 2)`` int array of card-id pairs, it
returns an ``(n, num_actions)`` float array: row ``i`` is the probability of each action id
(the env's ids, the length of ``observation["action_mask"]``) if the seat held
``holdings[i]`` instead of its own hole cards, everything public being the same. Rows sum
to 1 and put no weight on masked ids. For the seat's own holding the row must be the
distribution ``act`` draws from, and the query must not change what ``act`` does next.

:func:`query_range` calls the method and checks the answer; agents without the method
get a :class:`RangeQueryError` that says how to add it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from holdem_env.engine.errors import HoldemError
from holdem_env.engine.ranges import check_holdings

__all__ = ["RangeQueryError", "supports_range_queries", "query_range", "RANGE_METHOD"]

#: The optional agent method that answers range queries.
RANGE_METHOD = "action_probabilities"


class RangeQueryError(HoldemError):
    """An agent cannot answer range queries, or answered with a malformed array."""


def supports_range_queries(agent: Any) -> bool:
    """Whether ``agent`` defines ``action_probabilities(observation, info, holdings)``."""
    return callable(getattr(agent, RANGE_METHOD, None))


def _name(agent: Any) -> str:
    return type(agent).__name__


def query_range(
    agent: Any, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
) -> np.ndarray:
    """``agent.action_probabilities(observation, info, holdings)``, checked.

    Raises :class:`RangeQueryError` when the agent has no such method, or its answer is
    not an ``(n, num_actions)`` array of finite non-negative rows summing to 1 with no
    weight on an action the mask forbids.
    """
    if not supports_range_queries(agent):
        raise RangeQueryError(
            f"agent {_name(agent)} does not answer range queries: define "
            f"{RANGE_METHOD}(observation, info, holdings) -> (n, num_actions) probabilities "
            "(see holdem_env.agents.ranges) to measure its exploitability"
        )
    hold = check_holdings(holdings)
    mask = np.asarray(observation["action_mask"]).astype(bool)
    probs = np.asarray(getattr(agent, RANGE_METHOD)(observation, info, hold), dtype=np.float64)
    expected = (len(hold), len(mask))
    if probs.shape != expected:
        raise RangeQueryError(f"agent {_name(agent)}: range answer has shape {probs.shape}, expected {expected}")
    if not np.all(np.isfinite(probs)) or (probs < 0).any():
        raise RangeQueryError(f"agent {_name(agent)}: range answer has negative or non-finite probabilities")
    if (probs[:, ~mask] > 1e-9).any():
        bad = int(np.flatnonzero((probs[:, ~mask] > 1e-9).any(axis=0))[0])
        action = int(np.flatnonzero(~mask)[bad])
        raise RangeQueryError(f"agent {_name(agent)}: range answer gives weight to masked action id {action}")
    sums = probs.sum(axis=1)
    if len(sums) and np.abs(sums - 1.0).max() > 1e-6:
        row = int(np.argmax(np.abs(sums - 1.0)))
        raise RangeQueryError(f"agent {_name(agent)}: range answer row {row} sums to {sums[row]:.6f}, not 1")
    return probs

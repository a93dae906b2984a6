# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The compiled MCCFR core: external-sampling traversals of an array-encoded betting tree, one dealt hand per iteration.

The game is a public *betting tree* (arrays, one entry per node: who acts or what kind of
terminal it is, the street, the first child and the number of children, the offset of the
node's cells in the flat regret tables, and a terminal's value) plus a *deal* per iteration:
each player's bucket on each street and the showdown result for player 0 (+1, 0 or -1). An
information set is a (decision node, bucket of its actor on the node's street) pair; its
regrets and strategy sums are the cells ``cell[n] + bucket * num_children[n] + a``. Leduc
(lossless buckets) and abstracted hold'em both run through :func:`run_iterations`.

One iteration draws nothing itself but the opponents' sampled actions: for the deal it is
given, each player in turn traverses the tree trying every action at its own sets (adding
``regret_weight * (value of the action - value of the set)`` to the regret) and sampling one
action at the other player's sets by regret matching (adding ``average_weight * policy`` to
their strategy sums: "simple" averaging, as :class:`holdem_env.training.cfr.mccfr.ExternalSamplingMCCFR`).
Weights are 1 or the iteration number (Linear CFR). Pruning (Pluribus): on an iteration
chosen to prune, the traverser skips actions whose regret is below ``threshold`` unless they
lead straight to a terminal node; regrets never fall below ``floor``. Random numbers come from
a splitmix64 stream seeded by the caller. Compiled (``_core.pxd``, ``holdem_env/_build.py``
CANDIDATES) this is C; the ``.py`` gives the same numbers slowly.
"""

from __future__ import annotations

import numpy as np

from holdem_env.engine._kernels import _mix64  # compiled: a C call (_core.pxd cimports it)

__all__ = ["run_iterations"]

# ``actor[n]`` of a terminal node where a player folded (``value[n]`` is player 0's payoff), and of a
# showdown (``value[n]`` is what each player has in: player 0 wins ``result * value[n]``); the same
# numbers as tree.FOLD_END and tree.SHOWDOWN (a test checks the core against them).
_FOLD_END = -1
_SHOWDOWN = -2

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15  # splitmix64's increment (its mixer: _kernels._mix64)
_STATE = 0
_RESULT = 0.0
_PRUNE = False
_THRESHOLD = 0.0
_FLOOR = 0.0
_WIDTH = 1
_NUM_STREETS = 1

_EMPTY_I = np.zeros(1, dtype=np.int64)
_EMPTY_D = np.zeros(1, dtype=np.float64)
_ACTOR = _EMPTY_I
_STREET = _EMPTY_I
_FIRST = _EMPTY_I
_NCH = _EMPTY_I
_CELL = _EMPTY_I
_VALUE = _EMPTY_D
_REGRET = _EMPTY_D
_SUM = _EMPTY_D
_BUCKET = _EMPTY_I
_SIGMA = _EMPTY_D
_VALS = _EMPTY_D
_DONE = _EMPTY_I


def _uniform() -> float:
    """The next number in [0, 1) of the splitmix64 stream in ``_STATE`` (53 bits)."""
    global _STATE
    _STATE = (_STATE + _GOLDEN) & _M64
    return (_mix64(_STATE) >> 11) * (1.0 / 9007199254740992.0)


def _match(base: int, k: int, s: int) -> None:
    """Regret matching of the ``k`` cells from ``base`` into ``_SIGMA[s : s + k]``."""
    total = 0.0
    for a in range(k):
        r = _REGRET[base + a]
        if r > 0.0:
            total += r
    if total > 0.0:
        for a in range(k):
            r = _REGRET[base + a]
            _SIGMA[s + a] = r / total if r > 0.0 else 0.0
    else:
        for a in range(k):
            _SIGMA[s + a] = 1.0 / k


def _traverse(n: int, p: int, depth: int, wr: float, wa: float) -> float:
    """Counterfactual value for traverser ``p`` of node ``n`` under the sampled deal."""
    actor = _ACTOR[n]
    if actor == _FOLD_END:
        return _VALUE[n] if p == 0 else -_VALUE[n]
    if actor == _SHOWDOWN:
        return _RESULT * _VALUE[n] if p == 0 else -_RESULT * _VALUE[n]
    k = _NCH[n]
    first = _FIRST[n]
    base = _CELL[n] + _BUCKET[actor * _NUM_STREETS + _STREET[n]] * k
    s = depth * _WIDTH
    _match(base, k, s)
    if actor == p:
        v = 0.0
        for a in range(k):
            child = first + a
            if _PRUNE and _REGRET[base + a] < _THRESHOLD and _ACTOR[child] >= 0:
                _DONE[s + a] = 0
                continue
            _DONE[s + a] = 1
            _VALS[s + a] = _traverse(child, p, depth + 1, wr, wa)
            v += _SIGMA[s + a] * _VALS[s + a]
        for a in range(k):
            if _DONE[s + a]:
                r = _REGRET[base + a] + wr * (_VALS[s + a] - v)
                _REGRET[base + a] = r if r > _FLOOR else _FLOOR
        return v
    for a in range(k):
        _SUM[base + a] += wa * _SIGMA[s + a]
    u = _uniform()
    choice = k - 1
    acc = 0.0
    for a in range(k):
        acc += _SIGMA[s + a]
        if u < acc:
            choice = a
            break
    return _traverse(first + choice, p, depth + 1, wr, wa)


def run_iterations(
    actor: np.ndarray,
    street: np.ndarray,
    first: np.ndarray,
    num_children: np.ndarray,
    cell: np.ndarray,
    value: np.ndarray,
    regret: np.ndarray,
    strategy_sum: np.ndarray,
    buckets: np.ndarray,
    results: np.ndarray,
    start: int,
    linear_regret: bool,
    linear_average: bool,
    prune_after: int,
    prune_prob: float,
    threshold: float,
    floor: float,
    seed: int,
    max_depth: int,
) -> float:
    """Run one iteration per row of ``buckets`` (``[iterations, 2 * streets]``: player 0's buckets
    street by street, then player 1's) and ``results`` (player 0's showdown result), numbered
    ``start + 1, start + 2, ...``; ``regret`` and ``strategy_sum`` are updated in place. An
    iteration numbered above ``prune_after`` prunes with probability ``prune_prob``. Returns the
    mean over the iterations of player 0's traversal value (a noisy estimate of its game value)."""
    global _ACTOR, _STREET, _FIRST, _NCH, _CELL, _VALUE, _REGRET, _SUM, _BUCKET, _SIGMA, _VALS, _DONE
    global _STATE, _RESULT, _PRUNE, _THRESHOLD, _FLOOR, _WIDTH, _NUM_STREETS
    _ACTOR, _STREET, _FIRST, _NCH, _CELL, _VALUE = actor, street, first, num_children, cell, value
    _REGRET, _SUM = regret, strategy_sum
    _WIDTH = 1
    for i in range(num_children.shape[0]):
        if num_children[i] > _WIDTH:
            _WIDTH = num_children[i]
    _NUM_STREETS = buckets.shape[1] // 2
    _SIGMA = np.zeros((max_depth + 1) * _WIDTH, dtype=np.float64)
    _VALS = np.zeros((max_depth + 1) * _WIDTH, dtype=np.float64)
    _DONE = np.zeros((max_depth + 1) * _WIDTH, dtype=np.int64)
    _STATE = seed & _M64
    _THRESHOLD, _FLOOR = threshold, floor
    total = 0.0
    count = buckets.shape[0]
    for i in range(count):
        t = start + i + 1
        _BUCKET = buckets[i]
        _RESULT = results[i]
        wr = float(t) if linear_regret else 1.0
        wa = float(t) if linear_average else 1.0
        _PRUNE = t > prune_after and _uniform() < prune_prob
        total += _traverse(0, 0, 0, wr, wa)
        _traverse(0, 1, 0, wr, wa)
    _BUCKET = _EMPTY_I
    return total / count if count else 0.0

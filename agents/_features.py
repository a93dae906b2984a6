# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The learner's ``equity`` feature for many rows in one compiled call, equal bit for bit to :mod:`.features`.

:func:`equity_rows` computes, for each row, exactly what :func:`holdem_env.agents.features.equity_batch`
returns: sample ``k`` deals the unseen cards in the order of the fixed permutation ``perms[k]``
(:data:`holdem_env.agents.features._PERMS`), the opponents' hands first and then the rest of the board,
and the row's value is the mean over the samples of the pot share (1 for a win, ``1 / (1 + t)`` when
``t`` opponents tie the best, 0 for a loss), summed in the order numpy's pairwise sum adds them and
rounded once to float32, as ``share.mean(axis=1).astype(np.float32)`` does. Hand values come from the
tables of :mod:`holdem_env.engine._kernels` (the non-flush value of each five-card
board's multiset of ranks with each pair of hole ranks, and the evaluator's flush table), which equal
:func:`holdem_env.engine.evaluator.evaluate_batch` on every seven cards. Preflop values are kept in a
table the caller owns (NaN: not computed yet). Compiled (``_features.pxd``, ``holdem_env/_build.py``
CANDIDATES) this is C; the ``.py`` gives the same numbers slowly (:data:`COMPILED` says which runs).
"""

from __future__ import annotations

import numpy as np

from holdem_env.engine._kernels import _row5, _value  # compiled: C calls (_features.pxd cimports them)

__all__ = ["COMPILED", "SAMPLES", "equity_rows"]

try:
    import cython

    COMPILED = bool(cython.compiled)
except ImportError:  # Cython is a build requirement only: without it this module runs as Python
    COMPILED = False

#: The samples per equity estimate (``features.EQUITY_SAMPLES``; the pairwise sum below is laid out for it).
SAMPLES = 256
_N = SAMPLES  # the same, as a C integer when compiled
_ONE = 1
# Scratch (single-threaded: the GIL is held throughout).
_FULL = np.zeros(5, dtype=np.int64)
_DRAWN = np.zeros(32, dtype=np.int64)
_SHARE = np.zeros(_N, dtype=np.float64)
_ACC = np.zeros(8, dtype=np.float64)
_SCNT, _SBIT = np.zeros((2, 4), dtype=np.int64)  # per suit: the board's cards, their rank bits
# Per run-out entry (0..51: the river card on the turn; 0 on the river; 52 on the flop): the board's
# value-table row, most common suit, its count and rank bits, and the hole cards' value.
_BASE, _ST, _MOST, _SB, _MINE = np.zeros((5, 53), dtype=np.int64)


def _block_sum(share: np.ndarray, start: int, n: int) -> float:
    """numpy's pairwise sum of ``share[start : start + n]`` for 8 <= n <= 128 (eight running sums)."""
    acc = _ACC
    for j in range(8):
        acc[j] = share[start + j]
    i = 8
    while i < n - (n % 8):
        for j in range(8):
            acc[j] += share[start + i + j]
        i += 8
    res = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
    while i < n:
        res += share[start + i]
        i += 1
    return res


def _board_info(slot: int) -> None:
    """The value table's row and the most common suit (suit, count, rank bits) of the five cards in
    ``_FULL``, into entry ``slot`` of ``_BASE``, ``_ST``, ``_MOST`` and ``_SB``."""
    full, cnt, bits = _FULL, _SCNT, _SBIT
    for s in range(4):
        cnt[s] = 0
        bits[s] = 0
    for j in range(5):
        c = full[j]
        cnt[c & 3] += 1
        bits[c & 3] |= _ONE << (c >> 2)
    most, st = 0, 0
    for s in range(4):
        if cnt[s] > most:
            most, st = cnt[s], s
    _BASE[slot] = _row5(full[0], full[1], full[2], full[3], full[4])
    _ST[slot] = st
    _MOST[slot] = most
    _SB[slot] = bits[st]


def _one_row(c1: int, c2: int, board: np.ndarray, i: int, m: int, opponents: int, perms: np.ndarray) -> float:
    """The equity of hole cards ``c1 c2`` with the first ``m`` cards of ``board[i]`` against ``opponents``.

    The board's row and suits (and so the hole cards' value) depend on the run-out only: on the river
    they are worked out once (entry 0), on the turn once for each possible river card (entry = the
    card), on the flop for each sample (entry 52)."""
    full, drawn, share = _FULL, _DRAWN, _SHARE
    known = (_ONE << c1) | (_ONE << c2)
    for j in range(m):
        known |= _ONE << board[i, j]
        full[j] = board[i, j]
    if m == 5:
        _board_info(0)
        _MINE[0] = _value(_BASE[0], _ST[0], _MOST[0], _SB[0], c1, c2)
    elif m == 4:
        for c in range(52):
            if not (known >> c) & 1:
                full[4] = c
                _board_info(c)
                _MINE[c] = _value(_BASE[c], _ST[c], _MOST[c], _SB[c], c1, c2)
    need = 2 * opponents + (5 - m)
    for k in range(_N):
        t = 0
        j = 0
        while t < need:  # the first ``need`` cards of permutation k that are not known
            c = perms[k, j]
            j += 1
            if not (known >> c) & 1:
                drawn[t] = c
                t += 1
        if m == 5:
            slot = 0
        elif m == 4:
            slot = drawn[2 * opponents]
        else:
            for j in range(5 - m):
                full[m + j] = drawn[2 * opponents + j]
            slot = 52
            _board_info(52)
            _MINE[52] = _value(_BASE[52], _ST[52], _MOST[52], _SB[52], c1, c2)
        base, st, most, sbits, mine = _BASE[slot], _ST[slot], _MOST[slot], _SB[slot], _MINE[slot]
        best, ties = 0, 0
        for o in range(opponents):
            v = _value(base, st, most, sbits, drawn[2 * o], drawn[2 * o + 1])
            if v > best:
                best, ties = v, 1
            elif v == best:
                ties += 1
        if mine > best:
            share[k] = 1.0
        elif mine == best:
            share[k] = 1.0 / (1 + ties)
        else:
            share[k] = 0.0
    # numpy's pairwise sum of 256 values: two blocks of 128, each with eight running sums.
    return (_block_sum(share, 0, _N // 2) + _block_sum(share, _N // 2, _N // 2)) / _N


def equity_rows(
    holes: np.ndarray, boards: np.ndarray, board_len: np.ndarray, opponents: np.ndarray, perms: np.ndarray,
    preflop: np.ndarray, out: np.ndarray,
) -> None:
    """``out[i]`` (float32) = the equity of row ``i``: hole cards ``holes[i]`` (int64 ``(R, 2)``), the
    first ``board_len[i]`` cards of ``boards[i]`` (int64 ``(R, 5)``), ``opponents[i]`` live opponents
    (1 when there are none), with the deals of ``perms`` (intp ``(SAMPLES, 52)``). ``preflop`` (float32
    ``(52 * 52, 10)``, NaN where unknown) holds the preflop values by ``(low card * 52 + high card,
    opponents)``: read when known, written when computed. The caller checks shapes and card ids."""
    for i in range(out.shape[0]):
        o = opponents[i]
        if o <= 0:
            out[i] = 1.0
            continue
        c1, c2 = holes[i, 0], holes[i, 1]
        if c1 > c2:
            c1, c2 = c2, c1
        m = board_len[i]
        if m == 0:
            v = preflop[c1 * 52 + c2, o]
            if v != v:  # NaN: not computed yet
                v = _one_row(c1, c2, boards, i, 0, o, perms)
                preflop[c1 * 52 + c2, o] = v
            out[i] = v
        else:
            out[i] = _one_row(c1, c2, boards, i, m, o, perms)

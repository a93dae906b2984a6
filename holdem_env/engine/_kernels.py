# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""C-speed building blocks the compiled bots and solvers share: seven-card values from tables, and splitmix64's mixer.

Hand values come from one small table (the non-flush value of each five-card board's multiset of
ranks with each pair of hole ranks, flattened ``row * 91 + pair``) and the evaluator's flush
table, so valuing a holding on a known board is a few look-ups (:func:`_value`); the values rank hands
as :mod:`holdem_env.engine.evaluator` does (the equity tests of the bots that use them compare the two).
:func:`_mix64` is splitmix64's output function: a caller keeps its own 64-bit state, adds
``_GOLDEN`` to it per draw and mixes. Compiled (``_kernels.pxd``, ``holdem_env/_build.py``
CANDIDATES) these are C functions other compiled modules ``cimport``; the ``.py`` gives the same
numbers slowly.

>>> hex(_mix64(0x9E3779B97F4A7C15))  # splitmix64's first output from state 0
'0xe220a8397b1dcdaf'
>>> from holdem_env.engine.cards import card_id
>>> board = _row5(*[card_id(c) for c in ("2c", "5d", "9h", "Jd", "Ks")])  # no flush possible: most = 0
>>> aces = _value(board, 0, 0, 0, card_id("Ac"), card_id("Ad"))
>>> bool(aces > _value(board, 0, 0, 0, card_id("3c"), card_id("4d")))  # a pair beats king high
True
"""

from __future__ import annotations

import itertools

import numpy as np

from holdem_env.engine.evaluator import _FLUSH_TABLE, _RANK_KEYS, _dense_table

__all__ = ["TABLES"]

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_ONE = 1


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The 91 rank pairs (a <= b), pair index by ``lo * 13 + hi``, row of each sorted five-rank code
    (base 13), and the non-flush value of each (five-rank multiset, pair) flattened ``row * 91 + pair``."""
    pairs = np.array([(a, b) for a in range(13) for b in range(a, 13)], dtype=np.int64)
    pair_of = np.full(169, -1, dtype=np.int64)
    pair_of[pairs[:, 0] * 13 + pairs[:, 1]] = np.arange(len(pairs))
    multisets = np.array(list(itertools.combinations_with_replacement(range(13), 5)), dtype=np.int64)
    multisets = multisets[~(multisets[:, 4] == multisets[:, 0])]  # five of a rank cannot be dealt
    codes = (((multisets[:, 0] * 13 + multisets[:, 1]) * 13 + multisets[:, 2]) * 13 + multisets[:, 3]) * 13 + multisets[:, 4]
    row_of = np.full(13**5, -1, dtype=np.int32)  # the row's start (row * 91): small enough to stay in the cache
    row_of[codes] = np.arange(len(multisets)) * 91
    keys = np.array(_RANK_KEYS, dtype=np.int64)
    dense = _dense_table(7)
    sums = keys[multisets].sum(axis=1)[:, None] + keys[pairs].sum(axis=1)[None, :]
    values = np.take(dense, sums, mode="clip").astype(np.int16)  # a pair that makes 5 of a rank: never counted
    return pairs[:, 0].copy(), pairs[:, 1].copy(), pair_of, row_of, np.ascontiguousarray(values.ravel())


#: The tables as numpy arrays (pair_a, pair_b, pair_of, row_of, values, flush), for modules that
#: read them directly; compiled, the names below are typed views of the same arrays.
TABLES = (*_tables(), np.array(_FLUSH_TABLE, dtype=np.int16))
_PAIR_A, _PAIR_B, _PAIR_OF, _ROW_OF, _PV, _FLUSH = TABLES
_RANKS = np.zeros(5, dtype=np.int64)  # scratch (single-threaded: the GIL is held throughout)


def _mix64(z: int) -> int:
    """splitmix64's output function of a 64-bit state (a bijection of 64-bit integers)."""
    z = ((z ^ (z >> 30)) * _MIX1) & _M64
    z = ((z ^ (z >> 27)) * _MIX2) & _M64
    return z ^ (z >> 31)


def _row5(f0: int, f1: int, f2: int, f3: int, f4: int) -> int:
    """Where the value table's row of a five-card board (its multiset of ranks) starts."""
    r = _RANKS
    r[0], r[1], r[2], r[3], r[4] = f0 >> 2, f1 >> 2, f2 >> 2, f3 >> 2, f4 >> 2
    for i in range(1, 5):  # insertion sort of five ranks
        x = r[i]
        j = i - 1
        while j >= 0 and r[j] > x:
            r[j + 1] = r[j]
            j -= 1
        r[j + 1] = x
    return _ROW_OF[(((r[0] * 13 + r[1]) * 13 + r[2]) * 13 + r[3]) * 13 + r[4]]


def _pair(c1: int, c2: int) -> int:
    """The table column of hole cards ``c1 c2`` (their pair of ranks)."""
    a, b = c1 >> 2, c2 >> 2
    return _PAIR_OF[a * 13 + b] if a <= b else _PAIR_OF[b * 13 + a]


def _value(base: int, st: int, most: int, sbits: int, c1: int, c2: int) -> int:
    """The 7-card value of hole cards ``c1 c2`` on a board whose table row is ``base``, whose most
    common suit ``st`` has ``most`` cards with rank bits ``sbits``."""
    if most >= 3:
        own = 0
        k = most
        if (c1 & 3) == st:
            own |= _ONE << (c1 >> 2)
            k += 1
        if (c2 & 3) == st:
            own |= _ONE << (c2 >> 2)
            k += 1
        if k >= 5:
            return _FLUSH[sbits | own]
    return _PV[base + _pair(c1, c2)]

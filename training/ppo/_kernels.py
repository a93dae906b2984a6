# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The trainer's per-step learner glue in C: the network input's scaled observation and engineered features, and the inverse-CDF action draw.

:func:`features_rows` writes, for every row of a float32 observation batch, ``observation * scale``
and the five non-equity features of :func:`holdem_env.agents.features.features_batch` (the same
float32 operations in the same order, so the same bits), and gathers each row's hole cards, board
and live opponents for the compiled equity (``agents/_features.equity_rows``); it returns the first
row it does not take (no two hole cards, a board of 1, 2 or more than 5 cards, more than 9 live
opponents), or -1. :func:`draw_rows` is :func:`holdem_env.agents.ppo.sample_with_uniforms` on rows
that each allow an action. Compiled (``_kernels.pxd``, ``holdem_env/_build.py`` CANDIDATES) these
are C loops; uncompiled (:data:`COMPILED` false) the trainer uses the numpy code instead, which
stays the reference (``tests/test_sampling_glue.py`` compares the two).
"""

from __future__ import annotations

import numpy as np

__all__ = ["COMPILED", "features_rows", "draw_rows"]

try:
    import cython

    COMPILED = bool(cython.compiled)
except ImportError:  # Cython is a build requirement only
    COMPILED = False

_TINY = np.float32(1e-9)
_CAP = np.float32(20.0)  # features.SPR_CAP
_F1 = np.float32(1.0)
_F0 = np.float32(0.0)


def _cards(obs: np.ndarray, i: int, start: int, dst: np.ndarray, cap: int) -> int:
    """The cards set in ``obs[i, start : start + 52]``: the first ``cap`` written to ``dst[i]``; how many."""
    n = 0
    for c in range(52):
        if obs[i, start + c] > 0.5:
            if n < cap:
                dst[i, n] = c
            n += 1
    return n


def features_rows(obs: np.ndarray, scale: np.ndarray, off: np.ndarray, out: np.ndarray, holes: np.ndarray,
                  boards: np.ndarray, lengths: np.ndarray, live: np.ndarray) -> int:
    """``out[:, :L] = obs * scale`` and ``out[:, L + 1 : L + 6]`` the features 1..5 of each row (``L``: the
    observation's length); ``holes``, ``boards``, ``lengths``, ``live``: each row's cards and live
    opponents. ``off``: the offsets of the scalars, hole, board, dealt_in, folded and button blocks and
    the seats. The first row not taken, else -1 (rows up to it are written)."""
    tiny, cap, one, zero = _TINY, _CAP, _F1, _F0
    b, width = obs.shape[0], obs.shape[1]
    o_sc, o_hole, o_board, o_dealt, o_fold, o_button, seats = off[0], off[1], off[2], off[3], off[4], off[5], off[6]
    for i in range(b):
        for j in range(width):
            out[i, j] = obs[i, j] * scale[j]
        nh = _cards(obs, i, o_hole, holes, 2)
        if nh != 2:
            return i
        nb = _cards(obs, i, o_board, boards, 5)
        if nb == 1 or nb == 2 or nb > 5:
            return i
        for c in range(nb, 5):
            boards[i, c] = 0  # (not read)
        lengths[i] = nb
        acc = zero
        for s in range(1, seats):
            acc = acc + obs[i, o_dealt + s] * (one - obs[i, o_fold + s])
        if acc < 0:
            acc = zero
        if acc > seats - 1:
            acc = seats - 1
        n_live = int(acc)
        if n_live > 9:
            return i
        live[i] = n_live
        pot = obs[i, o_sc]
        to_call = obs[i, o_sc + 1]
        stack = obs[i, o_sc + 4]
        denom = pot + to_call
        m = denom if (denom >= tiny or denom != denom) else tiny
        out[i, width + 1] = to_call / m if to_call > 0 else zero
        if pot > 0:
            m = pot if (pot >= tiny or pot != pot) else tiny
            spr = stack / m
        else:
            spr = cap
        spr = spr if (spr <= cap or spr != spr) else cap
        out[i, width + 2] = spr / cap
        rel = 0
        best = obs[i, o_button]
        for s in range(1, seats):
            if obs[i, o_button + s] > best:
                best = obs[i, o_button + s]
                rel = s
        distance = (seats - rel) % seats
        out[i, width + 3] = ((distance - 1 + seats) % seats) / (seats - 1.0)
        out[i, width + 4] = n_live / (seats - 1.0)
        if stack > 0:
            m = stack if (stack >= tiny or stack != stack) else tiny
            risk = to_call / m
            out[i, width + 5] = risk if (risk <= one or risk != risk) else one
        else:
            out[i, width + 5] = one if to_call > 0 else zero
    return -1


def draw_rows(probs: np.ndarray, masks: np.ndarray, u: np.ndarray, cdf: np.ndarray, out: np.ndarray) -> int:
    """``out[i]``: :func:`~holdem_env.agents.ppo.sample_with_uniforms` of row ``i`` (``cdf``: scratch of
    ``probs``' shape); the first row whose mask allows nothing, else -1."""
    b, a = probs.shape[0], probs.shape[1]
    for i in range(b):
        acc = 0.0
        count = 0
        for j in range(a):
            if masks[i, j] > 0:
                acc = acc + probs[i, j]
                count += 1
            else:
                acc = acc + 0.0
            cdf[i, j] = acc
        if count == 0:
            return i
        total = cdf[i, a - 1]
        if not (total > 0):  # every legal id underflowed: uniform over the legal ids
            k = 0
            for j in range(a):
                if masks[i, j] > 0:
                    k += 1
                cdf[i, j] = k
            total = count
        below = 0
        for j in range(a):
            if masks[i, j] > 0 and cdf[i, j] / total <= u[i]:
                below += 1
        if below > count - 1:
            below = count - 1
        rank = 0
        for j in range(a):
            if masks[i, j] > 0:
                rank += 1
                if rank == below + 1:
                    out[i] = j
                    break
    return -1

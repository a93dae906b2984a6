# cython: boundscheck=False, wraparound=False, initializedcheck=False
"""``nlhe_v1`` observations, action masks and exact action ids for every row of a :class:`BatchViews` in one pass.

Each row of a :class:`~holdem_env.batched.views.BatchViews` is one seat's view at a decision; this module
writes, for every row, exactly what the single-table env hands that seat at that decision:
:func:`encode_observations` the float32 ``observation`` vector (layout: :mod:`holdem_env.env._obs`),
:func:`legal_masks` the int8 ``action_mask`` in either action mode, :func:`discrete_amounts` the chips
of the discrete raise ids (:func:`holdem_env.env.actions.discrete_raise_amounts`, 0 for a masked id)
and :func:`exact_actions` the exact id (what :class:`~holdem_env.batched.BatchedTables` applies) of each
row's action id, refusing an illegal one. Bit-identical to ``nlhe_v1`` (``tests/test_batched_encode.py``).

One rounding detail of the env is reproduced on purpose: money is ``chips * (1 / big_blind)`` rounded
once to float32, except that the env refreshes every seat's stack and street bet at the start of each
street as ``chips * float32(1 / big_blind)``; a seat that has acted on the current street has its own
two entries written as ``chips * (1 / big_blind)`` since (the two differ in the last bit for some
amounts when the big blind is not a power of two). Compiled (``encode.pxd``), each pass is C loops
over typed views; the ``.py`` runs the same loops slowly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from holdem_env.batched.views import HISTORY_KINDS, BatchViews
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.engine.validate import check_bet_sizes
from holdem_env.env import _obs
from holdem_env.env.actions import ACTION_MODES, DEFAULT_BET_SIZES

__all__ = [
    "PAD_SEATS",
    "observation_size",
    "num_actions",
    "encode_observations",
    "legal_masks",
    "discrete_amounts",
    "exact_actions",
    "ViewsEncoder",
]

#: The seat axis of a padded observation (``nlhe_v1``'s ``pad_seats=True``).
PAD_SEATS = 10
# history kind code (views.HISTORY_KINDS) -> the history column it counts in, -1 for a fold
_KIND_COLUMN = np.array(
    [{"fold": -1, "check": _obs.HIST_CHECKS, "call": _obs.HIST_CALLS, "bet": _obs.HIST_RAISES, "raise": _obs.HIST_RAISES}[k]
     for k in HISTORY_KINDS],
    dtype=np.int64,
)
_NUM_HIST = len(_obs.HISTORY_FEATURES)
_HIST_CHECKS, _HIST_AMOUNT = _obs.HIST_CHECKS, _obs.HIST_AMOUNT
# What _check_rows reports as wrong, by code.
_BAD = (
    "seat must be a seat of the table",
    "button must be a seat of the table",
    "street must be 0..3 (preflop..river)",
    "hole cards must be card ids 0..51",
    "board_len must be 0..5",
    "board cards must be card ids 0..51",
    "hist_len must be 0..the history room",
    "hist_seat must be seats of the table",
    "hist_street must be 0..3",
    "hist_kind must be codes of HISTORY_KINDS",
    "min_raise_to/max_raise_to must be 0 (no raise) or 1 <= min <= max",
)

_I64, _I8 = np.dtype(np.int64), np.dtype(np.int8)
_ROW_FIELDS = ("seat", "button", "street", "board_len", "pot", "current_bet", "call", "min_raise_to", "max_raise_to", "hist_len")
_SEAT_FIELDS = ("stacks", "street_bets")
_FLAG_SEAT_FIELDS = ("folded", "all_in", "dealt_in")
_FLAG_FIELDS = ("legal_fold", "legal_check")
_HIST_FIELDS = ("hist_seat", "hist_street", "hist_kind", "hist_to")


def observation_size(num_players: int, pad_seats: bool = False) -> int:
    """Length of the observation of a ``num_players`` table (``pad_seats``: a seat axis of 10)."""
    return _obs.obs_size(PAD_SEATS if pad_seats else num_players)


def num_actions(action_mode: str, *, bet_sizes: Sequence[float] = DEFAULT_BET_SIZES, max_stack: int = 0) -> int:
    """The env's number of action ids: ``2 + max_stack`` (exact) or ``4 + len(bet_sizes)`` (discrete)."""
    if action_mode not in ACTION_MODES:
        raise ConfigError("action_mode", action_mode, f"must be one of {', '.join(ACTION_MODES)}")
    if action_mode == "exact":
        if isinstance(max_stack, bool) or not isinstance(max_stack, (int, np.integer)) or max_stack < 1:
            raise ConfigError("max_stack", max_stack, "must be an integer >= 1 in the exact mode")
        return 2 + int(max_stack)
    return 4 + len(check_bet_sizes(bet_sizes))


# ---------------------------------------------------------------------------------- argument checks


def _arrays(views: BatchViews) -> dict[str, np.ndarray]:
    """The views' arrays as C-contiguous int64 / int8 (no copy when they already are), shapes checked."""
    if not isinstance(views, BatchViews):
        raise ConfigError("views", type(views).__name__, "must be a BatchViews")
    r, n = views.rows, views.num_players
    out: dict[str, np.ndarray] = {}
    hist = np.shape(views.hist_seat)
    expected = {
        **dict.fromkeys(_ROW_FIELDS, (r,)), **dict.fromkeys(_FLAG_FIELDS, (r,)),
        **dict.fromkeys(_SEAT_FIELDS, (r, n)), **dict.fromkeys(_FLAG_SEAT_FIELDS, (r, n)),
        "hole": (r, 2), "board": (r, 5), **dict.fromkeys(_HIST_FIELDS, (r, hist[1] if len(hist) == 2 else -1)),
    }
    for name, shape in expected.items():
        a = np.asarray(getattr(views, name))
        if a.shape != shape or a.dtype.kind not in "iub":
            raise ConfigError(f"views.{name}", f"shape {a.shape} dtype {a.dtype}", f"must be integers shaped {shape}")
        out[name] = np.ascontiguousarray(a, dtype=_I8 if name in _FLAG_FIELDS or name in _FLAG_SEAT_FIELDS else _I64)
    return out


def _check_views(views: BatchViews, a: dict[str, np.ndarray]) -> None:
    bb = views.big_blind
    if isinstance(bb, bool) or not isinstance(bb, (int, np.integer)) or bb < 1:
        raise ConfigError("views.big_blind", bb, "must be an integer >= 1")
    code = np.zeros(1, dtype=np.int64)
    row = _check_rows(
        a["seat"], a["button"], a["street"], a["hole"], a["board"], a["board_len"], a["min_raise_to"], a["max_raise_to"],
        a["hist_len"], a["hist_seat"], a["hist_street"], a["hist_kind"], views.num_players, len(HISTORY_KINDS), code,
    )
    if row >= 0:
        raise ConfigError("views", f"row {row}", _BAD[int(code[0])])


def _dest(rows: Any, count: int, out_rows: int) -> np.ndarray:
    """Where each view row is written in ``out``: ``rows`` (view row ``i`` -> ``out[rows[i]]``), or 0..count-1."""
    if rows is None:
        if out_rows != count:
            raise ConfigError("out", f"{out_rows} rows", f"must have one row per view row ({count}) when rows is None")
        return np.arange(count, dtype=np.intp)
    d = np.asarray(rows)
    if d.shape != (count,) or d.dtype.kind not in "iu" or (count and (d.min() < 0 or d.max() >= out_rows)):
        raise ConfigError("rows", f"shape {d.shape}", f"must be {count} integers in 0..{out_rows - 1} (one out row per view row)")
    return np.ascontiguousarray(d, dtype=np.intp)


def _check_out(out: Any, dtype: np.dtype, width: int | None, name: str) -> np.ndarray:
    if (
        not isinstance(out, np.ndarray) or out.dtype != dtype or out.ndim != 2 or not out.flags.c_contiguous
        or not out.flags.writeable or (width is not None and out.shape[1] != width)
    ):
        shape = f"(rows, {width})" if width is not None else "(rows, num_actions)"
        got = f"{type(out).__name__} {getattr(out, 'dtype', '')} {getattr(out, 'shape', '')}"
        raise ConfigError(name, got, f"must be a writeable C-contiguous {dtype} array shaped {shape}")
    return out


# ---------------------------------------------------------------------------------- public API


def encode_observations(views: BatchViews, out: np.ndarray, *, pad_seats: bool = False, rows: Any = None) -> np.ndarray:
    """Write every row's ``nlhe_v1`` observation vector into ``out`` and return ``out``.

    ``out``: float32, C-contiguous, ``(R, observation_size(num_players, pad_seats))`` -- or any number of rows
    with ``rows`` (view row ``i`` goes to ``out[rows[i]]``; other rows are left alone). Bad input raises
    :class:`~holdem_env.engine.errors.ConfigError` before anything is written.
    """
    a = _arrays(views)
    seats = PAD_SEATS if pad_seats else views.num_players
    _check_out(out, np.dtype(np.float32), _obs.obs_size(seats), "out")
    dest = _dest(rows, views.rows, out.shape[0])
    _check_views(views, a)
    off = _obs.obs_offsets(seats)
    offsets = np.array(
        [off["hole"][0], off["board"][0], off["street"][0], off["scalars"][0], off["stacks"][0], off["street_bets"][0],
         off["folded"][0], off["all_in"][0], off["dealt_in"][0], off["button"][0], off["history"][0], seats,
         _obs.SCALARS.index("pot"), _obs.SCALARS.index("amount_to_call"), _obs.SCALARS.index("min_raise_to"),
         _obs.SCALARS.index("max_raise_to"), _obs.SCALARS.index("own_stack"), _obs.SCALARS.index("current_bet")],
        dtype=np.int64,
    )
    inv = 1.0 / int(views.big_blind)
    _write_observations(
        a["seat"], a["button"], a["street"], a["hole"], a["board"], a["board_len"], a["pot"], a["current_bet"],
        a["stacks"], a["street_bets"], a["folded"], a["all_in"], a["dealt_in"], a["call"], a["min_raise_to"],
        a["max_raise_to"], a["hist_len"], a["hist_seat"], a["hist_street"], a["hist_kind"], a["hist_to"],
        _KIND_COLUMN, offsets, out, dest, inv, float(np.float32(inv)),
    )
    return out


def discrete_amounts(views: BatchViews, bet_sizes: Sequence[float] = DEFAULT_BET_SIZES, out: np.ndarray | None = None) -> np.ndarray:
    """Raise-to chips of the discrete raise ids ``2 .. 3 + len(bet_sizes)`` per row, 0 where masked.

    ``(R, len(bet_sizes) + 2)`` int64 (``out`` if given): column 0 the min-raise, then one per pot fraction,
    the last all-in; the same amounts and masking as :func:`holdem_env.env.actions.discrete_raise_amounts`.
    """
    a = _arrays(views)
    _check_views(views, a)
    fractions = np.array(check_bet_sizes(bet_sizes), dtype=np.float64)
    if out is None:
        out = np.empty((views.rows, len(fractions) + 2), dtype=np.int64)
    _check_out(out, _I64, len(fractions) + 2, "out")
    if out.shape[0] != views.rows:
        raise ConfigError("out", f"{out.shape[0]} rows", f"must have one row per view row ({views.rows})")
    _write_amounts(a["seat"], a["pot"], a["current_bet"], a["stacks"], a["street_bets"], a["call"], a["min_raise_to"],
                   a["max_raise_to"], fractions, out)
    return out


def legal_masks(
    views: BatchViews, action_mode: str, out: np.ndarray, *, bet_sizes: Sequence[float] = DEFAULT_BET_SIZES,
    rows: Any = None,
    amounts: np.ndarray | None = None,
) -> np.ndarray:
    """Write every row's ``nlhe_v1`` action mask (int8) into ``out`` and return ``out``.

    ``action_mode`` ``"exact"``: fold, check/call and ids ``min_raise_to + 1 .. max_raise_to + 1`` (``out`` has
    ``2 + max_stack`` columns); ``"discrete"``: fold, check/call and the ids of :func:`discrete_amounts` that are
    not masked (``4 + len(bet_sizes)`` columns; ``amounts``: those of these views, when already made).
    ``rows`` as in :func:`encode_observations`.
    """
    if action_mode not in ACTION_MODES:
        raise ConfigError("action_mode", action_mode, f"must be one of {', '.join(ACTION_MODES)}")
    a = _arrays(views)
    exact = action_mode == "exact"
    fractions = np.array(check_bet_sizes(bet_sizes), dtype=np.float64)
    _check_out(out, _I8, None if exact else len(fractions) + 4, "out")
    dest = _dest(rows, views.rows, out.shape[0])
    _check_views(views, a)
    width = out.shape[1]
    if exact:
        if width < 2 or (views.rows and int(a["max_raise_to"].max()) + 1 >= width):
            raise ConfigError("out", f"{width} columns", "must hold every exact raise id (max_raise_to + 1) of the views")
        amounts = np.zeros((views.rows, 0), dtype=np.int64)
    elif amounts is not None:
        _check_out(amounts, _I64, len(fractions) + 2, "amounts")
        if amounts.shape[0] != views.rows:
            raise ConfigError("amounts", f"{amounts.shape[0]} rows", f"must have one row per view row ({views.rows})")
    else:
        amounts = np.empty((views.rows, len(fractions) + 2), dtype=np.int64)
        _write_amounts(a["seat"], a["pot"], a["current_bet"], a["stacks"], a["street_bets"], a["call"],
                       a["min_raise_to"], a["max_raise_to"], fractions, amounts)
    _write_masks(a["legal_fold"], a["legal_check"], a["call"], a["min_raise_to"], a["max_raise_to"], amounts, exact, out, dest)
    return out


def exact_actions(
    views: BatchViews, actions: Any, action_mode: str, *, bet_sizes: Sequence[float] = DEFAULT_BET_SIZES,
    amounts: np.ndarray | None = None,
) -> np.ndarray:
    """The exact action id (``BatchedTables``' ids) of each row's ``action_mode`` id, int64 ``(R,)``.

    An id that the row's mask does not allow raises :class:`~holdem_env.engine.errors.IllegalActionError`
    naming the row and its legal ids. ``amounts``: :func:`discrete_amounts` of these views, when already made.
    """
    if action_mode not in ACTION_MODES:
        raise ConfigError("action_mode", action_mode, f"must be one of {', '.join(ACTION_MODES)}")
    acts = np.asarray(actions)
    if acts.shape != (views.rows,) or acts.dtype.kind not in "iu":
        raise IllegalActionError(f"actions must be {views.rows} integer action ids (one per row), got shape {acts.shape} dtype {acts.dtype}")
    acts = np.ascontiguousarray(acts, dtype=np.int64)
    a = _arrays(views)
    exact = action_mode == "exact"
    if exact:
        _check_views(views, a)
        amounts = np.zeros((views.rows, 0), dtype=np.int64)
    elif amounts is None:
        amounts = discrete_amounts(views, bet_sizes)
    else:
        width = len(check_bet_sizes(bet_sizes)) + 2
        _check_out(amounts, _I64, width, "amounts")
        if amounts.shape[0] != views.rows:
            raise ConfigError("amounts", f"{amounts.shape[0]} rows", f"must have one row per view row ({views.rows})")
    result = np.empty(views.rows, dtype=np.int64)
    bad = _to_exact(acts, a["legal_fold"], a["min_raise_to"], a["max_raise_to"], amounts, exact, result)
    if bad >= 0:
        legal = (["0"] if a["legal_fold"][bad] else []) + ["1"]
        lo, hi = int(a["min_raise_to"][bad]), int(a["max_raise_to"][bad])
        if exact and lo:
            legal.append(f"{lo + 1}..{hi + 1}")
        elif not exact:
            legal += [str(j + 2) for j in np.flatnonzero(amounts[bad]).tolist()]
        raise IllegalActionError(
            f"row {bad}: action {int(acts[bad])} is not legal (legal {action_mode} ids: {', '.join(legal)})"
        )
    return result


class ViewsEncoder:
    """The four passes above for one :class:`BatchViews` that its owner refills in place every step (the
    vector env's batched backend, whose views the core writes): the action mode, the bet sizes and the
    seats are checked once, and the views' arrays are taken again only when their history arrays were
    widened (:meth:`BatchedTables.fill_views`). The rows are not checked again (the core wrote them):
    the same bytes as :func:`encode_observations`, :func:`discrete_amounts`, :func:`legal_masks` and
    :func:`exact_actions` on these views, without their per-call checks."""

    def __init__(self, views: BatchViews, action_mode: str, bet_sizes: Sequence[float], pad_seats: bool) -> None:
        if action_mode not in ACTION_MODES:
            raise ConfigError("action_mode", action_mode, f"must be one of {', '.join(ACTION_MODES)}")
        self.views, self.mode, self.exact = views, action_mode, action_mode == "exact"
        self.fractions = np.array(check_bet_sizes(bet_sizes), dtype=np.float64)
        seats = PAD_SEATS if pad_seats else views.num_players
        self.width = _obs.obs_size(seats)
        off = _obs.obs_offsets(seats)
        self.offsets = np.array(
            [off["hole"][0], off["board"][0], off["street"][0], off["scalars"][0], off["stacks"][0],
             off["street_bets"][0], off["folded"][0], off["all_in"][0], off["dealt_in"][0], off["button"][0],
             off["history"][0], seats, _obs.SCALARS.index("pot"), _obs.SCALARS.index("amount_to_call"),
             _obs.SCALARS.index("min_raise_to"), _obs.SCALARS.index("max_raise_to"), _obs.SCALARS.index("own_stack"),
             _obs.SCALARS.index("current_bet")],
            dtype=np.int64,
        )
        bb = views.big_blind
        if isinstance(bb, bool) or not isinstance(bb, (int, np.integer)) or bb < 1:
            raise ConfigError("views.big_blind", bb, "must be an integer >= 1")
        self.inv = 1.0 / int(bb)
        self.inv32 = float(np.float32(self.inv))
        self.dest = np.arange(views.rows, dtype=np.intp)
        self.no_amounts = np.zeros((views.rows, 0), dtype=np.int64)
        self._hist: Any = None
        self.a: dict[str, np.ndarray] = {}

    def arrays(self) -> dict[str, np.ndarray]:
        """The views' arrays (as :func:`_arrays` gives them), taken again when the history was widened."""
        if self.views.hist_seat is not self._hist:
            self.a = _arrays(self.views)
            self._hist = self.views.hist_seat
        return self.a

    def observe(self, obs: np.ndarray, masks: np.ndarray, amounts: np.ndarray) -> None:
        """Every row's observation into ``obs``, its mask into ``masks`` and (discrete mode) its raise
        amounts into ``amounts``; ``obs``, ``masks`` and ``amounts`` are the owner's checked arrays."""
        a = self.arrays()
        _write_observations(
            a["seat"], a["button"], a["street"], a["hole"], a["board"], a["board_len"], a["pot"], a["current_bet"],
            a["stacks"], a["street_bets"], a["folded"], a["all_in"], a["dealt_in"], a["call"], a["min_raise_to"],
            a["max_raise_to"], a["hist_len"], a["hist_seat"], a["hist_street"], a["hist_kind"], a["hist_to"],
            _KIND_COLUMN, self.offsets, obs, self.dest, self.inv, self.inv32,
        )
        if not self.exact:
            _write_amounts(a["seat"], a["pot"], a["current_bet"], a["stacks"], a["street_bets"], a["call"],
                           a["min_raise_to"], a["max_raise_to"], self.fractions, amounts)
        _write_masks(a["legal_fold"], a["legal_check"], a["call"], a["min_raise_to"], a["max_raise_to"],
                     self.no_amounts if self.exact else amounts, self.exact, masks, self.dest)

    def exact_ids(self, actions: np.ndarray, amounts: np.ndarray) -> np.ndarray:
        """:func:`exact_actions` of ``actions`` (int64, one per row) with the ``amounts`` :meth:`observe` wrote."""
        a = self.arrays()
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        result = np.empty(self.views.rows, dtype=np.int64)
        bad = _to_exact(acts, a["legal_fold"], a["min_raise_to"], a["max_raise_to"],
                        self.no_amounts if self.exact else amounts, self.exact, result)
        if bad >= 0:  # the checked path words the error
            return exact_actions(self.views, acts, self.mode, bet_sizes=tuple(self.fractions.tolist()), amounts=amounts)
        return result


# ---------------------------------------------------------------------------------- the passes (C when compiled)


def _check_rows(
    seat: Any, button: Any, street: Any, hole: Any, board: Any, board_len: Any, lo: Any, hi: Any, hist_len: Any,
    hist_seat: Any, hist_street: Any, hist_kind: Any, n: int, kinds: int, code: Any,
) -> int:
    """The first row with a value out of range (its reason's index into ``_BAD`` in ``code[0]``), or -1."""
    room = hist_seat.shape[1]
    for i in range(seat.shape[0]):
        c = -1
        if not 0 <= seat[i] < n:
            c = 0
        elif not 0 <= button[i] < n:
            c = 1
        elif not 0 <= street[i] <= 3:
            c = 2
        elif not (0 <= hole[i, 0] < 52 and 0 <= hole[i, 1] < 52):
            c = 3
        elif not 0 <= board_len[i] <= 5:
            c = 4
        elif not 0 <= hist_len[i] <= room:
            c = 6
        elif lo[i] < 0 or hi[i] < 0 or (lo[i] > 0 and hi[i] < lo[i]) or (lo[i] == 0 and hi[i] != 0):
            c = 10
        else:
            for k in range(board_len[i]):
                if not 0 <= board[i, k] < 52:
                    c = 5
            for k in range(hist_len[i]):
                if not 0 <= hist_seat[i, k] < n:
                    c = 7
                elif not 0 <= hist_street[i, k] <= 3:
                    c = 8
                elif not 0 <= hist_kind[i, k] < kinds:
                    c = 9
        if c >= 0:
            code[0] = c
            return i
    return -1


def _write_observations(
    seat: Any, button: Any, street: Any, hole: Any, board: Any, board_len: Any, pot: Any, current_bet: Any,
    stacks: Any, street_bets: Any, folded: Any, all_in: Any, dealt_in: Any, call: Any, lo: Any, hi: Any,
    hist_len: Any, hist_seat: Any, hist_street: Any, hist_kind: Any, hist_to: Any, kind_col: Any, off: Any,
    out: Any, dest: Any, inv: float, inv32: float,
) -> int:
    n = stacks.shape[1]
    width = out.shape[1]
    o_hole, o_board, o_street, o_sc = off[0], off[1], off[2], off[3]
    o_stacks, o_bets, o_folded, o_all_in, o_dealt, o_button, o_hist, seats = (
        off[4], off[5], off[6], off[7], off[8], off[9], off[10], off[11]
    )
    sc_pot, sc_call, sc_lo, sc_hi, sc_own, sc_cb = off[12], off[13], off[14], off[15], off[16], off[17]
    for i in range(seat.shape[0]):
        d = dest[i]
        for j in range(width):
            out[d, j] = 0.0
        o = seat[i]
        out[d, o_hole + hole[i, 0]] = 1.0
        out[d, o_hole + hole[i, 1]] = 1.0
        for k in range(board_len[i]):
            out[d, o_board + board[i, k]] = 1.0
        out[d, o_street + street[i]] = 1.0
        # the seats relative to the observer: money as the env's start-of-street refresh writes it
        for r in range(n):
            s = o + r
            if s >= n:
                s -= n
            out[d, o_stacks + r] = stacks[i, s] * inv32
            out[d, o_bets + r] = street_bets[i, s] * inv32
            out[d, o_folded + r] = 1.0 if folded[i, s] else 0.0
            out[d, o_all_in + r] = 1.0 if all_in[i, s] else 0.0
            out[d, o_dealt + r] = 1.0 if dealt_in[i, s] else 0.0
        r = button[i] - o
        if r < 0:
            r += n
        out[d, o_button + r] = 1.0
        for k in range(hist_len[i]):
            s = hist_seat[i, k]
            r = s - o
            if r < 0:
                r += n
            t = hist_street[i, k]
            if t == street[i]:  # the env rewrote this seat's money when it acted on this street
                out[d, o_stacks + r] = stacks[i, s] * inv
                out[d, o_bets + r] = street_bets[i, s] * inv
            col = kind_col[hist_kind[i, k]]
            if col >= 0:
                at = o_hist + (t * seats + r) * _NUM_HIST
                out[d, at + col] += 1.0
                if col != _HIST_CHECKS:
                    out[d, at + _HIST_AMOUNT] = hist_to[i, k] * inv
        out[d, o_sc + sc_pot] = pot[i] * inv
        out[d, o_sc + sc_call] = call[i] * inv
        out[d, o_sc + sc_lo] = lo[i] * inv
        out[d, o_sc + sc_hi] = hi[i] * inv
        out[d, o_sc + sc_own] = out[d, o_stacks]
        out[d, o_sc + sc_cb] = current_bet[i] * inv
    return 0


def _write_amounts(
    seat: Any, pot: Any, current_bet: Any, stacks: Any, street_bets: Any, call: Any, lo: Any, hi: Any,
    fractions: Any, amounts: Any,
) -> int:
    m = fractions.shape[0]
    last = m + 1
    for i in range(seat.shape[0]):
        for j in range(m + 2):
            amounts[i, j] = 0
        low = lo[i]
        high = hi[i]
        if low <= 0:
            continue
        s = seat[i]
        all_in_to = street_bets[i, s] + stacks[i, s]
        if low <= all_in_to <= high:  # priority: all-in, the min-raise, then the fractions in order
            amounts[i, last] = all_in_to
        if amounts[i, last] != low:
            amounts[i, 0] = low
        base = pot[i] + call[i]
        for f in range(m):
            # holdem_env.engine.actions.pot_fraction_raise_to, in the same float operations
            x = current_bet[i] + fractions[f] * base + 0.5
            amount = int(x)
            if low <= amount <= high and amount != amounts[i, last]:
                taken = False
                for j in range(f + 1):
                    if amounts[i, j] == amount:
                        taken = True
                if not taken:
                    amounts[i, f + 1] = amount
    return 0


def _write_masks(fold: Any, check: Any, call: Any, lo: Any, hi: Any, amounts: Any, exact: bool, out: Any, dest: Any) -> int:
    width = out.shape[1]
    m = amounts.shape[1]
    for i in range(fold.shape[0]):
        d = dest[i]
        for j in range(width):
            out[d, j] = 0
        out[d, 0] = 1 if fold[i] else 0
        out[d, 1] = 1 if check[i] or call[i] > 0 else 0
        if exact:
            if lo[i] > 0:
                for j in range(lo[i] + 1, hi[i] + 2):
                    out[d, j] = 1
        else:
            for j in range(m):
                if amounts[i, j] > 0:
                    out[d, j + 2] = 1
    return 0


def _to_exact(acts: Any, fold: Any, lo: Any, hi: Any, amounts: Any, exact: bool, out: Any) -> int:
    """Each row's exact id in ``out``; the first row whose id is not legal, or -1."""
    m = amounts.shape[1]
    for i in range(acts.shape[0]):
        a = acts[i]
        if a == 0:
            if not fold[i]:
                return i
            out[i] = 0
        elif a == 1:
            out[i] = 1
        elif exact:
            if lo[i] <= 0 or a < lo[i] + 1 or a > hi[i] + 1:
                return i
            out[i] = a
        else:
            if a < 2 or a >= m + 2 or amounts[i, a - 2] <= 0:
                return i
            out[i] = amounts[i, a - 2] + 1
    return -1

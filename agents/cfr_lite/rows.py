"""What the ``cfr-lite`` agent's batched ``decide`` and its ``act`` share: one row of a batch as a seat view,
and the translation draw of an observed bet (a function of the public hand, so no state crosses calls).

:func:`row_view` turns row ``i`` of a :class:`~holdem_env.batched.views.BatchViews` into the mapping
``act`` reads from ``info["view"]`` (cards as ids, streets and history kinds as names) and the legal
set ``info["legal"]`` gives. :func:`translation_uniform` is the number in [0, 1) that decides the
pseudo-harmonic translation of the bet at ``history[index]`` (:func:`holdem_env.agents.cfr_lite.actions.
translate_size`): a keyed hash of the agent's ``translate_seed``, the button, the seats dealt in, the
board as it was on that bet's street and the public history up to that bet. Every seat view of the
hand after that bet gives the same number, so a bet keeps its translation for the rest of the hand
without the agent remembering it, whichever table or call the decision comes from, and range queries
(which replay the public history once for every holding) see the translation ``act`` plays.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from holdem_env.batched.views import HISTORY_KINDS, STREETS, BatchViews
from holdem_env.engine.cards import parse_cards

__all__ = ["row_view", "row_legal", "translation_uniform", "Draw", "subset"]

_KIND = {k: i for i, k in enumerate(HISTORY_KINDS)}
_STREET = {s: i for i, s in enumerate(STREETS)}
_BOARD_AT = (0, 3, 4, 5)  # board cards seen on each street


def row_view(views: BatchViews, i: int) -> dict[str, Any]:
    """Row ``i`` of ``views`` as the seat view mapping ``act`` reads (cards as ids)."""
    h = int(views.hist_len[i])
    history = tuple(
        (int(s), STREETS[int(st)], HISTORY_KINDS[int(k)], int(to))
        for s, st, k, to in zip(views.hist_seat[i, :h].tolist(), views.hist_street[i, :h].tolist(),
                                views.hist_kind[i, :h].tolist(), views.hist_to[i, :h].tolist(), strict=True)
    )
    return {
        "seat": int(views.seat[i]), "button": int(views.button[i]), "street": STREETS[int(views.street[i])],
        "hole_cards": tuple(int(c) for c in views.hole[i]), "board": tuple(int(c) for c in views.board[i, : int(views.board_len[i])]),
        "pot": int(views.pot[i]), "current_bet": int(views.current_bet[i]),
        "stacks": tuple(views.stacks[i].tolist()), "street_bets": tuple(views.street_bets[i].tolist()),
        "folded": tuple(bool(x) for x in views.folded[i]), "all_in": tuple(bool(x) for x in views.all_in[i]),
        "dealt_in": tuple(bool(x) for x in views.dealt_in[i]),
        "small_blind": int(views.small_blind), "big_blind": int(views.big_blind), "history": history,
    }


def row_legal(views: BatchViews, i: int) -> dict[str, Any]:
    """Row ``i``'s legal set as ``info["legal"]`` says it (``None`` raise bounds when no raise is legal)."""
    lo = int(views.min_raise_to[i])
    return {
        "fold": bool(views.legal_fold[i]), "check": bool(views.legal_check[i]), "call": int(views.call[i]),
        "min_raise_to": lo or None, "max_raise_to": int(views.max_raise_to[i]) if lo else None,
    }


def subset(views: BatchViews, rows: np.ndarray) -> BatchViews:
    """The rows ``rows`` of ``views`` as a new BatchViews (copies)."""
    out = object.__new__(BatchViews)
    out.__dict__.update({k: (v[rows] if isinstance(v, np.ndarray) else v) for k, v in views.__dict__.items()})
    return out


def translation_uniform(seed: int, view: Mapping[str, Any], history: Sequence[Sequence[Any]], index: int) -> float:
    """The translation draw in [0, 1) of the bet at ``history[index]`` (see the module docstring)."""
    street = _STREET[str(history[index][1])]
    board = parse_cards(view["board"]) if view["board"] else ()
    key = (
        int(seed), int(view["button"]), tuple(int(bool(d)) for d in view["dealt_in"]), tuple(board[: _BOARD_AT[street]]),
        tuple((int(s), _STREET[str(st)], _KIND[str(k)], int(to)) for s, st, k, to in history[: index + 1]),
    )
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    return (int.from_bytes(digest, "little") >> 11) / float(1 << 53)


class Draw:
    """A stand-in generator whose ``random()`` answers a number computed on demand (once)."""

    __slots__ = ("_make", "_value")

    def __init__(self, make: Any) -> None:
        self._make = make
        self._value: float | None = None

    def random(self) -> float:
        if self._value is None:
            self._value = float(self._make())
        return self._value

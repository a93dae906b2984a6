"""One seat's view at each of many waiting tables, as arrays: what a batched bot decides from.

A :class:`BatchViews` holds, for ``R`` rows (one table each, the seat to act there), exactly what
that seat's :class:`~holdem_env.env._view.SeatView` and ``info["legal"]`` say in the single-table
env -- its own hole cards and the public state, never another seat's cards -- so a batched bot
reads nothing a single-table bot could not, and its decisions can be compared with ``act`` row by
row. The batched core fills one from its tables; :meth:`BatchViews.from_seat_views` builds one from
single-table views (for tests and for bots used outside the batched core).

Encodings: cards are the engine's ids 0..51 (``-1`` pads an unused board slot); streets are
:class:`~holdem_env.engine.actions.Street` values (0 preflop .. 3 river); history kinds are
indices into :data:`HISTORY_KINDS`; a history amount is the action's ``to`` (the street total after
it, as in the view's ``history``). ``min_raise_to``/``max_raise_to`` are 0 when no bet or raise
is allowed, and ``call`` is 0 when the seat may check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from holdem_env.engine.cards import card_id
from holdem_env.engine.errors import ConfigError

__all__ = ["BatchViews", "HISTORY_KINDS", "STREETS"]

#: The ``kind`` of a history entry, by code.
HISTORY_KINDS = ("fold", "check", "call", "bet", "raise")
#: The street names, by code (``Street`` values).
STREETS = ("preflop", "flop", "turn", "river")
_KIND_CODE = {k: i for i, k in enumerate(HISTORY_KINDS)}
_STREET_CODE = {s: i for i, s in enumerate(STREETS)}


@dataclass
class BatchViews:
    """``R`` rows of one seat's view (the seat to act at each table) and its legal set.

    Per row ``(R,)``: ``seat``, ``button``, ``street``, ``board_len``, ``pot``, ``current_bet``,
    ``legal_fold`` (0/1), ``legal_check`` (0/1), ``call`` (chips a call puts in, 0 when checking),
    ``min_raise_to``, ``max_raise_to``, ``hist_len``. Per row and seat ``(R, n)``: ``stacks``,
    ``street_bets``, ``folded``, ``all_in``, ``dealt_in``. Cards: ``hole`` ``(R, 2)``, ``board``
    ``(R, 5)``. History ``(R, H)``: ``hist_seat``, ``hist_street``, ``hist_kind``, ``hist_to``
    (entries past ``hist_len`` are 0). Scalars: ``num_players``, ``small_blind``, ``big_blind``.
    """

    num_players: int
    small_blind: int
    big_blind: int
    seat: np.ndarray
    button: np.ndarray
    street: np.ndarray
    hole: np.ndarray
    board: np.ndarray
    board_len: np.ndarray
    pot: np.ndarray
    current_bet: np.ndarray
    stacks: np.ndarray
    street_bets: np.ndarray
    folded: np.ndarray
    all_in: np.ndarray
    dealt_in: np.ndarray
    legal_fold: np.ndarray
    legal_check: np.ndarray
    call: np.ndarray
    min_raise_to: np.ndarray
    max_raise_to: np.ndarray
    hist_len: np.ndarray
    hist_seat: np.ndarray
    hist_street: np.ndarray
    hist_kind: np.ndarray
    hist_to: np.ndarray

    @property
    def rows(self) -> int:
        """How many rows (waiting tables) this holds."""
        return len(self.seat)

    @classmethod
    def empty(cls, rows: int, num_players: int, small_blind: int, big_blind: int, history: int = 64) -> BatchViews:
        """Zeroed arrays for ``rows`` rows (``board`` all ``-1``), history room ``history``; the
        batched core allocates one of these and refills it in place."""
        if isinstance(rows, bool) or not isinstance(rows, (int, np.integer)) or rows < 0:
            raise ConfigError("rows", rows, "must be an integer >= 0")
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) or not 2 <= num_players <= 10:
            raise ConfigError("num_players", num_players, "must be an integer in 2..10")
        r, n, h = int(rows), int(num_players), int(history)

        def z(*shape: int, dtype: Any = np.int64) -> np.ndarray:
            return np.zeros(shape, dtype=dtype)

        return cls(
            n, int(small_blind), int(big_blind),
            seat=z(r), button=z(r), street=z(r), hole=z(r, 2), board=np.full((r, 5), -1, dtype=np.int64),
            board_len=z(r), pot=z(r), current_bet=z(r), stacks=z(r, n), street_bets=z(r, n),
            folded=z(r, n, dtype=np.int8), all_in=z(r, n, dtype=np.int8), dealt_in=z(r, n, dtype=np.int8),
            legal_fold=z(r, dtype=np.int8), legal_check=z(r, dtype=np.int8), call=z(r),
            min_raise_to=z(r), max_raise_to=z(r), hist_len=z(r),
            hist_seat=z(r, h), hist_street=z(r, h), hist_kind=z(r, h), hist_to=z(r, h),
        )

    @classmethod
    def from_seat_views(cls, views: Sequence[Mapping[str, Any]], legals: Sequence[Mapping[str, Any]]) -> BatchViews:
        """Rows from single-table ``info["view"]`` and ``info["legal"]`` mappings (one pair a row;
        every view from a table of the same size and blinds, each at a decision of its seat)."""
        if len(views) != len(legals) or not views:
            raise ConfigError("views", len(views), f"must be a non-empty sequence as long as legals ({len(legals)})")
        first = views[0]
        n = len(first["stacks"])
        hist = max(len(v["history"]) for v in views)
        out = cls.empty(len(views), n, int(first["small_blind"]), int(first["big_blind"]), max(hist, 1))
        for i, (v, lg) in enumerate(zip(views, legals, strict=True)):
            if len(v["stacks"]) != n or v["street"] not in _STREET_CODE:
                raise ConfigError("views", v["street"], f"row {i} must be a {n}-seat view at a decision (street preflop..river)")
            out.seat[i], out.button[i], out.street[i] = v["seat"], v["button"], _STREET_CODE[v["street"]]
            out.hole[i] = [card_id(c) for c in v["hole_cards"]]
            board = [card_id(c) for c in v["board"]]
            out.board[i, : len(board)] = board
            out.board_len[i], out.pot[i], out.current_bet[i] = len(board), v["pot"], v["current_bet"]
            out.stacks[i], out.street_bets[i] = v["stacks"], v["street_bets"]
            out.folded[i], out.all_in[i], out.dealt_in[i] = v["folded"], v["all_in"], v["dealt_in"]
            out.legal_fold[i], out.legal_check[i], out.call[i] = bool(lg["fold"]), bool(lg["check"]), lg["call"]
            out.min_raise_to[i] = lg["min_raise_to"] or 0
            out.max_raise_to[i] = lg["max_raise_to"] or 0
            out.hist_len[i] = len(v["history"])
            for k, (seat, street, kind, to) in enumerate(v["history"]):
                out.hist_seat[i, k], out.hist_street[i, k] = seat, _STREET_CODE[street]
                out.hist_kind[i, k], out.hist_to[i, k] = _KIND_CODE[kind], to
        return out

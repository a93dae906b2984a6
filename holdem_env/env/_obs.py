"""The observation layout of ``nlhe_v1``: offsets, bounds and named views of the flat vector.

The vector is float32 and has ``obs_size(S)`` entries, where ``S`` is the seat axis
(the table size, or 10 when the env pads seats). Money is in big blinds. Seat-indexed
blocks are *relative to the observer*: index 0 is the observer, index 1 the next seat
clockwise, and so on; padded seats are all zeros.

====================  ==========  ===============================================
slice                 length      content
====================  ==========  ===============================================
``hole``              52          own hole cards, one-hot by card id
``board``             52          board cards, one-hot by card id
``street``            4           preflop, flop, turn, river (all zero when over)
``scalars``           6           pot, amount to call, min raise-to, max raise-to,
                                  own stack, current bet (BB). Raise-to bounds are
                                  0 unless the observer is to act and may raise;
                                  a seat not to act sees what it would owe now
``stacks``            S           chips behind per seat (BB)
``street_bets``       S           each seat's bet this street (BB)
``folded``            S           1 if the seat folded
``all_in``            S           1 if the seat is all-in
``dealt_in``          S           1 if the seat was dealt into this hand
``button``            S           one-hot: the button's relative seat
``history``           4 * S * 4   per street, per seat: checks, calls,
                                  bets/raises (counts), street total after the
                                  seat's last call/bet/raise (BB)
====================  ==========  ===============================================

The env keeps one float32 *state buffer* per hand, in absolute seat order, and builds every
observation from it with one gather (:class:`BufferLayout` says where each feature lives in
it and gives each observer's gather indices). Both layouts are derived here from the names
above (:data:`SCALARS`, :data:`SEAT_FEATURES`, :data:`HISTORY_FEATURES`); no other module
computes an offset.
"""

from __future__ import annotations

import numpy as np

from holdem_env.engine.errors import HoldemError
from holdem_env.engine.validate import is_int

__all__ = [
    "SCALARS",
    "NUM_SCALARS",
    "OFF_TO_CALL",
    "OFF_MIN_RAISE_TO",
    "OFF_MAX_RAISE_TO",
    "SEAT_FEATURES",
    "HISTORY_FEATURES",
    "STREETS",
    "obs_size",
    "obs_offsets",
    "obs_bounds",
    "observation_view",
    "BufferLayout",
    "HIST_CHECKS",
    "HIST_CALLS",
    "HIST_RAISES",
    "HIST_AMOUNT",
]

SCALARS = ("pot", "amount_to_call", "min_raise_to", "max_raise_to", "own_stack", "current_bet")
NUM_SCALARS = len(SCALARS)
SEAT_FEATURES = ("stacks", "street_bets", "folded", "all_in", "dealt_in", "button")
HISTORY_FEATURES = ("checks", "calls", "raises", "amount")
HIST_CHECKS, HIST_CALLS, HIST_RAISES, HIST_AMOUNT = (HISTORY_FEATURES.index(k) for k in HISTORY_FEATURES)
STREETS = 4
_CARDS = 52

OFF_HOLE = 0
OFF_BOARD = 52
OFF_STREET = 104
OFF_SCALARS = 108
OFF_SEATS = OFF_SCALARS + NUM_SCALARS
# The three scalars only the observer's own decision has, written per observation in this order.
_PER_DECISION = ("amount_to_call", "min_raise_to", "max_raise_to")
OFF_TO_CALL = OFF_SCALARS + SCALARS.index("amount_to_call")
OFF_MIN_RAISE_TO = OFF_SCALARS + SCALARS.index("min_raise_to")
OFF_MAX_RAISE_TO = OFF_SCALARS + SCALARS.index("max_raise_to")
assert tuple(SCALARS[OFF_TO_CALL - OFF_SCALARS :][:3]) == _PER_DECISION


def obs_size(seats: int) -> int:
    """Length of the observation vector for a seat axis of ``seats`` entries."""
    return OFF_SEATS + len(SEAT_FEATURES) * seats + STREETS * seats * len(HISTORY_FEATURES)


def obs_offsets(seats: int) -> dict[str, tuple[int, int]]:
    """``name -> (start, stop)`` of every named slice (see the module docstring)."""
    out: dict[str, tuple[int, int]] = {
        "hole": (OFF_HOLE, OFF_HOLE + 52),
        "board": (OFF_BOARD, OFF_BOARD + 52),
        "street": (OFF_STREET, OFF_STREET + STREETS),
        "scalars": (OFF_SCALARS, OFF_SCALARS + NUM_SCALARS),
    }
    start = OFF_SEATS
    for name in SEAT_FEATURES:
        out[name] = (start, start + seats)
        start += seats
    out["history"] = (start, start + STREETS * seats * len(HISTORY_FEATURES))
    return out


def obs_bounds(seats: int, max_money_bb: float, max_count: float) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` float32 bounds of the observation for the space's ``Box``."""
    n = obs_size(seats)
    low = np.zeros(n, dtype=np.float32)
    high = np.ones(n, dtype=np.float32)
    off = obs_offsets(seats)
    high[off["scalars"][0] : off["scalars"][1]] = max_money_bb
    high[off["stacks"][0] : off["stacks"][1]] = max_money_bb
    high[off["street_bets"][0] : off["street_bets"][1]] = max_money_bb
    hist = high[off["history"][0] : off["history"][1]].reshape(STREETS, seats, len(HISTORY_FEATURES))
    hist[:, :, :3] = max_count
    hist[:, :, 3] = max_money_bb
    return low, high


def observation_view(observation: np.ndarray, seats: int) -> dict[str, np.ndarray]:
    """Named views (no copies) into a flat observation vector.

    ``view["scalars"]`` has the six scalars in the documented order and
    ``view["history"]`` has shape ``(4, seats, 4)``.

    >>> import numpy as np
    >>> v = observation_view(np.zeros(obs_size(2), dtype=np.float32), 2)
    >>> v["history"].shape, v["stacks"].shape
    ((4, 2, 4), (2,))
    >>> observation_view(np.zeros(3), 2)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.HoldemError: observation has 3 entries, expected 158 for 2 seats
    """
    observation = np.asarray(observation)
    if observation.shape != (obs_size(seats),):
        raise HoldemError(
            f"observation has {observation.size} entries, expected {obs_size(seats)} for {seats} seats"
        )
    out = {name: observation[a:b] for name, (a, b) in obs_offsets(seats).items()}
    out["history"] = out["history"].reshape(STREETS, seats, len(HISTORY_FEATURES))
    return out


class BufferLayout:
    """Where every feature lives in the env's state buffer for a table of ``num_players`` seats.

    The buffer is float32 in absolute seat order: each seat feature of :data:`SEAT_FEATURES`
    as a row of ``num_players`` entries (attributes ``stacks``, ``street_bets``, ``folded``,
    ``all_in``, ``dealt_in``, ``button`` give the row starts), the betting history as
    ``[street, seat, feature]`` (:meth:`history_at`), each seat's hole-card one-hot
    (:meth:`hole_at`), the ``board`` and ``street`` one-hots, the ``pot``, the
    ``current_bet`` and one entry that stays ``zero`` (padding and per-decision scalars).

    >>> layout = BufferLayout(2)
    >>> layout.street_bets + 1, layout.history_at(street=1, seat=0) + HIST_AMOUNT, layout.size
    (3, 23, 207)
    >>> BufferLayout(1)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.HoldemError: a table has 2..10 players, got 1
    """

    __slots__ = (
        "num_players",
        *SEAT_FEATURES,
        "history",
        "hole",
        "board",
        "street",
        "pot",
        "current_bet",
        "zero",
        "size",
    )
    # the row starts of SEAT_FEATURES, set by name in __init__
    stacks: int
    street_bets: int
    folded: int
    all_in: int
    dealt_in: int
    button: int

    def __init__(self, num_players: int) -> None:
        if not is_int(num_players) or not 2 <= num_players <= 10:
            raise HoldemError(f"a table has 2..10 players, got {num_players!r}")
        n = self.num_players = num_players
        start = 0
        for name in SEAT_FEATURES:
            setattr(self, name, start)
            start += n
        self.history = start
        self.hole = self.history + STREETS * n * len(HISTORY_FEATURES)
        self.board = self.hole + _CARDS * n
        self.street = self.board + _CARDS
        self.pot = self.street + STREETS
        self.current_bet = self.pot + 1
        self.zero = self.current_bet + 1
        self.size = self.zero + 1

    def history_at(self, street: int, seat: int) -> int:
        """Index of ``seat``'s first history feature on ``street`` (add ``HIST_*`` for the others)."""
        return self.history + (street * self.num_players + seat) * len(HISTORY_FEATURES)

    def hole_at(self, seat: int) -> int:
        """Index of card 0 in ``seat``'s hole-card one-hot (card ``c`` is at ``hole_at(seat) + c``)."""
        return self.hole + _CARDS * seat

    def gather(self, seats: int) -> np.ndarray:
        """``(num_players, obs_size(seats))`` intp: row ``o`` lists, for every entry of observer
        ``o``'s observation, the buffer index it is copied from (relative seats wrap around from
        ``o``; padded seats and the per-decision scalars read :attr:`zero`)."""
        n = self.num_players
        if seats < n:
            raise HoldemError(f"the seat axis ({seats}) is shorter than the table ({n} players)")
        rows = []
        for o in range(n):
            rel = [(o + r) % n if r < n else None for r in range(seats)]
            scalar_source = {
                "pot": self.pot,
                "own_stack": self.stacks + o,
                "current_bet": self.current_bet,
            }
            idx: list[int] = list(range(self.hole_at(o), self.hole_at(o) + _CARDS))
            idx += range(self.board, self.board + _CARDS)
            idx += range(self.street, self.street + STREETS)
            idx += [scalar_source.get(name, self.zero) for name in SCALARS]
            for name in SEAT_FEATURES:
                row = getattr(self, name)
                idx += [self.zero if s is None else row + s for s in rel]
            for t in range(STREETS):
                for s in rel:
                    for k in range(len(HISTORY_FEATURES)):
                        idx.append(self.zero if s is None else self.history_at(t, s) + k)
            assert len(idx) == obs_size(seats)
            rows.append(idx)
        return np.array(rows, dtype=np.intp)

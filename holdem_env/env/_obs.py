"""The observation layout of ``nlhe_v0``: offsets, bounds and named views of the flat vector.

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
"""

from __future__ import annotations

import numpy as np

from holdem_env.engine.errors import HoldemError

__all__ = [
    "NUM_SCALARS",
    "SEAT_FEATURES",
    "HISTORY_FEATURES",
    "STREETS",
    "obs_size",
    "obs_offsets",
    "obs_bounds",
    "observation_view",
]

NUM_SCALARS = 6
SEAT_FEATURES = ("stacks", "street_bets", "folded", "all_in", "dealt_in", "button")
HISTORY_FEATURES = ("checks", "calls", "raises", "amount")
STREETS = 4

OFF_HOLE = 0
OFF_BOARD = 52
OFF_STREET = 104
OFF_SCALARS = 108
OFF_SEATS = OFF_SCALARS + NUM_SCALARS


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

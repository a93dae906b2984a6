"""What one seat may see of a hand, as a frozen snapshot of plain values (``info["view"]``).

A :class:`SeatView` holds only ints, strs, bools and tuples of them, built by the env when the
seat is to act (and at the deal and the end of the hand). It keeps no reference to the engine,
the deck, the env or another seat's hidden cards, so an agent handed one can learn nothing
more from it than the seat is allowed to see, and it pickles and batches like plain data.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["SeatView", "VIEW_KEYS"]

VIEW_KEYS: tuple[str, ...] = (
    "seat",
    "hole_cards",
    "street",
    "board",
    "pot",
    "current_bet",
    "button",
    "actor",
    "stacks",
    "street_bets",
    "folded",
    "all_in",
    "dealt_in",
    "small_blind",
    "big_blind",
    "history",
    "is_over",
    "shown",
    "payoffs",
)
_INDEX = {k: i for i, k in enumerate(VIEW_KEYS)}


class SeatView(Mapping):
    """One seat's view of a hand: a read-only mapping with the keys of :data:`VIEW_KEYS`.

    ==============================  ==========================================================
    key                             value
    ==============================  ==========================================================
    ``seat``                        the seat this view belongs to
    ``hole_cards``                  its own two cards, e.g. ``("As", "Kd")`` (``()`` if out)
    ``street``                      ``"preflop"``, ``"flop"``, ``"turn"``, ``"river"`` or
                                    ``"showdown"`` (the hand is over)
    ``board``                       community cards dealt so far
    ``pot``, ``current_bet``        chips in the middle; the street total to call
    ``button``                      the button seat
    ``actor``                       the seat to act, ``-1`` once the hand is over
    ``stacks``, ``street_bets``     per seat: chips behind; bet this street
    ``folded``, ``all_in``,         per seat flags
    ``dealt_in``
    ``small_blind``, ``big_blind``  the blinds (chips)
    ``history``                     ``(seat, street, kind, to)`` per action so far
    ``is_over``                     whether the hand has ended
    ``shown``                       per seat: the cards shown at showdown, ``()`` for a seat
                                    that showed nothing (mucked cards are never revealed)
    ``payoffs``                     per seat: net chips won; all 0 until ``is_over``
    ==============================  ==========================================================

    >>> v = SeatView.from_values(tuple(range(len(VIEW_KEYS))))
    >>> v["pot"], v.seat, len(v)
    (4, 0, 19)
    >>> v["opponent_cards"]
    Traceback (most recent call last):
    ...
    KeyError: "'opponent_cards' is not in a seat view; keys: seat, hole_cards, street, board, pot, current_bet, \
button, actor, stacks, street_bets, folded, all_in, dealt_in, small_blind, big_blind, history, is_over, shown, payoffs"
    >>> v.pot = 3
    Traceback (most recent call last):
    ...
    AttributeError: a SeatView is read-only
    """

    __slots__ = ("_values",)

    def __init__(self, **values: Any) -> None:
        missing = [k for k in VIEW_KEYS if k not in values]
        unknown = [k for k in values if k not in _INDEX]
        if missing or unknown:
            keys = ", ".join(VIEW_KEYS)
            raise TypeError(f"SeatView needs exactly the keys {keys} (missing {missing}, unknown {unknown})")
        _set_values(self, tuple(values[k] for k in VIEW_KEYS))

    @classmethod
    def from_values(cls, values: tuple[Any, ...]) -> SeatView:
        """A view from its values in :data:`VIEW_KEYS` order (the env's fast path; no checks)."""
        view = _new(cls)
        _set_values(view, values)
        return view

    def __getitem__(self, key: str) -> Any:
        try:
            return self._values[_INDEX[key]]
        except KeyError:
            raise KeyError(f"{key!r} is not in a seat view; keys: {', '.join(VIEW_KEYS)}") from None

    def __getattr__(self, key: str) -> Any:
        index = _INDEX.get(key)
        if index is None:
            raise AttributeError(f"SeatView has no attribute {key!r}")
        return self._values[index]

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("a SeatView is read-only")

    def __delattr__(self, key: str) -> None:
        raise AttributeError("a SeatView is read-only")

    def __iter__(self) -> Iterator[str]:
        return iter(VIEW_KEYS)

    def __len__(self) -> int:
        return len(VIEW_KEYS)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeatView):
            return self._values == other._values
        return Mapping.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(self._values)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (SeatView.from_values, (self._values,))

    def __copy__(self) -> SeatView:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> SeatView:
        return self  # immutable all the way down

    def snapshot(self) -> dict[str, Any]:
        """The view as a plain dict."""
        return dict(zip(VIEW_KEYS, self._values, strict=True))

    def __repr__(self) -> str:
        return f"SeatView({', '.join(f'{k}={v!r}' for k, v in zip(VIEW_KEYS, self._values, strict=True))})"


_new = object.__new__
_set_values = SeatView._values.__set__  # type: ignore[attr-defined]  # the slot, past the read-only __setattr__

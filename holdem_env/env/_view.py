"""What one seat may see of a hand, as a frozen snapshot of plain values (``info["view"]``).

A :class:`SeatView` holds only ints, strs, bools and tuples of them, built by the env when the
seat is to act (and at the deal and the end of the hand). It keeps no reference to the engine,
the deck, the env or another seat's hidden cards, so an agent handed one can learn nothing
more from it than the seat is allowed to see, and it pickles and batches like plain data.
"""

from __future__ import annotations

import importlib.machinery
from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any

__all__ = ["SeatView", "VIEW_KEYS", "view_from_parts", "view_from_values"]

#: Whether this module runs compiled (``_view.pxd``): then :class:`SeatView` is an extension type
#: whose values sit in a typed field the env writes directly, one C call per view.
_COMPILED = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))

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


class SeatView:
    """One seat's view of a hand: a read-only mapping with the keys of :data:`VIEW_KEYS`
    (a registered :class:`collections.abc.Mapping`, with its methods).

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

    # The values in two parts: ``_own`` = (seat, hole_cards), this seat's; ``_public`` = the rest,
    # in VIEW_KEYS order, one tuple the env shares between the seats' views of the same moment.
    __slots__ = ("_own", "_public")

    def __init__(self, **values: Any) -> None:
        missing = [k for k in VIEW_KEYS if k not in values]
        unknown = [k for k in values if k not in _INDEX]
        if missing or unknown:
            keys = ", ".join(VIEW_KEYS)
            raise TypeError(f"SeatView needs exactly the keys {keys} (missing {missing}, unknown {unknown})")
        own = (values["seat"], values["hole_cards"])
        public = tuple([values[k] for k in VIEW_KEYS[2:]])
        if _COMPILED:
            self._own, self._public = own, public  # the typed fields
        else:
            object.__setattr__(self, "_own", own)  # past the read-only __setattr__
            object.__setattr__(self, "_public", public)

    @property
    def _values(self) -> tuple[Any, ...]:
        """Every value in :data:`VIEW_KEYS` order."""
        return self._own + self._public

    @classmethod
    def from_values(cls, values: tuple[Any, ...]) -> SeatView:
        """A view from its values in :data:`VIEW_KEYS` order (no checks; see :func:`view_from_values`)."""
        return view_from_values(tuple(values))

    def __getitem__(self, key: str) -> Any:
        try:
            index = _INDEX[key]
        except KeyError:
            raise KeyError(f"{key!r} is not in a seat view; keys: {', '.join(VIEW_KEYS)}") from None
        return self._own[index] if index < 2 else self._public[index - 2]

    def __getattr__(self, key: str) -> Any:
        index = _INDEX.get(key)
        if index is None:
            raise AttributeError(f"SeatView has no attribute {key!r}")
        return self._own[index] if index < 2 else self._public[index - 2]

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("a SeatView is read-only")

    def __delattr__(self, key: str) -> None:
        raise AttributeError("a SeatView is read-only")

    def __iter__(self) -> Iterator[str]:
        return iter(VIEW_KEYS)

    def __len__(self) -> int:
        return len(VIEW_KEYS)

    # The Mapping methods (SeatView is registered as one, not derived: the compiled build makes it
    # an extension type, which cannot derive from a Python class).
    def __contains__(self, key: object) -> bool:
        return key in _INDEX

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, or ``default`` when it is not a view key."""
        index = _INDEX.get(key)
        if index is None:
            return default
        return self._own[index] if index < 2 else self._public[index - 2]

    def keys(self) -> KeysView[str]:
        """The keys, :data:`VIEW_KEYS`."""
        return KeysView(self)

    def items(self) -> ItemsView[str, Any]:
        """``(key, value)`` pairs in :data:`VIEW_KEYS` order."""
        return ItemsView(self)

    def values(self) -> ValuesView[Any]:
        """The values in :data:`VIEW_KEYS` order."""
        return ValuesView(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeatView):
            return self._values == other._values
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

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


Mapping.register(SeatView)



def view_from_values(values: tuple[Any, ...]) -> SeatView:
    """A view from its values in :data:`VIEW_KEYS` order, unchecked.

    >>> view_from_values(tuple(range(len(VIEW_KEYS))))["board"]
    3
    """
    return view_from_parts(values[:2], values[2:])


def view_from_parts(own: tuple[Any, ...], public: tuple[Any, ...]) -> SeatView:
    """A view from ``own`` = ``(seat, hole_cards)`` and ``public``, the other values in
    :data:`VIEW_KEYS` order, unchecked: the env's fast path (a C call from the compiled env,
    which builds one view per decision and shares ``public`` between the views of one moment).

    >>> view_from_parts((1, ("As", "Kd")), tuple(range(2, len(VIEW_KEYS))))["hole_cards"]
    ('As', 'Kd')
    """
    view = SeatView.__new__(SeatView)
    if _COMPILED:
        view._own = own  # the typed fields (compiled build only; Python sees them read-only)
        view._public = public
    else:
        object.__setattr__(view, "_own", own)  # past the read-only __setattr__
        object.__setattr__(view, "_public", public)
    return view

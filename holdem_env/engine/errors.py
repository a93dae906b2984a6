"""The exceptions the engine raises: one family, each a ``ValueError`` subclass.

>>> from holdem_env import TableConfig
>>> try:
...     TableConfig(num_players=11)
... except ConfigError as err:
...     print(err.field, isinstance(err, ValueError))
num_players True
"""

from __future__ import annotations

import pickle
import reprlib
from typing import Any

__all__ = [
    "short_repr",
    "HoldemError",
    "CardError",
    "ConfigError",
    "IllegalActionError",
    "HandOverError",
    "NoAgentLeftError",
    "PHHError",
]


class _BoundedRepr(reprlib.Repr):
    """``reprlib`` limits, plus integers too long for ``repr`` (Python refuses > 4300 digits)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = 200
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = 12
        self.maxdict = 8
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            digits = int(x.bit_length() * 0.30102999566398120) + 1  # exact or one too many
            if abs(x) < 10 ** (digits - 1):
                digits -= 1
            return f"<{'-' if x < 0 else ''}integer of {digits} digits>"
        return super().repr_int(x, level)


_BOUNDED = _BoundedRepr()


def short_repr(value: object) -> str:
    """``repr(value)`` cut to a readable length, safe for any value an error message quotes.

    Huge integers, deep nesting and long containers are abbreviated, so that formatting a
    message never raises or grows with the input.

    >>> short_repr(150)
    '150'
    >>> short_repr(10**5000)
    '<integer of 5001 digits>'
    >>> short_repr([[[[1]]]])
    '[[[[...]]]]'
    """
    try:
        return _BOUNDED.repr(value)
    except Exception:
        return f"<{type(value).__name__} object>"


def _picklable(value: object) -> bool:
    try:
        pickle.dumps(value)
    except Exception:
        return False
    return True


def _rebuild(cls: type[HoldemError], args: tuple[Any, ...], state: dict[str, Any]) -> HoldemError:
    err = cls.__new__(cls)
    err.args = args
    err.__dict__.update(state)
    return err


class HoldemError(ValueError):
    """Base class of every error raised for bad input to holdem_env.

    Every subclass pickles (an error in a worker process reaches the caller intact), whatever
    its ``__init__`` takes: the message and the attributes are restored as they were, an
    attribute that cannot be pickled as its short repr.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        state = {k: (v if _picklable(v) else short_repr(v)) for k, v in vars(self).items()}
        args = tuple(a if _picklable(a) else short_repr(a) for a in self.args)
        return (_rebuild, (type(self), args, state))


class CardError(HoldemError):
    """A card string, card id or deck order is malformed."""


class ConfigError(HoldemError):
    """A table configuration value is out of range; the message names the field."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"{field}={short_repr(value)} is invalid: {allowed}")


class IllegalActionError(HoldemError):
    """An action that the rules do not allow now; the state is left unchanged."""


class HandOverError(IllegalActionError):
    """An action was attempted after the hand had ended."""


class NoAgentLeftError(HandOverError, KeyError):
    """The env was asked about its selected agent after every agent had left the hand (a
    ``KeyError`` too, what PettingZoo's own wrappers raise there)."""

    __str__ = Exception.__str__  # the message as written, not KeyError's quoted repr


class PHHError(HoldemError):
    """A Poker Hand History file is malformed or uses an unsupported feature."""

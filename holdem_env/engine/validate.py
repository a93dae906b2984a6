"""Checks of configuration values that raise :class:`ConfigError` naming the key and what is allowed.

Every layer may use these (the engine imports only numpy and the standard library). Each check
returns the value in its plain Python form (``int``, ``float``, ``tuple``) and raises
:class:`~holdem_env.engine.errors.ConfigError` for anything else, booleans included: ``True`` is
an ``int`` to Python but never a count, a seed or a size here. ``allowed=`` replaces the
generated "must be ..." text where a caller says more (a unit, a hint).

>>> check_int("players", 6, 2, 10)
6
>>> check_int("players", True, 2, 10)
Traceback (most recent call last):
...
holdem_env.engine.errors.ConfigError: players=True is invalid: must be an integer in 2..10
>>> check_number("temperature", 0, 0, lo_open=True)
Traceback (most recent call last):
...
holdem_env.engine.errors.ConfigError: temperature=0 is invalid: must be a finite number > 0
>>> check_bet_sizes([0.5, 1])
(0.5, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypeGuard, TypeVar

import numpy as np

from holdem_env.engine.errors import ConfigError

__all__ = [
    "MAX_BET_SIZE",
    "is_int",
    "is_number",
    "check_int",
    "check_number",
    "check_bool",
    "check_choice",
    "check_fraction",
    "check_seed",
    "check_bet_sizes",
    "check_ascending",
]

#: The largest pot fraction a discrete bet size may be (a raise of 1000 pots is all-in in any real game;
#: far larger ones overflow the chip arithmetic).
MAX_BET_SIZE = 1000.0

T = TypeVar("T")


def is_int(value: object) -> TypeGuard[int | np.integer]:
    """Whether ``value`` is an integer (Python or numpy), booleans excluded."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_number(value: object) -> TypeGuard[int | float | np.integer | np.floating]:
    """Whether ``value`` is a real number (Python or numpy int or float), booleans excluded; NaN and inf count."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _bounds(lo: float | None, hi: float | None, lo_open: bool = False, hi_open: bool = False) -> str:
    def g(x: float) -> str:
        return str(int(x)) if isinstance(x, float) and x.is_integer() and abs(x) < 1e15 else repr(x)

    if lo is not None and hi is not None:
        if not lo_open and not hi_open:
            return f" in {g(lo)}..{g(hi)}"
        return f" in {'(' if lo_open else '['}{g(lo)}, {g(hi)}{')' if hi_open else ']'}"
    if lo is not None:
        return f" {'>' if lo_open else '>='} {g(lo)}"
    if hi is not None:
        return f" {'<' if hi_open else '<='} {g(hi)}"
    return ""


def check_int(
    name: str, value: Any, lo: int | None = None, hi: int | None = None, *, none_ok: bool = False, allowed: str | None = None
) -> Any:
    """``value`` as an ``int`` in ``lo..hi`` (either bound may be None; None itself passes when ``none_ok``)."""
    if value is None and none_ok:
        return None
    if not is_int(value) or (lo is not None and value < lo) or (hi is not None and value > hi):
        text = allowed or f"must be an integer{_bounds(lo, hi)}" + (", or None" if none_ok else "")
        raise ConfigError(name, value, text)
    return int(value)


def check_number(
    name: str,
    value: Any,
    lo: float | None = None,
    hi: float | None = None,
    *,
    lo_open: bool = False,
    hi_open: bool = False,
    none_ok: bool = False,
    allowed: str | None = None,
) -> Any:
    """``value`` as a finite ``float`` between ``lo`` and ``hi`` (open ends when ``lo_open``/``hi_open``)."""
    if value is None and none_ok:
        return None
    ok = is_number(value)
    if ok:
        try:
            x = float(value)
        except OverflowError:  # an int too large for a float
            ok = False
        else:
            ok = math.isfinite(x)
            if ok and lo is not None:
                ok = x > lo if lo_open else x >= lo
            if ok and hi is not None:
                ok = x < hi if hi_open else x <= hi
    if not ok:
        text = allowed or f"must be a finite number{_bounds(lo, hi, lo_open, hi_open)}" + (", or None" if none_ok else "")
        raise ConfigError(name, value, text)
    return x


def check_bool(name: str, value: Any, *, allowed: str | None = None) -> bool:
    """``value`` when it is ``True`` or ``False`` (not 0/1, not a string)."""
    if not isinstance(value, bool):
        raise ConfigError(name, value, allowed or "must be True or False")
    return value


def check_choice(name: str, value: Any, options: Iterable[T], *, allowed: str | None = None) -> T:
    """``value`` when it is one of ``options`` (compared by equality and type: ``1`` is not ``True``)."""
    choices = list(options)
    for option in choices:
        if type(option) is type(value) and option == value:
            return option
    raise ConfigError(name, value, allowed or "must be one of " + ", ".join(repr(c) for c in choices))


def check_fraction(name: str, value: Any, *, allowed: str | None = None) -> float:
    """``value`` as a float in (0, 1]."""
    return float(check_number(name, value, 0.0, 1.0, lo_open=True, allowed=allowed or "must be a number in (0, 1]"))


def check_seed(name: str, value: Any, *, none_ok: bool = True, allowed: str | None = None) -> Any:
    """``value`` as an ``int`` seed >= 0 (numpy's rule), or None when ``none_ok``."""
    text = allowed or ("must be an integer >= 0" + (" or None" if none_ok else ""))
    return check_int(name, value, 0, none_ok=none_ok, allowed=text)


def _numbers(name: str, value: Any, allowed: str) -> list[Any]:
    if isinstance(value, (str, bytes, dict)) or value is None:
        raise ConfigError(name, value, allowed)
    try:
        items = list(value)
    except TypeError:
        raise ConfigError(name, value, allowed) from None
    if not all(is_number(x) for x in items):
        raise ConfigError(name, value, allowed)
    return items


def check_bet_sizes(value: Any, name: str = "bet_sizes") -> tuple[float, ...]:
    """Discrete bet sizes: a sequence of pot fractions, each a finite number in (0, MAX_BET_SIZE].

    >>> check_bet_sizes([0.5, True])
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: bet_sizes=[0.5, True] is invalid: must be a sequence of positive, finite pot fractions (numbers, not booleans) of at most 1000 pots
    """
    allowed = f"must be a sequence of positive, finite pot fractions (numbers, not booleans) of at most {MAX_BET_SIZE:g} pots"
    items = _numbers(name, value, allowed)
    out: list[float] = []
    for x in items:
        try:
            f = float(x)
        except OverflowError:
            raise ConfigError(name, value, allowed) from None
        if not (math.isfinite(f) and 0 < f <= MAX_BET_SIZE):
            raise ConfigError(name, value, allowed)
        out.append(f)
    return tuple(out)


def check_ascending(
    name: str,
    value: Any,
    *,
    min_len: int = 1,
    max_len: int | None = None,
    hi: float | None = MAX_BET_SIZE,
    allowed: str | None = None,
) -> tuple[float, ...]:
    """Strictly ascending positive finite numbers (``min_len`` to ``max_len`` of them, each <= ``hi``)."""
    limit = "" if max_len is None else f"at most {max_len} "
    text = allowed or f"must be a list of {limit}strictly ascending positive numbers, e.g. [0.5, 1.0]"
    items = _numbers(name, value, text)
    try:
        out = tuple(float(x) for x in items)
    except OverflowError:
        raise ConfigError(name, value, text) from None
    if (
        len(out) < min_len
        or (max_len is not None and len(out) > max_len)
        or not all(math.isfinite(x) and x > 0 and (hi is None or x <= hi) for x in out)
        or any(a >= b for a, b in zip(out, out[1:], strict=False))
    ):
        raise ConfigError(name, value, text)
    return out

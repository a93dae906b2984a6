"""The env's action ids and their meaning: exact and discrete ids, raise-to amounts, and descriptions.

``nlhe_v1`` numbers its actions the same way for every agent: 0 folds, 1 checks or calls, and
the ids from 2 on bet or raise. In the exact mode id ``k + 1`` raises to ``k`` chips; in the
discrete mode the ids are the min-raise, one per pot fraction of ``bet_sizes`` and all-in
(:func:`discrete_raise_amounts` maps them to chips, masking sizes that are illegal or repeat one
kept before). The functions here are pure: they read the engine's
:class:`~holdem_env.engine.actions.LegalActions` and never the env.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from holdem_env.engine.actions import LegalActions, pot_fraction_raise_to
from holdem_env.engine.errors import IllegalActionError

__all__ = [
    "FOLD",
    "CHECK_CALL",
    "ACTION_MODES",
    "DEFAULT_BET_SIZES",
    "MAX_EXACT_STACK",
    "exact_action_id",
    "exact_raise_to",
    "discrete_raise_amounts",
    "describe_action",
    "describe_legal",
]

FOLD = 0
CHECK_CALL = 1
ACTION_MODES = ("discrete", "exact")
DEFAULT_BET_SIZES: tuple[float, ...] = (0.33, 0.5, 0.75, 1.0, 1.5, 2.0)
#: Largest ``max_stack`` of the exact mode, whose action space has one id per chip.
MAX_EXACT_STACK = 1_000_000


def exact_action_id(raise_to: int) -> int:
    """Exact-mode action id of a bet/raise TO ``raise_to`` chips.

    >>> exact_action_id(20)
    21
    >>> exact_action_id(0)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.IllegalActionError: raise-to 0 is not a positive number of chips
    """
    if not isinstance(raise_to, (int, np.integer)) or isinstance(raise_to, bool) or raise_to < 1:
        raise IllegalActionError(f"raise-to {raise_to!r} is not a positive number of chips")
    return int(raise_to) + 1


def exact_raise_to(action_id: int) -> int | None:
    """Raise-to amount (chips) of an exact-mode action id; None for fold (0) and check/call (1).

    >>> exact_raise_to(21), exact_raise_to(1)
    (20, None)
    >>> exact_raise_to(2.5)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.IllegalActionError: action id 2.5 is not a non-negative integer
    """
    if not isinstance(action_id, (int, np.integer)) or isinstance(action_id, bool) or action_id < 0:
        raise IllegalActionError(f"action id {action_id!r} is not a non-negative integer")
    a = int(action_id)
    return None if a < 2 else a - 1


def discrete_raise_amounts(
    legal: LegalActions,
    *,
    pot: int,
    current_bet: int,
    all_in_to: int,
    bet_sizes: Sequence[float],
) -> list[int | None]:
    """Raise-to amounts of the discrete raise ids ``2 .. 3 + len(bet_sizes)``; None = masked.

    ``all_in_to`` is the actor's street bet plus its stack. A pot fraction ``f`` maps to
    ``current_bet + f * (pot + legal.call)`` rounded to whole chips. An amount outside
    ``[legal.min_raise_to, legal.max_raise_to]`` or equal to one kept before it (priority:
    all-in, min-raise, fractions in order) is None.
    """
    out: list[int | None] = [None] * (len(bet_sizes) + 2)
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is None or hi is None:
        return out
    taken: set[int] = set()
    if lo <= all_in_to <= hi:
        out[-1] = all_in_to
        taken.add(all_in_to)
    if lo not in taken:
        out[0] = lo
        taken.add(lo)
    for i, f in enumerate(bet_sizes):
        amount = pot_fraction_raise_to(f, pot=pot, current_bet=current_bet, call=legal.call)
        if lo <= amount <= hi and amount not in taken:
            out[i + 1] = amount
            taken.add(amount)
    return out


class LegalLike(Protocol):
    """What :func:`describe_legal` reads of a legal set (the engine's
    :class:`~holdem_env.engine.actions.LegalActions` or its internal cached one)."""

    @property
    def fold(self) -> bool: ...
    @property
    def check(self) -> bool: ...
    @property
    def call(self) -> int: ...
    @property
    def min_raise_to(self) -> int | None: ...
    @property
    def max_raise_to(self) -> int | None: ...


def describe_action(action: int, *, exact: bool, num_actions: int, bet_sizes: Sequence[float]) -> str:
    """Human-readable meaning of a valid action id: ``"fold"``, ``"check/call"``, ``"raise to 40"``
    (exact), ``"min-raise"``, ``"raise 0.5 pot"`` or ``"all-in"`` (discrete).

    >>> describe_action(21, exact=True, num_actions=1002, bet_sizes=())
    'raise to 20'
    >>> describe_action(3, exact=False, num_actions=5, bet_sizes=(0.5,))
    'raise 0.5 pot'
    """
    if action == FOLD:
        return "fold"
    if action == CHECK_CALL:
        return "check/call"
    if exact:
        return f"raise to {action - 1}"
    if action == num_actions - 1:
        return "all-in"
    if action == 2:
        return "min-raise"
    return f"raise {bet_sizes[action - 3]:g} pot"


def describe_legal(legal: LegalLike, *, exact: bool, discrete_amounts: Sequence[int | None] | None) -> str:
    """The legal action ids of a decision, each with its meaning (for error messages).

    ``discrete_amounts`` are the discrete mode's raise-to amounts (:func:`discrete_raise_amounts`;
    unused in the exact mode).

    >>> describe_legal(LegalActions(0, True, False, 10, 20, 100), exact=True, discrete_amounts=None)
    '0 (fold), 1 (call 10), 21..101 (raise to 20..100)'
    """
    parts = ["0 (fold)"] if legal.fold else []
    if legal.check or legal.call > 0:
        parts.append("1 (check)" if legal.check else f"1 (call {legal.call})")
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is not None and hi is not None:
        if exact:
            parts.append(f"{lo + 1}..{hi + 1} (raise to {lo}..{hi})")
        else:
            for i, amount in enumerate(discrete_amounts or ()):
                if amount is not None:
                    parts.append(f"{i + 2} (raise to {amount})")
    return ", ".join(parts)

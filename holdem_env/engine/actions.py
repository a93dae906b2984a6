"""The action vocabulary: streets, action kinds, actions and the legal-action set."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from holdem_env.engine.errors import IllegalActionError, short_repr
from holdem_env.engine.validate import is_int

__all__ = ["Street", "ActionKind", "Action", "LegalActions", "pot_fraction_raise_to"]


class Street(enum.IntEnum):
    """Betting rounds in order; ``SHOWDOWN`` means the hand is over."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4


class ActionKind(str, enum.Enum):  # noqa: UP042 - StrEnum would change str() of a kind
    """What a player does on their turn."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


def _chips(value: object, what: str) -> int:
    """Return ``value`` as an ``int`` chip amount or raise naming the bad type."""
    if not is_int(value):
        raise IllegalActionError(
            f"{what} must be an integer number of chips, got {type(value).__name__} {short_repr(value)}"
        )
    return int(value)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``amount`` is the raise-TO total for this street (BET/RAISE), else 0.

    >>> Action.raise_to(200)
    Action(kind=<ActionKind.RAISE: 'raise'>, amount=200)
    >>> Action.raise_to("200")
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.IllegalActionError: raise-to amount must be an integer number of chips, got str '200'
    """

    kind: ActionKind
    amount: int = 0

    def __post_init__(self) -> None:
        try:
            kind = ActionKind(self.kind)
        except ValueError:
            allowed = ", ".join(k.value for k in ActionKind)
            raise IllegalActionError(f"unknown action kind {self.kind!r}; allowed: {allowed}") from None
        object.__setattr__(self, "kind", kind)
        amount = _chips(self.amount, "raise-to amount")
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if amount <= 0:
                raise IllegalActionError(f"{kind.value} to {short_repr(amount)} is not a positive number of chips")
        elif amount != 0:
            raise IllegalActionError(
                f"{kind.value} takes no amount (got {short_repr(amount)}); only bet/raise carry one"
            )
        object.__setattr__(self, "amount", amount)

    @classmethod
    def fold(cls) -> Action:
        """Give up the hand."""
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        """Pass when nothing is owed."""
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        """Match the current bet (all-in for less if short)."""
        return cls(ActionKind.CALL)

    @classmethod
    def raise_to(cls, amount: int) -> Action:
        """Bet or raise so that this street's total for the player is ``amount``."""
        return cls(ActionKind.RAISE, amount)

    def __str__(self) -> str:
        if self.kind in (ActionKind.BET, ActionKind.RAISE):
            return f"{self.kind.value} to {short_repr(self.amount)}"
        return self.kind.value


class LegalActions(NamedTuple):
    """What the player on turn may do (immutable).

    ``call`` is the chips a call adds (``min(owed, stack)``; 0 when nothing is owed, in
    which case calling is not offered and ``check`` is). ``min_raise_to``/``max_raise_to``
    bound the whole legal raise-to interval (street totals), ``None`` when no bet or raise
    is allowed; a short all-in only gives ``min == max == `` the all-in amount.

    >>> la = LegalActions(seat=2, fold=True, check=False, call=100, min_raise_to=200, max_raise_to=1000)
    >>> la.allows(Action.raise_to(150)), la.allows(Action.call())
    (False, True)
    >>> str(la)
    'fold, call 100, raise to 200..1000'
    """

    seat: int
    fold: bool
    check: bool
    call: int
    min_raise_to: int | None
    max_raise_to: int | None

    @property
    def can_raise(self) -> bool:
        """Whether any bet or raise is allowed."""
        return self.min_raise_to is not None

    @property
    def can_call(self) -> bool:
        """Whether a call is offered (something is owed)."""
        return self.call > 0

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        kind = action.kind
        if kind is ActionKind.FOLD:
            return self.fold
        if kind is ActionKind.CHECK:
            return self.check
        if kind is ActionKind.CALL:
            return self.call > 0
        lo = self.min_raise_to
        return lo is not None and lo <= action.amount <= self.max_raise_to  # type: ignore[operator]

    def __str__(self) -> str:
        parts = []
        if self.fold:
            parts.append("fold")
        if self.check:
            parts.append("check")
        if self.call > 0:
            parts.append(f"call {self.call}")
        if self.min_raise_to is not None:
            if self.min_raise_to == self.max_raise_to:
                parts.append(f"raise to {self.min_raise_to}")
            else:
                parts.append(f"raise to {self.min_raise_to}..{self.max_raise_to}")
        return ", ".join(parts) if parts else "nothing"


def pot_fraction_raise_to(fraction: float, *, pot: int, current_bet: int, call: int) -> int:
    """The raise-to of a bet of ``fraction`` of the pot after the actor's call, in whole chips
    (half a chip rounds up): ``current_bet + fraction * (pot + call)``. A sizing convention, not a
    rule: the caller checks the amount against ``LegalActions``.

    >>> pot_fraction_raise_to(0.5, pot=30, current_bet=10, call=10)   # half pot facing a 10 bet
    30
    """
    return int(current_bet + fraction * (pot + call) + 0.5)


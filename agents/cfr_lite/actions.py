"""Action abstraction for cfr-lite: fold, check/call, pot-fraction raises, all-in; and the
pseudo-harmonic translation of off-tree opponent bets back into the abstraction.

The abstraction never decides legality: an abstract raise is turned into a raise-to amount
from the engine's own :class:`~holdem_env.engine.actions.LegalActions` (clamped into
``[min_raise_to, max_raise_to]``), and abstract actions that the engine does not allow, or
that land on the same chip amount as an earlier one, are simply not offered.

Sizes are measured as a fraction of the pot *after* the actor calls: a raise of fraction
``x`` adds ``x * (pot + to_call)`` chips on top of the call. So ``1.0`` is a pot-sized raise.

>>> pseudo_harmonic(0.5, 0.5, 1.0)
1.0
>>> pseudo_harmonic(1.0, 0.5, 1.0)
0.0
>>> round(pseudo_harmonic(0.75, 0.5, 1.0), 4)
0.4286
>>> pseudo_harmonic(0.4, 0.5, 1.0)
Traceback (most recent call last):
...
holdem_env.engine.errors.ConfigError: size=0.4 is invalid: must lie in [A, B] = [0.5, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_ascending, check_bool, check_int, check_number

__all__ = [
    "FOLD",
    "CALL",
    "ActionAbstraction",
    "AbstractMove",
    "pseudo_harmonic",
    "translate_size",
    "raise_to_for_fraction",
    "fraction_of_raise",
]

#: Abstract action index of fold.
FOLD = 0
#: Abstract action index of check/call.
CALL = 1


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """Probability of mapping an off-tree size ``x`` to the smaller in-tree size ``a``.

    The pseudo-harmonic mapping of Ganzfried & Sandholm (IJCAI 2013), with sizes as
    fractions of the pot: ``f(x) = (b - x)(1 + a) / ((b - a)(1 + x))``. It is 1 at ``a``,
    0 at ``b`` and decreasing in between; ``a`` may be 0 (a check/call).
    """
    if not (0.0 <= a < b) or not math.isfinite(b):
        raise ConfigError("sizes", (a, b), "need 0 <= A < B (finite pot fractions)")
    if not (a <= x <= b):
        raise ConfigError("size", x, f"must lie in [A, B] = [{a}, {b}]")
    return (b - x) * (1.0 + a) / ((b - a) * (1.0 + x))


def translate_size(x: float, sizes: Sequence[float], rng: np.random.Generator | None = None) -> int:
    """Index into ``sizes`` (ascending pot fractions) that an observed size ``x`` maps to.

    In-tree sizes map to themselves; sizes below the smallest or above the largest map to
    that end; in between, the lower neighbour is chosen with the pseudo-harmonic
    probability (randomised with ``rng``, or the likelier one when ``rng`` is ``None``).
    """
    if len(sizes) == 0:
        raise ConfigError("sizes", tuple(sizes), "need at least one in-tree size")
    if any(sizes[i] >= sizes[i + 1] for i in range(len(sizes) - 1)):
        raise ConfigError("sizes", tuple(sizes), "must be strictly ascending")
    if x <= sizes[0]:
        return 0
    if x >= sizes[-1]:
        return len(sizes) - 1
    hi = int(np.searchsorted(np.asarray(sizes), x, side="left"))
    if sizes[hi] == x:
        return hi
    lo = hi - 1
    p_low = pseudo_harmonic(x, sizes[lo], sizes[hi])
    if rng is None:
        return lo if p_low >= 0.5 else hi
    return lo if rng.random() < p_low else hi


def raise_to_for_fraction(fraction: float, pot: int, current_bet: int, to_call: int) -> int:
    """Raise-to amount (street total) of a raise of ``fraction`` of the pot after calling.

    ``pot`` is every chip in the middle (pots and this street's bets), ``current_bet`` the
    street's highest bet, ``to_call`` what the actor owes. Rounded to the nearest chip.
    """
    return int(current_bet + round(fraction * (pot + to_call)))


def fraction_of_raise(raise_to: int, pot: int, current_bet: int, to_call: int) -> float:
    """Inverse of :func:`raise_to_for_fraction`: the pot fraction that a raise-to represents."""
    return (raise_to - current_bet) / max(1, pot + to_call)


@dataclass(frozen=True)
class AbstractMove:
    """One abstract action offered at a decision: its index and the engine action it means.

    ``kind`` is ``"fold"``, ``"check"``, ``"call"`` or ``"raise"``; ``amount`` is the
    raise-to total for raises (0 otherwise); ``fraction`` is the pot fraction of a raise.
    """

    index: int
    kind: str
    amount: int = 0
    fraction: float = 0.0


@dataclass(frozen=True)
class ActionAbstraction:
    """Which abstract actions exist: fold, check/call, ``pot_fractions`` raises and all-in.

    Index layout: ``0`` fold, ``1`` check/call, ``2 .. 1+len(pot_fractions)`` the pot
    fractions in ascending order, and (if ``all_in``) the last index is all-in. At most
    ``max_raises_per_street`` raises are offered per street (all-in stays offered after
    that, which keeps the tree finite because an all-in cannot be re-raised forever).
    ``preflop_max_raises``: the cap preflop, where a table's 3-bets and 4-bets happen
    (``None``: ``max_raises_per_street`` there too).
    ``all_in_max_pot``: the all-in is offered only when it raises by at most that many
    pots (after calling), so that 100-big-blind open shoves are not in the tree; ``None``
    always offers it. A pot-fraction raise that reaches the whole stack is the all-in.
    ``summarize_preflop``: from the flop on, information-set keys hold a summary of the
    preflop betting instead of its every action (see
    :meth:`holdem_env.agents.cfr_lite.game.AbstractHoldem.key`): every preflop line with the
    same summary shares its postflop strategies (imperfect recall), which multiway tables
    need to visit each one often enough.

    >>> ActionAbstraction(pot_fractions=(0.5, 1.0)).num_actions
    5
    >>> ActionAbstraction(pot_fractions=(1.0, 0.5))
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: pot_fractions=(1.0, 0.5) is invalid: must be strictly ascending positive numbers, e.g. [0.5, 1.0]
    """

    pot_fractions: tuple[float, ...] = (0.5, 1.0)
    all_in: bool = True
    max_raises_per_street: int = 2
    all_in_max_pot: float | None = None
    preflop_max_raises: int | None = None
    summarize_preflop: bool = False

    def __post_init__(self) -> None:
        fracs = check_ascending(
            "pot_fractions", self.pot_fractions, min_len=0, allowed="must be strictly ascending positive numbers, e.g. [0.5, 1.0]"
        )
        object.__setattr__(self, "pot_fractions", fracs)
        check_bool("all_in", self.all_in)
        object.__setattr__(self, "max_raises_per_street", check_int("max_raises_per_street", self.max_raises_per_street, 0, 8))
        preflop = check_int(
            "preflop_max_raises", self.preflop_max_raises, 0, 8, none_ok=True,
            allowed="must be an integer in 0..8, or None (max_raises_per_street preflop too)",
        )
        object.__setattr__(self, "preflop_max_raises", preflop)
        check_bool("summarize_preflop", self.summarize_preflop)
        allowed = "must be a positive number of pots, or None (always offer all-in)"
        m = check_number("all_in_max_pot", self.all_in_max_pot, 0, lo_open=True, none_ok=True, allowed=allowed)
        object.__setattr__(self, "all_in_max_pot", m)

    @property
    def num_actions(self) -> int:
        """Width of the abstract action vector (fold, call, fractions, all-in)."""
        return 2 + len(self.pot_fractions) + (1 if self.all_in else 0)

    @property
    def all_in_index(self) -> int | None:
        """Index of the all-in action, or ``None`` when the abstraction has none."""
        return self.num_actions - 1 if self.all_in else None

    def max_raises(self, preflop: bool) -> int:
        """The raise cap of a street: ``preflop_max_raises`` preflop when set, else ``max_raises_per_street``."""
        if preflop and self.preflop_max_raises is not None:
            return self.preflop_max_raises
        return self.max_raises_per_street

    def moves(self, legal: object, *, pot: int, current_bet: int, raises_this_street: int, preflop: bool = False) -> list[AbstractMove]:
        """The abstract actions available now, mapped to legal engine amounts.

        ``legal`` is the engine's ``LegalActions`` for the actor (duck-typed: ``fold``,
        ``check``, ``call``, ``min_raise_to``, ``max_raise_to``). Raises that clamp onto the
        same chip amount as a smaller one are dropped; a raise that reaches the maximum is
        the all-in (and is reported under the all-in index when the abstraction has one).
        ``preflop`` says which raise cap applies (:meth:`max_raises`).
        """
        out: list[AbstractMove] = []
        if getattr(legal, "fold", False):
            out.append(AbstractMove(FOLD, "fold"))
        if getattr(legal, "check", False):
            out.append(AbstractMove(CALL, "check"))
        elif getattr(legal, "call", 0) > 0:
            out.append(AbstractMove(CALL, "call"))
        lo = getattr(legal, "min_raise_to", None)
        hi = getattr(legal, "max_raise_to", None)
        if lo is None or hi is None:
            return out
        to_call = int(getattr(legal, "call", 0))
        seen: set[int] = set()
        reaches_all_in = False
        if raises_this_street < self.max_raises(preflop):
            for i, frac in enumerate(self.pot_fractions):
                amount = min(max(raise_to_for_fraction(frac, pot, current_bet, to_call), lo), hi)
                if amount == hi and self.all_in:
                    reaches_all_in = True
                    continue  # that is the all-in, offered below under its own index
                if amount in seen:
                    continue
                seen.add(amount)
                out.append(AbstractMove(2 + i, "raise", amount, fraction_of_raise(amount, pot, current_bet, to_call)))
        all_in_ok = reaches_all_in or self.all_in_max_pot is None or fraction_of_raise(hi, pot, current_bet, to_call) <= self.all_in_max_pot
        if self.all_in and hi not in seen and all_in_ok:
            out.append(AbstractMove(self.num_actions - 1, "raise", hi, fraction_of_raise(hi, pot, current_bet, to_call)))
        return out

    def translate(
        self,
        raise_to: int,
        moves: Sequence[AbstractMove],
        *,
        pot: int,
        current_bet: int,
        to_call: int,
        rng: np.random.Generator | None = None,
    ) -> int:
        """Abstract index an observed raise-to maps to among the offered ``moves``.

        Uses :func:`translate_size` over the pot fractions of the offered raises; when no
        raise is offered (the abstraction's raise cap), the raise is read as a call.
        """
        raises = sorted((m for m in moves if m.kind == "raise"), key=lambda m: m.amount)
        if not raises:
            return CALL
        for m in raises:
            if m.amount == raise_to:
                return m.index
        x = fraction_of_raise(raise_to, pot, current_bet, to_call)
        sizes = [m.fraction for m in raises]
        # Equal fractions can only come from clamping; keep the first of each.
        uniq: list[AbstractMove] = []
        for m, s in zip(raises, sizes, strict=False):
            if not uniq or s > uniq[-1].fraction:
                uniq.append(m)
        return uniq[translate_size(x, [m.fraction for m in uniq], rng)].index

    def label(self, index: int) -> str:
        """Short human label of an abstract action index (``fold``, ``call``, ``0.5pot``, ``allin``)."""
        name = self._named(index)
        if name is not None:
            return name
        if 2 <= index < 2 + len(self.pot_fractions):
            return f"{self.pot_fractions[index - 2]:g}pot"
        raise ConfigError("action", index, f"must be an abstract action index in 0..{self.num_actions - 1}")

    def code(self, index: int) -> str:
        """One-character code of an index in information-set keys (``f``, ``c``, ``0``.., ``a``)."""
        name = self._named(index)
        return name[0] if name is not None else "0123456789"[index - 2]

    def _named(self, index: int) -> str | None:
        """``fold``, ``call`` or ``allin`` for those indices, else ``None`` (a pot fraction)."""
        if index == FOLD:
            return "fold"
        if index == CALL:
            return "call"
        if self.all_in and index == self.num_actions - 1:
            return "allin"
        return None

    def to_dict(self) -> dict[str, object]:
        """Plain-JSON form."""
        return {
            "pot_fractions": list(self.pot_fractions),
            "all_in": self.all_in,
            "max_raises_per_street": self.max_raises_per_street,
            "all_in_max_pot": self.all_in_max_pot,
            "preflop_max_raises": self.preflop_max_raises,
            "summarize_preflop": self.summarize_preflop,
        }

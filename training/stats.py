"""Match statistics: 95% confidence intervals and HUD statistics from hand records.

HUD definitions (the standard ones), per player, counted over the hands they were dealt:

============  ====================================================================
VPIP          put chips in voluntarily preflop (a call, bet or raise; blinds don't count)
PFR           bet or raised preflop
3-bet%        re-raised when facing exactly one preflop raise, over the times they faced one
AF            aggression factor: postflop (bets + raises) / calls
WTSD          went to showdown, over the hands in which they saw the flop
W$SD          won chips at showdown, over the showdowns they reached
============  ====================================================================

A hand record is read only through its public fields (``events``, ``dealt_in``,
``board``, ``pots``); events are read by their ``seat``/``street``/``kind`` attributes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from holdem_env.engine.errors import HoldemError

__all__ = ["Z95", "mean_ci95", "HudCounts", "hud_counts_for_hand"]

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054

_VOLUNTARY = ("call", "bet", "raise")
_AGGRESSIVE = ("bet", "raise")


def mean_ci95(samples: Sequence[float]) -> tuple[float, float]:
    """Mean and 95% half-width ``Z95 * s / sqrt(n)`` (``s``: sample standard deviation, n - 1).

    The samples should be independent: in the arena one sample is one duplicate group's
    result per hand. With one sample the half-width is ``inf``.

    >>> mean_ci95([1.0, 2.0, 3.0, 4.0])
    (2.5, 1.26515131188166)
    >>> mean_ci95([])
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.HoldemError: mean_ci95 needs at least one sample, got 0
    """
    n = len(samples)
    if n == 0:
        raise HoldemError("mean_ci95 needs at least one sample, got 0")
    mean = math.fsum(samples) / n
    if n == 1:
        return mean, math.inf
    var = math.fsum((x - mean) ** 2 for x in samples) / (n - 1)
    return mean, Z95 * math.sqrt(var) / math.sqrt(n)


def _kind(event: Any) -> str | None:
    kind = getattr(event, "kind", None)
    if kind is None or not hasattr(event, "seat"):
        return None
    return str(getattr(kind, "value", kind))


@dataclass
class HudCounts:
    """Integer counters behind the HUD statistics; add hands, merge, then :meth:`summary`."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    timeouts: int = 0

    def merge(self, other: HudCounts) -> HudCounts:
        """Add ``other``'s counters into this one (returns self)."""
        for name in _COUNTERS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    def to_dict(self) -> dict[str, int]:
        """The raw counters."""
        return {name: getattr(self, name) for name in _COUNTERS}

    def summary(self) -> dict[str, float | None]:
        """VPIP, PFR, 3-bet, WTSD, W$SD as fractions; AF as a ratio (``None`` when undefined)."""

        def ratio(a: int, b: int) -> float | None:
            return a / b if b else None

        return {
            "vpip": ratio(self.vpip, self.hands),
            "pfr": ratio(self.pfr, self.hands),
            "three_bet": ratio(self.three_bets, self.three_bet_chances),
            "af": ratio(self.postflop_aggressive, self.postflop_calls),
            "wtsd": ratio(self.showdowns, self.saw_flop),
            "wsd": ratio(self.showdowns_won, self.showdowns),
        }


_COUNTERS = tuple(f.name for f in fields(HudCounts))


def hud_counts_for_hand(record: Any, seats: Iterable[int] | None = None) -> dict[int, HudCounts]:
    """HUD counters of one finished hand for each seat dealt in (or for ``seats``)."""
    dealt = [s for s, d in enumerate(record.dealt_in) if d]
    wanted = dealt if seats is None else [s for s in seats if s in dealt]
    counts = {s: HudCounts(hands=1) for s in wanted}
    folded_street: dict[int, int] = {}
    preflop_raises = 0
    three_bet_seen: set[int] = set()
    for ev in record.events:
        kind = _kind(ev)
        if kind is None:
            continue
        seat, street = int(ev.seat), int(ev.street)
        c = counts.get(seat)
        if kind == "fold":
            folded_street.setdefault(seat, street)
        if c is not None and getattr(ev, "timeout", False):
            c.timeouts += 1
        if street == 0:
            if c is not None:
                if kind in _VOLUNTARY:
                    c.vpip = 1
                if kind in _AGGRESSIVE:
                    c.pfr = 1
                if preflop_raises == 1 and seat not in three_bet_seen:
                    three_bet_seen.add(seat)
                    c.three_bet_chances += 1
                    if kind in _AGGRESSIVE:
                        c.three_bets += 1
            if kind in _AGGRESSIVE:
                preflop_raises += 1
        elif c is not None:
            if kind in _AGGRESSIVE:
                c.postflop_aggressive += 1
            elif kind == "call":
                c.postflop_calls += 1
    flop_dealt = len(record.board) >= 3
    remaining = [s for s in dealt if s not in folded_street]
    showdown = len(remaining) >= 2
    winners: set[int] = set()
    for pot in record.pots:
        winners.update(int(w) for w in pot.winners)
    for s, c in counts.items():
        if flop_dealt and folded_street.get(s, 99) >= 1:
            c.saw_flop = 1
            if showdown and s in remaining:
                c.showdowns = 1
                c.showdowns_won = int(s in winners)
    return counts

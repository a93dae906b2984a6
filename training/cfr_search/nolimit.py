"""The betting abstraction of heads-up no-limit hold'em for the blueprint: fold, check/call, pot-fraction raises and all-in.

Player 0 is the button (small blind, first to act preflop, last after), player 1 the big
blind. A raise to ``call + fraction * (pot after the call)`` is offered for each fraction of
the street's list (the first bet or raise of a street uses ``sizes``, later ones
``reraise_sizes``), clamped up to the minimum raise and replaced by all-in when it reaches
the stack; all-in is always offered; equal amounts appear once. At most ``max_raises``
bets and raises per street (the big blind does not count). A street ends when both players
have acted and the bets are equal; the hand ends at a fold, at the river's end, or when a
player is all-in and called (the board runs out: a showdown). Labels: ``f``, ``c`` (check or
call), ``r<total>`` (raise to ``total`` chips this hand, e.g. ``r300``), ``a`` (all-in).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from holdem_env.engine.validate import is_int
from holdem_env.training.cfr.game import GameError
from holdem_env.training.cfr_search.tree import FOLD_END, SHOWDOWN, BettingTree, build_tree

__all__ = ["NoLimitConfig", "NoLimitRules", "nolimit_tree"]


@dataclass(frozen=True)
class NoLimitConfig:
    """Blinds, stacks (chips, both players) and the bet sizes (fractions of the pot) per street."""

    small_blind: int = 50
    big_blind: int = 100
    stack: int = 20_000
    sizes: tuple[tuple[float, ...], ...] = field(default=((0.5, 1.0, 2.0),) * 4)
    reraise_sizes: tuple[tuple[float, ...], ...] = field(default=((1.0,),) * 4)
    max_raises: tuple[int, ...] = (4, 3, 3, 3)

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "stack"):
            value = getattr(self, name)
            if not is_int(value) or value < 1:
                raise GameError(f"{name}={value!r} is invalid: expected an int >= 1")
        if not self.small_blind <= self.big_blind < self.stack:
            raise GameError(
                f"blinds {self.small_blind}/{self.big_blind} with stack {self.stack} are invalid: "
                "need small blind <= big blind < stack"
            )
        for name in ("sizes", "reraise_sizes"):
            value = getattr(self, name)
            if len(value) != 4 or any(any(not float(f) > 0 for f in street) for street in value):
                raise GameError(f"{name}={value!r} is invalid: expected 4 tuples (one per street) of fractions > 0")
        if len(self.max_raises) != 4 or any(not is_int(m) or m < 1 for m in self.max_raises):
            raise GameError(f"max_raises={self.max_raises!r} is invalid: expected 4 ints >= 1, one per street")


#: (street, contributions (p0, p1), last raise increment, raises this street, acted mask, ended by "f0"/"f1"/"s"/"")
_State = tuple[int, tuple[int, int], int, int, int, str]


class NoLimitRules:
    """Heads-up no-limit betting under a :class:`NoLimitConfig`, for :func:`build_tree`."""

    num_streets = 4
    separator = "-"

    def __init__(self, config: NoLimitConfig) -> None:
        self.config = config

    def root(self) -> _State:
        """Blinds posted, the button to act."""
        c = self.config
        return (0, (c.small_blind, c.big_blind), c.big_blind, 0, 0, "")

    def actor(self, state: _State) -> int:
        """Preflop the button (0) acts first, later streets the big blind (1)."""
        street, _, _, _, acted, end = state
        if end.startswith("f"):
            return FOLD_END
        if end == "s":
            return SHOWDOWN
        first = 0 if street == 0 else 1
        if acted == 0:
            return first
        if acted == (1 << first):
            return 1 - first
        # both acted: the one facing a bet acts
        return 0 if state[1][0] < state[1][1] else 1

    def street(self, state: _State) -> int:
        """0 preflop .. 3 river."""
        return state[0]

    def actions(self, state: _State) -> list[tuple[str, _State]]:
        """Fold (facing a bet), check/call, the raises, all-in."""
        c = self.config
        street, put, last_inc, raises, acted, _ = state
        me = self.actor(state)
        opp = 1 - me
        mine, theirs = put[me], put[opp]
        acted_now = acted | (1 << me)
        out: list[tuple[str, _State]] = []
        if theirs > mine:
            ended = f"f{me}"
            out.append(("f", (street, put, last_inc, raises, acted_now, ended)))
        called = (theirs, theirs)
        if acted_now == 3:  # both acted, bets equal: the street ends
            if street == 3 or theirs == c.stack:
                nxt: _State = (street, called, last_inc, raises, acted_now, "s")
            else:
                nxt = (street + 1, called, c.big_blind, 0, 0, "")
        else:
            nxt = (street, called, last_inc, raises, acted_now, "")
        out.append(("c", nxt))
        if raises < c.max_raises[street] and theirs < c.stack:
            fractions = c.sizes[street] if raises == 0 else c.reraise_sizes[street]
            pot_after_call = 2 * theirs
            min_to = min(theirs + max(last_inc, c.big_blind), c.stack)
            seen: set[int] = set()
            for frac in fractions:
                to = max(int(round(theirs + frac * pot_after_call)), min_to)
                to = min(to, c.stack)
                if to in seen or to == c.stack:
                    continue
                seen.add(to)
                grown = list(put)
                grown[me] = to
                out.append((f"r{to}", (street, (grown[0], grown[1]), to - theirs, raises + 1, 1 << me, "")))
            grown = list(put)
            grown[me] = c.stack
            out.append(("a", (street, (grown[0], grown[1]), max(c.stack - theirs, last_inc), raises + 1, 1 << me, "")))
        return out

    def terminal_value(self, state: _State) -> float:
        """Fold: player 0's payoff; showdown: what each has in."""
        _, put, _, _, _, end = state
        if end == "f0":
            return -float(put[0])
        if end == "f1":
            return float(put[1])
        return float(put[0])


def nolimit_tree(config: NoLimitConfig, num_buckets: tuple[int, ...]) -> BettingTree:
    """The betting tree of ``config`` with ``num_buckets`` per street (preflop to river)."""
    return build_tree(NoLimitRules(config), num_buckets)

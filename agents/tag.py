"""``tag``: a tight-aggressive rule-based player for 2–10 seats, both action modes, every structure.

Preflop it plays the 169 starting-hand classes (:mod:`holdem_env.agents.preflop`) by position:
an opening range that widens as fewer players are left to act, 3-bet and calling ranges
against one raise, 4-bet/call ranges against a 3-bet and a premium-only range beyond.
Postflop it estimates its Monte Carlo equity against the opponents still in the hand
(:func:`holdem_env.engine.equity.equity`), compares it with the pot odds, value-bets and raises
strong hands, continuation-bets as the preflop raiser, and folds weak hands facing bets.
Bet sizes are fractions of the pot, mapped to the closest legal action id.

It reads only its own seat's observation and ``info`` (``legal`` and ``view``): never the
engine, never other players' cards. ``tightness`` > 1 plays fewer hands (ranges shrink
by that factor, equity margins grow); ``aggression`` > 1 bets and raises more often.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from holdem_env.engine.cards import parse_cards
from holdem_env.engine.equity import equity
from holdem_env.engine.errors import ConfigError

from .base import agent_rng, check_bet_sizes, legal_of
from .preflop import class_percentile, hand_class, open_fraction, top_range

__all__ = ["TagAgent", "raise_options"]

_FOLD, _CHECK_CALL = 0, 1
_DEFAULT_BET_SIZES = (0.33, 0.5, 0.75, 1.0, 1.5, 2.0)
#: Postflop guesses at what an opponent holds after raising / only calling preflop.
_RAISER_RANGE = top_range(0.30)
_CALLER_RANGE = top_range(0.55)


def raise_options(
    observation: Mapping[str, Any], info: Mapping[str, Any], bet_sizes: Sequence[float] = _DEFAULT_BET_SIZES
) -> list[tuple[int, int]]:
    """The legal bet/raise action ids with their raise-to amounts, ``[(id, chips), ...]``.

    Exact mode (id = raise-to + 1) is recognised by the mask length: the discrete mode has
    ``4 + len(bet_sizes)`` ids (fold, check/call, min-raise, the fractions, all-in); pass
    the env's ``bet_sizes`` if it was not built with the default ones.
    """
    mask = np.asarray(observation["action_mask"])
    legal = legal_of(info)
    lo, hi = legal["min_raise_to"], legal["max_raise_to"]
    if lo is None or not mask[2:].any():
        return []
    if len(mask) != 4 + len(bet_sizes):
        ids = np.flatnonzero(mask[2:]) + 2
        return [(int(a), int(a) - 1) for a in ids]
    from holdem_env.env.nlhe_v1 import discrete_raise_amounts

    view = info["view"]
    seat = view["seat"]
    amounts = discrete_raise_amounts(
        SimpleNamespace(min_raise_to=lo, max_raise_to=hi, call=legal["call"]),  # type: ignore[arg-type]
        pot=view["pot"],
        current_bet=view["current_bet"],
        all_in_to=view["street_bets"][seat] + view["stacks"][seat],
        bet_sizes=bet_sizes,
    )
    return [(i + 2, amt) for i, amt in enumerate(amounts) if amt is not None and mask[i + 2]]


def _check_positive(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ConfigError(name, value, "must be a positive number")
    return float(value)


class TagAgent:
    """Tight-aggressive rule-based agent (``tag``).

    Parameters: ``tightness`` (default 1.0; larger = tighter), ``aggression`` (default
    1.0; larger = more bets/raises), ``samples`` (Monte Carlo deals per postflop
    decision, default 300), ``bet_sizes`` (the env's discrete pot fractions, if not the
    default), ``read_ranges`` (default False; True: postflop equity against ranges read
    from each opponent's preflop actions -- raisers hold the top 30%, callers the top 55%,
    others any two cards -- instead of random hands; measured slower and more passive),
    ``rng`` (a
    ``numpy.random.Generator``; the arena reseeds it every hand).
    """

    def __init__(
        self,
        tightness: float = 1.0,
        aggression: float = 1.0,
        samples: int = 300,
        bet_sizes: Sequence[float] = _DEFAULT_BET_SIZES,
        read_ranges: bool = False,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ) -> None:
        self.tightness = _check_positive("tightness", tightness)
        self.aggression = _check_positive("aggression", aggression)
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 10:
            raise ConfigError("samples", samples, "must be an integer >= 10")
        self.samples = samples
        self.bet_sizes = check_bet_sizes(bet_sizes)
        if not isinstance(read_ranges, bool):
            raise ConfigError("read_ranges", read_ranges, "must be True or False")
        self.read_ranges = read_ranges
        self.rng = agent_rng(rng, seed)

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on (the arena reseeds before every hand)."""
        self.rng = rng

    # ------------------------------------------------------------------ decisions
    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """Choose an action id for the seat on turn."""
        view = info["view"]
        legal = legal_of(info)
        if view["street"] == "preflop":
            return self._preflop(observation, info, view, legal)
        return self._postflop(observation, info, view, legal)

    def _passive(self, legal: Mapping[str, Any], mask: np.ndarray) -> int:
        """Check if free, otherwise fold (call if folding is not offered)."""
        if legal["check"] or not mask[_FOLD]:
            return _CHECK_CALL
        return _FOLD

    def _raise_to(self, observation: Mapping[str, Any], info: Mapping[str, Any], target: float) -> int | None:
        """The legal raise id closest to ``target`` chips (None when no raise is legal)."""
        options = raise_options(observation, info, self.bet_sizes)
        if not options:
            return None
        return min(options, key=lambda o: (abs(o[1] - target), o[1]))[0]

    def _preflop(self, observation: Mapping[str, Any], info: Mapping[str, Any], view: Mapping[str, Any], legal: Mapping[str, Any]) -> int:
        mask = np.asarray(observation["action_mask"])
        seat, button, n = view["seat"], view["button"], len(view["dealt_in"])
        dealt = [s for s in range(n) if view["dealt_in"][s]]
        heads_up = len(dealt) == 2
        if heads_up:
            order = [button] + [s for s in dealt if s != button]
        else:
            clockwise = [s for s in ((button + k) % n for k in range(1, n + 1)) if view["dealt_in"][s]]
            order = clockwise[2:] + clockwise[:2]
        behind = max(1, len(order) - 1 - order.index(seat))
        big_blind = view["big_blind"]
        history = [h for h in view["history"] if h[1] == "preflop"]
        raises = sum(1 for h in history if h[2] in ("bet", "raise"))
        callers = sum(1 for h in history if h[2] == "call")
        pct = class_percentile(hand_class(parse_cards(view["hole_cards"])))
        t, a = self.tightness, self.aggression
        current = view["current_bet"]
        stack_total = view["street_bets"][seat] + view["stacks"][seat]
        is_big_blind = seat == order[-1]

        if raises == 0:
            frac = open_fraction(min(behind, 9), heads_up=heads_up) / t
            if callers:
                frac *= 0.6
            if pct <= frac:
                target = big_blind * (2.5 + (0.5 if seat == order[-2] and not heads_up else 0.0) + callers)
                rid = self._raise_to(observation, info, target)
                if rid is not None:
                    return rid
                return _CHECK_CALL
            return self._passive(legal, mask)

        to_call = legal["call"]
        # Cheap calls (small raises, fixed-limit, big pots) widen the calling ranges.
        price = to_call / (view["pot"] + to_call) if to_call else 0.0
        cheap = 1.0 + 5.0 * max(0.0, 0.3 - price)
        if raises == 1:
            three_bet = (0.09 if heads_up else 0.035) * a / t
            call = ((0.30 if heads_up else 0.09) / t + (0.06 if is_big_blind else 0.0)) * cheap
            if to_call > 0.25 * stack_total:
                call *= 0.4
            if pct <= three_bet:
                rid = self._raise_to(observation, info, current * (3.0 if behind > 1 else 3.5) + big_blind * callers)
                return rid if rid is not None else _CHECK_CALL
            if pct <= call:
                return _CHECK_CALL
            return self._passive(legal, mask)

        if raises == 2:
            if pct <= 0.025 / t:
                target = current * 2.3
                if target > 0.4 * stack_total:
                    target = stack_total
                rid = self._raise_to(observation, info, target)
                return rid if rid is not None else _CHECK_CALL
            if pct <= 0.06 * cheap / t and to_call <= 0.35 * stack_total:
                return _CHECK_CALL
            return self._passive(legal, mask)

        if pct <= 0.015 / t:
            rid = self._raise_to(observation, info, stack_total)
            return rid if rid is not None else _CHECK_CALL
        if pct <= 0.025 / t:
            return _CHECK_CALL
        return self._passive(legal, mask)

    @staticmethod
    def _ranges(view: Mapping[str, Any], others: list[int]) -> list[frozenset[str] | None] | None:
        """Each opponent's preflop range read from its own actions (None = any two cards)."""
        raised: set[int] = set()
        called: set[int] = set()
        for seat, street, kind, _ in view["history"]:
            if street != "preflop":
                break
            if kind in ("bet", "raise"):
                raised.add(seat)
            elif kind == "call":
                called.add(seat)
        out: list[frozenset[str] | None] = []
        for s in others[:9]:
            out.append(_RAISER_RANGE if s in raised else (_CALLER_RANGE if s in called else None))
        return out if any(r is not None for r in out) else None

    def _postflop(self, observation: Mapping[str, Any], info: Mapping[str, Any], view: Mapping[str, Any], legal: Mapping[str, Any]) -> int:
        mask = np.asarray(observation["action_mask"])
        seat = view["seat"]
        others = [s for s, d in enumerate(view["dealt_in"]) if d and s != seat and not view["folded"][s]]
        opponents = max(1, min(len(others), 9))
        ranges = self._ranges(view, others) if self.read_ranges and others else None
        eq = equity(
            view["hole_cards"], view["board"], opponents=opponents, ranges=ranges, samples=self.samples, rng=self.rng
        )
        t, a = self.tightness, self.aggression
        value = {1: 0.64, 2: 0.52}.get(opponents, 0.43) + 0.04 * (t - 1.0)
        pot = view["pot"]
        to_call = legal["call"]
        current = view["current_bet"]
        u = self.rng.random()

        street = {"flop": 1, "turn": 2, "river": 3}.get(view["street"], 1)
        if to_call > 0:
            pot_odds = to_call / (pot + to_call)
            # A bettor's hand is stronger than a random one, the more so for larger bets and
            # later streets: discount the equity accordingly.
            eq *= 1.0 - (0.15 + 0.08 * street) * min(1.0, to_call / max(pot - to_call, 1))
            if eq >= value + 0.12 and u < min(1.0, 0.8 * a):
                rid = self._raise_to(observation, info, current + 0.8 * (pot + to_call))
                if rid is not None:
                    return rid
            if eq >= pot_odds + (0.04 + 0.03 * street) * t:
                return _CHECK_CALL
            return self._passive(legal, mask)

        preflop_raiser = [h[0] for h in view["history"] if h[1] == "preflop" and h[2] in ("bet", "raise")]
        was_aggressor = bool(preflop_raiser) and preflop_raiser[-1] == seat
        first_bet_of_street = current == 0
        if eq >= value and u < min(1.0, 0.85 * a):
            rid = self._raise_to(observation, info, current + 0.7 * pot)
            if rid is not None:
                return rid
        elif (
            view["street"] == "flop"
            and was_aggressor
            and first_bet_of_street
            and opponents <= 2
            and u < min(1.0, 0.7 * a)
        ):
            rid = self._raise_to(observation, info, 0.5 * pot)
            if rid is not None:
                return rid
        elif first_bet_of_street and opponents == 1 and eq >= 0.35 and u < min(1.0, 0.3 * a):
            # A stab heads-up when nobody has bet: a medium hand or a draw takes the pot often.
            rid = self._raise_to(observation, info, 0.5 * pot)
            if rid is not None:
                return rid
        return _CHECK_CALL

"""Playing styles: one parameterised rule-based bot and its named presets.

:class:`StyleAgent` is described by four numbers a poker player would use for a
profile:

- ``play``: the fraction of starting hands it plays preflop (its VPIP): the strongest
  ``play`` share of the 1,326 combinations (:func:`holdem_env.agents.preflop.class_percentile`);
- ``raise_share``: the top part of those it raises with instead of calling (PFR / VPIP);
- ``aggression``: postflop, the probability of betting or raising a strong hand
  (1 - aggression: it checks or just calls);
- ``stickiness``: postflop, how far below the pot odds its equity may be and it still calls
  (0: calls only with the odds, 1: calls almost anything);
- ``bluff``: postflop, the probability of betting when checked to with a weak hand.

Presets (registered spec names, each usable in ``holdem eval`` and ``holdem play``):

==================  ======================  =====  ===========  ==========  ==========  =====
name                class                   play   raise_share  aggression  stickiness  bluff
==================  ======================  =====  ===========  ==========  ==========  =====
``lag``             LooseAggressiveAgent    0.45   0.70         0.90        0.20        0.35
``calling-station`` CallingStationAgent     0.70   0.05         0.10        0.85        0.00
``tight-passive``   TightPassiveAgent       0.15   0.20         0.25        0.10        0.00
``style``           StyleAgent              0.25   0.50         0.60        0.20        0.10
==================  ======================  =====  ===========  ==========  ==========  =====

Any parameter can be overridden in the spec: ``"calling-station(play=0.9)"``. Like
``tag``, a style bot reads only its own seat's observation and ``info`` (``legal`` and
``view``) and maps its bet sizes to the closest legal action id in either action mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from holdem_env.engine.cards import parse_cards
from holdem_env.engine.equity import equity
from holdem_env.engine.validate import check_fraction, check_int, check_number

from .base import agent_rng, check_bet_sizes, legal_of
from .preflop import class_percentile, hand_class
from .tag import _DEFAULT_BET_SIZES, closest_raise, passive_action

__all__ = ["StyleAgent", "LooseAggressiveAgent", "CallingStationAgent", "TightPassiveAgent"]

_FOLD, _CHECK_CALL = 0, 1


def _unit(name: str, value: Any, *, positive: bool = False) -> float:
    """``value`` as a float in [0, 1] (``(0, 1]`` when ``positive``), else a ConfigError."""
    if positive:
        return check_fraction(name, value)
    return float(check_number(name, value, 0.0, 1.0, allowed="must be a number in [0, 1]"))


class StyleAgent:
    """A rule-based bot with a playing style set by its parameters (see the module docstring).

    ``samples``: Monte Carlo deals per postflop equity estimate (default 200);
    ``bet_sizes``: the env's discrete pot fractions if not the default; ``rng`` / ``seed``:
    its generator (the arena and the play server reseed it through :meth:`set_rng`).

    >>> StyleAgent(play=0.3).play
    0.3
    >>> StyleAgent(play=1.5)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: play=1.5 is invalid: must be a number in (0, 1]
    """

    #: Defaults of this class; the presets override them.
    DEFAULTS: dict[str, float] = {"play": 0.25, "raise_share": 0.5, "aggression": 0.6, "stickiness": 0.2, "bluff": 0.1}

    def __init__(
        self,
        play: float | None = None,
        raise_share: float | None = None,
        aggression: float | None = None,
        stickiness: float | None = None,
        bluff: float | None = None,
        samples: int = 200,
        bet_sizes: Sequence[float] = _DEFAULT_BET_SIZES,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
    ) -> None:
        d = self.DEFAULTS
        self.play = _unit("play", d["play"] if play is None else play, positive=True)
        self.raise_share = _unit("raise_share", d["raise_share"] if raise_share is None else raise_share)
        self.aggression = _unit("aggression", d["aggression"] if aggression is None else aggression)
        self.stickiness = _unit("stickiness", d["stickiness"] if stickiness is None else stickiness)
        self.bluff = _unit("bluff", d["bluff"] if bluff is None else bluff)
        self.samples = check_int("samples", samples, 10)
        self.bet_sizes = check_bet_sizes(bet_sizes)
        self.rng = agent_rng(rng, seed)

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on."""
        self.rng = rng

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(play={self.play}, raise_share={self.raise_share}, "
            f"aggression={self.aggression}, stickiness={self.stickiness}, bluff={self.bluff})"
        )

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _passive(legal: Mapping[str, Any], mask: np.ndarray) -> int:
        return passive_action(legal, mask)

    def _raise_to(self, observation: Mapping[str, Any], info: Mapping[str, Any], target: float) -> int | None:
        return closest_raise(observation, info, target, self.bet_sizes)

    # ------------------------------------------------------------------ decisions
    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """Choose an action id for the seat on turn."""
        view = info["view"]
        legal = legal_of(info)
        mask = np.asarray(observation["action_mask"])
        if view["street"] == "preflop":
            return self._preflop(observation, info, view, legal, mask)
        return self._postflop(observation, info, view, legal, mask)

    def _preflop(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], view: Mapping[str, Any],
        legal: Mapping[str, Any], mask: np.ndarray,
    ) -> int:
        seat = view["seat"]
        pct = class_percentile(hand_class(parse_cards(view["hole_cards"])))
        raises = sum(1 for h in view["history"] if h[1] == "preflop" and h[2] in ("bet", "raise"))
        stack_total = view["street_bets"][seat] + view["stacks"][seat]
        # Every re-raise narrows what it continues with: a 3-bet keeps a third, a 4-bet a ninth.
        play = self.play / (3.0 ** max(0, raises - 1))
        if pct > play:
            return self._passive(legal, mask)
        if pct <= play * self.raise_share:
            target = view["big_blind"] * 3 if raises == 0 else view["current_bet"] * 3
            if target > 0.35 * stack_total:
                target = stack_total
            rid = self._raise_to(observation, info, target)
            if rid is not None:
                return rid
        # A call costing a big part of the stack needs a stronger hand unless the bot is sticky.
        if legal["call"] > 0.3 * stack_total and pct > play * max(self.stickiness, 0.25):
            return self._passive(legal, mask)
        return _CHECK_CALL

    def _postflop(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], view: Mapping[str, Any],
        legal: Mapping[str, Any], mask: np.ndarray,
    ) -> int:
        seat = view["seat"]
        others = [s for s, d in enumerate(view["dealt_in"]) if d and s != seat and not view["folded"][s]]
        opponents = max(1, min(len(others), 9))
        eq = equity(view["hole_cards"], view["board"], opponents=opponents, samples=self.samples, rng=self.rng)
        strong = {1: 0.65, 2: 0.52}.get(opponents, 0.45)
        pot, to_call, current = view["pot"], legal["call"], view["current_bet"]
        u = self.rng.random()
        if to_call > 0:
            if eq >= strong + 0.1 and u < self.aggression:
                rid = self._raise_to(observation, info, current + 0.8 * (pot + to_call))
                if rid is not None:
                    return rid
            pot_odds = to_call / (pot + to_call)
            if eq >= pot_odds * (1.0 - self.stickiness) + 0.03:
                return _CHECK_CALL
            return self._passive(legal, mask)
        if eq >= strong and u < self.aggression:
            rid = self._raise_to(observation, info, current + 0.66 * pot)
            if rid is not None:
                return rid
        elif eq < strong and u < self.bluff:
            rid = self._raise_to(observation, info, current + 0.5 * pot)
            if rid is not None:
                return rid
        return _CHECK_CALL


class LooseAggressiveAgent(StyleAgent):
    """``lag``: plays many hands and raises most of them; bets and bluffs often."""

    DEFAULTS = {"play": 0.45, "raise_share": 0.7, "aggression": 0.9, "stickiness": 0.2, "bluff": 0.35}


class CallingStationAgent(StyleAgent):
    """``calling-station``: plays most hands, rarely raises, calls down with almost anything."""

    DEFAULTS = {"play": 0.7, "raise_share": 0.05, "aggression": 0.1, "stickiness": 0.85, "bluff": 0.0}


class TightPassiveAgent(StyleAgent):
    """``tight-passive``: plays few hands and mostly calls with them; bets only strong hands, sometimes."""

    DEFAULTS = {"play": 0.15, "raise_share": 0.2, "aggression": 0.25, "stickiness": 0.1, "bluff": 0.0}

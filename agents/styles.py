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

Like ``tag``, its only randomness is one uniform draw per decision (``uniforms_per_decision`` = 1),
its postflop equity is ``tag``'s deterministic one (heads-up exact against a random holding, the flop
over 64 sampled run-outs; multiway ``samples`` Monte Carlo deals seeded by the cards), and
:meth:`StyleAgent.decide` decides for many tables at once what ``act`` decides at one
(:func:`holdem_env.agents._rules.style_rows`, compiled). Behaviour change (batched bots, issue 25):
before, the postflop equity was a Monte Carlo estimate drawn from the bot's own generator (noisy, and
it moved the generator), and preflop decisions drew nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from holdem_env.batched.views import BatchViews
from holdem_env.engine.validate import check_fraction, check_int, check_number

from . import _rules
from .base import agent_rng, check_bet_sizes
from .tag import _DEFAULT_BET_SIZES, RowRuleAgent, percentiles, rule_equities

__all__ = ["StyleAgent", "LooseAggressiveAgent", "CallingStationAgent", "TightPassiveAgent"]

#: The heads-up flop's sampled run-outs (``tag``'s default) and the equity seed.
_FLOP_RUNOUTS, _EQUITY_SEED = 64, 0


def _unit(name: str, value: Any, *, positive: bool = False) -> float:
    """``value`` as a float in [0, 1] (``(0, 1]`` when ``positive``), else a ConfigError."""
    if positive:
        return check_fraction(name, value)
    return float(check_number(name, value, 0.0, 1.0, allowed="must be a number in [0, 1]"))


class StyleAgent(RowRuleAgent):
    """A rule-based bot with a playing style set by its parameters (see the module docstring).

    ``samples``: Monte Carlo deals per multiway postflop equity (default 200);
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
        self._params = np.array([self.play, self.raise_share, self.aggression, self.stickiness, self.bluff])

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(play={self.play}, raise_share={self.raise_share}, "
            f"aggression={self.aggression}, stickiness={self.stickiness}, bluff={self.bluff})"
        )

    def _rows(self, views: BatchViews, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(exact ids, raise targets) of every row (:func:`holdem_env.agents._rules.style_rows`)."""
        pct = np.ascontiguousarray(percentiles()[views.hole[:, 0], views.hole[:, 1]])
        eq = np.full(views.rows, np.nan)
        post = np.flatnonzero(views.street > 0)
        if post.size:
            rule_equities(views, post, _FLOP_RUNOUTS, self.samples, _EQUITY_SEED, eq)
        ids = np.empty(views.rows, dtype=np.int64)
        targets = np.empty(views.rows)
        _rules.style_rows(views, self._params, pct, eq, np.ascontiguousarray(u[:, 0]), ids, targets)
        return ids, targets


class LooseAggressiveAgent(StyleAgent):
    """``lag``: plays many hands and raises most of them; bets and bluffs often."""

    DEFAULTS = {"play": 0.45, "raise_share": 0.7, "aggression": 0.9, "stickiness": 0.2, "bluff": 0.35}


class CallingStationAgent(StyleAgent):
    """``calling-station``: plays most hands, rarely raises, calls down with almost anything."""

    DEFAULTS = {"play": 0.7, "raise_share": 0.05, "aggression": 0.1, "stickiness": 0.85, "bluff": 0.0}


class TightPassiveAgent(StyleAgent):
    """``tight-passive``: plays few hands and mostly calls with them; bets only strong hands, sometimes."""

    DEFAULTS = {"play": 0.15, "raise_share": 0.2, "aggression": 0.25, "stickiness": 0.1, "bluff": 0.0}

"""Lower-variance head-to-head results: AIVAT-style control variates for heads-up hands.

AIVAT (Burch, Schmid, Moravcik, Morrill & Bowling, 2018) subtracts from each hand's
winnings, at every chance event and at every randomised decision of a player whose policy
is known, the value the event added beyond its expectation under a fixed value estimate
``V``. Each correction has mean zero *for any fixed V*, so the corrected result is an
unbiased estimate of the same expected winnings; the closer ``V`` tracks what the hand
will be worth, the more luck it removes.

How to call it: :func:`luck_adjusted` re-scores a heads-up
:class:`~holdem_env.training.arena.MatchResult` kept with its records
(``run_match(..., keep_records=True)``) and returns the plain and the luck-adjusted results
with their 95% intervals; :func:`format_luck_adjusted` prints them as ``holdem eval A B
--aivat`` does; :func:`luck_terms` gives the parts (to combine them in other ways without
replaying the hands again). The result is deterministic for a match's seed.

What it subtracts, module by module:

* :mod:`.private` -- the value estimate ``V`` with both hands known after the hand
  (:func:`state_value`), one deal's card facts (:class:`DealOdds`, shared by the two seat
  orders of a duplicate group), the chance terms at the deal, flop, turn and river
  (:func:`chance_corrections`) and the values after each action (:func:`action_values`);
* :mod:`.replay` -- the action terms ``V(a_taken) - sum_a pi(a) V(a)`` at each decision of a
  player that answers range queries (:func:`action_corrections`), from a replay of the hand;
* :mod:`.public` -- AIVAT's imaginary observations of the private cards: a showdown's
  result replaced by its expectation over both players' ranges (:func:`range_showdown_value`)
  and that estimate's own terms on the ranges only (:func:`public_chance_term`,
  :func:`public_flop_term`, :func:`public_action_term`);
* :mod:`.match` -- a match's terms per duplicate group and their fixed, unbiased mix
  (``SHOWDOWN_WEIGHT``, ``PUBLIC_WEIGHT``).

No term peeks: the chance terms use only what was known before the card and the card
itself; an action term's ``V(a)`` uses the state before the decision and the action; the
public terms use only the public history, the ranges it implies and the card or action;
the sampled flops and the preflop estimate come from generators independent of the deck.

Measured interval ratios, seed by seed, and the commands that produced them:
``benchmarks/BENCHMARKS.md`` ("AIVAT: measured results").

Papers: N. Burch, M. Schmid, M. Moravcik, D. Morrill and M. Bowling, "AIVAT: A New Variance
Reduction Technique for Agent Evaluation in Imperfect Information Games", AAAI 2018
(arXiv:1612.06915).
"""

from __future__ import annotations

from .match import PUBLIC_WEIGHT, SHOWDOWN_WEIGHT, format_luck_adjusted, luck_adjusted, luck_terms
from .private import (
    ACTION_POT_GROWTH,
    POT_GROWTH,
    STACK_SHARE,
    STRENGTH_POWER,
    DealOdds,
    action_values,
    chance_corrections,
    state_value,
)
from .private import _strengths as _strengths
from .public import (
    PREFLOP_LEAD_WEIGHT,
    PUBLIC_ACTION_GROWTH,
    PUBLIC_CHANCE_GROWTH,
    board_values,
    joint_marginals,
    next_card_probabilities,
    public_action_term,
    public_chance_term,
    public_flop_term,
    public_value,
    range_equity,
    range_shares,
    range_showdown_value,
    showdown_stake,
)
from .replay import _replay as _replay
from .replay import action_corrections

__all__ = [
    "POT_GROWTH",
    "ACTION_POT_GROWTH",
    "STACK_SHARE",
    "STRENGTH_POWER",
    "SHOWDOWN_WEIGHT",
    "PUBLIC_WEIGHT",
    "PUBLIC_ACTION_GROWTH",
    "PUBLIC_CHANCE_GROWTH",
    "PREFLOP_LEAD_WEIGHT",
    "DealOdds",
    "state_value",
    "chance_corrections",
    "action_values",
    "action_corrections",
    "showdown_stake",
    "range_showdown_value",
    "board_values",
    "range_shares",
    "range_equity",
    "joint_marginals",
    "next_card_probabilities",
    "public_value",
    "public_chance_term",
    "public_flop_term",
    "public_action_term",
    "luck_terms",
    "luck_adjusted",
    "format_luck_adjusted",
]

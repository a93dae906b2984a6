"""Counterfactual regret minimisation for two-player zero-sum extensive-form games.

The game interface
------------------
A game subclasses :class:`~holdem_env.training.cfr.game.ExtensiveFormGame` and answers callbacks
about immutable states (any hashable value; ``apply`` returns a new one):

==========================  ========================================================
``initial_state()``         the root history (typically a chance node that deals)
``is_terminal(s)``          whether the game is over
``current_player(s)``       ``0``/``1`` or :data:`~holdem_env.training.cfr.game.CHANCE`
``chance_outcomes(s)``      ``[(outcome, probability), ...]`` at a chance node
``sample_chance(s, rng)``   one outcome drawn from ``rng`` (override for huge decks)
``legal_actions(s)``        action ids (``0 .. num_actions-1``), increasing
``apply(s, a)``             the next state
``infoset_key(s)``          string naming what the player to act knows
``utility(s, player)``      chips won at a terminal state (zero-sum)
==========================  ========================================================

Optional hooks of the sampling solver (defaults keep the plain behaviour):
``sample_root(rng, iteration)`` draws the root of an iteration once for all its
traversals (a game that deals there: cfr-lite's abstract hold'em), and
``copy_state(s)``/``advance(s, a)`` let states change in place, copied only where the
traverser branches. :class:`~holdem_env.training.cfr.inplace.DealtInPlace` runs any game
through these hooks.

plus the class constants ``name``, ``num_players``, ``num_actions`` and
``action_names``. The sampling solver needs only ``sample_chance`` (a game whose chance
events are too many to list may raise ``NotImplementedError`` from ``chance_outcomes``)
and accepts 2 or more players; the exact tools need 2 players and enumerable chance.
Perfect recall is assumed; all states of one information set must have the same legal
actions (and, for the exact solvers, the same depth in the tree).

Solvers
-------
* :class:`~holdem_env.training.cfr.mccfr.ExternalSamplingMCCFR` — only the callbacks above are
  used, so it runs on games far too large to enumerate (e.g. an abstracted no-limit
  hold'em game: a ``sample_chance`` that deals from a seeded generator, bucketed
  ``infoset_key`` strings, a few bet sizes as actions). Tables are numpy arrays
  (:class:`~holdem_env.training.cfr.tables.InfosetTable`). It is the one external-sampling
  traversal of the project: :mod:`holdem_env.training.cfr_lite` builds the shipped cfr-lite
  policies with it.
* :func:`~holdem_env.training.cfr.game.compile_game` enumerates a small game into a
  :class:`~holdem_env.training.cfr.game.GameTree` of flat arrays, on which run
  :class:`~holdem_env.training.cfr.cfr.CFRSolver` (vanilla CFR or CFR+, every history of a tree
  level at once), :class:`~holdem_env.training.cfr.mccfr.BatchedExternalSamplingMCCFR` (many
  sampled traversals per numpy pass) and the exact
  :class:`~holdem_env.training.cfr.evaluation.TreeEvaluator` (values, best responses,
  exploitability = NashConv/2 in chips).

Games with known answers: :class:`~holdem_env.training.cfr.kuhn.KuhnPoker` (value −1/18) and
:class:`~holdem_env.training.cfr.leduc.LeducPoker` (OpenSpiel's ``leduc_poker`` rules).

>>> from holdem_env.training.cfr import CFRSolver, KuhnPoker, compile_game
>>> solver = CFRSolver(compile_game(KuhnPoker()), algorithm="cfr+")
>>> solver.run(1000)
>>> solver.exploitability() < 1e-4
True
"""

from holdem_env.training.cfr.cfr import ALGORITHMS, CFRSolver, normalise_average, regret_matching
from holdem_env.training.cfr.evaluation import TreeEvaluator, expected_values, exploitability
from holdem_env.training.cfr.game import CHANCE, TERMINAL, ExtensiveFormGame, GameError, GameTree, compile_game
from holdem_env.training.cfr.inplace import DealtInPlace
from holdem_env.training.cfr.kuhn import KUHN_GAME_VALUE, KuhnPoker
from holdem_env.training.cfr.leduc import LeducPoker
from holdem_env.training.cfr.mccfr import AVERAGING, Averaging, BatchedExternalSamplingMCCFR, ExternalSamplingMCCFR
from holdem_env.training.cfr.tables import InfosetTable

__all__ = [
    "ALGORITHMS",
    "AVERAGING",
    "Averaging",
    "BatchedExternalSamplingMCCFR",
    "CFRSolver",
    "CHANCE",
    "DealtInPlace",
    "ExtensiveFormGame",
    "ExternalSamplingMCCFR",
    "GameError",
    "GameTree",
    "InfosetTable",
    "KUHN_GAME_VALUE",
    "KuhnPoker",
    "LeducPoker",
    "TERMINAL",
    "TreeEvaluator",
    "compile_game",
    "expected_values",
    "exploitability",
    "normalise_average",
    "regret_matching",
]

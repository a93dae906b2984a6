"""Building cfr-search's blueprint: the compiled MCCFR core, the betting trees, the solver and the build command.

:mod:`~holdem_env.training.cfr_search._core` is the compiled external-sampling traversal,
:mod:`~holdem_env.training.cfr_search.tree` the array-encoded betting tree it walks,
:mod:`~holdem_env.training.cfr_search.solver` the Linear / Discounted MCCFR driver with
pruning, :mod:`~holdem_env.training.cfr_search.leduc` Leduc through the same code path (checked
against exact best responses). The bot that plays the blueprint is :mod:`holdem_env.agents.cfr_search`.
"""

from __future__ import annotations

from .solver import MCCFRSolver, Pruning, normalise_blocks
from .tree import BettingTree, build_tree

__all__ = ["BettingTree", "MCCFRSolver", "Pruning", "build_tree", "normalise_blocks"]

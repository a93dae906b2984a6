"""Full-tree CFR and CFR+, vectorised over a compiled game tree.

Each iteration updates the players in turn (alternating updates, as OpenSpiel's
``CFRSolver`` and ``CFRPlusSolver`` do): one forward pass for reach probabilities, one
backward pass for values, and a ``bincount`` that adds every history's regret into its
information set's row. CFR+ clips cumulative regrets at zero (regret matching+) and
weights the average strategy of iteration ``t`` by ``t``; vanilla CFR weights uniformly.
"""

from __future__ import annotations

import numpy as np

from holdem_env.engine.validate import is_int
from holdem_env.training.cfr.evaluation import TreeEvaluator
from holdem_env.training.cfr.game import GameError, GameTree

__all__ = ["regret_matching", "normalise_average", "AverageScores", "CFRSolver", "ALGORITHMS"]

#: Names accepted by :class:`CFRSolver`.
ALGORITHMS = ("cfr", "cfr+")


def regret_matching(regrets: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    """Policy proportional to positive regrets; uniform over legal actions where none is positive.

    >>> regret_matching(np.array([[1.0, 3.0, 0.0], [-1.0, -2.0, 0.0]]), np.array([[1, 1, 0], [1, 1, 0]], bool))
    array([[0.25, 0.75, 0.  ],
           [0.5 , 0.5 , 0.  ]])
    """
    positive = np.where(legal_mask, np.maximum(regrets, 0.0), 0.0)
    total = positive.sum(axis=1, keepdims=True)
    uniform = legal_mask / legal_mask.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0.0, positive / total, uniform)


def normalise_average(cumulative: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    """Average policy from cumulative strategy weights (uniform where nothing accumulated)."""
    total = cumulative.sum(axis=1, keepdims=True)
    uniform = legal_mask / legal_mask.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0.0, cumulative / total, uniform)


class AverageScores:
    """Exploitability and game value of a solver's average policy, for the solvers with an exact ``evaluator``."""

    evaluator: TreeEvaluator

    def average_policy(self) -> np.ndarray:
        raise NotImplementedError

    def exploitability(self) -> float:
        """Exact exploitability of the average policy (chips)."""
        return self.evaluator.exploitability(self.average_policy())

    def game_value(self) -> float:
        """Expected payoff of player 0 when both play the average policy."""
        return float(self.evaluator.expected_values(self.average_policy())[0])


class CFRSolver(AverageScores):
    """Vanilla CFR (``algorithm="cfr"``) or CFR+ (``"cfr+"``) on a :class:`GameTree`.

    >>> from holdem_env.training.cfr.game import compile_game
    >>> from holdem_env.training.cfr.kuhn import KuhnPoker
    >>> solver = CFRSolver(compile_game(KuhnPoker()), algorithm="cfr+")
    >>> solver.run(300)
    >>> round(solver.game_value(), 2)
    -0.06
    >>> CFRSolver(compile_game(KuhnPoker()), algorithm="dcfr")
    Traceback (most recent call last):
    ...
    holdem_env.training.cfr.game.GameError: algorithm='dcfr' is invalid: choose one of cfr, cfr+
    """

    def __init__(self, tree: GameTree, algorithm: str = "cfr+") -> None:
        if algorithm not in ALGORITHMS:
            raise GameError(f"algorithm={algorithm!r} is invalid: choose one of {', '.join(ALGORITHMS)}")
        self.tree = tree
        self.algorithm = algorithm
        self.evaluator = TreeEvaluator(tree)
        shape = tree.legal_mask.shape
        self.cumulative_regret = np.zeros(shape)
        self.cumulative_policy = np.zeros(shape)
        self.current_policy = tree.uniform_policy()
        self.iteration = 0
        ev = self.evaluator
        self._own_rows = [np.flatnonzero(tree.infoset_player == p) for p in range(tree.num_players)]
        self._own_mask = [ev.parent_owner == p for p in range(tree.num_players)]

    def _update_player(self, player: int, weight: float) -> None:
        ev = self.evaluator
        tree = self.tree
        ep = ev.edge_probabilities(self.current_policy)
        mine = self._own_mask[player]
        reach = ev.reach(np.stack([np.where(mine, 1.0, ep), np.where(mine, ep, 1.0)]))
        opp_reach, own_reach = reach[0], reach[1]
        v = ev.values(ep, player)
        edges = ev.player_edges[player]
        parents = ev.player_edge_parent[player]
        regret = np.bincount(ev.player_sig[player], opp_reach[parents] * (v[edges] - v[parents]), minlength=ev.num_cells)
        self.cumulative_regret += regret.reshape(tree.legal_mask.shape)
        rows = self._own_rows[player]
        infoset_reach = own_reach[ev.representative[rows]]
        self.cumulative_policy[rows] += weight * infoset_reach[:, None] * self.current_policy[rows]
        if self.algorithm == "cfr+":
            np.maximum(self.cumulative_regret, 0.0, out=self.cumulative_regret)
        self.current_policy[rows] = regret_matching(self.cumulative_regret[rows], tree.legal_mask[rows])

    def iterate(self) -> None:
        """One iteration: update player 0, then player 1 against player 0's new policy."""
        self.iteration += 1
        weight = float(self.iteration) if self.algorithm == "cfr+" else 1.0
        for player in range(self.tree.num_players):
            self._update_player(player, weight)

    def run(self, iterations: int) -> None:
        """Run ``iterations`` iterations (a non-negative int)."""
        if not is_int(iterations) or iterations < 0:
            raise GameError(f"iterations={iterations!r} is invalid: expected an int >= 0")
        for _ in range(iterations):
            self.iterate()

    def average_policy(self) -> np.ndarray:
        """The average strategy, which converges to a Nash equilibrium."""
        return normalise_average(self.cumulative_policy, self.tree.legal_mask)

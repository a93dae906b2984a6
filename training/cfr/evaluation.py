"""Exact policy evaluation on a compiled tree: expected values, best responses, exploitability.

A policy is a ``[num_infosets, max_actions]`` array of probabilities over each
information set's legal actions (columns beyond them are zero), as produced by the
solvers and :meth:`GameTree.uniform_policy`. Every pass walks the tree level by level
with numpy, so one evaluation of Leduc (9,457 histories) takes about a millisecond.
"""

from __future__ import annotations

import numpy as np

from holdem_env.training.cfr.game import TERMINAL, GameError, GameTree

__all__ = ["TreeEvaluator", "exploitability", "expected_values"]


class TreeEvaluator:
    """Level-by-level passes over a :class:`GameTree` (precomputed index arrays).

    The solvers share these passes: :meth:`edge_probabilities`, :meth:`reach` and
    :meth:`values` are the building blocks of one CFR iteration.
    """

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        n = tree.num_nodes
        width = tree.max_actions
        self.parent_owner = np.full(n, TERMINAL, dtype=np.int64)
        self.parent_owner[1:] = tree.player[tree.parent[1:]]
        #: flat (infoset * width + slot) index of every decision edge, -1 elsewhere
        self.sig = np.full(n, -1, dtype=np.int64)
        dec = np.flatnonzero(self.parent_owner >= 0)
        self.decision_edges = dec
        self.sig[dec] = tree.infoset[tree.parent[dec]] * width + tree.slot[dec]
        #: decision edges of each player, and their flat table indices
        self.player_edges = [dec[self.parent_owner[dec] == p] for p in range(tree.num_players)]
        self.player_sig = [self.sig[e] for e in self.player_edges]
        self.player_edge_parent = [tree.parent[e] for e in self.player_edges]
        self.levels = [
            (int(tree.level_start[d]), int(tree.level_start[d + 1])) for d in range(len(tree.level_start) - 1)
        ]
        self.parent_local = np.zeros(n, dtype=np.int64)
        for d in range(1, len(self.levels)):
            a, b = self.levels[d]
            self.parent_local[a:b] = tree.parent[a:b] - self.levels[d - 1][0]
        #: one node of each information set (its reach by the owner is the infoset's)
        self.representative = np.zeros(tree.num_infosets, dtype=np.int64)
        decision_nodes = np.flatnonzero(tree.infoset >= 0)
        self.representative[tree.infoset[decision_nodes][::-1]] = decision_nodes[::-1]
        self.num_cells = tree.num_infosets * width

    def check_policy(self, policy: np.ndarray) -> None:
        """Raise :class:`GameError` unless ``policy`` has the tree's shape and is normalised."""
        shape = self.tree.legal_mask.shape
        if not isinstance(policy, np.ndarray) or policy.shape != shape:
            got = getattr(policy, "shape", type(policy).__name__)
            raise GameError(f"policy shape {got} is invalid: expected {shape} (infosets x max actions)")
        sums = policy.sum(axis=1)
        if np.any(policy < -1e-12) or np.any(np.abs(sums - 1.0) > 1e-6) or np.any(policy[~self.tree.legal_mask] != 0):
            bad = int(np.argmax(np.abs(sums - 1.0)))
            raise GameError(
                f"policy is not a distribution over legal actions (e.g. at {self.tree.infoset_keys[bad]!r}): "
                "rows must be non-negative, sum to 1 and be zero beyond the legal actions"
            )

    def edge_probabilities(self, policy: np.ndarray) -> np.ndarray:
        """Probability of every edge (node ``n`` is the edge into it); 1 for the root."""
        ep = self.tree.chance_prob.copy()
        ep[0] = 1.0
        ep[self.decision_edges] = policy.ravel()[self.sig[self.decision_edges]]
        return ep

    def reach(self, factors: np.ndarray) -> np.ndarray:
        """Products of ``factors`` (edge weights, ``[..., num_nodes]``) along each root path."""
        out = np.empty_like(factors)
        out[..., 0] = factors[..., 0]
        parent = self.tree.parent
        for a, b in self.levels[1:]:
            out[..., a:b] = out[..., parent[a:b]] * factors[..., a:b]
        return out

    def values(self, ep: np.ndarray, player: int) -> np.ndarray:
        """Expected utility of ``player`` at every node when everyone plays by ``ep``."""
        tree = self.tree
        v = tree.utility[player].copy()
        weighted = np.empty_like(v)
        for d in range(len(self.levels) - 2, -1, -1):
            a, b = self.levels[d]
            c, e = self.levels[d + 1]
            weighted[c:e] = ep[c:e] * v[c:e]
            v[a:b] += np.bincount(self.parent_local[c:e], weighted[c:e], minlength=b - a)
        return v

    def opponent_reach(self, ep: np.ndarray, player: int) -> np.ndarray:
        """Reach probability of every node by chance and the players other than ``player``."""
        return self.reach(np.where(self.parent_owner == player, 1.0, ep))

    def expected_values(self, policy: np.ndarray) -> np.ndarray:
        """``[u_0, u_1]``: expected payoff of each player when both play ``policy``."""
        ep = self.edge_probabilities(policy)
        return np.array([self.values(ep, p)[0] for p in range(self.tree.num_players)])

    def best_response(self, policy: np.ndarray, player: int) -> tuple[float, np.ndarray]:
        """Value of a best response of ``player`` to the others' part of ``policy``, and its choices.

        Returns ``(value, br)`` where ``br[i]`` is the chosen slot at each information set
        of ``player`` (``-1`` for the other player's sets).
        """
        tree = self.tree
        ep = self.edge_probabilities(policy)
        opp = self.opponent_reach(ep, player)
        width = tree.max_actions
        v = tree.utility[player].copy()
        best = np.full(tree.num_infosets, -1, dtype=np.int64)
        illegal = ~tree.legal_mask
        for d in range(len(self.levels) - 2, -1, -1):
            a, b = self.levels[d]
            c, e = self.levels[d + 1]
            owner = self.parent_owner[c:e]
            mine = owner == player
            weights = ep[c:e].copy()
            if mine.any():
                edges = np.flatnonzero(mine) + c
                q = np.bincount(self.sig[edges], opp[tree.parent[edges]] * v[edges], minlength=self.num_cells)
                q = q.reshape(tree.num_infosets, width)
                q[illegal] = -np.inf
                rows = np.unique(tree.infoset[tree.parent[edges]])
                best[rows] = np.argmax(q[rows], axis=1)
                weights[mine] = (tree.slot[edges] == best[tree.infoset[tree.parent[edges]]]).astype(np.float64)
            v[a:b] += np.bincount(self.parent_local[c:e], weights * v[c:e], minlength=b - a)
        return float(v[0]), best

    def nash_conv(self, policy: np.ndarray) -> float:
        """Sum over players of (best-response value − value under ``policy``)."""
        self.check_policy(policy)
        ev = self.expected_values(policy)
        return float(sum(self.best_response(policy, p)[0] - ev[p] for p in range(self.tree.num_players)))

    def exploitability(self, policy: np.ndarray) -> float:
        """NashConv / 2: in a zero-sum game, the mean of the two best-response values (chips)."""
        return self.nash_conv(policy) / self.tree.num_players


def exploitability(tree: GameTree, policy: np.ndarray) -> float:
    """Exploitability (NashConv / 2, in chips) of ``policy`` in the game ``tree``."""
    return TreeEvaluator(tree).exploitability(policy)


def expected_values(tree: GameTree, policy: np.ndarray) -> np.ndarray:
    """Expected payoff of each player when both follow ``policy``."""
    evaluator = TreeEvaluator(tree)
    evaluator.check_policy(policy)
    return evaluator.expected_values(policy)

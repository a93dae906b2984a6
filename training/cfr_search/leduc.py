"""Leduc hold'em as a betting tree and lossless buckets, so the compiled core is checked against exact best responses.

The betting rules are :class:`holdem_env.training.cfr.leduc.LeducPoker`'s (antes 1, bets 2
then 4, at most two bets per round). Round 1's bucket is the private rank (3), round 2's is
``private rank * 3 + public rank`` (9): the buckets lose nothing, so the core's average
policy is a Leduc policy, mapped onto the information-set keys of ``LeducPoker``
(:func:`leduc_policy`) for :mod:`holdem_env.training.cfr.evaluation`.
"""

from __future__ import annotations

import numpy as np

from holdem_env.training.cfr.game import GameTree
from holdem_env.training.cfr.leduc import RANK_NAMES
from holdem_env.training.cfr_search.tree import FOLD_END, SHOWDOWN, BettingTree, build_tree

__all__ = ["LeducRules", "leduc_tree", "leduc_deals", "leduc_policy"]

_BETS = (2, 4)
_MAX_RAISES = 2

#: (round, history of this round, what player 0 has in, what player 1 has in, ended by "f"/"s"/"")
_State = tuple[int, str, int, int, str]


class LeducRules:
    """Leduc's betting for :func:`~holdem_env.training.cfr_search.tree.build_tree` (labels ``f``, ``c``, ``r``)."""

    num_streets = 2
    separator = ""

    def root(self) -> _State:
        """Round 0, no actions, antes in."""
        return (0, "", 1, 1, "")

    def actor(self, state: _State) -> int:
        """Player 0 opens each round; ``len(history) % 2`` acts."""
        rnd, h, _, _, end = state
        if end == "f":
            return FOLD_END
        if end == "s":
            return SHOWDOWN
        return len(h) % 2

    def street(self, state: _State) -> int:
        """The betting round (0 or 1)."""
        return state[0]

    def actions(self, state: _State) -> list[tuple[str, _State]]:
        """Fold only facing a bet, raise below the cap."""
        rnd, h, p0, p1, _ = state
        me = len(h) % 2
        put = [p0, p1]
        facing = put[1 - me] > put[me]
        out: list[tuple[str, _State]] = []
        if facing:
            out.append(("f", (rnd, h + "f", p0, p1, "f")))
        called = list(put)
        called[me] = put[1 - me]
        closes = len(h) >= 1
        if closes:
            nxt: _State = (rnd, h + "c", called[0], called[1], "s") if rnd == 1 else (1, "", called[0], called[1], "")
        else:
            nxt = (rnd, h + "c", called[0], called[1], "")
        out.append(("c", nxt))
        if h.count("r") < _MAX_RAISES:
            raised = list(called)
            raised[me] += _BETS[rnd]
            out.append(("r", (rnd, h + "r", raised[0], raised[1], "")))
        return out

    def terminal_value(self, state: _State) -> float:
        """Fold: player 0's payoff (the folder loses what it has in); showdown: the stake."""
        _, h, p0, p1, end = state
        if end == "f":
            folder = (len(h) - 1) % 2
            return float(p1) if folder == 1 else -float(p0)
        return float(p0)


def leduc_tree() -> BettingTree:
    """The betting tree with 3 buckets in round 1 and 9 in round 2."""
    return build_tree(LeducRules(), (3, 9))


def leduc_deals(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` random deals: buckets ``[count, 4]`` (p0 round 1, p0 round 2, p1 round 1, p1 round 2)
    and player 0's showdown result ``[count]``."""
    cards = np.argsort(rng.random((count, 6)), axis=1)[:, :3]  # three distinct cards of six
    ranks = cards // 2
    r0, r1, pub = ranks[:, 0], ranks[:, 1], ranks[:, 2]
    buckets = np.stack([r0, r0 * 3 + pub, r1, r1 * 3 + pub], axis=1).astype(np.int64)
    s0 = np.where(r0 == pub, 10 + r0, r0)
    s1 = np.where(r1 == pub, 10 + r1, r1)
    return np.ascontiguousarray(buckets), np.sign(s0 - s1).astype(np.float64)


def leduc_policy(tree: BettingTree, probabilities: np.ndarray, game_tree: GameTree) -> np.ndarray:
    """The ``[infosets, max actions]`` policy of ``game_tree`` (``compile_game(LeducPoker())``) that plays
    ``probabilities`` (the flat cells of ``tree``, normalised per information set)."""
    policy = game_tree.uniform_policy()
    for i, key in enumerate(game_tree.infoset_keys):
        cards, hist = key.split(":")
        private = RANK_NAMES.index(cards[0])
        if "/" in hist:
            bucket = private * 3 + RANK_NAMES.index(cards[1])
        else:
            bucket = private
        node = tree.node_of(hist.rstrip("/"))
        block = probabilities[tree.block(node, bucket)]
        policy[i, : len(block)] = block
    return policy

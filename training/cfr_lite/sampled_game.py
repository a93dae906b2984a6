"""cfr-lite's abstract hold'em game seen through the solvers' game interface.

:class:`SampledHoldem` lets :class:`holdem_env.training.cfr.mccfr.ExternalSamplingMCCFR` train
on :class:`holdem_env.agents.cfr_lite.game.AbstractHoldem` (the abstract game played in our
engine). Chance is the engine's deck: each iteration deals one hand in
:meth:`~SampledHoldem.sample_root` (a deck shuffled by the solver's generator, the button
at ``iteration % players``), and every seat's traversal of that iteration plays that deal.
States are :class:`~holdem_env.agents.cfr_lite.game.Node` objects that change in place;
the solver copies one only where the traversing seat tries several moves. Actions are the
abstraction's action indices (fold, check/call, the pot fractions, all-in) and utilities
are chips won in big blinds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from holdem_env.agents.cfr_lite.game import AbstractHoldem, Node
from holdem_env.training.cfr.game import ExtensiveFormGame, GameError

__all__ = ["SampledHoldem"]


class SampledHoldem(ExtensiveFormGame[Node]):
    """The abstract game of ``abstract`` for the sampling solver (no chance nodes after the deal)."""

    name = "cfr-lite"

    def __init__(self, abstract: AbstractHoldem) -> None:
        if not isinstance(abstract, AbstractHoldem):
            raise GameError(f"abstract={abstract!r} is invalid: expected an AbstractHoldem")
        self.abstract = abstract
        self.num_players = abstract.table.num_players
        self.num_actions = abstract.actions.num_actions
        self.action_names = tuple(abstract.actions.code(i) for i in range(self.num_actions))
        self._big_blind = float(abstract.table.big_blind)

    def initial_state(self) -> Node:
        """Not available: the root is a dealt hand, drawn by :meth:`sample_root`."""
        raise GameError("cfr-lite has no fixed root: every iteration deals its own hand (sample_root)")

    def sample_root(self, rng: np.random.Generator, iteration: int) -> Node:
        """A hand dealt from a deck shuffled by ``rng``, the button at ``iteration % players``."""
        return self.abstract.new_hand(rng, iteration % self.num_players)

    def is_terminal(self, state: Node) -> bool:
        """Whether the engine says the hand is over."""
        return bool(state.state.is_over)

    def current_player(self, state: Node) -> int:
        """The seat to act (the deal happened at the root, so never chance)."""
        return _actor(state)

    def chance_outcomes(self, state: Node) -> Sequence[tuple[int, float]]:
        """Not available: the cards come from the deck dealt at the root."""
        raise GameError("cfr-lite has no chance nodes after the deal")

    def legal_actions(self, state: Node) -> tuple[int, ...]:
        """Indices of the abstract moves offered to the actor (remembered on the node)."""
        moves = self.abstract.moves(state)
        state.offered = moves
        return tuple(m.index for m in moves)

    def apply(self, state: Node, action: int) -> Node:
        """A copy of ``state`` after ``action`` (``state`` is unchanged)."""
        return self.advance(self.copy_state(state), action)

    def copy_state(self, state: Node) -> Node:
        """An independent copy (engine state copied)."""
        return state.copy()

    def advance(self, state: Node, action: int) -> Node:
        """Play the offered move with index ``action`` on ``state`` itself and return it."""
        moves = state.offered or self.abstract.moves(state)
        for move in moves:
            if move.index == action:
                self.abstract.play(state, move)
                state.offered = []
                return state
        offered = [m.index for m in moves]
        raise GameError(f"action {action} is not offered at history {state.history!r}: offered {offered}")

    def infoset_key(self, state: Node) -> str:
        """``"<position>:<bucket>:<history>"`` of the seat to act."""
        return self.abstract.key(state, _actor(state))

    def utility(self, state: Node, player: int) -> float:
        """Chips ``player`` won in the finished hand, in big blinds."""
        payoffs = state.state.payoffs
        if payoffs is None:
            raise GameError(f"no utility at history {state.history!r}: the hand is not over")
        return float(payoffs[player]) / self._big_blind


def _actor(node: Node) -> int:
    """The seat to act at ``node`` (a finished hand has none: GameError)."""
    actor = node.state.actor
    if actor is None:
        raise GameError(f"no seat acts at history {node.history!r}: the hand is over")
    return actor

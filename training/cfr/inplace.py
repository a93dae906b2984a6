"""Any game played the way cfr-lite's abstract hold'em is: dealt once per iteration, states changed in place.

:class:`DealtInPlace` wraps an :class:`~holdem_env.training.cfr.game.ExtensiveFormGame` so that
:class:`~holdem_env.training.cfr.mccfr.ExternalSamplingMCCFR` runs it through the same hooks
as :class:`holdem_env.training.cfr_lite.sampled_game.SampledHoldem`: ``sample_root`` draws the
chance events before the first decision once per iteration (the deal every traversal of
that iteration shares), and a state is a one-item list that ``advance`` changes in place
and ``copy_state`` copies. Information-set keys, actions and payoffs are the wrapped
game's, so a policy trained this way is measured with the wrapped game's exact tools; this
is how the traversal that builds the shipped cfr-lite policies is checked against Kuhn's
and Leduc's known answers.

>>> import numpy as np
>>> from holdem_env.training.cfr.kuhn import KuhnPoker
>>> game = DealtInPlace(KuhnPoker())
>>> root = game.sample_root(np.random.default_rng(0), 1)
>>> game.current_player(root), game.infoset_key(root)
(0, 'Q')
>>> child = game.advance(game.copy_state(root), 1)
>>> game.infoset_key(child), game.infoset_key(root)
('Jb', 'Q')
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from holdem_env.training.cfr.game import CHANCE, ExtensiveFormGame, GameError

__all__ = ["DealtInPlace"]

#: A state of :class:`DealtInPlace`: a one-item list holding the wrapped game's state.
Box = list[Any]


class DealtInPlace(ExtensiveFormGame[Any]):
    """``game`` with its opening chance events drawn by ``sample_root`` and states changed in place."""

    def __init__(self, game: ExtensiveFormGame[Hashable]) -> None:
        if not isinstance(game, ExtensiveFormGame):
            raise GameError(f"game={game!r} is invalid: expected an ExtensiveFormGame")
        self.game = game
        self.name = game.name
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.action_names = game.action_names

    def initial_state(self) -> Box:
        """The wrapped game's root, boxed."""
        return [self.game.initial_state()]

    def sample_root(self, rng: np.random.Generator, iteration: int) -> Box:
        """The wrapped root after its chance events up to the first decision, drawn from ``rng``."""
        game = self.game
        state = game.initial_state()
        while not game.is_terminal(state) and game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        return [state]

    def copy_state(self, state: Box) -> Box:
        """A new box holding the same (immutable) wrapped state."""
        return [state[0]]

    def advance(self, state: Box, action: int) -> Box:
        """Move the box itself on by ``action``."""
        state[0] = self.game.apply(state[0], action)
        return state

    def apply(self, state: Box, action: int) -> Box:
        """A new box after ``action`` (``state`` is unchanged)."""
        return [self.game.apply(state[0], action)]

    def is_terminal(self, state: Box) -> bool:
        """The wrapped game's answer."""
        return self.game.is_terminal(state[0])

    def current_player(self, state: Box) -> int:
        """The wrapped game's answer."""
        return self.game.current_player(state[0])

    def chance_outcomes(self, state: Box) -> Sequence[tuple[int, float]]:
        """The wrapped game's answer."""
        return self.game.chance_outcomes(state[0])

    def sample_chance(self, state: Box, rng: np.random.Generator) -> int:
        """The wrapped game's answer."""
        return self.game.sample_chance(state[0], rng)

    def legal_actions(self, state: Box) -> Sequence[int]:
        """The wrapped game's answer."""
        return self.game.legal_actions(state[0])

    def infoset_key(self, state: Box) -> str:
        """The wrapped game's answer."""
        return self.game.infoset_key(state[0])

    def utility(self, state: Box, player: int) -> float:
        """The wrapped game's answer."""
        return self.game.utility(state[0], player)

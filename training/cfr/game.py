"""The extensive-form game interface the solvers use, and its compilation to arrays.

A game is an object with a handful of callbacks over immutable states (see
:class:`ExtensiveFormGame`). Sampling solvers (:mod:`holdem_env.training.cfr.mccfr`) call them
directly, so a game never has to be enumerated; full-tree solvers first compile the game
into a :class:`GameTree` — flat numpy arrays, one entry per history in breadth-first
order — and then run every iteration as a few array operations per tree level.
"""

from __future__ import annotations

import abc
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from holdem_env.engine.errors import HoldemError

__all__ = [
    "CHANCE",
    "TERMINAL",
    "GameError",
    "ExtensiveFormGame",
    "GameTree",
    "compile_game",
]

#: ``current_player`` of a chance node.
CHANCE = -1
#: Player code stored in :attr:`GameTree.player` for terminal histories.
TERMINAL = -2

S = TypeVar("S", bound=Hashable)


class GameError(HoldemError):
    """A game, policy or solver argument is malformed; the message says what is allowed."""


class ExtensiveFormGame(abc.ABC, Generic[S]):
    """A finite two-player zero-sum game with perfect recall, given by callbacks.

    States are immutable values; :meth:`apply` returns a new state. Actions are small
    non-negative ints below :attr:`num_actions`; :attr:`action_names` gives their labels.
    An information-set key is a string that identifies everything the player to act
    knows; every state with the same key must have the same legal actions.
    """

    #: Short name used in reports and policy files.
    name: str = "game"
    #: Number of players (the solvers here need exactly 2, zero-sum).
    num_players: int = 2
    #: Number of distinct action ids (actions are ``0 .. num_actions-1``).
    num_actions: int = 0
    #: One label per action id.
    action_names: tuple[str, ...] = ()

    @abc.abstractmethod
    def initial_state(self) -> S:
        """The root history (usually a chance node that deals)."""

    @abc.abstractmethod
    def is_terminal(self, state: S) -> bool:
        """Whether the game is over at ``state``."""

    @abc.abstractmethod
    def current_player(self, state: S) -> int:
        """The player to act (``0 .. num_players-1``) or :data:`CHANCE`."""

    @abc.abstractmethod
    def chance_outcomes(self, state: S) -> Sequence[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node; probabilities sum to 1."""

    @abc.abstractmethod
    def legal_actions(self, state: S) -> Sequence[int]:
        """The legal action ids of the player to act, in increasing order."""

    @abc.abstractmethod
    def apply(self, state: S, action: int) -> S:
        """The history after ``action`` (a chance outcome at a chance node)."""

    @abc.abstractmethod
    def infoset_key(self, state: S) -> str:
        """The information-set key of the player to act at ``state``."""

    @abc.abstractmethod
    def utility(self, state: S, player: int) -> float:
        """Payoff of ``player`` at a terminal ``state`` (chips won, zero-sum)."""

    def sample_root(self, rng: np.random.Generator, iteration: int) -> S:
        """The root of sampling iteration ``iteration`` (counted from 1), shared by its traversals.

        The default is :meth:`initial_state`, so chance is sampled inside each traversal.
        A game may instead draw chance events here once per iteration (deal the cards,
        move the button), which every player's traversal of that iteration then shares;
        the draws must come from ``rng`` only.
        """
        return self.initial_state()

    def copy_state(self, state: S) -> S:
        """A state :meth:`advance` may change without changing ``state`` (immutable states: itself)."""
        return state

    def advance(self, state: S, action: int) -> S:
        """The state after ``action``; ``state`` itself may be changed and must not be used again.

        The default returns :meth:`apply`; a game with mutable states (an engine that acts in
        place) overrides this and :meth:`copy_state`, so a sampling solver copies a state
        only where it tries several actions.
        """
        return self.apply(state, action)

    def sample_chance(self, state: S, rng: np.random.Generator) -> int:
        """Draw one chance outcome; override when the outcomes are too many to list."""
        outcomes = self.chance_outcomes(state)
        u = rng.random()
        acc = 0.0
        for outcome, prob in outcomes:
            acc += prob
            if u < acc:
                return outcome
        return outcomes[-1][0]


@dataclass(frozen=True, eq=False)
class GameTree:
    """A game compiled into flat arrays; histories are numbered breadth-first.

    Every history except the root has exactly one parent, so node ``n > 0`` is also the
    edge from ``parent[n]``. Nodes of one depth are contiguous (``level_start``), and the
    children of a node are contiguous too.

    Attributes:
        player: owner of each node — a player, :data:`CHANCE` or :data:`TERMINAL`.
        parent: parent node (``-1`` for the root).
        slot: index of the edge into the parent among its children (the action's position
            in the parent's legal actions, or the chance outcome's position).
        chance_prob: probability of the edge when the parent is a chance node, else 0.
        infoset: information-set index of decision nodes, ``-1`` otherwise.
        utility: ``[num_players, num_nodes]`` payoffs, zero on non-terminal nodes.
        level_start: node index where each depth begins, plus the total count at the end.
        infoset_keys: key of each information set.
        infoset_player: owner of each information set.
        infoset_actions: legal action ids of each information set.
        legal_mask: ``[num_infosets, max_actions]`` mask of used slots.
    """

    game_name: str
    num_players: int
    action_names: tuple[str, ...]
    player: np.ndarray
    parent: np.ndarray
    slot: np.ndarray
    chance_prob: np.ndarray
    infoset: np.ndarray
    utility: np.ndarray
    level_start: np.ndarray
    infoset_keys: tuple[str, ...]
    infoset_player: np.ndarray
    infoset_actions: tuple[tuple[int, ...], ...]
    legal_mask: np.ndarray

    @property
    def num_nodes(self) -> int:
        """Number of histories (terminal ones included)."""
        return int(self.player.shape[0])

    @property
    def num_infosets(self) -> int:
        """Number of information sets of all players."""
        return len(self.infoset_keys)

    @property
    def max_actions(self) -> int:
        """Width of the per-infoset tables (most legal actions at any infoset)."""
        return int(self.legal_mask.shape[1])

    def infoset_index(self) -> dict[str, int]:
        """Map from information-set key to row index."""
        return {key: i for i, key in enumerate(self.infoset_keys)}

    def uniform_policy(self) -> np.ndarray:
        """``[num_infosets, max_actions]`` uniform probabilities over legal actions."""
        mask = self.legal_mask.astype(np.float64)
        return mask / mask.sum(axis=1, keepdims=True)

    def policy_to_dict(self, policy: np.ndarray) -> dict[str, list[float]]:
        """``{infoset key: probabilities over its legal actions, in action-id order}``."""
        return {
            key: [float(p) for p in policy[i, : len(self.infoset_actions[i])]]
            for i, key in enumerate(self.infoset_keys)
        }

    def policy_from_dict(self, table: dict[str, Sequence[float]]) -> np.ndarray:
        """Inverse of :meth:`policy_to_dict`; every infoset must be present and normalised."""
        policy = np.zeros(self.legal_mask.shape)
        for i, key in enumerate(self.infoset_keys):
            if key not in table:
                raise GameError(f"policy has no entry for information set {key!r}")
            probs = np.asarray(table[key], dtype=np.float64)
            n = len(self.infoset_actions[i])
            if probs.shape != (n,) or np.any(probs < 0) or abs(probs.sum() - 1.0) > 1e-6:
                raise GameError(
                    f"policy at {key!r} is {list(probs)}: need {n} non-negative probabilities summing to 1"
                )
            policy[i, :n] = probs
        return policy


def compile_game(game: ExtensiveFormGame, max_nodes: int = 5_000_000) -> GameTree:
    """Enumerate ``game`` breadth-first into a :class:`GameTree`.

    Raises :class:`GameError` if the tree has more than ``max_nodes`` histories, if two
    histories of one information set disagree on the legal actions or the player, or if
    an information set spans several depths (the level-by-level best response needs all
    of an infoset's histories on one level).
    """
    if game.num_players != 2:
        raise GameError(f"num_players={game.num_players} is unsupported: the solvers need a 2-player game")
    states = [game.initial_state()]
    player: list[int] = []
    parent: list[int] = [-1]
    slot: list[int] = [0]
    chance_prob: list[float] = [0.0]
    infoset: list[int] = []
    util0: list[float] = []
    util1: list[float] = []
    depth: list[int] = [0]
    keys: dict[str, int] = {}
    inf_player: list[int] = []
    inf_actions: list[tuple[int, ...]] = []
    inf_depth: list[int] = []
    i = 0
    while i < len(states):
        state = states[i]
        d = depth[i]
        if game.is_terminal(state):
            player.append(TERMINAL)
            infoset.append(-1)
            util0.append(float(game.utility(state, 0)))
            util1.append(float(game.utility(state, 1)))
        else:
            util0.append(0.0)
            util1.append(0.0)
            p = game.current_player(state)
            player.append(p)
            if p == CHANCE:
                infoset.append(-1)
                for k, (outcome, prob) in enumerate(game.chance_outcomes(state)):
                    states.append(game.apply(state, outcome))
                    parent.append(i)
                    slot.append(k)
                    chance_prob.append(float(prob))
                    depth.append(d + 1)
            else:
                if not 0 <= p < game.num_players:
                    raise GameError(f"current_player returned {p}: expected 0..{game.num_players - 1} or CHANCE")
                key = game.infoset_key(state)
                actions = tuple(int(a) for a in game.legal_actions(state))
                if not actions:
                    raise GameError(f"information set {key!r} has no legal actions")
                idx = keys.get(key)
                if idx is None:
                    idx = keys[key] = len(inf_player)
                    inf_player.append(p)
                    inf_actions.append(actions)
                    inf_depth.append(d)
                elif inf_actions[idx] != actions or inf_player[idx] != p:
                    raise GameError(f"information set {key!r} has inconsistent players or legal actions")
                elif inf_depth[idx] != d:
                    raise GameError(f"information set {key!r} spans depths {inf_depth[idx]} and {d}")
                infoset.append(idx)
                for k, a in enumerate(actions):
                    states.append(game.apply(state, a))
                    parent.append(i)
                    slot.append(k)
                    chance_prob.append(0.0)
                    depth.append(d + 1)
        if len(states) > max_nodes:
            raise GameError(f"game tree exceeds max_nodes={max_nodes}; use a sampling solver instead")
        states[i] = None  # free memory; the state is no longer needed
        i += 1
    depth_arr = np.asarray(depth, dtype=np.int64)
    num_levels = int(depth_arr.max()) + 1
    level_start = np.searchsorted(depth_arr, np.arange(num_levels + 1)).astype(np.int64)
    width = max(len(a) for a in inf_actions)
    mask = np.zeros((len(inf_actions), width), dtype=bool)
    for r, acts in enumerate(inf_actions):
        mask[r, : len(acts)] = True
    return GameTree(
        game_name=game.name,
        num_players=game.num_players,
        action_names=tuple(game.action_names),
        player=np.asarray(player, dtype=np.int64),
        parent=np.asarray(parent, dtype=np.int64),
        slot=np.asarray(slot, dtype=np.int64),
        chance_prob=np.asarray(chance_prob, dtype=np.float64),
        infoset=np.asarray(infoset, dtype=np.int64),
        utility=np.asarray([util0, util1], dtype=np.float64),
        level_start=level_start,
        infoset_keys=tuple(keys),
        infoset_player=np.asarray(inf_player, dtype=np.int64),
        infoset_actions=tuple(inf_actions),
        legal_mask=mask,
    )

"""The array-encoded betting tree the compiled MCCFR core walks, built from any two-player betting game.

A :class:`BettingTree` lists its nodes breadth-first from the root (node 0); the children of
a node are contiguous. Each decision node owns a block of cells in the flat regret and
strategy tables, ``num_buckets[street] * num_children`` of them, so that the information set
(node, bucket) has cells ``cell[n] + bucket * num_children[n] + a``.
:func:`build_tree` turns a *rules* object (its ``root()``, ``actor(state)``, ``street(state)``,
``actions(state)``, ``apply(state, action)`` and terminal queries; states are hashable values)
into the arrays; :mod:`~holdem_env.training.cfr_search.leduc` and
:mod:`~holdem_env.training.cfr_search.nolimit` are the two rule sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from holdem_env.training.cfr.game import GameError

__all__ = ["BettingRules", "BettingTree", "build_tree", "FOLD_END", "SHOWDOWN"]

#: ``actor`` of a terminal node where a player folded (``value`` is player 0's payoff).
FOLD_END = -1
#: ``actor`` of a showdown (``value`` is what each player has in; player 0 wins ``result * value``).
SHOWDOWN = -2


class BettingRules(Protocol):
    """What :func:`build_tree` asks of a betting game (player 0 is the first in ``value``'s sign)."""

    num_streets: int
    separator: str  # between two actions of one street in a node's history ("/" between streets)

    def root(self) -> Any: ...
    def actor(self, state: Any) -> int: ...  # 0, 1, FOLD_END or SHOWDOWN
    def street(self, state: Any) -> int: ...
    def actions(self, state: Any) -> list[tuple[str, Any]]: ...  # (label, child state)
    def terminal_value(self, state: Any) -> float: ...  # fold: player 0's payoff; showdown: the stake


@dataclass(frozen=True)
class BettingTree:
    """The arrays of a betting tree (see the module docstring); ``labels[n]`` is the action into ``n``
    and ``history[n]`` the actions from the root (labels joined by ``"-"``, streets by ``"/"``)."""

    actor: np.ndarray
    street: np.ndarray
    parent: np.ndarray
    first: np.ndarray
    num_children: np.ndarray
    cell: np.ndarray
    value: np.ndarray
    depth: np.ndarray
    labels: tuple[str, ...]
    history: tuple[str, ...]
    num_buckets: tuple[int, ...]
    num_cells: int

    @property
    def num_nodes(self) -> int:
        """Number of nodes, terminals included."""
        return int(self.actor.shape[0])

    @property
    def decision_nodes(self) -> np.ndarray:
        """Indices of the nodes where a player acts."""
        return np.flatnonzero(self.actor >= 0)

    @property
    def num_infosets(self) -> int:
        """Number of (decision node, bucket) information sets."""
        nodes = self.decision_nodes
        return int(sum(self.num_buckets[int(s)] for s in self.street[nodes]))

    @property
    def max_depth(self) -> int:
        """Longest root-to-leaf path, in actions."""
        return int(self.depth.max())

    def block(self, node: int, bucket: int) -> slice:
        """The cells of information set (``node``, ``bucket``)."""
        k = int(self.num_children[node])
        start = int(self.cell[node]) + bucket * k
        return slice(start, start + k)

    def node_of(self, history: str) -> int:
        """The node reached by ``history`` (as in :attr:`history`); raises :class:`GameError` if none."""
        index = getattr(self, "_index", None)
        if index is None:
            index = {h: i for i, h in enumerate(self.history)}
            object.__setattr__(self, "_index", index)
        if history not in index:
            raise GameError(f"no node has history {history!r} in this betting tree")
        return index[history]


def build_tree(rules: BettingRules, num_buckets: tuple[int, ...], max_nodes: int = 20_000_000) -> BettingTree:
    """Enumerate ``rules`` breadth-first into a :class:`BettingTree` with ``num_buckets[s]`` buckets on street ``s``."""
    if len(num_buckets) != rules.num_streets or any(int(b) < 1 for b in num_buckets):
        raise GameError(
            f"num_buckets={num_buckets!r} is invalid: expected {rules.num_streets} ints >= 1, one per street"
        )
    states = [rules.root()]
    parent = [-1]
    labels = [""]
    history = [""]
    depth = [0]
    actor: list[int] = []
    street: list[int] = []
    first: list[int] = []
    nch: list[int] = []
    value: list[float] = []
    i = 0
    while i < len(states):
        state = states[i]
        who = rules.actor(state)
        actor.append(who)
        s = rules.street(state)
        street.append(s)
        if who < 0:
            first.append(0)
            nch.append(0)
            value.append(float(rules.terminal_value(state)))
        else:
            moves = rules.actions(state)
            if not moves:
                raise GameError(f"a decision node at {history[i]!r} has no actions")
            first.append(len(states))
            nch.append(len(moves))
            value.append(0.0)
            prefix = history[i]
            if i and s != street[parent[i]]:
                prefix += "/"
            elif prefix:
                prefix += rules.separator
            for label, child in moves:
                states.append(child)
                parent.append(i)
                labels.append(label)
                history.append(prefix + label)
                depth.append(depth[i] + 1)
        if len(states) > max_nodes:
            raise GameError(f"the betting tree exceeds max_nodes={max_nodes}: use fewer sizes or raises")
        states[i] = None
        i += 1
    actor_a = np.asarray(actor, dtype=np.int64)
    street_a = np.asarray(street, dtype=np.int64)
    nch_a = np.asarray(nch, dtype=np.int64)
    sizes = np.where(actor_a >= 0, nch_a * np.asarray(num_buckets, dtype=np.int64)[street_a], 0)
    cell = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return BettingTree(
        actor=actor_a,
        street=street_a,
        parent=np.asarray(parent, dtype=np.int64),
        first=np.asarray(first, dtype=np.int64),
        num_children=nch_a,
        cell=cell,
        value=np.asarray(value, dtype=np.float64),
        depth=np.asarray(depth, dtype=np.int64),
        labels=tuple(labels),
        history=tuple(history),
        num_buckets=tuple(int(b) for b in num_buckets),
        num_cells=int(sizes.sum()),
    )

"""The blueprint policy file of cfr-search: writing it, loading it and asking it for a decision's probabilities.

One compressed ``.npz`` holds everything the bot needs and nothing that leads back to the
builder: the betting tree's arrays (who acts, the street, the first child and the number of
children of each node, and the label of the action into it: ``f``, ``c``, ``r<total>`` or
``a``; see :mod:`holdem_env.training.cfr_search.nolimit`), the card abstraction's centroids and
thresholds, the average strategy of every information set quantised to bytes (``round(255 p)``,
renormalised on load), and a JSON header (blinds, stack, sizes, bucket counts, iterations,
seed, build time). A node's information sets are its ``num_buckets[street]`` rows of
``num_children`` cells, in the order of :class:`~holdem_env.training.cfr_search.tree.BettingTree`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.agents.cfr_search.abstraction import AbstractionConfig, CardAbstraction
from holdem_env.engine.errors import ConfigError
from holdem_env.fileutil import atomic_write_bytes

__all__ = ["Blueprint", "write_blueprint", "quantise"]

_VERSION = 1


def quantise(probabilities: np.ndarray) -> np.ndarray:
    """Probabilities (``[0, 1]``) as bytes ``round(255 p)``."""
    return np.clip(np.rint(np.asarray(probabilities) * 255.0), 0, 255).astype(np.uint8)


def write_blueprint(
    path: str | Path,
    *,
    actor: np.ndarray,
    street: np.ndarray,
    first: np.ndarray,
    num_children: np.ndarray,
    labels: Sequence[str],
    probabilities: np.ndarray,
    abstraction: CardAbstraction,
    game: dict[str, Any],
    info: dict[str, Any],
) -> None:
    """Write a blueprint file (atomically); ``probabilities`` are the tree's flat cells."""
    meta = json.dumps(
        {
            "version": _VERSION,
            "game": game,
            "abstraction": abstraction.config.__dict__,
            "info": info,
        }
    )

    def write(f: Any) -> None:
        np.savez_compressed(
            f,
            meta=np.frombuffer(meta.encode(), dtype=np.uint8),
            actor=np.asarray(actor, dtype=np.int8),
            street=np.asarray(street, dtype=np.int8),
            first=np.asarray(first, dtype=np.int32),
            num_children=np.asarray(num_children, dtype=np.int8),
            labels=np.frombuffer("\n".join(labels).encode(), dtype=np.uint8),
            policy=quantise(probabilities),
            flop=abstraction.flop_centroids.astype(np.float32),
            turn=abstraction.turn_centroids.astype(np.float32),
            river=abstraction.river_edges,
        )

    atomic_write_bytes(path, write)


class Blueprint:
    """A loaded blueprint: the tree, the abstraction and the average strategy.

    Walk it with :meth:`child` from :attr:`root` (node 0: preflop, the button to act) and ask
    :meth:`probabilities` at a decision node for a bucket, or :meth:`action_probabilities` for
    cards (the abstraction buckets them).
    """

    root = 0

    def __init__(self, path: str | Path) -> None:
        try:
            with np.load(path) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                arrays = {k: data[k] for k in data.files if k != "meta"}
        except (OSError, KeyError, ValueError) as exc:
            raise ConfigError("blueprint", str(path), f"must be a file written by write_blueprint ({exc})") from exc
        if meta.get("version") != _VERSION:
            raise ConfigError("blueprint version", meta.get("version"), f"must be {_VERSION}: rebuild the blueprint")
        self.path = str(path)
        self.game: dict[str, Any] = meta["game"]
        self.info: dict[str, Any] = meta["info"]
        self.abstraction = CardAbstraction(
            AbstractionConfig(**meta["abstraction"]),
            arrays["flop"].astype(np.float64),
            arrays["turn"].astype(np.float64),
            arrays["river"],
        )
        self.actor = arrays["actor"].astype(np.int64)
        self.street = arrays["street"].astype(np.int64)
        self.first = arrays["first"].astype(np.int64)
        self.num_children = arrays["num_children"].astype(np.int64)
        self.labels: tuple[str, ...] = tuple(bytes(arrays["labels"]).decode().split("\n"))
        buckets = np.asarray(self.abstraction.num_buckets, dtype=np.int64)
        sizes = np.where(self.actor >= 0, self.num_children * buckets[self.street], 0)
        self.cell = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        q = arrays["policy"].astype(np.float64)
        if q.shape != (int(sizes.sum()),) or len(self.labels) != len(self.actor):
            raise ConfigError("blueprint", self.path, "has a policy or labels that do not fit its tree: rebuild it")
        self._q = q

    @property
    def num_nodes(self) -> int:
        """Nodes of the betting tree, terminals included."""
        return int(self.actor.shape[0])

    def children(self, node: int) -> list[tuple[str, int]]:
        """``(label, child)`` of each action at ``node`` (empty at a terminal node)."""
        start = int(self.first[node])
        return [(self.labels[c], c) for c in range(start, start + int(self.num_children[node]))]

    def child(self, node: int, label: str) -> int:
        """The node after action ``label`` at ``node``; raises :class:`ConfigError` naming the actions there."""
        for name, c in self.children(node):
            if name == label:
                return c
        allowed = [name for name, _ in self.children(node)]
        raise ConfigError("action", label, f"is not in the blueprint at node {node}: allowed {allowed}")

    def node_of(self, labels: Sequence[str]) -> int:
        """The node reached from the root by ``labels``."""
        node = self.root
        for label in labels:
            node = self.child(node, label)
        return node

    def probabilities(self, node: int, bucket: int) -> np.ndarray:
        """The blueprint's probabilities over the children of decision ``node`` for ``bucket``."""
        if not 0 <= node < self.num_nodes or self.actor[node] < 0:
            raise ConfigError("node", node, f"must be a decision node of the blueprint (0..{self.num_nodes - 1})")
        k = int(self.num_children[node])
        n_buckets = self.abstraction.num_buckets[int(self.street[node])]
        if not 0 <= bucket < n_buckets:
            raise ConfigError("bucket", bucket, f"must be in 0..{n_buckets - 1} on this street")
        start = int(self.cell[node]) + bucket * k
        q = self._q[start : start + k]
        total = q.sum()
        return q / total if total > 0 else np.full(k, 1.0 / k)

    def action_probabilities(self, node: int, hole: Sequence[int], board: Sequence[int]) -> dict[str, float]:
        """``{label: probability}`` at ``node`` for ``hole`` on ``board`` (its bucket on the node's street)."""
        need = (0, 3, 4, 5)[int(self.street[node])] if 0 <= node < self.num_nodes else -1
        if len(board) != need:
            raise ConfigError("board", tuple(board), f"must have {need} cards at node {node}")
        p = self.probabilities(node, self.abstraction.bucket(hole, board))
        return {label: float(x) for (label, _), x in zip(self.children(node), p, strict=True)}

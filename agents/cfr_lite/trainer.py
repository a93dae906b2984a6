"""External-sampling Monte Carlo CFR for the abstract hold'em game, with numpy tables.

One iteration deals one hand (a deck order from the seeded generator, the button moving
round the table) and, for every seat in turn, walks the tree: every abstract action of the
traversing seat is explored (on a copy of the engine state), every other seat's action
and the cards are sampled. Regrets and average-strategy sums live in growable
``[infosets, actions]`` float64 arrays, rows found through a key -> row dict.

Why not :mod:`training.cfr`'s interface: that core is written for two-player zero-sum games
over immutable states with enumerable chance outcomes; here a chance outcome is a whole deck
order (52! of them), the engine state is mutable (copied only where the traverser branches),
and 3–6 player tables must train too. The small pure helpers are shared
(:func:`training.cfr.cfr.normalise_average`).

Averaging: ``"linear"`` weights iteration ``t``'s strategy by ``t`` (linear CFR averaging);
``"uniform"`` weights every iteration equally. Utilities are in big blinds.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.config import TableConfig
from holdem_env.errors import ConfigError

from .actions import ActionAbstraction, AbstractMove
from .buckets import CardAbstraction
from .game import AbstractHoldem, Node
from .policy import CfrLitePolicy, atomic_write_bytes

__all__ = ["InfosetTable", "TrainStats", "CfrLiteTrainer"]


class InfosetTable:
    """Regret and strategy-sum rows per information-set key, in growable numpy arrays."""

    def __init__(self, num_actions: int, capacity: int = 1024) -> None:
        self.num_actions = num_actions
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self.regret = np.zeros((capacity, num_actions))
        self.strategy_sum = np.zeros((capacity, num_actions))
        self.legal = np.zeros((capacity, num_actions), dtype=bool)

    def __len__(self) -> int:
        return len(self.keys)

    def row(self, key: str, moves: list[AbstractMove]) -> int:
        """Row of ``key``, created (with its legal mask from ``moves``) on first sight."""
        r = self.index.get(key)
        if r is not None:
            return r
        r = len(self.keys)
        if r == len(self.regret):
            grow = len(self.regret)
            self.regret = np.concatenate([self.regret, np.zeros((grow, self.num_actions))])
            self.strategy_sum = np.concatenate([self.strategy_sum, np.zeros((grow, self.num_actions))])
            self.legal = np.concatenate([self.legal, np.zeros((grow, self.num_actions), dtype=bool)])
        self.index[key] = r
        self.keys.append(key)
        for m in moves:
            self.legal[r, m.index] = True
        return r

    def arrays(self) -> dict[str, np.ndarray]:
        """The used part of the tables (for checkpoints)."""
        n = len(self.keys)
        keys = np.array([k.encode("ascii") for k in self.keys], dtype=bytes) if n else np.zeros(0, dtype="S1")
        return {"keys": keys, "regret": self.regret[:n], "strategy_sum": self.strategy_sum[:n], "legal": self.legal[:n]}

    @classmethod
    def from_arrays(cls, num_actions: int, data: dict[str, np.ndarray]) -> "InfosetTable":
        """Inverse of :meth:`arrays`."""
        n = len(data["keys"])
        t = cls(num_actions, capacity=max(1024, 2 * n))
        t.keys = [k.decode("ascii") for k in data["keys"].tolist()]
        t.index = {k: i for i, k in enumerate(t.keys)}
        t.regret[:n] = data["regret"]
        t.strategy_sum[:n] = data["strategy_sum"]
        t.legal[:n] = data["legal"]
        return t


@dataclass(frozen=True)
class TrainStats:
    """What one :meth:`CfrLiteTrainer.train` call did, for logging."""

    iterations: int
    total_iterations: int
    seconds: float
    infosets: int
    avg_positive_regret: float
    strategy_entropy: float

    @property
    def iterations_per_second(self) -> float:
        """Training speed of this call."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class CfrLiteTrainer:
    """Self-play MCCFR trainer for one table and abstraction.

    >>> from holdem_env.config import TableConfig
    >>> CfrLiteTrainer(TableConfig(num_players=2), averaging="mean")
    Traceback (most recent call last):
    ...
    holdem_env.errors.ConfigError: averaging='mean' is invalid: must be 'linear' or 'uniform'
    """

    def __init__(
        self,
        table: TableConfig,
        actions: ActionAbstraction | None = None,
        cards: CardAbstraction | None = None,
        *,
        averaging: str = "linear",
    ) -> None:
        if averaging not in ("linear", "uniform"):
            raise ConfigError("averaging", averaging, "must be 'linear' or 'uniform'")
        self.game = AbstractHoldem(table, actions or ActionAbstraction(), cards or CardAbstraction())
        self.averaging = averaging
        self.table = InfosetTable(self.game.actions.num_actions)
        self.iterations = 0
        self._bb = float(table.big_blind)

    # -- training ----------------------------------------------------------------------
    def train(self, iterations: int, rng: np.random.Generator) -> TrainStats:
        """Run ``iterations`` MCCFR iterations drawing all chance from ``rng``."""
        if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 0:
            raise ConfigError("iterations", iterations, "must be a non-negative integer")
        if not isinstance(rng, np.random.Generator):
            raise ConfigError("rng", type(rng).__name__, "must be a numpy.random.Generator")
        self.game.cards.thresholds()  # computed (or loaded) before the clock starts
        n = self.game.table.num_players
        start = time.perf_counter()
        for _ in range(iterations):
            self.iterations += 1
            button = self.iterations % n
            root = self.game.new_hand(rng, button)
            for traverser in range(n):
                self._traverse(root.copy(), traverser, rng)
        return TrainStats(
            iterations=iterations,
            total_iterations=self.iterations,
            seconds=time.perf_counter() - start,
            infosets=len(self.table),
            avg_positive_regret=self.average_positive_regret(),
            strategy_entropy=self.strategy_entropy(),
        )

    def _sigma(self, row: int) -> np.ndarray:
        reg = self.table.regret[row]
        legal = self.table.legal[row]
        pos = np.where(legal, np.maximum(reg, 0.0), 0.0)
        total = pos.sum()
        if total > 0.0:
            return pos / total
        return legal / legal.sum()

    def _traverse(self, node: Node, traverser: int, rng: np.random.Generator) -> float:
        game = self.game
        st = node.state
        while not st.is_over:  # type: ignore[attr-defined]
            seat = int(st.actor)  # type: ignore[attr-defined]
            moves = game.moves(node)
            key = game.key(node, seat)
            row = self.table.row(key, moves)
            sigma = self._sigma(row)
            if seat == traverser:
                idx = [m.index for m in moves]
                probs = sigma[idx]
                probs = probs / probs.sum()
                values = np.zeros(len(moves))
                for i, m in enumerate(moves):
                    child = node.copy()
                    game.play(child, m)
                    values[i] = self._traverse(child, traverser, rng)
                v = float(probs @ values)
                self.table.regret[row, idx] += values - v
                return v
            weight = float(self.iterations) if self.averaging == "linear" else 1.0
            self.table.strategy_sum[row] += weight * sigma
            probs = sigma[[m.index for m in moves]]
            choice = int(rng.choice(len(moves), p=probs / probs.sum()))
            game.play(node, moves[choice])
        return float(st.payoffs[traverser]) / self._bb  # type: ignore[attr-defined]

    # -- diagnostics -------------------------------------------------------------------
    def average_positive_regret(self) -> float:
        """Mean over information sets of the largest positive cumulative regret / iterations
        (an exploitability proxy: it tends to 0 as the average strategy converges)."""
        n = len(self.table)
        if n == 0 or self.iterations == 0:
            return 0.0
        reg = np.where(self.table.legal[:n], self.table.regret[:n], 0.0)
        return float(np.maximum(reg, 0.0).max(axis=1).mean() / self.iterations)

    def average_strategy(self) -> np.ndarray:
        """``[infosets, actions]`` average strategy (uniform over legal actions where unvisited)."""
        from training.cfr.cfr import normalise_average

        n = len(self.table)
        if n == 0:
            return np.zeros((0, self.game.actions.num_actions))
        return normalise_average(self.table.strategy_sum[:n], self.table.legal[:n])

    def strategy_entropy(self) -> float:
        """Mean entropy (nats) of the average strategy over information sets."""
        avg = self.average_strategy()
        if len(avg) == 0:
            return 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            ent = -np.where(avg > 0, avg * np.log(avg), 0.0).sum(axis=1)
        return float(ent.mean())

    # -- policy and checkpoints --------------------------------------------------------
    def policy(self, info: dict[str, Any] | None = None) -> CfrLitePolicy:
        """The average strategy as a :class:`CfrLitePolicy` (what the agent plays)."""
        g = self.game
        meta = {"iterations": self.iterations, "averaging": self.averaging, **(info or {})}
        return CfrLitePolicy(g.table, g.actions, g.cards, list(self.table.keys), self.average_strategy(), meta)

    def save_checkpoint(self, path: str | Path) -> None:
        """Write the tables and iteration count atomically (``.npz``)."""
        arrays = self.table.arrays()
        meta = json.dumps({"iterations": self.iterations, "averaging": self.averaging, "num_actions": self.table.num_actions})
        atomic_write_bytes(path, lambda fh: np.savez(fh, meta=np.array(meta), **arrays))

    def load_checkpoint(self, path: str | Path) -> None:
        """Restore what :meth:`save_checkpoint` wrote (the abstraction must be the same)."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta["num_actions"] != self.game.actions.num_actions:
                raise ConfigError("checkpoint", str(path), f"has {meta['num_actions']} actions; this abstraction has {self.game.actions.num_actions}")
            self.table = InfosetTable.from_arrays(meta["num_actions"], {k: data[k] for k in ("keys", "regret", "strategy_sum", "legal")})
        self.iterations = int(meta["iterations"])
        self.averaging = meta["averaging"]

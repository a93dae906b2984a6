"""External-sampling Monte Carlo CFR for the abstract hold'em game, with numpy tables.

One iteration deals one hand (a deck order from the seeded generator, the button moving
round the table) and, for every seat in turn, walks the tree: every abstract action of the
traversing seat is explored (on a copy of the engine state), every other seat's action
and the cards are sampled. Regrets and average-strategy sums live in growable
``[infosets, actions]`` float64 arrays, rows found through a key -> row dict.

Why not :class:`holdem_env.training.cfr.mccfr.ExternalSamplingMCCFR` (which also samples chance and
runs 3+ players): its ``apply`` returns a new state at every step, where this trainer
mutates one engine state and copies it only where the traverser branches; one deal (deck
and button) here is shared by every traverser of an iteration, there chance is sampled
inside each traversal; "linear" here weights only the average strategy by ``t`` (there the
regrets too); and the shipped policies need per-row visit counts (``min_visits``) and the
fixed action-index columns of :class:`InfosetTable`. The small pure helpers are shared
(:func:`holdem_env.training.cfr.cfr.normalise_average`).

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

from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError

from holdem_env.agents.cfr_lite.actions import ActionAbstraction, AbstractMove
from holdem_env.agents.cfr_lite.buckets import CardAbstraction
from holdem_env.agents.cfr_lite.game import AbstractHoldem, Node
from holdem_env.agents.cfr_lite.policy import CfrLitePolicy
from holdem_env.fileutil import atomic_write_bytes

__all__ = ["InfosetTable", "TrainStats", "CfrLiteTrainer", "merge_trainers", "train_parallel"]


class InfosetTable:
    """Regret and strategy-sum rows per information-set key, in growable numpy arrays."""

    def __init__(self, num_actions: int, capacity: int = 1024) -> None:
        self.num_actions = num_actions
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self.regret = np.zeros((capacity, num_actions))
        self.strategy_sum = np.zeros((capacity, num_actions))
        self.legal = np.zeros((capacity, num_actions), dtype=bool)
        self.visits = np.zeros(capacity, dtype=np.int64)

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
            self.visits = np.concatenate([self.visits, np.zeros(grow, dtype=np.int64)])
        self.index[key] = r
        self.keys.append(key)
        for m in moves:
            self.legal[r, m.index] = True
        return r

    def arrays(self) -> dict[str, np.ndarray]:
        """The used part of the tables (for checkpoints)."""
        n = len(self.keys)
        keys = np.array([k.encode("ascii") for k in self.keys], dtype=bytes) if n else np.zeros(0, dtype="S1")
        return {"keys": keys, "regret": self.regret[:n], "strategy_sum": self.strategy_sum[:n], "legal": self.legal[:n], "visits": self.visits[:n]}

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
        t.visits[:n] = data["visits"]
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

    >>> from holdem_env.engine.config import TableConfig
    >>> CfrLiteTrainer(TableConfig(num_players=2), averaging="mean")
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: averaging='mean' is invalid: must be 'linear' or 'uniform'
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
        return self._stats(iterations, time.perf_counter() - start)

    def _stats(self, iterations: int, seconds: float) -> TrainStats:
        """The :class:`TrainStats` of a call that ran ``iterations`` in ``seconds``."""
        return TrainStats(
            iterations=iterations,
            total_iterations=self.iterations,
            seconds=seconds,
            infosets=len(self.table),
            avg_positive_regret=self.average_positive_regret(),
            strategy_entropy=self.strategy_entropy(),
        )

    def _probs(self, row: int, idx: list[int]) -> np.ndarray:
        """Regret matching over the offered actions ``idx`` of information set ``row``."""
        pos = np.maximum(self.table.regret[row, idx], 0.0)
        total = pos.sum()
        if total > 0.0:
            return pos / total
        return np.full(len(idx), 1.0 / len(idx))

    def _traverse(self, node: Node, traverser: int, rng: np.random.Generator) -> float:
        game = self.game
        st = node.state
        while not st.is_over:  # type: ignore[attr-defined]
            seat = int(st.actor)  # type: ignore[attr-defined]
            moves = game.moves(node)
            key = game.key(node, seat)
            row = self.table.row(key, moves)
            idx = [m.index for m in moves]
            probs = self._probs(row, idx)
            if seat == traverser:
                values = np.zeros(len(moves))
                for i, m in enumerate(moves):
                    child = node.copy()
                    game.play(child, m)
                    values[i] = self._traverse(child, traverser, rng)
                v = float(probs @ values)
                self.table.regret[row, idx] += values - v
                return v
            weight = float(self.iterations) if self.averaging == "linear" else 1.0
            self.table.strategy_sum[row, idx] += weight * probs
            self.table.visits[row] += 1
            u = rng.random()
            choice = len(moves) - 1
            acc = 0.0
            for i, p in enumerate(probs.tolist()):
                acc += p
                if u < acc:
                    choice = i
                    break
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
        from holdem_env.training.cfr.cfr import normalise_average

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
    def policy(self, info: dict[str, Any] | None = None, *, min_visits: int = 0) -> CfrLitePolicy:
        """The average strategy as a :class:`CfrLitePolicy` (what the agent plays).

        ``min_visits`` > 0 leaves out information sets whose average strategy was updated
        fewer times than that (their strategy is mostly noise; the agent's fallback plays
        them), which keeps shipped files small.
        """
        g = self.game
        meta = {"iterations": self.iterations, "averaging": self.averaging, "min_visits": min_visits, **(info or {})}
        avg = self.average_strategy()
        keys = list(self.table.keys)
        if min_visits > 0:
            keep = np.flatnonzero(self.table.visits[: len(keys)] >= min_visits)
            keys = [keys[i] for i in keep]
            avg = avg[keep]
        return CfrLitePolicy(g.table, g.actions, g.cards, keys, avg, meta)

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
            self.table = InfosetTable.from_arrays(meta["num_actions"], {k: data[k] for k in ("keys", "regret", "strategy_sum", "legal", "visits")})
        self.iterations = int(meta["iterations"])
        self.averaging = meta["averaging"]


def _train_copy(job: tuple["CfrLiteTrainer", int, np.random.SeedSequence]) -> "CfrLiteTrainer":
    import copy

    trainer, iterations, seed = job
    trainer = copy.deepcopy(trainer)  # in-process maps must not share the base tables
    trainer.train(iterations, np.random.default_rng(seed))
    return trainer


def merge_trainers(base: "CfrLiteTrainer", copies: list["CfrLiteTrainer"]) -> "CfrLiteTrainer":
    """Fold copies of ``base`` that each trained on their own into ``base`` (in list order).

    Every copy's regret, strategy-sum and visit increments are added to ``base``; rows new
    in a copy are appended in the copy's order. Iterations add up.
    """
    n0 = len(base.table)
    reg0 = base.table.regret[:n0].copy()
    ss0 = base.table.strategy_sum[:n0].copy()
    vis0 = base.table.visits[:n0].copy()
    iters0 = base.iterations
    added = 0
    for c in copies:
        t = c.table
        if t.keys[:n0] != base.table.keys[:n0]:
            raise ConfigError("copies", "trainer", "every copy must start from the base trainer's tables")
        base.table.regret[:n0] += t.regret[:n0] - reg0
        base.table.strategy_sum[:n0] += t.strategy_sum[:n0] - ss0
        base.table.visits[:n0] += t.visits[:n0] - vis0
        for r in range(n0, len(t)):
            row = base.table.row(t.keys[r], [])
            base.table.legal[row] |= t.legal[r]
            base.table.regret[row] += t.regret[r]
            base.table.strategy_sum[row] += t.strategy_sum[r]
            base.table.visits[row] += t.visits[r]
        added += c.iterations - iters0
    base.iterations = iters0 + added
    return base


def train_parallel(
    trainer: "CfrLiteTrainer",
    iterations: int,
    seed: np.random.SeedSequence,
    workers: int,
    map_fn: Any = map,
    sync_every: int = 2000,
) -> TrainStats:
    """Train with ``workers`` copies in parallel, merging every ``sync_every`` iterations per copy.

    ``map_fn(fn, jobs)`` runs the copies (a backend's ``map``; the builtin ``map`` runs them
    here). The result depends on ``seed``, ``iterations``, ``workers`` and ``sync_every``,
    never on scheduling. With one worker this is plain :meth:`CfrLiteTrainer.train`.
    """
    start = time.perf_counter()
    if workers <= 1:
        stats = trainer.train(iterations, np.random.default_rng(seed))
        return stats
    trainer.game.cards.thresholds()
    done, sync = 0, 0
    while done < iterations:
        per = min(sync_every, -(-(iterations - done) // workers))
        counts = [min(per, max(0, iterations - done - w * per)) for w in range(workers)]
        counts = [c for c in counts if c > 0]
        children = np.random.SeedSequence(seed.entropy, spawn_key=tuple(seed.spawn_key) + (sync,)).spawn(len(counts))
        copies = list(map_fn(_train_copy, [(trainer, c, s) for c, s in zip(counts, children)]))
        merge_trainers(trainer, copies)
        done += sum(counts)
        sync += 1
    return trainer._stats(iterations, time.perf_counter() - start)

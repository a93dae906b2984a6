"""Self-play MCCFR for cfr-lite: the project's one external-sampling traversal on the abstract game.

:class:`CfrLiteTrainer` runs :class:`holdem_env.training.cfr.mccfr.ExternalSamplingMCCFR` (the
solver checked against Kuhn's and Leduc's known exploitability) on
:class:`~holdem_env.training.cfr_lite.sampled_game.SampledHoldem`. One iteration deals one hand
(a deck order from the seeded generator, the button moving round the table) and, for
every seat in turn, walks the tree: every abstract action of the traversing seat is
explored (on a copy of the engine state), every other seat's action is sampled. Regrets,
strategy sums and visit counts live in the solver's
:class:`~holdem_env.training.cfr.tables.InfosetTable`; :func:`train_parallel` trains copies
in worker processes and merges their increments.

Averaging: ``"linear"`` weights iteration ``t``'s strategy by ``t`` and every regret by 1
(the solver's ``"linear-average"``); ``"uniform"`` weights everything equally. Utilities
are in big blinds.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.agents.cfr_lite.actions import ActionAbstraction
from holdem_env.agents.cfr_lite.buckets import CardAbstraction
from holdem_env.agents.cfr_lite.game import AbstractHoldem
from holdem_env.agents.cfr_lite.policy import CfrLitePolicy
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_int
from holdem_env.fileutil import atomic_write_bytes
from holdem_env.training.cfr.mccfr import ExternalSamplingMCCFR
from holdem_env.training.cfr.tables import InfosetTable
from holdem_env.training.cfr_lite.sampled_game import SampledHoldem

__all__ = ["AVERAGING", "TrainStats", "CfrLiteTrainer", "merge_trainers", "train_parallel"]

#: cfr-lite's averaging names and the solver's averaging each one runs.
AVERAGING = {"linear": "linear-average", "uniform": "uniform"}


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
        if averaging not in AVERAGING:
            raise ConfigError("averaging", averaging, "must be 'linear' or 'uniform'")
        self.game = AbstractHoldem(table, actions or ActionAbstraction(), cards or CardAbstraction())
        self.averaging = averaging
        self.solver = ExternalSamplingMCCFR(SampledHoldem(self.game), averaging=AVERAGING[averaging])

    @property
    def table(self) -> InfosetTable:
        """The solver's regret, strategy-sum and visit tables."""
        return self.solver.table

    @property
    def iterations(self) -> int:
        """Iterations run so far (including those merged from parallel copies)."""
        return self.solver.iteration

    # -- training ----------------------------------------------------------------------
    def train(self, iterations: int, rng: np.random.Generator) -> TrainStats:
        """Run ``iterations`` MCCFR iterations drawing all chance from ``rng``."""
        iterations = check_int("iterations", iterations, 0, allowed="must be a non-negative integer")
        if not isinstance(rng, np.random.Generator):
            raise ConfigError("rng", type(rng).__name__, "must be a numpy.random.Generator")
        self.game.cards.thresholds()  # computed (or loaded) before the clock starts
        start = time.perf_counter()
        self.solver.run(iterations, rng)
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
        return self.table.average_policy()

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
        meta = json.dumps(
            {"iterations": self.iterations, "averaging": self.averaging, "num_actions": self.table.num_actions}
        )
        # Typed Any: numpy's stub types savez's **kwds against its own allow_pickle flag (bool).
        arrays: dict[str, Any] = {"meta": np.array(meta), **self.table.arrays()}
        atomic_write_bytes(path, lambda fh: np.savez(fh, **arrays))

    def load_checkpoint(self, path: str | Path) -> None:
        """Restore what :meth:`save_checkpoint` wrote (the abstraction must be the same)."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            actions = self.game.actions.num_actions
            if meta["num_actions"] != actions:
                why = f"has {meta['num_actions']} actions; this abstraction has {actions}"
                raise ConfigError("checkpoint", str(path), why)
            if meta["averaging"] not in AVERAGING:
                why = f"has averaging {meta['averaging']!r}; expected 'linear' or 'uniform'"
                raise ConfigError("checkpoint", str(path), why)
            table = InfosetTable.from_arrays(actions, {k: data[k] for k in data.files if k != "meta"})
        self.averaging = meta["averaging"]
        self.solver = ExternalSamplingMCCFR(self.solver.game, averaging=AVERAGING[self.averaging])
        self.solver.table = table
        self.solver.iteration = int(meta["iterations"])


def _train_copy(job: tuple[CfrLiteTrainer, int, np.random.SeedSequence]) -> CfrLiteTrainer:
    import copy

    trainer, iterations, seed = job
    trainer = copy.deepcopy(trainer)  # in-process maps must not share the base tables
    trainer.train(iterations, np.random.default_rng(seed))
    return trainer


def merge_trainers(base: CfrLiteTrainer, copies: list[CfrLiteTrainer]) -> CfrLiteTrainer:
    """Fold copies of ``base`` that each trained on their own into ``base`` (in list order).

    Every copy's regret, strategy-sum and visit increments are added to ``base``; rows new
    in a copy are appended in the copy's order. Iterations add up.
    """
    since = base.table.snapshot()
    iters0 = base.iterations
    added = 0
    for c in copies:
        if c.table.keys[: len(since)] != since.keys:
            raise ConfigError("copies", "trainer", "every copy must start from the base trainer's tables")
        base.table.add_increments(since, c.table)
        added += c.iterations - iters0
    base.solver.iteration = iters0 + added
    return base


def train_parallel(
    trainer: CfrLiteTrainer,
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
        copies = list(map_fn(_train_copy, [(trainer, c, s) for c, s in zip(counts, children, strict=True)]))
        merge_trainers(trainer, copies)
        done += sum(counts)
        sync += 1
    return trainer._stats(iterations, time.perf_counter() - start)

"""Where a round's rollouts come from: the tables in this process, or in rollout workers (local processes or Ray actors; optionally sampling ahead)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from holdem_env.agents.ppo import PpoPolicy
from holdem_env.engine.config import TableConfig
from holdem_env.env.vector import HoldemVectorEnv

from ..backends import LocalActors, LocalBackend
from ..pool import OpponentPool
from ..torch_settings import torch_settings
from .algorithm import Rollout, collect_rollout
from .config import PpoSettings

if TYPE_CHECKING:
    from .learner import PpoLearner

__all__ = ["PIN_ENV", "LocalRollouts", "RolloutSampler", "RolloutWorkers", "rollouts"]

#: Set to ``1`` to pin each local rollout worker process to its own CPU (see :class:`RolloutWorkers`).
PIN_ENV = "HOLDEM_PIN_WORKERS"


class LocalRollouts:
    """One round's tables in this process (``num_workers: 1``); draws from the round's generator."""

    def __init__(self, learner: PpoLearner, rng: np.random.Generator) -> None:
        self.learner, self.rng = learner, rng
        learner.pool.reset_agents()
        self.venv = learner._env()
        self.encoder = PpoPolicy(learner.policy_config, learner.model)  # shares the live network
        self.obs, _ = self.venv.reset(seed=int(rng.integers(2**31)))
        #: CPU seconds this process spent in :meth:`collect` (one entry, as :attr:`RolloutWorkers.cpu_seconds`).
        self.cpu_seconds = np.zeros(1)

    def collect(self) -> Rollout:
        """The next ``num_steps`` decisions at every table."""
        s = self.learner.settings
        t0 = time.process_time()
        ro, self.obs = collect_rollout(self.learner.model, self.encoder, self.venv, self.obs, s.num_steps,
                                       self.rng, s.reward_scale)
        self.cpu_seconds[0] += time.process_time() - t0
        return ro

    def close(self) -> None:
        """Close the round's tables."""
        self.venv.close()


class _RecordingPool:
    """An opponent source that passes everything to a pool and keeps the records it was given."""

    def __init__(self, pool: OpponentPool) -> None:
        self.pool = pool
        self.records: list[tuple[int, float]] = []

    def sample(self, table: int, rng: np.random.Generator) -> int:
        return self.pool.sample(table, rng)

    def agent(self, member: int, table: int, seat: int) -> Any:
        return self.pool.agent(member, table, seat)

    def record(self, member: int, payoff: float) -> None:
        self.records.append((member, payoff))
        self.pool.record(member, payoff)

    def record_many(self, member: int, payoffs: Any) -> None:
        values = np.asarray(payoffs, dtype=np.float64)
        self.records.extend((member, p) for p in values.tolist())
        self.pool.record_many(member, values)

    def batched_bot(self) -> Any:
        return self.pool.batched_bot()


class RolloutSampler:
    """One rollout worker (a local process or a Ray actor): its share of the tables, a copy of
    the network and of the pool.

    ``setup``: the learner's settings (``to_dict``), table (``to_dict``), seed, name, extra
    opponents, this worker's number of tables and its shard number. :meth:`start_round` seeds
    the round's tables by (seed, round, 1 + shard); :meth:`collect` loads the learner's network
    and pool (dealing the round's tables at its first call), plays ``num_steps`` decisions and
    returns ``(rollout, records, cpu_seconds)``: ``records`` are the hands it finished (for the
    learner's pool), ``cpu_seconds`` the CPU time this process spent on the call. Torch
    computes with one thread and deterministic algorithms during each call, as the learner
    does in its rounds.
    """

    def __init__(self, setup: dict[str, Any]) -> None:
        # late import: the learner module imports this one (a worker holds a learner of its own)
        from .learner import PpoLearner

        table = setup["table"]
        if isinstance(table, dict):
            table = TableConfig.from_dict(table)
        self.tables, self.shard = int(setup["tables"]), int(setup["shard"])
        with torch_settings(threads=1, deterministic=True):
            self.settings = PpoSettings.from_dict(
                {**setup["settings"], "num_envs": self.tables, "num_workers": 1, "overlap": False}
            )
            self.learner = PpoLearner(self.settings, table, setup["seed"], name=setup["name"],
                                      extra_opponents=[tuple(x) for x in setup["extra_opponents"]])
        self.source = _RecordingPool(self.learner.pool)
        self.encoder = PpoPolicy(self.learner.policy_config, self.learner.model)
        self.venv: HoldemVectorEnv | None = None
        self.obs: dict[str, np.ndarray] = {}
        self.rng = np.random.default_rng(0)

    def start_round(self, round_no: int) -> None:
        """Fresh tables (dealt at the next :meth:`collect`) seeded for round ``round_no``."""
        if self.venv is not None:
            self.venv.close()
            self.venv = None
        self.rng = np.random.default_rng(np.random.SeedSequence(self.learner.seed, spawn_key=(round_no, 1 + self.shard)))

    def collect(
        self, weights: dict[str, np.ndarray], results: list[list[int]], snapshots: list[dict[str, Any]] | None
    ) -> tuple[Rollout, list[tuple[int, float]], float]:
        """The learner's network ``weights``, its pool's ``results`` and (when they changed since
        the last call, else ``None``) its ``snapshots``; then ``num_steps`` decisions at every table."""
        t0 = time.process_time()
        with torch_settings(threads=1, deterministic=True):
            learner = self.learner
            learner.model.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()})
            if snapshots is not None:
                learner.pool.load_snapshots(snapshots)
            learner.pool.load_results(results)
            self.source.records = []
            if self.venv is None:  # the round's tables start from the learner's network and pool, not this copy's last ones
                learner.pool.reset_agents()
                self.venv = learner._env(self.tables, self.source)
                self.obs, _ = self.venv.reset(seed=int(self.rng.integers(2**31)))
            s = self.settings
            ro, self.obs = collect_rollout(learner.model, self.encoder, self.venv, self.obs, s.num_steps, self.rng,
                                           s.reward_scale)
        return ro, self.source.records, time.process_time() - t0

    def close(self) -> None:
        """Close the tables."""
        if self.venv is not None:
            self.venv.close()
            self.venv = None


class RolloutWorkers:
    """``num_workers`` rollout workers (:class:`RolloutSampler`), each stepping its share of the
    tables with a copy of the network: local processes, or the actors of ``backend`` (a Ray
    backend from :mod:`holdem_env.training.backends` puts them on its cluster).

    Every iteration the learner sends its network and its pool (rolling results; snapshots only
    when they changed), each worker plays ``num_steps`` decisions at its tables, and the learner
    joins the rollouts (tables in worker order) and records the hands in the same order, so a
    run is the same for a seed and a number of workers, wherever the workers run (not the same
    as with one worker: the tables are seeded per worker). The workers live until :meth:`close`
    (the learner's ``close``). :attr:`cpu_seconds` adds up the CPU time each worker spent sampling.

    ``pin`` (local processes only; default: the environment variable ``HOLDEM_PIN_WORKERS`` is
    ``1``): each worker process stays on its own CPU (:class:`~holdem_env.training.backends.LocalActors`),
    for a machine with a free core per worker; it changes no result.
    """

    def __init__(self, learner: PpoLearner, backend: Any = None, pin: bool | None = None) -> None:
        self.learner = learner
        s = learner.settings
        shares = np.array_split(np.arange(s.num_envs), s.num_workers)
        setups = [
            {
                "settings": s.to_dict(), "table": learner.table.to_dict(), "seed": learner.seed, "name": learner.name,
                "extra_opponents": [list(x) for x in learner.extra_opponents], "tables": len(share), "shard": k,
            }
            for k, share in enumerate(shares)
        ]
        start = getattr(backend, "actors", None)
        name = "ppo rollout worker"
        if pin is None:
            pin = os.environ.get(PIN_ENV, "").strip() == "1"
        if callable(start) and not isinstance(backend, LocalBackend):
            self._actors: Any = start(RolloutSampler, setups, name)
        else:  # what LocalBackend.actors starts, here with ``pin``
            self._actors = LocalActors(RolloutSampler, setups, name, pin=pin)
        self._sent: tuple[str, ...] | None = None  # the snapshot names the workers hold
        #: CPU seconds each worker spent in its collect calls so far.
        self.cpu_seconds = np.zeros(len(setups))

    def start_round(self, round_no: int) -> None:
        """Fresh tables for round ``round_no`` in every worker (a rollout still on its way,
        asked for by an interrupted round, is received and dropped first)."""
        if self._actors.pending:
            self._actors.gather()
        self._actors.submit("start_round", [(round_no,)] * len(self._actors))
        self._actors.gather()

    def _message(self) -> tuple[dict[str, np.ndarray], list[list[int]], list[dict[str, Any]] | None]:
        """What a collect call carries: the network, the pool's results and (when they changed since
        the last call) its snapshots, as they are now."""
        # Copies as numpy arrays: a tensor would travel as a handle to shared memory, and the
        # update that runs meanwhile (``overlap``) would change what the workers read.
        weights = {k: v.detach().numpy().copy() for k, v in self.learner.model.state_dict().items()}
        pool = self.learner.pool
        names = pool.snapshot_names()
        snapshots = None if names == self._sent else pool.snapshots_state(as_numpy=True)
        self._sent = names
        return weights, pool.results_state(), snapshots

    def request(self) -> None:
        """Send the network and the pool as they are now; the workers start their next ``num_steps``
        decisions (:meth:`receive` gets them; the learner may update meanwhile)."""
        self._actors.submit("collect", [self._message()] * len(self._actors))

    def collect(self) -> Rollout:
        """Every worker's next ``num_steps`` decisions, joined; their hands recorded in the learner's pool."""
        self.request()
        return self.receive()

    def receive(self, ahead: bool = False) -> Rollout:
        """The rollouts :meth:`request` asked for, joined; their hands recorded in the learner's pool.

        ``ahead``: each worker is asked for its next rollout as soon as this one arrives, with the
        network and the pool as they are when this call starts (before this rollout's hands are
        recorded), so no worker waits for the others, for the join or for the caller's update: the
        next :meth:`receive` gets those rollouts."""
        try:
            then = ("collect", [self._message()] * len(self._actors)) if ahead else None
            answers = self._actors.gather(then)
        except BaseException:
            self._sent = None  # a worker may not have loaded the snapshots
            raise
        for k, (_, records, cpu) in enumerate(answers):
            self.cpu_seconds[k] += cpu
            for member, payoff in records:
                self.learner.pool.record(member, payoff)
        return Rollout.join([a[0] for a in answers])

    def close(self) -> None:
        """Stop the workers."""
        self._actors.close()


def rollouts(sampler: LocalRollouts | RolloutWorkers, iterations: int, overlap: bool) -> Iterator[Rollout]:
    """The round's ``iterations`` rollouts from ``sampler``, one per iteration, in order.

    With ``overlap`` (and worker processes) the workers sample the next rollout with the
    network as it is before this iteration's update, while the caller updates: a
    one-iteration policy lag, which the clipped objective allows for (its ratio is to the
    log-probabilities the actions were drawn with). Each worker is asked for its next rollout
    as soon as its last one arrives (``receive(ahead=True)``), so none waits for the others; the
    pool's results it gets are those from before the rollout just received (the same for every
    worker, whatever the order of arrival). A round's last iteration asks for nothing more, so
    rounds stay independent.
    """
    if not (overlap and isinstance(sampler, RolloutWorkers)):
        for _ in range(iterations):
            yield sampler.collect()
        return
    sampler.request()
    for it in range(iterations):
        yield sampler.receive(ahead=it + 1 < iterations)

"""Where a round's rollouts come from: the tables in this process, or in worker processes (optionally sampling ahead)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from holdem_env.agents.ppo import PpoPolicy
from holdem_env.engine.errors import HoldemError
from holdem_env.env.vector import HoldemVectorEnv

from ..pool import OpponentPool
from ..torch_settings import torch_settings
from .algorithm import Rollout, collect_rollout
from .config import PpoSettings

if TYPE_CHECKING:
    from .learner import PpoLearner

__all__ = ["LocalRollouts", "RolloutWorkers", "rollouts"]


class LocalRollouts:
    """One round's tables in this process (``num_workers: 1``); draws from the round's generator."""

    def __init__(self, learner: PpoLearner, rng: np.random.Generator) -> None:
        self.learner, self.rng = learner, rng
        learner.pool.reset_agents()
        self.venv = learner._env()
        self.encoder = PpoPolicy(learner.policy_config, learner.model)  # shares the live network
        self.obs, _ = self.venv.reset(seed=int(rng.integers(2**31)))

    def collect(self) -> Rollout:
        """The next ``num_steps`` decisions at every table."""
        s = self.learner.settings
        ro, self.obs = collect_rollout(self.learner.model, self.encoder, self.venv, self.obs, s.num_steps,
                                       self.rng, s.reward_scale)
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


def _rollout_worker(conn: Any, setup: dict[str, Any]) -> None:
    """A worker process's loop: its share of the tables, a copy of the network and of the pool.

    Messages: ``("round", r)`` starts round ``r`` (its tables seeded by (seed, r, 1 + shard));
    ``("collect", weights, pool_state)`` loads the learner's network and pool (then, at a
    round's first collect, deals the tables), plays, and answers ``("ok", rollout, records)``
    (``records``: the hands it finished, for the learner's pool); ``("close",)`` ends. Any
    error is answered ``("error", text)``.
    """
    import traceback

    # late import: the learner module imports this one (a worker holds a learner of its own)
    from .learner import PpoLearner

    try:
        with torch_settings(threads=1, deterministic=True):  # as the learner computes in its rounds
            settings = PpoSettings.from_dict(
                {**setup["settings"], "num_envs": setup["tables"], "num_workers": 1, "overlap": False}
            )
            learner = PpoLearner(settings, setup["table"], setup["seed"], name=setup["name"],
                                 extra_opponents=setup["extra_opponents"])
            source = _RecordingPool(learner.pool)
            encoder = PpoPolicy(learner.policy_config, learner.model)
            venv: HoldemVectorEnv | None = None
            obs: dict[str, np.ndarray] = {}
            rng = np.random.default_rng(0)
            while True:
                msg = conn.recv()
                if msg[0] == "close":
                    break
                if msg[0] == "round":
                    if venv is not None:
                        venv.close()
                        venv = None
                    rng = np.random.default_rng(np.random.SeedSequence(learner.seed, spawn_key=(msg[1], 1 + setup["shard"])))
                    conn.send(("ok",))
                    continue
                learner.model.load_state_dict({k: torch.from_numpy(v) for k, v in msg[1].items()})
                learner.pool.load_state_dict(msg[2])
                source.records = []
                if venv is None:  # the round's tables start from the learner's network and pool, not this copy's last ones
                    venv = learner._env(setup["tables"], source)
                    obs, _ = venv.reset(seed=int(rng.integers(2**31)))
                ro, obs = collect_rollout(learner.model, encoder, venv, obs, settings.num_steps, rng, settings.reward_scale)
                conn.send(("ok", ro, source.records))
    except (EOFError, KeyboardInterrupt):
        return
    except BaseException:  # everything goes back to the learner, which raises it
        conn.send(("error", traceback.format_exc()))


class RolloutWorkers:
    """``num_workers`` processes, each stepping its share of the tables with a copy of the network.

    Every iteration the learner sends its network and its pool (snapshots and rolling
    results), each worker plays ``num_steps`` decisions at its tables, and the learner joins
    the rollouts (tables in worker order) and records the hands in the same order, so a run is
    the same for a seed and a number of workers (not the same as with one worker: the tables
    are seeded per worker). The processes live until :meth:`close` (the learner's ``close``).
    """

    def __init__(self, learner: PpoLearner) -> None:
        import multiprocessing as mp

        self.learner = learner
        s = learner.settings
        ctx = mp.get_context("spawn")
        shares = np.array_split(np.arange(s.num_envs), s.num_workers)
        self._conns: list[Any] = []
        self._procs: list[Any] = []
        self._pending = False  # a request whose answers have not been received
        for k, share in enumerate(shares):
            setup = {
                "settings": s.to_dict(),
                "table": learner.table, "seed": learner.seed, "name": learner.name,
                "extra_opponents": learner.extra_opponents, "tables": len(share), "shard": k,
            }
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_rollout_worker, args=(child, setup), daemon=True, name=f"ppo-rollout-{k}")
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)

    def _gather(self) -> list[tuple[Any, ...]]:
        answers = []
        for k, conn in enumerate(self._conns):
            try:
                answer = conn.recv()
            except (EOFError, OSError):
                self._procs[k].join(timeout=5)
                raise HoldemError(
                    f"ppo rollout worker {k} died (exit code {self._procs[k].exitcode}); with num_workers > 1 a "
                    "script that trains must guard its entry point with `if __name__ == \"__main__\":`"
                ) from None
            if answer[0] == "error":
                raise HoldemError(f"ppo rollout worker {k} failed:\n{answer[1]}")
            answers.append(answer)
        return answers

    def start_round(self, round_no: int) -> None:
        """Fresh tables for round ``round_no`` in every worker (a rollout still on its way,
        asked for by an interrupted round, is received and dropped first)."""
        if self._pending:
            self._pending = False
            self._gather()
        for conn in self._conns:
            conn.send(("round", round_no))
        self._gather()

    def request(self) -> None:
        """Send the network and the pool as they are now; the workers start their next ``num_steps``
        decisions (:meth:`receive` gets them; the learner may update meanwhile)."""
        # Copies as numpy arrays: a tensor would travel as a handle to shared memory, and the
        # update that runs meanwhile (``overlap``) would change what the workers read.
        weights = {k: v.detach().numpy().copy() for k, v in self.learner.model.state_dict().items()}
        pool_state = self.learner.pool.state_dict()
        for conn in self._conns:
            conn.send(("collect", weights, pool_state))
        self._pending = True

    def collect(self) -> Rollout:
        """Every worker's next ``num_steps`` decisions, joined; their hands recorded in the learner's pool."""
        self.request()
        return self.receive()

    def receive(self) -> Rollout:
        """The rollouts :meth:`request` asked for, joined; their hands recorded in the learner's pool."""
        self._pending = False
        answers = self._gather()
        for _, _, records in answers:
            for member, payoff in records:
                self.learner.pool.record(member, payoff)
        return Rollout.join([a[1] for a in answers])

    def close(self) -> None:
        """Stop the workers."""
        for conn in self._conns:
            try:
                conn.send(("close",))
            except (BrokenPipeError, OSError):
                pass
        for proc in self._procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []


def rollouts(sampler: LocalRollouts | RolloutWorkers, iterations: int, overlap: bool) -> Iterator[Rollout]:
    """The round's ``iterations`` rollouts from ``sampler``, one per iteration, in order.

    With ``overlap`` (and worker processes) the workers sample the next rollout with the
    network as it is before this iteration's update, while the caller updates: a
    one-iteration policy lag, which the clipped objective allows for (its ratio is to the
    log-probabilities the actions were drawn with). A round's last iteration asks for
    nothing more, so rounds stay independent.
    """
    if not (overlap and isinstance(sampler, RolloutWorkers)):
        for _ in range(iterations):
            yield sampler.collect()
        return
    sampler.request()
    for it in range(iterations):
        ro = sampler.receive()
        if it + 1 < iterations:
            sampler.request()
        yield ro

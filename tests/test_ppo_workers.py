"""The ppo learner's rollout workers: local actor processes, Ray actors, the pool copies they get."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.training.backends import LocalActors, LocalBackend
from holdem_env.training.pool import OpponentPool
from holdem_env.training.ppo import PpoLearner, PpoSettings, RolloutWorkers

TINY = {"num_envs": 5, "num_steps": 8, "hidden": (16,), "num_minibatches": 2, "update_epochs": 2}


def _weights(learner: PpoLearner) -> dict[str, torch.Tensor]:
    return {k: v.clone() for k, v in learner.model.state_dict().items()}


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


# -- actors -------------------------------------------------------------------------------------
def test_local_actors_keep_state_answer_in_order_and_report_errors() -> None:
    actors = LocalActors(__import__("actorkit").Counter, [{"start": 10}, {"start": 20}], name="counter")
    try:
        actors.submit("add", [(1,), (2,)])
        assert actors.pending
        (a, pid_a), (b, pid_b) = actors.gather()
        assert (a, b) == (11, 22) and len({pid_a, pid_b, os.getpid()}) == 3  # two processes of their own
        actors.submit("add", [(5,), (5,)])
        assert [t for t, _ in actors.gather()] == [16, 27]  # state kept between calls
        actors.submit("add", [(1,), (-1,)])
        with pytest.raises(HoldemError, match=r"counter 1 failed:(.|\n)*negative step -1"):
            actors.gather()
        actors.submit("add", [(0,), (0,)])
        assert [t for t, _ in actors.gather()] == [17, 27]  # the failed call changed nothing in actor 1
        with pytest.raises(HoldemError, match="1 argument tuples for 2 actors"):
            actors.submit("add", [(1,)])
    finally:
        actors.close()
    with pytest.raises(HoldemError, match=r"counter 0 failed:(.|\n)*refuses to start"):
        LocalActors(__import__("actorkit").Counter, [{"fail": True}], name="counter")


# -- the pool's copies --------------------------------------------------------------------------
def test_pool_results_and_snapshots_round_trip_and_a_mismatch_changes_nothing() -> None:
    from holdem_env.agents.ppo import PolicyConfig, PpoPolicy

    pool = OpponentPool(["random"], max_snapshots=2, window=3, uniform_share=0.0)
    torch.manual_seed(0)
    pool.add_snapshot("s1", PpoPolicy(PolicyConfig(num_players=2, hidden=(8,))))
    for p in (1.0, -0.5, 0.25, 2.0):
        pool.record(0, p)
    pool.record(1, -1.0)
    copy = OpponentPool(["random"], max_snapshots=2, window=3, uniform_share=0.0)
    copy.load_snapshots(pool.snapshots_state(as_numpy=True))
    copy.load_results(pool.results_state())
    assert copy.members == pool.members and copy.results() == pool.results() and copy.weights() == pool.weights()
    a = pool.snapshots_state()[0]["weights"]
    b = copy.snapshots_state()[0]["weights"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    rng1, rng2 = np.random.default_rng(4), np.random.default_rng(4)
    assert [pool.sample(0, rng1) for _ in range(50)] == [copy.sample(0, rng2) for _ in range(50)]
    before = copy.results()
    with pytest.raises(ConfigError, match="one result window per member"):
        copy.load_results([[1]])
    with pytest.raises(ConfigError, match="other fixed members"):
        copy.load_state_dict({"snapshots": [], "results": [[1], [2], [3]]})
    assert copy.results() == before and copy.members == pool.members


def test_workers_get_the_snapshots_once_and_sample_as_if_sent_every_time(monkeypatch) -> None:
    """The snapshots travel to the workers only when they change; a run is identical to one
    that sends them with every request (the workers' pools hold the same members)."""
    settings = PpoSettings(**TINY, opponents=("random",), snapshot_every=1, max_snapshots=2, num_workers=2,
                           pool_uniform_share=0.0, pool_temperature=50.0)
    table = TableConfig(num_players=2)
    sent: list[bool] = []
    real = OpponentPool.snapshots_state

    def spy(self, as_numpy=False):  # type: ignore[no-untyped-def]
        sent.append(as_numpy)
        return real(self, as_numpy)

    real_request = RolloutWorkers.request

    def resend(self):  # type: ignore[no-untyped-def]
        self._sent = None
        real_request(self)

    runs = []
    for always in (False, True):
        monkeypatch.setattr(OpponentPool, "snapshots_state", spy)
        if always:
            monkeypatch.setattr(RolloutWorkers, "request", resend)
        sent.clear()
        learner = PpoLearner(settings, table, seed=5)
        try:
            learner.train_round(4, 1)
        finally:
            learner.close()
        runs.append(learner)
        if not always:
            assert sent.count(True) == 4  # iteration 1: none yet (sent once, empty), then one per new snapshot
    assert runs[0].pool.members == runs[1].pool.members == ["random", "ppo@3", "ppo@4"]
    assert _same(_weights(runs[0]), _weights(runs[1]))
    assert runs[0].pool.results() == runs[1].pool.results()


def test_worker_cpu_time_is_counted() -> None:
    settings = PpoSettings(**TINY, opponents=("random",), snapshot_every=0, num_workers=2)
    learner = PpoLearner(settings, TableConfig(num_players=2), seed=1, backend=LocalBackend(1))
    try:
        learner.train_round(2, 1)
        assert learner._workers is not None
        cpu = learner._workers.cpu_seconds
        assert cpu.shape == (2,) and (cpu > 0).all()
    finally:
        learner.close()


# -- Ray ----------------------------------------------------------------------------------------
@pytest.mark.ray
@pytest.mark.parametrize("overlap", [False, True])
def test_rollout_workers_as_ray_actors_play_the_same_run_as_local_processes(overlap: bool) -> None:
    """The league's Ray backend (a local Ray instance here) runs the rollout workers as Ray
    actors; the run is the one local worker processes play, bit for bit (with ``overlap`` too,
    where each worker is asked for its next rollout as soon as its last arrives)."""
    ray = pytest.importorskip("ray")
    from holdem_env.training.backends import RayBackend

    settings = PpoSettings(**TINY, opponents=("random",), snapshot_every=1, max_snapshots=1, num_workers=2,
                           overlap=overlap)
    table = TableConfig(num_players=2)
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = PpoLearner(settings, table, seed=3, backend=RayBackend(2))
        try:
            on_ray.train_round(3 if overlap else 2, 1)
            assert type(on_ray._workers._actors).__name__ == "RayActors"  # type: ignore[union-attr]
        finally:
            on_ray.close()
    finally:
        if started_here:
            ray.shutdown()
    local = PpoLearner(settings, table, seed=3)
    try:
        local.train_round(3 if overlap else 2, 1)
    finally:
        local.close()
    assert _same(_weights(on_ray), _weights(local))
    assert on_ray.pool.results() == local.pool.results()

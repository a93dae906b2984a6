"""Rollout workers asked ahead: each worker gets its next call as soon as its answer arrives
(``gather(then=...)``, ``RolloutWorkers.receive(ahead=True)``), so none waits for the others; the
answers and the rollouts are those of the calls made one after the other."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import HoldemError
from holdem_env.training.backends import LocalActors
from holdem_env.training.ppo import PpoLearner, PpoSettings, RolloutWorkers

TINY = {"num_envs": 6, "num_steps": 8, "hidden": (16,), "num_minibatches": 2, "update_epochs": 2}


def test_gather_then_calls_each_actor_again_at_once_and_in_order() -> None:
    actors = LocalActors(__import__("actorkit").Counter, [{"start": 10}, {"start": 20}], name="counter")
    try:
        actors.submit("add", [(1,), (2,)])
        first = [t for t, _ in actors.gather(("add", [(100,), (200,)]))]
        assert first == [11, 22] and actors.pending  # the next calls are out already
        assert [t for t, _ in actors.gather()] == [111, 222] and not actors.pending
        actors.submit("add", [(1,), (-1,)])
        with pytest.raises(HoldemError, match="counter 1 failed"):
            actors.gather(("add", [(1,), (1,)]))  # actor 1 failed: it is still called again
        assert actors.pending
        assert [t for t, _ in actors.gather()] == [113, 223]
    finally:
        actors.close()


def _rollouts(ahead: bool, n: int) -> list:  # type: ignore[type-arg]
    settings = PpoSettings(**TINY, opponents=("random", "tag"), snapshot_every=0, num_workers=2, pool_uniform_share=1.0)
    learner = PpoLearner(settings, TableConfig(num_players=2), seed=4)
    workers = RolloutWorkers(learner)
    try:
        workers.start_round(1)
        if not ahead:
            return [workers.collect() for _ in range(n)]
        workers.request()
        return [workers.receive(ahead=k + 1 < n) for k in range(n)]
    finally:
        assert not workers._actors.pending
        records = learner.pool.results()
        workers.close()
        learner.close()
        assert any(v is not None for v in records.values())  # the hands reached the learner's pool


def test_sampling_ahead_gives_the_rollouts_of_one_call_after_the_other() -> None:
    # the network does not change between the calls and the pool's weights are uniform (its results
    # do not change the draws), so asking ahead must give the very same rollouts
    ahead, serial = _rollouts(True, 3), _rollouts(False, 3)
    for k, (a, b) in enumerate(zip(ahead, serial, strict=True)):
        for f in fields(a):
            assert np.array_equal(getattr(a, f.name), getattr(b, f.name)), (k, f.name)
    assert not np.array_equal(ahead[0].actions, ahead[1].actions)  # successive rollouts differ

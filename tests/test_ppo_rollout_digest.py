"""The PPO trainer's rollouts are the same arrays, bit for bit, as before the sampling was sped up (stored digests)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import torch

from holdem_env.engine.config import TableConfig
from holdem_env.training.ppo import PpoLearner, PpoSettings
from holdem_env.training.ppo.algorithm import Rollout
from holdem_env.training.ppo.workers import LocalRollouts, RolloutSampler

#: sha256 of the rollouts' arrays (``_digest``) of each case, computed at main ``967a68a`` (before issue 25's
#: h-speed3 changes to the sampling). A change of the sampling's speed must leave them as they are.
EXPECTED = {
    "hu-tag": "fad89636212668b7dd00286e04b96fcb61a1f94de42f54580567c23ba97464d8",
    "hu-pool": "180801da142d11484b47d62be166babbb841256b60fe00ac5aa1d92500f25c31",
    "6max-pool": "8a0cad5acf5ee1afe05f2aec345e8c046b591330e9727cc0db7c40a5dbf50a0d",
    "hu-pool-worker": "14a42c8579399f95dbf713444d83abc44d0970402bc70016f84d7c6a90d6dcdb",
}

CASES = {
    "hu-tag": (2, ("tag",), 1.0, 8, 12),
    "hu-pool": (2, ("random", "tag", "lag", "ppo"), 0.5, 16, 8),
    "6max-pool": (6, ("tag", "random", "calling-station", "ppo-6max"), 0.5, 6, 10),
}


def _digest(rollouts: list[Rollout]) -> str:
    h = hashlib.sha256()
    for ro in rollouts:
        for name in ("xs", "masks", "actions", "logprobs", "values", "rewards", "terminated", "next_value"):
            a = np.ascontiguousarray(getattr(ro, name))
            h.update(f"{name}{a.dtype.str}{a.shape}".encode())
            h.update(a.tobytes())
    return h.hexdigest()


def _settings(opponents: tuple[str, ...], share: float, tables: int, steps: int) -> PpoSettings:
    hidden = (128, 128) if opponents == ("tag",) else (32, 32)  # the trainer's default network, and a small one
    return PpoSettings(num_envs=tables, num_steps=steps, opponents=opponents, snapshot_every=0,
                       pool_uniform_share=share, hidden=hidden)


def _local(case: str) -> str:
    players, opponents, share, tables, steps = CASES[case]
    with torch.random.fork_rng(devices=[]):
        torch.set_num_threads(1)
        learner = PpoLearner(_settings(opponents, share, tables, steps), TableConfig(num_players=players), 5)
        sampler = LocalRollouts(learner, np.random.default_rng(11))
        try:
            return _digest([sampler.collect() for _ in range(3)])
        finally:
            sampler.close()


def _worker() -> str:
    """One rollout worker (what each process of ``num_workers`` > 1 runs), fed the learner's network and pool."""
    players, opponents, share, tables, steps = CASES["hu-pool"]
    settings = _settings(opponents, share, tables, steps)
    learner = PpoLearner(settings, TableConfig(num_players=players), 5)
    worker = RolloutSampler({
        "settings": settings.to_dict(), "table": TableConfig(num_players=players).to_dict(), "seed": 5, "name": "ppo",
        "extra_opponents": [], "tables": tables, "shard": 0,
    })
    weights = {k: v.detach().numpy().copy() for k, v in learner.model.state_dict().items()}
    worker.start_round(3)
    try:
        out = []
        for _ in range(3):
            ro, _records, _cpu = worker.collect(weights, learner.pool.results_state(), None)
            out.append(ro)
        return _digest(out)
    finally:
        worker.close()


@pytest.mark.parametrize("case", sorted(CASES))
def test_local_rollouts_are_unchanged(case: str) -> None:
    assert _local(case) == EXPECTED[case]


def test_worker_rollouts_are_unchanged() -> None:
    assert _worker() == EXPECTED["hu-pool-worker"]


if __name__ == "__main__":  # print the digests (to fill EXPECTED after a deliberate change of the results)
    for c in sorted(CASES):
        print(c, _local(c))
    print("hu-pool-worker", _worker())

"""Mixed pool members (``ppo.self_mix``): a spec at the odd seats and the live learner at the even ones, on both vector backends."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from holdem_env.agents.ppo import ActorCritic, PolicyConfig, PpoAgent, PpoPolicy
from holdem_env.agents.tag import TagAgent
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError
from holdem_env.env.vector import HoldemVectorEnv
from holdem_env.training.pool import OpponentPool
from holdem_env.training.population import SeatSplit, SelfMixPool
from holdem_env.training.ppo import PpoLearner, PpoSettings


class _Seen:
    """Wraps a batched bot and keeps the seats and the number of rows it was asked about."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.seats, self.calls = bot, [], 0
        self.uniforms_per_decision = bot.uniforms_per_decision

    def decide(self, views: Any, uniforms: np.ndarray) -> np.ndarray:
        self.calls += 1
        self.seats.extend(np.asarray(views.seat).tolist())
        assert uniforms.shape == (views.rows, self.uniforms_per_decision)
        return self.bot.decide(views, uniforms)

    def act_batch(self, observations: np.ndarray, masks: np.ndarray, rngs: Any = None) -> np.ndarray:
        return self.bot.act_batch(observations, masks, rngs)


def _pool(**kwargs: Any) -> tuple[SelfMixPool, ActorCritic]:
    cfg = PolicyConfig(num_players=6)
    torch.manual_seed(0)
    model = ActorCritic(cfg)
    return SelfMixPool(["calling-station"], mixed=["tag"], live=PpoPolicy(cfg, model), **kwargs), model


def test_a_mixed_member_seats_the_learner_at_even_seats_and_its_spec_at_odd_ones() -> None:
    pool, model = _pool()
    assert pool.members == ["calling-station", "tag+self"]
    for seat in range(6):
        a = pool.agent(1, 0, seat)
        if seat % 2 == 0:
            assert isinstance(a, PpoAgent) and a.policy.model is model  # the live network, not a copy
        else:
            assert isinstance(a, TagAgent)
        assert not isinstance(pool.agent(0, 0, seat), (PpoAgent, TagAgent))  # a plain member is its spec everywhere
    # the mixed member is a fixed member for results, weights and checkpoints
    pool.record(1, -0.5)
    assert pool.results()["tag+self"] == pytest.approx(-500.0)
    assert len(pool.weights()) == 2 and pool.state_dict()["results"][1] == [-500_000]


def test_on_the_batched_backend_each_seat_class_is_asked_only_for_its_seats() -> None:
    pool, _ = _pool(uniform_share=1.0)
    seen: dict[str, _Seen] = {}
    split_bots: list[SeatSplit] = []
    inner = pool.batched_bot

    def wrapped() -> Any:
        bot = inner()
        for b in bot.bots:
            if isinstance(b, SeatSplit):
                b.even, b.odd = seen.setdefault("even", _Seen(b.even)), seen.setdefault("odd", _Seen(b.odd))
                split_bots.append(b)
        return bot

    pool.batched_bot = wrapped  # type: ignore[method-assign]
    venv = HoldemVectorEnv(8, pool, num_players=6, action_mode="discrete")
    assert venv.backend == "batched" and split_bots
    obs, _ = venv.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(60):
        masks = obs["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, *_ = venv.step(actions)
    assert seen["even"].calls and seen["odd"].calls
    assert set(seen["even"].seats) <= {0, 2, 4} and set(seen["odd"].seats) <= {1, 3, 5}
    assert len(set(seen["even"].seats)) == 3 and len(set(seen["odd"].seats)) == 3


def test_the_learner_with_self_mix_trains_and_the_default_pool_is_unchanged() -> None:
    table = TableConfig(num_players=6)
    base = {"num_envs": 4, "num_steps": 8, "opponents": ["calling-station"], "snapshot_every": 0}
    plain = PpoLearner(PpoSettings(**base), table, seed=1)
    assert type(plain.pool) is OpponentPool and plain.pool.members == ["calling-station"]
    learner = PpoLearner(PpoSettings(**base, self_mix=["tag"]), table, seed=1)
    assert isinstance(learner.pool, SelfMixPool) and learner.pool.members == ["calling-station", "tag+self"]
    assert learner.pool.live.policy.model is learner.model
    learner.train_round(2, 1)
    assert sum(len(r) for r in learner.pool.results_state()) > 0
    # a checkpoint round-trips, and one from before self_mix (no such key) still loads into a plain learner
    state = learner.state_dict()
    again = PpoLearner(PpoSettings(**base, self_mix=["tag"]), table, seed=1)
    again.load_state_dict(state)
    old = plain.state_dict()
    del old["settings"]["self_mix"]
    PpoLearner(PpoSettings(**base), table, seed=1).load_state_dict(old)


@pytest.mark.parametrize("bad", ["tag", [3], ["no-such-bot("]])
def test_bad_self_mix_is_a_clear_error(bad: Any) -> None:
    with pytest.raises(ConfigError, match="self_mix"):
        PpoSettings(self_mix=bad)

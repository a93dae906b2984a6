"""The single-agent Gymnasium wrapper: check_env, masks, rewards, opponents."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from holdem_env.engine.errors import ConfigError, HoldemError, IllegalActionError
from holdem_env.env.gym_wrapper import HoldemGymEnv, random_legal_policy


@pytest.mark.parametrize(("action_mode", "num_players"), [("exact", 2), ("discrete", 6), ("exact", 10)])
def test_passes_gymnasium_check_env(action_mode: str, num_players: int) -> None:
    env = HoldemGymEnv(learner=1, num_players=num_players, action_mode=action_mode)
    check_env(env, skip_render_check=True)


def test_render_check_and_ansi_shows_only_learner_cards() -> None:
    env = HoldemGymEnv(learner=0, num_players=3, render_mode="ansi")
    check_env(env)
    env.reset(seed=2)
    text = env.render()
    mine = " ".join(env.aec.infos["player_0"]["view"]["hole_cards"])
    assert mine in text
    assert text.count("?? ??") == 2


def _play_episode(env: HoldemGymEnv, rng: np.random.Generator, seed: int | None = None):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and np.array_equal(mask, obs["action_mask"].astype(bool))
        assert mask.any()
        legal = np.flatnonzero(mask)
        obs, reward, terminated, truncated, info = env.step(int(legal[rng.integers(legal.size)]))
        total += reward
        steps += 1
        assert not truncated
        if terminated:
            return total, steps, obs, info
        assert reward == 0.0


def test_episode_reward_is_the_learners_payoff() -> None:
    env = HoldemGymEnv(learner=2, num_players=4, action_mode="exact")
    rng = np.random.default_rng(0)
    for i in range(40):
        total, steps, obs, info = _play_episode(env, rng, seed=i if i % 2 else None)
        payoffs = env.aec.state_object.payoffs
        assert total == pytest.approx(payoffs[2] / 10)
        # nothing to do once the hand is over: the mask holds only the placeholder check/call (never applied)
        assert obs["action_mask"].tolist() == [0, 1] + [0] * (obs["action_mask"].size - 2)
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        assert info["view"]["payoffs"] == payoffs


def test_seeded_episodes_repeat_exactly() -> None:
    runs = []
    for _ in range(2):
        env = HoldemGymEnv(learner=0, num_players=6, action_mode="exact")
        rng = np.random.default_rng(3)
        out = []
        for i in range(5):
            out.append(_play_episode(env, rng, seed=100 if i == 0 else None)[:2])
            out.append(env.aec.hand_record().to_json())
        runs.append(out)
    assert runs[0] == runs[1]


def test_opponent_policies_are_used() -> None:
    calls = []

    def always_fold_or_check(obs, info):
        calls.append(info["view"]["seat"])
        return 0 if obs["action_mask"][0] else 1

    class Caller:
        def act(self, obs, info):
            return 1

    env = HoldemGymEnv(learner=0, opponents={1: always_fold_or_check, 2: Caller()}, num_players=3)
    env.reset(seed=1)
    assert set(calls) <= {1}
    with pytest.raises(ConfigError, match="lacks a policy"):
        HoldemGymEnv(learner=0, opponents={1: Caller()}, num_players=3)
    with pytest.raises(ConfigError, match="learner"):
        HoldemGymEnv(learner="player_9", num_players=3)
    # everyone but the learner folds whenever they can: the learner never loses more than its blind
    folder = HoldemGymEnv(learner=0, opponents=lambda o, i: 0 if o["action_mask"][0] else 1, num_players=3)
    rng = np.random.default_rng(0)
    for i in range(10):
        total, *_ = _play_episode(folder, rng, seed=i)
        assert total >= -1.0


def test_illegal_learner_action_raise_or_timeout() -> None:
    env = HoldemGymEnv(learner=0, num_players=2, action_mode="exact", illegal_action="raise")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    timeout_env = HoldemGymEnv(learner=0, num_players=2, action_mode="exact")
    timeout_env.reset(seed=0)
    bad = int(np.flatnonzero(~timeout_env.action_masks())[0])
    timeout_env.step(bad)
    first = next(e for e in timeout_env.aec.state_object.events if getattr(e, "seat", None) == 0)
    assert first.timeout


def test_step_before_reset_is_an_error() -> None:
    env = HoldemGymEnv(num_players=2)
    with pytest.raises(HoldemError, match="reset"):
        env.step(1)
    with pytest.raises(HoldemError, match="reset"):
        env.action_masks()


def test_random_legal_policy_only_picks_masked_in_ids() -> None:
    policy = random_legal_policy(np.random.default_rng(0))
    mask = np.array([0, 1, 0, 1], dtype=np.int8)
    assert {policy({"action_mask": mask}, {}) for _ in range(50)} == {1, 3}


def test_reset_with_learner_sitting_out_raises_and_changes_nothing() -> None:
    env = HoldemGymEnv(learner=1, num_players=3, action_mode="exact")
    env.reset(seed=4)
    before = env.aec.hand_record()
    button = env.aec.state_object.button
    with pytest.raises(ConfigError, match="learner's seat 1 must be dealt in"):
        env.reset(options={"stacks": [1000, 0, 1000]})
    assert env.aec.hand_record() == before  # no hand dealt by the failed reset
    assert env.aec.agent_selection == "player_1"  # the learner is still the one to act
    acted = sum(1 for e in env.aec.state_object.events if getattr(e, "seat", None) == 1 and hasattr(e, "kind"))
    env.step(1)
    events = env.aec.state_object.events
    assert sum(1 for e in events if getattr(e, "seat", None) == 1 and hasattr(e, "kind")) == acted + 1
    assert env.reset()[1]["view"]["button"] == (button + 1) % 3  # the failed reset did not move the button


@pytest.mark.parametrize("returned", [None, "1", 2.5, -1, 10**9])
def test_an_opponent_that_returns_no_action_id_is_named(returned: object) -> None:
    """An opponent returning None (or anything but an action id) is a clear error naming it and its seat."""
    from holdem_env.engine.errors import IllegalActionError

    class Broken:
        def act(self, observation, info):  # type: ignore[no-untyped-def]
            return returned

        def __repr__(self) -> str:
            return "Broken()"

    env = HoldemGymEnv(1, Broken(), num_players=2)
    with pytest.raises(IllegalActionError, match=r"opponent Broken\(\) at seat 0 returned .* not an action id \(legal now: "):
        for seed in range(20):  # the opponent acts first preflop heads-up when it has the button
            env.reset(seed=seed)
            env.step(1)

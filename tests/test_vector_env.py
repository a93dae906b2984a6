"""The vectorised env: Gymnasium VectorEnv conventions, the learner's point of view, batching, seeding."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from holdem_env.agents.random_agent import RandomAgent
from holdem_env.engine.errors import ConfigError, HoldemError, IllegalActionError
from holdem_env.env.vector import FixedOpponents, HoldemVectorEnv


class FoldOrCheck:
    """Folds when it may, else checks: a hand-computable opponent."""

    def act(self, observation: dict[str, Any], info: Any) -> int:
        return 0 if observation["action_mask"][0] else 1


class RandomNoBatch:
    """:class:`RandomAgent` without ``act_batch``: decides one table at a time."""

    def __init__(self) -> None:
        self.inner = RandomAgent()

    def set_rng(self, rng: np.random.Generator) -> None:
        self.inner.set_rng(rng)

    def act(self, observation: dict[str, Any], info: Any) -> int:
        return self.inner.act(observation, info)


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


def _trajectory(venv: HoldemVectorEnv, seed: int, steps: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(99)
    obs, _ = venv.reset(seed=seed)
    out = []
    for _ in range(steps):
        obs, rew, term, trunc, infos = venv.step(_random_actions(obs["action_mask"], rng))
        out.append((obs["observation"].copy(), rew.copy(), term.copy(), infos["seat"].copy(), infos["opponent"].copy()))
    return out


def test_spaces_follow_the_vector_conventions() -> None:
    venv = HoldemVectorEnv(3, FixedOpponents([RandomAgent]), num_players=6)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert venv.observation_space["observation"].shape == (3, 114 + 22 * 6)
    assert venv.observation_space["action_mask"].shape == (3, 10)
    assert venv.single_action_space.n == 10
    obs, infos = venv.reset(seed=1)
    assert obs in venv.observation_space
    assert infos["_seat"].all() and infos["seat"].shape == (3,)
    assert (obs["action_mask"].sum(axis=1) > 0).all()  # the learner is to act everywhere


def test_a_hand_computed_case_learner_folds_as_small_blind() -> None:
    # Heads-up against an opponent that folds whenever it may: the learner acts only as the
    # small blind (as the big blind the opponent folds first: that hand is played inside).
    source = FixedOpponents([FoldOrCheck])
    venv = HoldemVectorEnv(4, source, num_players=2)
    obs, infos = venv.reset(seed=5)
    learner_hands = 0
    for _ in range(30):
        assert obs["action_mask"][:, 0].all()  # facing the big blind: fold is legal
        obs, rewards, term, trunc, infos = venv.step(np.zeros(4, dtype=np.int64))
        assert term.all() and not trunc.any()
        np.testing.assert_array_equal(rewards, np.full(4, -0.5, dtype=np.float32))
        np.testing.assert_array_equal(infos["payoff"], np.full(4, -0.5))
        assert all(o["action_mask"].sum() == 0 for o in infos["final_obs"])
        learner_hands += 4
    skipped = venv.hands_played - learner_hands
    assert skipped > 0
    assert source.hands[0] == venv.hands_played
    assert source.payoff[0] == pytest.approx(-0.5 * learner_hands + 0.5 * skipped)


def test_same_seed_same_trajectory_and_batching_does_not_matter() -> None:
    # the per-table backend: act_batch decides exactly as act one table at a time (the batched
    # core's own determinism is tested in test_vector_batched.py)
    def venv(source: type) -> HoldemVectorEnv:
        return HoldemVectorEnv(5, FixedOpponents([source]), num_players=3, backend="tables")

    batched = _trajectory(venv(RandomAgent), 7, 40)
    again = _trajectory(venv(RandomAgent), 7, 40)
    one_by_one = _trajectory(venv(RandomNoBatch), 7, 40)
    other_seed = _trajectory(venv(RandomAgent), 8, 40)
    for a, b, c in zip(batched, again, one_by_one, strict=True):
        for x, y, z in zip(a, b, c, strict=True):
            np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(x, z)
    assert any(not np.array_equal(a[0], d[0]) for a, d in zip(batched, other_seed, strict=True))


def test_rewards_only_at_hand_ends_and_zero_sum_with_the_source() -> None:
    source = FixedOpponents([RandomAgent, FoldOrCheck], weights=[0.5, 0.5])
    venv = HoldemVectorEnv(8, source, num_players=2)
    rng = np.random.default_rng(0)
    obs, _ = venv.reset(seed=3)
    total, members, episodes = 0.0, set(), 0
    for _ in range(60):
        obs, rew, term, _, infos = venv.step(_random_actions(obs["action_mask"], rng))
        assert np.all(rew[~term] == 0)
        total += float(rew.sum())
        episodes += int(term.sum())
        members |= set(infos["opponent"].tolist())
    assert members == {0, 1}
    # The source saw every hand. Heads-up at 100 BB the learner misses a decision only when
    # the small blind folds to it: +0.5 BB each. Hands still running at the end are in neither.
    skipped = venv.hands_played - episodes
    assert source.hands.sum() == venv.hands_played and skipped > 0
    assert source.payoff.sum() == pytest.approx(total + 0.5 * skipped)


def test_the_learner_plays_every_seat_six_max() -> None:
    venv = HoldemVectorEnv(4, FixedOpponents([RandomAgent]), num_players=6)
    rng = np.random.default_rng(1)
    obs, infos = venv.reset(seed=2)
    seats = set(infos["seat"].tolist())
    for _ in range(80):
        obs, _, _, _, infos = venv.step(_random_actions(obs["action_mask"], rng))
        seats |= set(infos["seat"].tolist())
    assert seats == set(range(6))


def test_an_illegal_learner_action_changes_nothing() -> None:
    venv = HoldemVectorEnv(3, FixedOpponents([RandomAgent]), num_players=2)
    obs, _ = venv.reset(seed=4)
    masks = obs["action_mask"]
    acts = _random_actions(masks, np.random.default_rng(0))
    bad = acts.copy()
    bad[2] = int(np.flatnonzero(masks[2] == 0)[0])
    masks[:] = 1  # the caller's copy: changing it makes nothing legal
    with pytest.raises(IllegalActionError, match="table 2: the learner's action"):
        venv.step(bad)
    np.testing.assert_array_equal(venv._observations()["observation"], obs["observation"])
    with pytest.raises(IllegalActionError, match="3 integer action ids"):
        venv.step(acts[:2])


def test_bad_arguments_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="num_envs"):
        HoldemVectorEnv(0, FixedOpponents([RandomAgent]))
    with pytest.raises(ConfigError, match="opponents"):
        HoldemVectorEnv(2, object())  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="weights"):
        FixedOpponents([RandomAgent], weights=[-1.0])
    with pytest.raises(ConfigError, match="illegal_action"):
        HoldemVectorEnv(2, FixedOpponents([RandomAgent]), illegal_action="timeout")
    with pytest.raises(HoldemError, match="reset"):
        HoldemVectorEnv(2, FixedOpponents([RandomAgent])).step(np.ones(2, dtype=np.int64))


def _calls_only(venv: HoldemVectorEnv, steps: int) -> list[tuple[Any, ...]]:
    """Per step and table: (observation, mask, reward, terminated, seat, opponent); the learner always checks/calls,
    drawn through a masked sampler that fails on an empty row."""
    obs, _ = venv.reset(seed=4)
    rows = []
    for _ in range(steps):
        masks = obs["action_mask"]
        assert masks.any(axis=1).all()  # a masked sampler never meets an empty row
        assert masks[:, 1].all()
        obs, rew, term, _, infos = venv.step(np.ones(venv.num_envs, dtype=np.int64))
        for t in range(venv.num_envs):
            final = infos["final_obs"][t]["observation"] if "final_obs" in infos and term[t] else None
            rows.append((t, obs["observation"][t].tobytes(), obs["action_mask"][t].tolist(), float(rew[t]),
                         bool(term[t]), int(infos["seat"][t]), int(infos["opponent"][t]),
                         None if final is None else final.tobytes()))
    return rows


def test_next_step_autoreset_is_same_step_with_the_terminal_row_shown_first() -> None:
    kwargs = {"num_players": 3}
    same = _calls_only(HoldemVectorEnv(3, FixedOpponents([RandomNoBatch, FoldOrCheck]), **kwargs), 40)
    nxt = _calls_only(
        HoldemVectorEnv(3, FixedOpponents([RandomNoBatch, FoldOrCheck]), autoreset_mode=AutoresetMode.NEXT_STEP, **kwargs),
        60,
    )
    placeholder = [0, 1] + [0] * 8
    for t in range(3):
        s_rows = [r for r in same if r[0] == t]
        n_rows = [r for r in nxt if r[0] == t]
        rebuilt, i = [], 0
        while i < len(n_rows) and len(rebuilt) < len(s_rows):
            _, obs, mask, rew, term, seat, opp, final = n_rows[i]
            assert final is None  # no final_obs under NEXT_STEP: the row is the final observation
            if term:
                assert mask == placeholder  # a legal id, never applied
                after = n_rows[i + 1]  # the next step: the action is ignored, the next hand's first decision
                assert after[3] == 0.0 and not after[4]
                rebuilt.append((t, after[1], after[2], rew, True, after[5], after[6], obs))
                i += 2
            else:
                rebuilt.append(n_rows[i][:7] + (None,))
                i += 1
        assert rebuilt == s_rows[: len(rebuilt)] and len(rebuilt) > 20
        assert any(r[4] for r in s_rows[: len(rebuilt)])  # hands ended on the way


def test_next_step_terminal_rows_describe_the_finished_hand() -> None:
    venv = HoldemVectorEnv(4, FixedOpponents([RandomNoBatch]), autoreset_mode="next_step", num_players=6)
    obs, infos = venv.reset(seed=1)
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(60):
        seats_before = infos["seat"].copy()
        obs, rew, term, _, infos = venv.step(_random_actions(obs["action_mask"], rng))
        for t in np.flatnonzero(term):
            seen += 1
            assert infos["final_seat"][t] == infos["seat"][t] == seats_before[t]
            assert obs["action_mask"][t].tolist() == [0, 1] + [0] * 8
    assert seen > 5
    with pytest.raises(ConfigError, match="autoreset_mode"):
        HoldemVectorEnv(2, FixedOpponents([RandomNoBatch]), autoreset_mode="sometimes")

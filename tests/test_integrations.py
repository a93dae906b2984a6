"""Integration with RL libraries: registration on import, flat observations, reward scale, vector envs, adapters."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import torch
from gymnasium.utils.env_checker import check_env

from holdem_env.agents.base import make_agent
from holdem_env.agents.external import (
    ExternalPolicyError,
    TorchScriptAgent,
    masked_choice,
)
from holdem_env.engine.errors import ConfigError
from holdem_env.env.gym_wrapper import HoldemGymEnv, split_flat_observation
from holdem_env.training.arena import ArenaConfig, run_match


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


# --------------------------------------------------------------------------- registration

def test_import_holdem_env_registers_with_both_libraries_without_importing_them() -> None:
    out = _run(
        "import sys, holdem_env\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'pettingzoo', 'gymnasium'}))\n"
        "import pettingzoo, gymnasium\n"
        "aec = pettingzoo.make('aec', 'holdem_env/nlhe-v1', num_players=3)\n"
        "aec.reset(seed=1)\n"
        "print(len(aec.agents), aec.unwrapped.__class__.__module__)\n"
        "g = gymnasium.make('holdem_env/Holdem-v1', num_players=2, observation_format='flat')\n"
        "print(type(g.unwrapped).__name__, g.observation_space.shape == g.reset(seed=0)[0].shape)\n"
    )
    assert out.splitlines() == ["[]", "3 holdem_env.env.nlhe_v1", "HoldemGymEnv True"]


def test_registration_when_the_libraries_were_imported_first_and_twice_is_harmless() -> None:
    out = _run(
        "import warnings; warnings.simplefilter('error')\n"  # an override warning would fail here
        "import pettingzoo, gymnasium, holdem_env\n"
        "from holdem_env.env import registration\n"
        "registration.install(); registration.install()\n"
        "print(pettingzoo.spec('aec', 'holdem_env/nlhe-v1').entry_point, pettingzoo.spec('aec', 'holdem_env/nlhe-v0').entry_point, gymnasium.spec('holdem_env/Holdem-v1').id)\n"
        "import sys; print(registration._FINDER in sys.meta_path)\n"
    )
    assert out.splitlines() == ["holdem_env.env.nlhe_v1:env holdem_env.env.nlhe_v1:env holdem_env/Holdem-v1", "False"]


# --------------------------------------------------------------------------- flat observations, reward scale

def _random_episodes(env: HoldemGymEnv, seed: int, hands: int) -> tuple[list[np.ndarray], list[float]]:
    rng = np.random.default_rng(seed)
    observations, rewards = [], []
    obs, _ = env.reset(seed=seed)
    for _ in range(hands):
        while True:
            observations.append(obs)
            legal = np.flatnonzero(env.action_masks())
            obs, reward, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
            if terminated:
                rewards.append(reward)
                obs, _ = env.reset()
                break
    return observations, rewards


def test_flat_observation_is_the_dict_vector_then_the_mask_and_rewards_scale() -> None:
    as_dict = HoldemGymEnv(num_players=3, learner=1)
    flat = HoldemGymEnv(num_players=3, learner=1, observation_format="flat", reward_scale=0.25)
    dict_obs, dict_rewards = _random_episodes(as_dict, seed=5, hands=12)
    flat_obs, flat_rewards = _random_episodes(flat, seed=5, hands=12)
    assert len(flat_obs) == len(dict_obs) > 12
    n = flat.action_space.n
    for d, f in zip(dict_obs, flat_obs, strict=True):
        assert f.dtype == np.float32 and f in flat.observation_space
        vector, mask = split_flat_observation(f, n)
        np.testing.assert_array_equal(vector, d["observation"])
        np.testing.assert_array_equal(mask, d["action_mask"])
    np.testing.assert_allclose(flat_rewards, np.array(dict_rewards) * 0.25)
    assert any(r != 0 for r in dict_rewards)


def test_flat_env_passes_gymnasium_check_env() -> None:
    check_env(HoldemGymEnv(num_players=2, observation_format="flat"), skip_render_check=True)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"observation_format": "box"}, "observation_format"),
        ({"reward_scale": 0}, "reward_scale"),
        ({"reward_scale": float("nan")}, "reward_scale"),
        ({"reward_scale": True}, "reward_scale"),
        ({"reward_scale": "0.1"}, "reward_scale"),
    ],
)
def test_bad_format_or_scale_is_refused(kwargs: dict, field: str) -> None:
    with pytest.raises(ConfigError) as err:
        HoldemGymEnv(num_players=2, **kwargs)
    assert err.value.field == field


# --------------------------------------------------------------------------- vector envs

class _KeepNoInfo(gymnasium.Wrapper):
    def reset(self, **kwargs):
        return self.env.reset(**kwargs)[0], {}

    def step(self, action):
        return (*self.env.step(action)[:4], {})


def _thunk(seed: int):
    def make() -> gymnasium.Env:
        env = gymnasium.make("holdem_env/Holdem-v1", num_players=2, observation_format="flat")
        return _KeepNoInfo(env)

    return make


@pytest.mark.parametrize("vector_class", [gymnasium.vector.SyncVectorEnv, gymnasium.vector.AsyncVectorEnv])
def test_gymnasium_vector_envs_run_over_flat_observations(vector_class: type) -> None:
    envs = vector_class([_thunk(i) for i in range(2)], autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP)
    try:
        obs, _ = envs.reset(seed=3)
        n = envs.single_action_space.n
        done_hands = 0
        for _ in range(30):
            mask = split_flat_observation(obs, n)[1]
            assert mask.shape == (2, n) and mask.any(axis=1).all()
            obs, reward, terminated, truncated, _ = envs.step(np.ones(2, dtype=np.int64))  # check/call always legal
            done_hands += int(terminated.sum())
            assert not truncated.any()
        assert done_hands > 0
    finally:
        envs.close()


def test_sync_vector_env_batches_the_default_infos() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("holdem_env/Holdem-v1", num_players=2) for _ in range(2)]
    )
    envs.reset(seed=0)
    for _ in range(10):
        envs.step(np.ones(2, dtype=np.int64))


# --------------------------------------------------------------------------- adapters

def test_masked_choice_never_plays_a_masked_action() -> None:
    rng = np.random.default_rng(1)
    scores = np.array([3.0, -1.0, 10.0, 2.0])
    mask = np.array([0, 1, 0, 1])
    assert masked_choice(scores, mask, True, rng) == 3
    draws = {masked_choice(scores, mask, False, rng) for _ in range(200)}
    assert draws == {1, 3}


class _Prefers(torch.nn.Module):
    """Scores each action by a fixed preference; the mask is applied by the agent."""

    def __init__(self, preference: list[float]) -> None:
        super().__init__()
        self.register_buffer("preference", torch.tensor(preference))

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.preference.unsqueeze(0) + 0.0 * obs.sum()


def _save(module: torch.nn.Module, path: Path, obs_dim: int, num_actions: int) -> str:
    """Save ``module`` as TorchScript, traced on a batch of one (tracing compiles no Python source)."""
    example = (torch.zeros(1, obs_dim), torch.ones(1, num_actions))
    torch.jit.save(torch.jit.trace(module, example), str(path))
    return str(path)


def _save_policy(tmp_path: Path, preference: list[float]) -> str:
    env = HoldemGymEnv(num_players=2)
    width = int(env.observation_space["observation"].shape[0])
    return _save(_Prefers(preference), tmp_path / "policy.pt", width, len(preference))


def test_torchscript_agent_plays_its_best_legal_action(tmp_path: Path) -> None:
    env = HoldemGymEnv(num_players=2, action_mode="discrete")
    n = env.action_space.n
    # Prefers all-in (the last id), then fold: all-in is always legal to the first actor heads-up.
    agent = make_agent(f"torchscript(path={_save_policy(tmp_path, [5.0, 1.0] + [0.0] * (n - 3) + [9.0])!r})")
    assert isinstance(agent, TorchScriptAgent)
    obs, info = env.reset(seed=2)
    assert agent.act(obs, info) == n - 1
    closed = dict(obs, action_mask=np.array([1, 1] + [0] * (n - 2), dtype=np.int8))
    assert agent.act(closed, info) == 0  # all-in masked out: fold is the best remaining


def test_torchscript_agent_in_the_arena(tmp_path: Path) -> None:
    n = HoldemGymEnv(num_players=2).action_space.n
    path = _save_policy(tmp_path, [0.0, 1.0] + [0.0] * (n - 2))  # always check/call
    result = run_match(ArenaConfig(agents=(f"torchscript(path={path!r})", "random"), hands=8, seed=0, workers=1))
    assert [row["hands"] for row in result.rows] == [8, 8]
    assert result.rows[0]["stats"]["pfr"] == 0.0  # never raised preflop


def test_external_agents_refuse_bad_files_and_other_tables(tmp_path: Path) -> None:
    with pytest.raises(ExternalPolicyError, match="is not a file"):
        TorchScriptAgent(path=str(tmp_path / "missing.pt"))
    (tmp_path / "junk.pt").write_text("not a model")
    with pytest.raises(ExternalPolicyError, match="not a TorchScript file"):
        TorchScriptAgent(path=str(tmp_path / "junk.pt"))

    class Linear(torch.nn.Module):
        def __init__(self, width: int, actions: int) -> None:
            super().__init__()
            self.layer = torch.nn.Linear(width, actions)

        def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            return self.layer(obs)

    two = HoldemGymEnv(num_players=2)
    path = tmp_path / "hu.pt"
    width = two.observation_space["observation"].shape[0]
    _save(Linear(int(width), int(two.action_space.n)), path, int(width), int(two.action_space.n))
    six = HoldemGymEnv(num_players=6)
    obs, info = six.reset(seed=0)
    with pytest.raises(ExternalPolicyError, match="evaluate with the table it was trained on"):
        TorchScriptAgent(path=str(path)).act(obs, info)


def test_sb3_agent_loads_a_saved_maskable_ppo_in_either_format(tmp_path: Path) -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="needs holdem-env[examples]")
    for fmt, policy in (("flat", "MlpPolicy"), ("dict", "MultiInputPolicy")):
        env = HoldemGymEnv(num_players=2, observation_format=fmt)
        model = sb3_contrib.MaskablePPO(policy, env, n_steps=16, batch_size=16, seed=0)
        model.save(tmp_path / f"{fmt}.zip")
        agent = make_agent(f"sb3(path={str(tmp_path / f'{fmt}.zip')!r})")
        assert agent.flat == (fmt == "flat")
        dict_env = HoldemGymEnv(num_players=2)
        obs, info = dict_env.reset(seed=4)
        for _ in range(20):
            action = agent.act(obs, info)
            assert obs["action_mask"][action] == 1
            obs, _, terminated, _, info = dict_env.step(action)
            if terminated:
                obs, info = dict_env.reset()


# --------------------------------------------------------------------------- parallel view

def test_turn_based_parallel_view_passes_parallel_api_test_and_only_the_actor_has_a_mask() -> None:
    import pettingzoo
    from pettingzoo.test import parallel_api_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    parallel_api_test(turn_based_aec_to_parallel(pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=3)), 50)
    env = turn_based_aec_to_parallel(pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=3))
    observations, _ = env.reset(seed=2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        on_turn = [a for a, o in observations.items() if o["action_mask"].any()]
        assert len(on_turn) == 1  # one seat acts per step; the others' actions are ignored
        actions = {a: 1 if a == on_turn[0] else 0 for a in env.agents}
        observations, rewards, _, _, _ = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    assert abs(sum(totals.values())) < 1e-9 and any(totals.values())


# --------------------------------------------------------------------------- SuperSuit

def _supersuit_run(num_cpus: int, steps: int = 120, seed: int = 3) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Random legal play over SuperSuit's concatenated vector env: 2 copies of a 3-seat table (6 rows)."""
    import pettingzoo
    import supersuit
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    parallel = turn_based_aec_to_parallel(pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=3))
    markov = supersuit.pettingzoo_env_to_vec_env_v1(parallel)
    vec = supersuit.concat_vec_envs_v1(markov, 2, num_cpus=num_cpus, base_class="gymnasium")
    try:
        obs, _ = vec.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace = []
        for _ in range(steps):
            masks = obs["action_mask"]
            # one seat per table is on turn: exactly one row of each table's three has legal actions
            assert masks.reshape(2, 3, -1).any(axis=2).sum(axis=1).tolist() == [1, 1]
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            obs, rewards, _, _, _ = vec.step(actions)
            trace.append((obs["observation"].copy(), masks.copy(), np.asarray(rewards, dtype=np.float64)))
        return trace
    finally:
        vec.close()


def test_supersuit_concat_vec_envs_runs_in_process_and_in_worker_processes() -> None:
    """SuperSuit's documented PettingZoo path: parallel view -> Markov vector env -> ``concat_vec_envs_v1``.

    The worker-process version pickles the env (both builds pickle); it must play exactly the hands the
    in-process version plays for the same seed, and each table's rewards must sum to zero (chips move
    between its seats only)."""
    pytest.importorskip("supersuit", reason="SuperSuit is in the examples extra: pip install 'holdem-env[examples]'")
    in_process = _supersuit_run(num_cpus=0)
    in_workers = _supersuit_run(num_cpus=2)
    assert len(in_process) == len(in_workers)
    for (obs_a, mask_a, rew_a), (obs_b, mask_b, rew_b) in zip(in_process, in_workers, strict=True):
        assert np.array_equal(obs_a, obs_b) and np.array_equal(mask_a, mask_b) and np.array_equal(rew_a, rew_b)
    totals = sum(rew for _, _, rew in in_process).reshape(2, 3)
    assert np.allclose(totals.sum(axis=1), 0.0, atol=1e-4)
    assert np.abs(totals).max() > 0  # hands were finished and chips changed hands


def test_flat_aec_wrapper_is_the_dict_observation_flattened_and_passes_api_test() -> None:
    """``flat_observation_v0``: same hands, rewards and infos as the env, the observation as one Box, the mask
    also in each info (where PettingZoo's ``api_test`` and Box-only libraries look for it)."""
    import pettingzoo
    from pettingzoo.test import api_test

    from holdem_env.env.flat import flat_observation_v0

    api_test(flat_observation_v0(pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=3)), num_cycles=40)
    plain = pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=3)
    flat = flat_observation_v0(pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=3))
    rng = np.random.default_rng(1)
    decisions = 0
    for seed in range(6):  # an episode is one hand
        plain.reset(seed=seed)
        flat.reset(seed=seed)
        for agent in plain.agent_iter():
            obs, reward, term, trunc, _ = plain.last()
            f_obs, f_reward, f_term, f_trunc, f_info = flat.last()
            assert flat.agent_selection == agent and (f_reward, f_term, f_trunc) == (reward, term, trunc)
            assert flat.observation_space(agent).contains(f_obs)
            vector, mask = split_flat_observation(f_obs, flat.action_space(agent).n)
            assert np.array_equal(vector, obs["observation"]) and np.array_equal(mask, obs["action_mask"])
            assert np.array_equal(f_info["action_mask"], mask) and "action_mask" not in plain.infos[agent]
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            plain.step(action)
            flat.step(action)
            decisions += 1
    assert decisions > 20


def test_supersuit_observation_wrappers_take_the_flat_aec_env() -> None:
    """SuperSuit's observation wrappers need a Box: they fail on the dict observation and work on the flat one."""
    supersuit = pytest.importorskip("supersuit", reason="SuperSuit is in the examples extra")
    import pettingzoo

    from holdem_env.env.flat import flat_observation_v0

    with pytest.raises(AttributeError):  # SuperSuit reads Box bounds the Dict space does not have
        supersuit.dtype_v0(pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=2), np.float64).reset(seed=0)
    env = flat_observation_v0(pettingzoo.make("aec", "holdem_env/nlhe-v1", num_players=2))
    stacked = supersuit.frame_stack_v1(env, 2)
    stacked.reset(seed=0)
    obs = stacked.last()[0]
    width = env.observation_space(env.possible_agents[0]).shape[0]
    assert obs.shape == (2 * width,)
    assert not obs[:width].any()  # before the first observation the stack holds zeros
    assert np.array_equal(obs[width:], env.observe(stacked.agent_selection))


def test_flat_wrapper_refuses_other_envs_and_spaces() -> None:
    from holdem_env.env.flat import flat_observation_space, flat_observation_v0

    with pytest.raises(ConfigError, match="PettingZoo AEC env"):
        flat_observation_v0(gymnasium.make("CartPole-v1"))
    with pytest.raises(ConfigError, match="'observation' and 'action_mask'"):
        flat_observation_space(gymnasium.spaces.Box(0.0, 1.0, (3,)))

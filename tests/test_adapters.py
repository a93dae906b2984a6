"""holdem_env.integrations: the RLlib, Tianshou and SB3 adapters, their layering and lazy imports."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from holdem_env.engine.errors import ConfigError
from holdem_env.env.gym_wrapper import HoldemGymEnv
from holdem_env.integrations._common import holdem_env_from_config
from holdem_env.integrations.rllib import RLlibHoldemEnv
from holdem_env.integrations.tianshou import TianshouHoldemEnv, make_tianshou_env

ROOT = Path(__file__).resolve().parent.parent
needs_sb3 = pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None, reason="needs holdem-env[examples]")
needs_tianshou = pytest.mark.skipif(importlib.util.find_spec("tianshou") is None, reason="needs holdem-env[examples]")


def _steps(env: gymnasium.Env, key: str, mask_key: str, seed: int, n: int = 40) -> list[tuple[dict, dict]]:
    """Masked random play through an adapter: each (observation, info) seen, compared with the base env's."""
    base = env.unwrapped
    assert isinstance(base, HoldemGymEnv)
    rng = np.random.default_rng(seed)
    seen = []
    obs, info = env.reset(seed=seed)
    for _ in range(n):
        seen.append((obs, info))
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs[key], base._obs["observation"])  # type: ignore[index]
        assert np.array_equal(obs[mask_key].astype(np.int8), base._obs["action_mask"])  # type: ignore[index]
        legal = np.flatnonzero(obs[mask_key])
        obs, _, terminated, _, info = env.step(int(legal[rng.integers(legal.size)]))
        if terminated:
            seen.append((obs, info))
            obs, info = env.reset()
    return seen


def test_rllib_env_renames_the_key_and_makes_the_mask_float32() -> None:
    env = RLlibHoldemEnv({"opponent": "tag", "num_players": 3, "reward_scale": 0.1})
    assert set(env.observation_space.spaces) == {"observations", "action_mask"}
    assert env.observation_space["action_mask"].dtype == np.float32
    seen = _steps(env, "observations", "action_mask", seed=4)
    assert all(o["action_mask"].dtype == np.float32 and o["action_mask"].any() for o, _ in seen)
    assert all(info == {"illegal_actions": 0} for _, info in seen)  # the same keys and plain values at every step
    check_env(RLlibHoldemEnv({"opponent": "lag"}), skip_render_check=True)


def test_tianshou_env_gives_obs_and_a_bool_mask() -> None:
    env = make_tianshou_env("lag", seed=2, num_players=2)()
    assert isinstance(env, TianshouHoldemEnv) and set(env.observation_space.spaces) == {"obs", "mask"}
    seen = _steps(env, "obs", "mask", seed=2)
    assert all(o["mask"].dtype == bool and o["mask"].any() for o, _ in seen)
    assert all(info == {"illegal_actions": 0} for _, info in seen)
    check_env(make_tianshou_env("random")(), skip_render_check=True)


def test_adapters_keep_the_seeded_reproducibility() -> None:
    runs = [_steps(RLlibHoldemEnv({"opponent": "lag", "seed": s}), "observations", "action_mask", seed=9) for s in (0, 1)]
    flat = [[o["observations"].tobytes() for o, _ in run] for run in runs]
    assert flat[0] == flat[1]  # reset(seed=9) reseeds the opponent whatever it was built with


def test_env_config_errors_are_clear() -> None:
    with pytest.raises(ConfigError, match="env_config"):
        holdem_env_from_config(["tag"])  # type: ignore[arg-type]
    with pytest.raises(Exception, match="nosuchbot"):
        RLlibHoldemEnv({"opponent": "nosuchbot"})


@needs_tianshou
def test_tianshou_vector_env_batches_the_adapter() -> None:
    from tianshou.env import DummyVectorEnv

    envs = DummyVectorEnv([make_tianshou_env("tag", seed=i) for i in range(3)])
    obs, _ = envs.reset(seed=0)  # Tianshou keeps dict observations as an object array of dicts
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(40):
        masks = np.stack([o["mask"] for o in obs])
        assert masks.shape[0] == 3 and masks.any(axis=1).all()
        obs, _, terminated, _, info = envs.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        assert [i["illegal_actions"] for i in info] == [0, 0, 0]
        done = np.flatnonzero(terminated)
        finished += done.size
        if done.size:
            fresh, _ = envs.reset(done)
            for i, o in zip(done, fresh, strict=True):
                obs[i] = o
    assert finished > 0
    envs.close()


@needs_sb3
def test_sb3_vec_env_gives_every_table_its_own_seeded_opponent() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks

    from holdem_env.integrations.sb3 import make_sb3_vec_env

    def run(seed: int) -> list[bytes]:
        venv = make_sb3_vec_env(3, pool=("lag", "tag"), seed=seed)
        bots = [venv.envs[i].unwrapped._policies[1] for i in range(3)]
        assert len({id(b) for b in bots}) == 3 and [type(b).__name__ for b in bots][0] != type(bots[1]).__name__
        rng = np.random.default_rng(0)
        obs = venv.reset()
        out = [obs["observation"].tobytes()]
        for _ in range(25):
            masks = get_action_masks(venv)
            obs, _, _, _ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            out.append(obs["observation"].tobytes())
        venv.close()
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)
    with pytest.raises(ConfigError, match="pool"):
        make_sb3_vec_env(2, pool="tag")


def test_integrations_import_no_library_and_nothing_above_agents() -> None:
    code = (
        "import sys\n"
        "import holdem_env.integrations.rllib, holdem_env.integrations.tianshou, holdem_env.integrations.sb3\n"
        "print(sorted(m for m in ('ray', 'tianshou', 'stable_baselines3', 'sb3_contrib') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from test_layering import imported_names, module_name
    finally:
        sys.path.pop(0)
    bad = []
    for path in sorted((ROOT / "holdem_env" / "integrations").glob("*.py")):
        for line, name in imported_names(path, module_name(path)):
            if name.split(".")[:2] in (["holdem_env", "training"], ["holdem_env", "cli"], ["holdem_env", "play"]):
                bad.append(f"{path.name}:{line}: {name}")
    assert bad == []

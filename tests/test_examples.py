"""Each script of examples/ runs end to end on a tiny budget and saves a policy that `holdem eval` plays.

The sb3-contrib, Tianshou and RLlib scripts need the ``holdem-env[examples]`` (RLlib: ``holdem-env[rllib]``) extra
and skip with a one-line reason without it.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from holdem_env.training.arena import ArenaConfig, run_match

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
needs_sb3 = pytest.mark.skipif(
    importlib.util.find_spec("sb3_contrib") is None, reason="sb3-contrib missing: pip install 'holdem-env[examples]'"
)

needs_tianshou = pytest.mark.skipif(
    importlib.util.find_spec("tianshou") is None, reason="tianshou missing: pip install 'holdem-env[examples]'"
)



def _rllib_missing() -> str | None:
    """Why RLlib cannot run here (its package or one of its own dependencies is missing), or None."""
    try:
        import ray.rllib.algorithms.ppo  # noqa: F401
    except ImportError as exc:
        return f"RLlib unavailable ({exc}): pip install 'holdem-env[rllib]'"
    return None


def _run_example(script: str, *args: str) -> None:
    subprocess.run([sys.executable, str(EXAMPLES / script), *args], check=True, capture_output=True, timeout=600)


def _plays_legally(spec: str) -> None:
    """The saved policy plays a short duplicate match: every action legal, 8 hands per seat spec."""
    result = run_match(ArenaConfig(agents=(spec, "random"), hands=8, seed=1, workers=1))
    assert [row["hands"] for row in result.rows] == [8, 8]
    assert result.rows[0]["stats"]["timeouts"] == 0


@pytest.mark.slow
def test_cleanrl_ppo_example(tmp_path: Path) -> None:
    out = tmp_path / "policy.pt"
    _run_example("cleanrl_ppo.py", "--timesteps", "64", "--envs", "2", "--steps", "32", "--out", str(out))
    _plays_legally(f"torchscript(path={str(out)!r})")


@pytest.mark.slow
@needs_sb3
def test_sb3_maskable_ppo_example(tmp_path: Path) -> None:
    out = tmp_path / "ppo.zip"
    _run_example("sb3_maskable_ppo.py", "--timesteps", "64", "--envs", "2", "--out", str(out))
    _plays_legally(f"sb3(path={str(out)!r})")


@pytest.mark.slow
@needs_sb3
def test_sb3_selfplay_example(tmp_path: Path) -> None:
    out = tmp_path / "selfplay.zip"
    _run_example("sb3_selfplay.py", "--timesteps", "64", "--envs", "2", "--swap", "32", "--out", str(out))
    _plays_legally(f"sb3(path={str(out)!r})")


@pytest.mark.slow
@needs_tianshou
def test_tianshou_dqn_example(tmp_path: Path) -> None:
    out = tmp_path / "dqn.pt"
    budget = ["--epochs", "1", "--epoch-steps", "32", "--envs", "2", "--test-episodes", "2"]
    _run_example("tianshou_dqn.py", *budget, "--out", str(out))
    _plays_legally(f"torchscript(path={str(out)!r})")


@pytest.mark.slow
@pytest.mark.ray
def test_rllib_ppo_example(tmp_path: Path) -> None:
    reason = _rllib_missing()
    if reason:
        pytest.skip(reason)
    out = tmp_path / "rllib.pt"
    _run_example("rllib_ppo.py", "--iterations", "1", "--batch", "64", "--out", str(out))
    _plays_legally(f"torchscript(path={str(out)!r})")

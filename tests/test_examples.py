"""Each script of examples/ runs end to end on a tiny budget, prints progress, saves a policy that `holdem eval`
plays, and ends with a duplicate evaluation against tag and random.

The sb3-contrib, Tianshou and RLlib scripts need the ``holdem-env[examples]`` (RLlib: ``holdem-env[rllib]``) extra
and skip with a one-line reason without it.
"""

from __future__ import annotations

import ast
import importlib.util
import re
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


#: A closing evaluation line: ``vs tag   :    -12.5 ± 30.1 mbb/hand (8 hands), VPIP 50.0%, PFR 25.0%``.
EVAL_LINE = re.compile(r"^vs (tag|random)\s*: +[+-]\d+\.\d ± \d+\.\d mbb/hand \(8 hands\), VPIP [\d.]+%, PFR [\d.]+%$")


def _run_example(script: str, *args: str) -> None:
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args, "--eval-hands", "8"],
        capture_output=True, text=True, timeout=900,
    )
    assert run.returncode == 0, f"{script} failed ({run.returncode}):\n{run.stderr[-3000:]}"
    out = run.stdout.splitlines()
    saved = next(i for i, line in enumerate(out) if line.startswith("saved "))
    assert saved >= 2, f"no progress printed before saving: {out}"  # a training header and at least one progress line
    evals = [m.group(1) for line in out[saved:] if (m := EVAL_LINE.match(line))]
    assert evals == ["tag", "random"], out[saved:]


def test_every_example_sets_torch_threads_and_evaluates_with_the_arena() -> None:
    scripts = sorted(EXAMPLES.glob("*.py"))
    assert len(scripts) == 5
    for path in scripts:
        tree = ast.parse(path.read_text())
        calls = {ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
        options = {node.args[0].value for node in ast.walk(tree) if isinstance(node, ast.Call)
                   and ast.unparse(node.func) == "parser.add_argument" and isinstance(node.args[0], ast.Constant)}
        assert "torch.set_num_threads" in calls and "report_strength" in calls, path.name  # the arena's report
        assert {"--threads", "--eval-hands"} <= options or "add_script_arguments" in calls, path.name
        assert "Holdem-v0" not in path.read_text(), path.name


def test_the_closing_evaluation_flags_a_policy_that_folds_everything(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("cleanrl_ppo_example", EXAMPLES / "cleanrl_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.report_strength("always-fold", 8, 1)
    lines = capsys.readouterr().out.splitlines()
    assert [m.group(1) for line in lines if (m := EVAL_LINE.match(line))] == ["tag", "random"]
    assert sum("VPIP 0.0%" in line for line in lines) == 2
    assert sum(line.strip().startswith("warning: VPIP under 5%") for line in lines) == 2
    module.report_strength("always-call", 8, 1)
    assert "warning" not in capsys.readouterr().out


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

"""The type check (``make typecheck``, tools/typecheck.py) sees the package under its installed names.

``agents/`` and ``training/`` are installed as ``holdem_env.agents`` and ``holdem_env.training``;
mypy run on the folders named them ``agents.*`` and ``training.*``, so a call from training/ into
an agent class was typed ``Any`` and never checked. These tests plant such a call with a wrong
argument type and require the project's command to report it, at the planted file's own path.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "typecheck.py"

_spec = importlib.util.spec_from_file_location("holdem_typecheck", SCRIPT)
assert _spec is not None and _spec.loader is not None
typecheck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(typecheck)


def _linked_root(tmp_path: Path) -> Path:
    """A repository in ``tmp_path``: holdem_env/ and agents/ linked, training/ a folder of links (to plant in)."""
    root = tmp_path / "repo"
    root.mkdir()
    for folder in ("holdem_env", "agents"):
        (root / folder).symlink_to(ROOT / folder, target_is_directory=True)
    (root / "training").mkdir()
    for entry in (ROOT / "training").iterdir():
        if entry.name != "__pycache__":
            (root / "training" / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return root


def test_the_shadow_tree_names_every_source_as_it_is_imported(tmp_path: Path) -> None:
    root = _linked_root(tmp_path)
    package = typecheck.write_shadow_tree(root)
    assert package == root / "build" / "typecheck" / "holdem_env"
    names: dict[str, Path] = {}  # dotted name -> the file mypy reads for it (links followed, as mypy does)
    for folder, _dirs, files in os.walk(package, followlinks=True):
        for name in files:
            if name.endswith(".py"):
                rel = (Path(folder) / name).relative_to(package.parent)
                names[".".join(rel.with_suffix("").parts)] = Path(folder) / name
    for folder, installed in (("agents", "holdem_env.agents"), ("training", "holdem_env.training")):
        for source in (ROOT / folder).rglob("*.py"):
            dotted = ".".join((installed, *source.relative_to(ROOT / folder).with_suffix("").parts))
            assert dotted in names, f"{source} is not visible to mypy as {dotted}"
            assert os.path.samefile(names[dotted], source)
    assert "holdem_env.engine.state" in names and "holdem_env.training.cfr_lite.trainer" in names


def test_a_reported_path_is_the_repository_file(tmp_path: Path) -> None:
    for name in ("holdem_env/__init__.py", "holdem_env/engine/state.py", "agents/bot.py", "training/run.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    typecheck.write_shadow_tree(tmp_path)
    shown = "build/typecheck/holdem_env/"
    assert typecheck.real_path(shown + "agents/bot.py", tmp_path) == "agents/bot.py"
    assert typecheck.real_path(shown + "training/run.py", tmp_path) == "training/run.py"
    assert typecheck.real_path(shown + "engine/state.py", tmp_path) == "holdem_env/engine/state.py"
    assert typecheck.real_path("tools/typecheck.py", tmp_path) == "tools/typecheck.py"  # outside the tree


@pytest.mark.slow  # a whole mypy run when no warm .mypy_cache is there to start from (~1 min on 2 cores)
def test_a_planted_cross_layer_type_error_fails_the_typecheck(tmp_path: Path) -> None:
    root = _linked_root(tmp_path)
    planted = root / "training" / "planted_call.py"
    planted.write_text(
        '"""A training module calling an agent class with a wrong argument type."""\n'
        "from holdem_env.agents.random_agent import RandomAgent\n"
        "\n"
        'AGENT = RandomAgent(seed="seven")\n'
    )
    cache = tmp_path / "mypy_cache"
    if (ROOT / ".mypy_cache").is_dir():  # start from the project's cache (`make test` has just written it)
        shutil.copytree(ROOT / ".mypy_cache", cache)
    command = [sys.executable, str(SCRIPT), "--root", str(root), "--", "--cache-dir", str(cache)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 1, out
    assert errors[0].startswith("training/planted_call.py:4: error:"), out
    assert '"RandomAgent"' in errors[0] and "[arg-type]" in errors[0], out

    planted.write_text(planted.read_text().replace('seed="seven"', "seed=7"))
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr

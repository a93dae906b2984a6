"""The wheel ships what the package reads at run time: shipped policies, the sample hand history, the web page."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: installed path -> why the package needs it
SHIPPED = {
    "holdem_env/agents/data/cfr_lite_hu.npz": "the bare spec `cfr-lite` heads-up",
    "holdem_env/agents/data/cfr_lite_6max.npz": "the bare spec `cfr-lite` at 3-6 seats",
    "holdem_env/agents/data/ppo_hu.pt": "the bare spec `ppo`",
    "holdem_env/agents/data/cfr_search_hu200.npz": "the bare spec `cfr-search` (its 200 bb blueprint)",
    "holdem_env/agents/data/cfr_search_hu100.npz": "cfr-search's 100 bb blueprint",
    "holdem_env/formats/data/dwan-ivey-2009.phh": "`holdem demo` and `holdem replay` without a file",
    "holdem_env/play/static/index.html": "`holdem play`",
    "holdem_env/play/static/table.js": "`holdem play`",
    "holdem_env/play/static/table.css": "`holdem play`",
    "holdem_env/engine/state.pxd": "compiling the hand state from the installed sources",
    "holdem_env/env/_core.pxd": "compiling the env core from the installed sources",
    "holdem_env/env/_order.pxd": "compiling the order-enforcing wrapper from the installed sources",
    "holdem_env/env/_view.pxd": "compiling the seat views from the installed sources",
    "holdem_env/agents/_rules.pxd": "compiling the rule bots' rows from the installed sources",
    "holdem_env/training/cfr_search/_core.pxd": "compiling cfr-search's MCCFR core from the installed sources",
    "holdem_env/agents/cfr_search/_subgame.pxd": "compiling the subgame solver from the installed sources",
    "holdem_env/agents/_features.pxd": "compiling the learner's equity feature from the installed sources",
}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A pure-Python wheel built from a copy of the sources (the checkout's build folders untouched)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to copy the tracked sources")
    base = tmp_path_factory.mktemp("wheel")
    src, out = base / "src", base / "dist"
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and not name.startswith("tests/") and (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    env = {**os.environ, "HOLDEM_ENV_PURE_PYTHON": "1"}
    cmd = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation", "-w", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=base)
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = out.glob("holdem_env-*.whl")
    return built, done.stdout + done.stderr


def test_the_wheel_holds_every_data_file_the_package_reads(wheel: tuple[Path, str]) -> None:
    names = set(zipfile.ZipFile(wheel[0]).namelist())
    missing = {path: why for path, why in SHIPPED.items() if path not in names}
    assert not missing, f"not in the wheel: {missing}"
    # the mapped folders install under holdem_env, never as top-level packages a user's own could shadow
    assert not any(n.startswith(("agents/", "training/")) for n in names)
    assert "holdem_env/training/ppo/__init__.py" in names and "holdem_env/agents/tag.py" in names


def test_building_the_wheel_raises_no_package_data_warnings(wheel: tuple[Path, str]) -> None:
    """Data folders are declared as setuptools wants them (no "Package ... is absent from packages")."""
    log = wheel[1]
    assert "is absent from the `packages` configuration" not in log
    assert "Package would be ignored" not in log

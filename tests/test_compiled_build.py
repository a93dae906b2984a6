"""The optional compiled build (setup.py, holdem_env/_compiled.py).

* the compiled build returns exactly what the pure-Python sources return (``tests/env_digest.py``
  run against a copy of the ``.py`` sources and against the build in use);
* no compiled module is stale (built from sources that have changed since);
* ``holdem_env.build_info()`` agrees with what is imported, and the stale check / warning logic
  works (on fake hashes: the real build is never touched).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import holdem_env
from holdem_env import _compiled

TESTS = Path(__file__).resolve().parent
DIGEST_SCRIPT = TESTS / "env_digest.py"
EXT_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
REBUILD = "run `make build` (or `.venv/bin/python setup.py build_ext --inplace`) to recompile"


def _digest_subprocess(pythonpath: str, pure: bool = False) -> subprocess.Popen:
    """Start ``tests/env_digest.py`` in a fresh interpreter that imports ``holdem_env`` from
    ``pythonpath`` (it prints the digest, ``holdem_env.state.__file__`` and the observation
    builder's module); ``pure`` keeps the compiled-only modules out."""
    env = dict(os.environ, PYTHONPATH=pythonpath)
    return subprocess.Popen(
        [sys.executable, "-W", "ignore::RuntimeWarning", str(DIGEST_SCRIPT), *(["--pure"] if pure else [])],
        cwd=TESTS,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _result(proc: subprocess.Popen, what: str) -> tuple[str, str, str]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, f"env_digest.py ({what}) failed with exit code {proc.returncode}:\n{err}"
    digest, state_file, builder = out.split()
    return digest, state_file, builder


def test_compiled_build_matches_pure_python(tmp_path: Path) -> None:
    info = holdem_env.build_info()
    if not info["compiled"]:
        pytest.skip(
            "no holdem_env module is compiled in this checkout (pure-Python install, HOLDEM_ENV_PURE_PYTHON=1 "
            "or no C compiler), so there is no compiled build to compare; `make build` compiles it"
        )
    package_dir = Path(holdem_env.__file__).parent
    copy = tmp_path / "holdem_env"
    shutil.copytree(
        package_dir,
        copy,
        ignore=shutil.ignore_patterns(*(f"*{s}" for s in EXT_SUFFIXES), "*.c", "_build_info.py", "__pycache__"),
    )
    pure = _digest_subprocess(str(tmp_path), pure=True)
    built = _digest_subprocess(str(package_dir.parent))  # the holdem_env this test imported
    pure_digest, pure_state, pure_builder = _result(pure, "pure-Python copy of the sources")
    built_digest, built_state, built_builder = _result(built, "the build in use")

    assert Path(pure_state) == copy / "state.py", f"the pure-Python run imported {pure_state}, not the copied .py"
    assert pure_builder == "holdem_env._obsbuild", f"the pure-Python run used {pure_builder}"
    assert Path(built_state).parent == package_dir, f"the build run imported {built_state}, not {package_dir}"
    if "holdem_env._obsbuild_c" in info["compiled"]:
        assert built_builder == "holdem_env._obsbuild_c", f"the build run used {built_builder}"
    if "holdem_env.state" in info["compiled"]:
        assert built_state.endswith(EXT_SUFFIXES), f"holdem_env.state should run compiled, got {built_state}"
    assert built_digest == pure_digest, (
        f"the compiled build ({', '.join(info['compiled'])}) returns something different from the pure-Python "
        f"sources: env digest {built_digest} != {pure_digest}. Check first that the build is current ({REBUILD}); "
        "if it is, the .pxd typing changed behaviour (e.g. integer overflow, cdef attribute types)."
    )


def test_compiled_modules_are_not_stale() -> None:
    info = holdem_env.build_info()
    stale = info["stale_reasons"]
    assert not stale, (
        "compiled holdem_env modules are stale, so tests would run code that is not the current source: "
        + "; ".join(f"{m}: {why}" for m, why in sorted(stale.items()))
        + f". Fix: {REBUILD}, or delete holdem_env/*.so to test the pure-Python sources."
    )


def test_build_info_matches_what_is_imported() -> None:
    info = holdem_env.build_info()
    assert set(info) >= {"compiled", "pure_python", "stale"}
    assert not set(info["compiled"]) & set(info["pure_python"])
    assert set(info["stale"]) <= set(info["compiled"])
    for name in info["compiled"]:
        module = importlib.import_module(name)
        assert module.__file__.endswith(EXT_SUFFIXES), f"{name} is reported compiled but imports {module.__file__}"
    for name in info["pure_python"]:
        module = importlib.import_module(name)
        assert module.__file__.endswith(".py"), f"{name} is reported pure Python but imports {module.__file__}"
    if info["forced_pure_python"]:  # HOLDEM_ENV_PURE_PYTHON=1 at run time: extensions are ignored
        assert info["compiled"] == [] and _compiled.pure_python_requested()
        return
    # every extension file in the package is accounted for
    package_dir = Path(holdem_env.__file__).parent
    for path in package_dir.iterdir():
        if path.name.endswith(EXT_SUFFIXES):
            assert f"holdem_env.{path.name.split('.')[0]}" in info["compiled"], f"{path.name} not reported"
    if info["compiled"]:
        assert info["build_info_file"] is not None or info["stale"] == info["compiled"]


def test_stale_reasons_compares_recorded_and_current_hashes() -> None:
    recorded = {
        "holdem_env.state": {"state.py": "a1", "state.pxd": "b1"},
        "holdem_env.nlhe_v0": {"nlhe_v0.py": "c1", "nlhe_v0.pxd": "d1", "state.pxd": "b1"},
        "holdem_env.pots": {"pots.py": "e1", "pots.pxd": None},
        "holdem_env.actions": {"actions.py": "f1", "actions.pxd": None},
        "holdem_env._fast_c": {"_fast_c.pyx": "p1", "_fast_c.pxd": None},  # a Cython-only module
    }
    current = {
        "holdem_env.state": {"state.py": "a1", "state.pxd": "b1"},  # unchanged
        "holdem_env.nlhe_v0": {"nlhe_v0.py": "c1", "nlhe_v0.pxd": "d1", "state.pxd": "b2"},  # a cimported .pxd changed
        "holdem_env.pots": {"pots.py": "e2", "pots.pxd": "g1"},  # .py edited, a .pxd added
        "holdem_env.actions": {"actions.py": None, "actions.pxd": None},  # sources not shipped: not checked
        "holdem_env.cards": {"cards.py": "h1", "cards.pxd": None},  # no record at all
        "holdem_env._fast_c": {"_fast_c.py": None, "_fast_c.pyx": "p2", "_fast_c.pxd": None},  # .pyx edited
    }
    reasons = _compiled.stale_reasons(recorded, current)
    assert sorted(reasons) == ["holdem_env._fast_c", "holdem_env.cards", "holdem_env.nlhe_v0", "holdem_env.pots"]
    assert reasons["holdem_env._fast_c"] == "_fast_c.pyx changed since the build"
    assert reasons["holdem_env.nlhe_v0"] == "state.pxd changed since the build"
    assert "pots.py changed since the build" in reasons["holdem_env.pots"]
    assert "pots.pxd is newer than the build" in reasons["holdem_env.pots"]
    assert "no build record" in reasons["holdem_env.cards"]
    assert _compiled.stale_reasons(recorded, {m: dict(h) for m, h in recorded.items()}) == {}
    assert _compiled.stale_reasons({}, {}) == {}


def test_stale_build_warns_once_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    reasons = {
        "holdem_env.state": "state.py changed since the build",
        "holdem_env.pots": "pots.py changed since the build",
        "holdem_env.table": "pots.py changed since the build",
    }
    monkeypatch.setattr(_compiled, "_extension_modules", lambda *a: {"holdem_env.state": "state.so"})
    monkeypatch.setattr(_compiled, "build_info", lambda: {"stale_reasons": reasons})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _compiled.warn_if_stale()
    assert len(caught) == 1
    assert caught[0].category is RuntimeWarning
    text = str(caught[0].message)
    assert "holdem_env.pots, holdem_env.table: pots.py changed since the build" in text  # grouped by reason
    assert "holdem_env.state: state.py changed since the build" in text
    assert "make build" in text and "setup.py build_ext --inplace" in text and ".so" in text

    monkeypatch.setattr(_compiled, "build_info", lambda: {"stale_reasons": {}})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _compiled.warn_if_stale()
    assert caught == []


def test_build_record_round_trip(tmp_path: Path) -> None:
    """The record setup.py writes is what _compiled reads (parsed, never imported)."""
    record = {"candidates": ["holdem_env.state"], "modules": {"holdem_env.state": {"state.py": "ab", "state.pxd": None}}}
    path = tmp_path / "_build_info.py"
    path.write_text(f'"""generated"""\n\nBUILD_INFO = {record!r}\n')
    assert _compiled._read_build_info(path) == record
    path.write_text("BUILD_INFO = {")  # a truncated file is no record, not a crash
    assert _compiled._read_build_info(path) is None
    assert _compiled._read_build_info(tmp_path / "missing.py") is None


def test_pure_python_switch_at_run_time_loads_the_py_sources() -> None:
    # HOLDEM_ENV_PURE_PYTHON=1 set when running: every module from its .py (compiled or not), the
    # compiled-only observation builder refused, and build_info() says nothing runs compiled.
    code = (
        "import holdem_env, holdem_env.state, holdem_env.nlhe_v0 as env\n"
        "info = holdem_env.build_info()\n"
        "print(holdem_env.state.__file__, env.__file__, env.ObservationBuilder.__module__, len(info['compiled']))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        env=dict(os.environ, HOLDEM_ENV_PURE_PYTHON="1"),
        cwd=TESTS,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    state_file, env_file, builder, n_compiled = run.stdout.split()
    package_dir = Path(holdem_env.__file__).parent
    assert Path(state_file) == package_dir / "state.py" and Path(env_file) == package_dir / "nlhe_v0.py"
    assert builder == "holdem_env._obsbuild" and n_compiled == "0"

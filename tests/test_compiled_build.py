"""The optional compiled build (setup.py, holdem_env/_build.py) behaves exactly like the sources.

Targeted parity, not the suite twice: ``tests/env_digest.py`` (everything the env returns, and
each hand's engine record) run against the build in use and with ``HOLDEM_ENV_PURE_PYTHON=1``;
the compiled engine compared in one process with its ``.py`` source (loaded under another name
next to the module in use), error messages included;
deep copies and pickles of the env continuing alike, in both builds. Where nothing is compiled
the comparisons are skipped (they would compare the sources with themselves), and the copy check
still runs on the sources.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from holdem_env._build import CANDIDATES, build_info
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, IllegalActionError

TESTS = Path(__file__).resolve().parent
DIGEST_SCRIPT = TESTS / "env_digest.py"
EXT_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
COMPILED = build_info()["compiled"]
needs_build = pytest.mark.skipif(
    not COMPILED, reason="no holdem_env module is compiled here (pure-Python install); `make build` compiles them"
)


def _run_script(*args: str, pure: bool | str) -> list[str]:
    """``env_digest.py args`` in a new process; ``pure``: True for ``HOLDEM_ENV_PURE_PYTHON=1``, a
    string for that value (module names)."""
    env = dict(os.environ)
    env.pop("HOLDEM_ENV_PURE_PYTHON", None)
    if pure:
        env["HOLDEM_ENV_PURE_PYTHON"] = "1" if pure is True else pure
    out = subprocess.run(
        [sys.executable, str(DIGEST_SCRIPT), *args], cwd=TESTS, env=env, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def _source_twin(module: str) -> ModuleType:
    """``module`` loaded from its ``.py`` source under another name (the compiled one stays in use)."""
    origin = Path(sys.modules[module].__file__ if module in sys.modules else importlib.util.find_spec(module).origin)
    source = origin.with_name(module.rpartition(".")[2] + ".py")
    spec = importlib.util.spec_from_file_location(f"_pure_twin_{module.replace('.', '_')}", source)
    twin = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(twin)  # type: ignore[union-attr]
    return twin


def test_build_info_names_only_candidates_that_load_compiled() -> None:
    import holdem_env.agents._features  # the learner's equity feature (agents/_features.py)
    import holdem_env.agents._rules  # the rule bots' rows (agents/_rules.py)
    import holdem_env.agents.cfr_search._subgame  # the subgame solver's core (agents/cfr_search/_subgame.py)
    import holdem_env.batched  # the batched core (holdem_env.batched._tables)
    import holdem_env.batched.encode  # the batched observations and masks
    import holdem_env.engine.state
    import holdem_env.env.nlhe_v1  # imports the compiled candidates of the env
    import holdem_env.training.cfr_search._core  # cfr-search's MCCFR traversal
    import holdem_env.training.ppo._kernels  # the PPO trainer's per-step learner glue

    info = holdem_env.build_info()
    assert set(info["compiled"]) <= set(CANDIDATES)
    assert info["stale"] == [], f"compiled from older sources: {info['stale']}; run `make build`"
    for module in CANDIDATES:
        loaded = sys.modules[module].__file__
        assert loaded.endswith(EXT_SUFFIXES) == (module in info["compiled"]), loaded


@needs_build
def test_env_digest_compiled_equals_pure_python() -> None:
    built = _run_script("40", pure=False)
    pure = _run_script("40", pure=True)
    assert pure[1].endswith("state.py") and pure[2].endswith("_core.py")
    assert built[2].endswith(EXT_SUFFIXES) == ("holdem_env.env._core" in COMPILED)
    assert built[0] == pure[0]


def test_the_engine_from_source_takes_the_env_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # the compiled env core calls the compiled HandState as a C type (env/_core.pxd), and the compiled
    # order wrapper the core (env/_order.pxd): asking for the engine's source must send the core and
    # the wrapper to their sources too; other names stay as asked
    from holdem_env import _build

    core, order = "holdem_env.env._core", "holdem_env.env._order"
    monkeypatch.setenv(_build.PURE_PYTHON_ENV, "holdem_env.engine.state")
    assert _build._pure_modules() == {"holdem_env.engine.state", core, order}
    monkeypatch.setenv(_build.PURE_PYTHON_ENV, "holdem_env.env._view")  # the env builds its views as C types
    assert _build._pure_modules() == {"holdem_env.env._view", core, order}
    monkeypatch.setenv(_build.PURE_PYTHON_ENV, core)
    assert _build._pure_modules() == {core, order}
    monkeypatch.setenv(_build.PURE_PYTHON_ENV, order)
    assert _build._pure_modules() == {order}
    monkeypatch.setenv(_build.PURE_PYTHON_ENV, "1")
    assert _build._pure_modules() is None
    monkeypatch.setenv(_build.PURE_PYTHON_ENV, "0")
    assert _build._pure_modules() == frozenset()
    assert set(_build.SOURCE_DEPENDENTS) <= set(CANDIDATES)
    assert all(set(d) <= set(CANDIDATES) for d in _build.SOURCE_DEPENDENTS.values())


@pytest.mark.skipif("holdem_env.engine.state" not in COMPILED, reason="the engine is not compiled")
def test_engine_from_source_runs_the_env_from_source_with_the_same_digest() -> None:
    built = _run_script("6", pure=False)
    engine_source = _run_script("6", pure="holdem_env.engine.state")
    assert engine_source[1].endswith("state.py") and engine_source[2].endswith("_core.py")
    assert built[0] == engine_source[0]


@pytest.mark.parametrize("pure", [False, True], ids=["build-in-use", "pure-python"])
def test_deep_copies_and_pickles_of_the_env_continue_alike(pure: bool) -> None:
    if not pure and not COMPILED:
        pytest.skip("nothing compiled: the pure-python case covers the sources")
    assert _run_script("--copies", pure=pure)[0] == "True"


@pytest.mark.skipif("holdem_env.engine.state" not in COMPILED, reason="the engine is not compiled")
def test_engine_parity_in_one_process() -> None:
    from holdem_env.engine.state import HandState

    pure_state = _source_twin("holdem_env.engine.state").HandState
    rng = np.random.default_rng(5)
    for hand in range(60):
        n = int(rng.integers(2, 7))
        cfg = TableConfig(num_players=n, betting=("no-limit", "pot-limit", "fixed-limit")[hand % 3], ante=hand % 2)
        a, b = HandState(cfg, button=0, seed=hand), pure_state(cfg, button=0, seed=hand)
        while not a.is_over:
            legal = a.legal_actions()
            assert tuple(legal) == tuple(b.legal_actions())
            choice = rng.integers(4)
            if choice == 0 and legal.min_raise_to is not None:
                amount = int(rng.integers(legal.min_raise_to, legal.max_raise_to + 1))
                ea, eb = a.raise_to(amount), b.raise_to(amount)
            elif choice == 1:
                with pytest.raises(IllegalActionError) as ia:
                    a.raise_to(0)
                with pytest.raises(IllegalActionError) as ib:
                    b.raise_to(0)
                assert str(ia.value) == str(ib.value)
                continue
            elif legal.check:
                ea, eb = a.check(), b.check()
            else:
                ea, eb = (a.fold(), b.fold()) if choice == 2 else (a.call(), b.call())
            assert ea == eb
        assert a.record().to_json() == b.record().to_json()
    # bad input reaches the sources' own checks (Cython must not turn type hints into its own TypeError)
    cfg = TableConfig(num_players=3)
    a, b = HandState(cfg, seed=1), pure_state(cfg, seed=1)
    for bad in ("100", True, 2.5):
        with pytest.raises(IllegalActionError) as ia:
            a.raise_to(bad)
        with pytest.raises(IllegalActionError) as ib:
            b.raise_to(bad)
        assert str(ia.value) == str(ib.value)
    for seed in ("abc", 1.5, True, -1):
        with pytest.raises(ConfigError) as ca:
            HandState(cfg, seed=seed)
        with pytest.raises(ConfigError) as cb:
            pure_state(cfg, seed=seed)
        assert str(ca.value) == str(cb.value)


def test_pickled_core_fields_match_the_typed_declarations() -> None:
    """The compiled env keeps ``_EnvCore``'s attributes in the typed fields ``_core.pxd``
    declares, outside ``__dict__``; its pickles carry exactly ``_CORE_FIELDS`` (read from the
    class). A field added to one and not the other would be dropped by pickle and deepcopy in the
    compiled build."""
    import re

    from holdem_env.env import _core, _order, nlhe_v1

    def classes(module: ModuleType) -> dict[str, str]:
        pxd = Path(module.__file__).with_name(module.__name__.rpartition(".")[2] + ".pxd").read_text()  # type: ignore[arg-type]
        return dict(re.findall(r"^cdef class (\w+):\n((?:[ \t]+.*\n|\n)*)", pxd, flags=re.MULTILINE))

    blocks = classes(_core) | classes(_order)
    assert set(blocks) == {"_EnvCore", "_WrapperCore", "_IteratorCore"}
    core = blocks["_EnvCore"]
    declared = re.findall(r"^\s+cdef public \w+ (\w+)$", core, flags=re.MULTILINE)
    assert len(declared) == len(set(declared)) == 52
    assert sorted(declared) == sorted(_core._CORE_FIELDS) == sorted(nlhe_v1._CORE_FIELDS)
    # the private fields (typed views, staging arrays) are rebound on load, never pickled
    private = re.findall(r"^[ \t]+cdef (?!public)[^(\n]+ (\w+)$", core, flags=re.MULTILINE)
    assert sorted(private) == sorted(_core._REBOUND_FIELDS)
    # the order-enforcing wrapper's typed fields are exactly what its pickles carry besides __dict__
    wrapper = re.findall(r"^\s+cdef public \w+ (\w+)$", blocks["_WrapperCore"], flags=re.MULTILINE)
    assert sorted(wrapper) == sorted(_order._WRAPPER_FIELDS)


def test_hand_state_typed_fields_are_its_slots() -> None:
    """``engine/state.pxd`` declares one typed field per ``HandState.__slots__`` entry, in order:
    ``HandState.copy`` and pickling go through the slots, so a field missing from either side
    would be lost (or not exist) in the compiled build only."""
    import re

    from holdem_env.engine import state

    pxd = (Path(state.__file__).parent / "state.pxd").read_text()
    declared = re.findall(r"^\s+cdef public \w+ (\w+)$", pxd, flags=re.MULTILINE)
    assert declared == list(state.HandState.__slots__)
    assert len(declared) == 42

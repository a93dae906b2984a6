"""Which ``holdem_env`` modules run compiled, and the switch that runs the ``.py`` sources instead.

``setup.py`` may compile a few modules (its ``COMPILED`` list) from their unchanged ``.py``
sources; Python then imports the extension module in place of the ``.py``. With
``HOLDEM_ENV_PURE_PYTHON=1`` set before ``import holdem_env``, :func:`use_pure_python` makes
every ``holdem_env`` module load from its ``.py`` source (for parity tests, debuggers, coverage);
a comma-separated list of module names instead (``holdem_env.env._core,...``) does it for
those modules only (how ``benchmarks/bench_env.py --pure-python MODULE`` measures what
compiling each one gains). A compiled module that uses another one's C types runs only with that
one compiled: naming ``holdem_env.engine.state`` also sends ``holdem_env.env._core`` (whose typed
core calls the compiled ``HandState`` directly) and ``holdem_env.env._order`` to their sources (:data:`SOURCE_DEPENDENTS`). Only the
standard library is used.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = [
    "PURE_PYTHON_ENV",
    "CANDIDATES",
    "SOURCE_DEPENDENTS",
    "build_info",
    "use_pure_python",
    "pure_python_requested",
]

PURE_PYTHON_ENV = "HOLDEM_ENV_PURE_PYTHON"
#: The modules setup.py compiles when it can: the one list (setup.py reads it from this file), those
#: whose compilation measurably paid (``benchmarks/BENCHMARKS.md``).
CANDIDATES = (
    "holdem_env.engine.state",
    "holdem_env.env._view",
    "holdem_env.env._core",
    "holdem_env.env._order",
    "holdem_env.batched._tables",
    "holdem_env.batched.encode",
    "holdem_env.engine._kernels",
    "holdem_env.agents._rules",
    "holdem_env.training.cfr_search._core",
    "holdem_env.agents.cfr_search._subgame",
    "holdem_env.agents._features",
    "holdem_env.training.ppo._kernels",
)
#: Compiled module -> the compiled modules that ``cimport`` its types (``env/_core.pxd`` types the
#: env's ``_state`` as the compiled ``HandState``; ``env/_order.pxd`` types the wrapped env as the
#: compiled core; the bots' and solvers' kernels call ``engine/_kernels``): when a module runs
#: from its source, so do these, and theirs in turn.
SOURCE_DEPENDENTS: dict[str, tuple[str, ...]] = {
    "holdem_env.engine.state": ("holdem_env.env._core",),
    "holdem_env.env._view": ("holdem_env.env._core",),
    "holdem_env.env._core": ("holdem_env.env._order",),
    "holdem_env.engine._kernels": (
        "holdem_env.agents._rules",
        "holdem_env.agents._features",
        "holdem_env.training.cfr_search._core",
    ),
}
_PACKAGE_DIR = Path(__file__).resolve().parent


def _pure_modules() -> frozenset[str] | None:
    """The modules ``HOLDEM_ENV_PURE_PYTHON`` sends to their sources (``None``: all of them), with
    their :data:`SOURCE_DEPENDENTS`."""
    value = os.environ.get(PURE_PYTHON_ENV, "").strip()
    if value in ("", "0"):
        return frozenset()
    if value == "1":
        return None
    named = {m.strip() for m in value.split(",") if m.strip()}
    todo = list(named)
    while todo:  # the dependents' dependents too
        for dependent in SOURCE_DEPENDENTS.get(todo.pop(), ()):
            if dependent not in named:
                named.add(dependent)
                todo.append(dependent)
    return frozenset(named)


def pure_python_requested() -> bool:
    """Whether ``HOLDEM_ENV_PURE_PYTHON`` asks for the ``.py`` sources of some module."""
    return _pure_modules() != frozenset()


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``holdem_env`` modules (all, or those named) as their ``.py`` sources, passing over
    extension modules."""

    def __init__(self, modules: frozenset[str] | None) -> None:
        self.modules = modules

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not name.startswith("holdem_env.") or (self.modules is not None and name not in self.modules):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return spec
        source = Path(spec.origin).with_name(name.rpartition(".")[2] + ".py")  # type: ignore[arg-type]
        if not source.is_file():
            raise ModuleNotFoundError(f"{name} exists only compiled ({PURE_PYTHON_ENV} is set)", name=name)
        return importlib.util.spec_from_file_location(name, source)


def use_pure_python() -> None:
    """Load the modules ``HOLDEM_ENV_PURE_PYTHON`` names (``1``: every ``holdem_env`` module)
    from their ``.py`` sources from now on."""
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder(_pure_modules()))


def _extension_of(module: str) -> Path | None:
    """The compiled extension file of ``module`` next to its ``.py``, if there is one."""
    folder, _, short = module.removeprefix("holdem_env.").rpartition(".")
    directory = _PACKAGE_DIR.joinpath(*folder.split(".")) if folder else _PACKAGE_DIR
    if folder and not directory.is_dir() and folder.split(".")[0] in ("agents", "training"):
        directory = _PACKAGE_DIR.parent.joinpath(*folder.split("."))  # the repository's layout (setup.py MAPPED)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = directory / f"{short}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def build_info() -> dict[str, object]:
    """``{"compiled": [...], "stale": [...], "pure_python": bool}`` for this process.

    ``compiled``: the candidate modules that load from an extension here. ``stale``: those
    whose ``.py`` (or ``.pxd``) changed after the extension was built (run ``make build``). ``pure_python``:
    whether ``HOLDEM_ENV_PURE_PYTHON`` sends every import to the ``.py`` sources.
    """
    pure = _pure_modules()
    compiled, stale = [], []
    for module in CANDIDATES:
        ext = _extension_of(module)
        if ext is None or pure is None or module in pure:
            continue
        compiled.append(module)
        short = module.rpartition(".")[2]
        sources = (ext.with_name(short + ".py"), ext.with_name(short + ".pxd"))  # the .pxd types it, if any
        if any(p.is_file() and p.stat().st_mtime > ext.stat().st_mtime for p in sources):
            stale.append(module)
    return {"compiled": compiled, "stale": stale, "pure_python": pure is None}

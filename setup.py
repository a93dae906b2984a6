"""Optional compiled build of the engine's hot modules (Cython over the unchanged .py sources).

``pip install .`` / ``pip install -e .`` / ``make build`` (``python setup.py build_ext --inplace``)
compile the modules in ``COMPILED`` with Cython when a C compiler is available. The package
falls back to pure Python -- identical behaviour, only slower -- when:

* ``HOLDEM_ENV_PURE_PYTHON=1`` is set (nothing is compiled),
* Cython is not installed, or Cython rejects a module (one warning line, nothing is compiled:
  the ``.pxd`` files type classes across modules, so it is all or nothing),
* the C compiler fails on a module (``optional=True``: that module stays pure Python).

Every build writes ``holdem_env/_build_info.py`` (generated, git-ignored): for each compiled
module the sha256 of the sources it was built from (its ``.py``, its ``.pxd`` and the ``.pxd``
files it cimports). ``holdem_env.build_info()`` compares them with the sources on disk, and
``import holdem_env`` warns when a compiled module is stale (see ``holdem_env/_compiled.py``).
"""

from __future__ import annotations

import ast
import hashlib
import os
import pprint
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = "holdem_env"
BUILD_INFO = "_build_info.py"  # inside the package; read by holdem_env/_compiled.py

COMPILED = [
    "holdem_env/actions.py",
    "holdem_env/pots.py",
    "holdem_env/state.py",
    "holdem_env/_obs.py",
    "holdem_env/nlhe_v0.py",
    "holdem_env/record.py",
    "holdem_env/table.py",
    "holdem_env/evaluator.py",
    "holdem_env/cards.py",
    "holdem_env/_obsbuild_c.pyx",
]


def _warn(message: str) -> None:
    """One line on stderr (pip shows it with ``-v``; ``make build`` always shows it)."""
    print(f"WARNING: holdem-env: {message}", file=sys.stderr, flush=True)


def _sha256(path: Path) -> str | None:
    """Hex sha256 of a file's bytes, or None when the file does not exist."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def _module_name(path: str) -> str:
    """``"holdem_env/state.py"`` (or ``.pyx``) -> ``"holdem_env.state"``."""
    return path.rpartition(".")[0].replace("/", ".")


def _source_files(module: str) -> list[str]:
    """The package-relative files a module's extension is built from: its ``.py`` (or ``.pyx``)
    as listed in ``COMPILED``, its own ``.pxd`` (listed even when absent, so that adding one
    later marks the build stale) and every ``.pxd`` in the package that it cimports (Cython's
    own dependency tracking)."""
    short = module.rpartition(".")[2]
    source = next((p for p in COMPILED if _module_name(p) == module), f"{PACKAGE}/{short}.py")
    files = {Path(source).name, f"{short}.pxd"}
    try:
        from Cython.Build.Dependencies import create_dependency_tree

        for dep in create_dependency_tree().all_dependencies(source):
            path = Path(dep).resolve()
            if path.parent == HERE / PACKAGE:
                files.add(path.name)
    except Exception:  # noqa: BLE001 - dependency tracking is a refinement; the .py/.pxd pair suffices
        pass
    return sorted(files)


def _read_build_info(path: Path) -> dict:
    """The ``BUILD_INFO`` dict of an existing ``_build_info.py`` (empty when absent or unreadable)."""
    try:
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["BUILD_INFO"]:
                value = ast.literal_eval(node.value)
                return value if isinstance(value, dict) else {}
    except (OSError, SyntaxError, ValueError):
        pass
    return {}


class BuildExt(build_ext):
    """``build_ext`` that records, per extension it built (or found up to date), the sha256 of the
    sources it was built from, and writes them to ``holdem_env/_build_info.py`` next to the
    extensions (in the source tree for ``--inplace`` and editable installs, else in the build
    directory, so wheels carry it)."""

    def run(self) -> None:
        self._built: dict[str, dict[str, str | None]] = {}
        super().run()
        self._write_build_info()

    def build_extension(self, ext) -> None:
        super().build_extension(ext)  # raises on a compile error; build_ext skips optional failures
        self._built[ext.name] = {f: _sha256(HERE / PACKAGE / f) for f in _source_files(ext.name)}

    def _write_build_info(self) -> None:
        root = HERE if self.inplace else Path(self.build_lib)
        target = root / PACKAGE / BUILD_INFO
        modules = dict(_read_build_info(target).get("modules", {}))
        modules.update(self._built)
        # keep only records of extension files that exist where this build put them
        modules = {m: h for m, h in modules.items() if (root / self.get_ext_filename(m)).exists()}
        info = {
            "candidates": [_module_name(p) for p in COMPILED],
            "modules": dict(sorted(modules.items())),
        }
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            '"""Generated by setup.py at build time (git-ignored; do not edit): the modules setup.py\n'
            "compiles when it can, and for each compiled extension the sha256 of the sources it was\n"
            'built from. Read by holdem_env/_compiled.py to detect stale builds."""\n\n'
            f"BUILD_INFO = {pprint.pformat(info, width=110)}\n"
        )


def _extensions() -> list:
    """The Cython extensions to build, or [] for a pure-Python build (with one warning line why)."""
    if os.environ.get("HOLDEM_ENV_PURE_PYTHON", "") not in ("", "0"):
        print("holdem-env: HOLDEM_ENV_PURE_PYTHON is set: building pure Python (nothing compiled)", file=sys.stderr)
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        _warn(
            "Cython is not installed, so holdem_env builds as pure Python (same behaviour, slower); "
            "to compile: pip install 'Cython>=3.0', then make build (or python setup.py build_ext --inplace)"
        )
        return []
    try:
        exts = cythonize(
            COMPILED,
            language_level=3,
            quiet=True,
            compiler_directives={"annotation_typing": False, "binding": True, "embedsignature": True},
        )
    except Exception as err:  # noqa: BLE001 - any Cython failure must leave an installable package
        _warn(
            f"Cython could not compile holdem_env ({type(err).__name__}: {err}; details above), so it builds "
            "as pure Python (same behaviour, slower) and any existing .so files are left as they are; "
            "fix the reported .py/.pxd error and run make build, or delete holdem_env/*.so"
        )
        return []
    for ext in exts:
        ext.optional = True  # a failed C compile leaves the pure-Python module in place
    return exts


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})

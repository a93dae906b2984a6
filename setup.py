"""Package layout for setuptools, and the optional compiled build of the env's per-step path.

The repository keeps ``agents/`` and ``training/`` as top-level folders, but they are installed
as ``holdem_env.agents`` and ``holdem_env.training``: generic top-level names would collide with a
user's own ``agents`` or ``training`` package.

Compiled build: Cython compiles the unchanged ``.py`` sources listed in ``COMPILED`` (read from
``holdem_env/_build.py``'s ``CANDIDATES``) (those whose
compilation measurably paid; see ``benchmarks/BENCHMARKS.md``) into extension modules
that Python imports in place of the ``.py``. The ``.pxd`` file next to each (``engine/state.pxd``,
``env/_core.pxd``, ``env/_order.pxd``, ``env/_view.pxd``, ``agents/_rules.pxd``) declares its hot class as an extension type with typed fields. ``pip install`` and ``make build``
(``python setup.py build_ext --inplace``, incremental) compile them when Cython and a C
compiler are present; otherwise the package installs as pure Python (same behaviour, slower)
after one warning line. ``HOLDEM_ENV_PURE_PYTHON=1`` at build time compiles nothing; at run
time it makes ``import holdem_env`` use the ``.py`` sources even where extensions exist.
"""

from __future__ import annotations

import os
import sys

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

MAPPED = ("agents", "training")  # repository folder -> installed as holdem_env.<folder>


def _source_of(module: str) -> str:
    """A module's ``.py`` in the repository (``holdem_env.agents.x`` lives in ``agents/x.py``)."""
    path = module.replace(".", "/") + ".py"
    for folder in MAPPED:
        path = path.replace(f"holdem_env/{folder}/", f"{folder}/", 1) if path.startswith(f"holdem_env/{folder}/") else path
    return path


def _candidates() -> list[str]:
    """The compiled modules' sources, from holdem_env/_build.py's CANDIDATES (the one list; read from
    the file, since the package's dependencies may not be installed while it builds)."""
    import ast

    tree = ast.parse(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "holdem_env", "_build.py")).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "CANDIDATES" for t in node.targets):
            return [_source_of(name) for name in ast.literal_eval(node.value)]
    raise RuntimeError("holdem_env/_build.py defines no CANDIDATES")


def _module_of(path: str) -> str:
    """The installed module name of a compiled source path (the inverse of :func:`_source_of`)."""
    name = path.removesuffix(".py").replace("/", ".")
    return f"holdem_env.{name}" if name.split(".")[0] in MAPPED else name


COMPILED = _candidates()  # those that measurably paid (BENCHMARKS.md)
PURE_PYTHON_ENV = "HOLDEM_ENV_PURE_PYTHON"

# Folders holding only package data (policies, a sample hand history, the web page) are listed as
# packages too, which is how setuptools wants data in sub-folders shipped (pyproject's package-data).
DATA_PACKAGES = ["holdem_env.agents.data", "holdem_env.formats.data", "holdem_env.play.static"]

packages = find_packages(include=["holdem_env", "holdem_env.*"])
for folder in MAPPED:
    packages += [f"holdem_env.{name}" for name in find_packages(include=[folder, f"{folder}.*"])]
packages += DATA_PACKAGES


def _warn(why: str) -> None:
    print(f"WARNING: holdem-env builds as pure Python (same behaviour, slower): {why}", file=sys.stderr, flush=True)


def _extensions() -> list:
    """The Cython extensions, or [] (pure Python) with one warning line saying why."""
    if os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0"):
        return []
    try:
        from Cython.Build import cythonize

        # annotation_typing off: the type hints stay hints, so bad input reaches the sources' own checks
        # (and their clear errors) instead of Cython's argument TypeError.
        directives = {"binding": True, "annotation_typing": False}
        from setuptools import Extension

        # Cython names a module by its folders (agents/x.py: agents.x, which finds agents/x.pxd); the
        # extension then takes the installed name (holdem_env.agents.x).
        modules = [Extension(path.removesuffix(".py").replace("/", "."), [path]) for path in COMPILED]
        extensions = cythonize(modules, language_level=3, quiet=True, compiler_directives=directives)
        for ext in extensions:
            ext.name = _module_of(ext.sources[0].removesuffix(".c") + ".py")
        return extensions
    except Exception as exc:
        _warn(f"Cython is unavailable or failed ({type(exc).__name__}: {exc})")
        return []


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to pure Python, with one warning line, when compiling fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            _warn(f"the C build failed ({type(exc).__name__}: {exc})")

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            _warn(f"compiling {ext.name} failed ({type(exc).__name__}: {exc})")


setup(
    packages=packages,
    package_dir={f"holdem_env.{folder}": folder for folder in MAPPED},
    ext_modules=_extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
)

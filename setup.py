"""Optional compiled build of the engine's hot modules (Cython over the unchanged .py sources).

``pip install .`` / ``pip install -e .`` compile the modules in ``COMPILED`` with Cython when a C
compiler is available; when compiling fails (or ``HOLDEM_ENV_PURE_PYTHON=1`` is set) the package
installs as pure Python and behaves identically, only slower.
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = [
    "holdem_env/actions.py",
    "holdem_env/pots.py",
    "holdem_env/state.py",
    "holdem_env/_obs.py",
    "holdem_env/nlhe_v0.py",
]


def _extensions() -> list:
    if os.environ.get("HOLDEM_ENV_PURE_PYTHON", "") not in ("", "0"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    exts = cythonize(
        COMPILED,
        language_level=3,
        quiet=True,
        compiler_directives={"annotation_typing": False, "binding": True, "embedsignature": True},
    )
    for ext in exts:
        ext.optional = True  # a failed compile leaves the pure-Python module in place
    return exts


setup(ext_modules=_extensions())

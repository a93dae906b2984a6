"""Which ``holdem_env`` modules run compiled (Cython) and whether each compiled build is current.

``setup.py`` may compile some modules from their unchanged ``.py`` sources (see its docstring);
Python then imports the extension (``state.cpython-311-x86_64-linux-gnu.so``) instead of
``state.py``. Each build writes ``holdem_env/_build_info.py``: for every compiled module the
sha256 of the files it was built from. A compiled module is *stale* when one of those files
has changed on disk since -- the code that runs is then not the code you read or edited.

:func:`build_info` reports the state; :func:`warn_if_stale` (called once by
``import holdem_env``) emits a single :class:`RuntimeWarning` naming the stale modules and the
fix. Only the standard library is used, nothing is imported eagerly, and the cost is a
directory listing plus hashing a few source files when extensions are present.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import warnings
from collections.abc import Mapping
from pathlib import Path

PACKAGE = __name__.rpartition(".")[0]  # "holdem_env"
PACKAGE_DIR = Path(__file__).resolve().parent
BUILD_INFO_FILE = PACKAGE_DIR / "_build_info.py"

FIX = (
    "rebuild with `make build` (or `python setup.py build_ext --inplace`) in the source checkout "
    "(reinstall with pip when installed from a wheel), or delete the stale holdem_env/*.so files "
    "to run the pure-Python sources"
)

__all__ = ["PURE_PYTHON_ENV", "build_info", "stale_message", "stale_reasons", "use_pure_python", "warn_if_stale"]

#: Set to 1 at build time, nothing is compiled; set at run time (before ``import holdem_env``),
#: the ``.py`` sources run even where compiled extensions exist (debuggers, coverage, profilers).
PURE_PYTHON_ENV = "HOLDEM_ENV_PURE_PYTHON"


def _sha256(path: Path) -> str | None:
    """Hex sha256 of a file's bytes, or None when the file does not exist."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _read_build_info(path: Path = BUILD_INFO_FILE) -> dict | None:
    """The ``BUILD_INFO`` dict written by setup.py, or None when there is no (readable) record.

    Parsed with :mod:`ast` rather than imported, so a rebuild within the same second can never
    be hidden by a cached ``.pyc``.
    """
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["BUILD_INFO"]:
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
    return None


def _extension_modules(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """``{module name: extension file name}`` for the compiled extensions in the package folder."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found: dict[str, str] = {}
    try:
        names = os.listdir(package_dir)
    except OSError:
        return found
    for name in names:
        for suffix in suffixes:
            if name.endswith(suffix):
                found.setdefault(f"{PACKAGE}.{name[: -len(suffix)]}", name)
                break
    return found


def _setup_py_candidates() -> list[str]:
    """The ``COMPILED`` list of ``setup.py`` next to the package (a source checkout never built)."""
    try:
        tree = ast.parse((PACKAGE_DIR.parent / "setup.py").read_text())
    except (OSError, SyntaxError, ValueError):
        return []
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["COMPILED"]:
            try:
                paths = ast.literal_eval(node.value)
            except ValueError:
                return []
            return [
                p.rpartition(".")[0].replace("/", ".")
                for p in paths
                if isinstance(p, str) and p.startswith(f"{PACKAGE}/") and p.endswith((".py", ".pyx"))
            ]
    return []


def _is_compiled(module: str) -> bool | None:
    """True when importing ``module`` loads (or loaded) an extension, False for a ``.py``,
    None when no such module exists. Finds the spec without importing the module."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    return spec.origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _current_hashes(module: str, recorded: Mapping[str, str | None] | None) -> dict[str, str | None]:
    """sha256 of the files a module's build depends on, as they are on disk now: the files in its
    build record plus its own ``.py`` and ``.pxd`` (None for a file that does not exist; a
    Cython-only module's ``.pyx`` comes from its record)."""
    short = module.rpartition(".")[2]
    files = {f"{short}.py", f"{short}.pxd", *(recorded or {})}
    return {f: _sha256(PACKAGE_DIR / f) for f in sorted(files)}


def stale_reasons(
    recorded: Mapping[str, Mapping[str, str | None]],
    current: Mapping[str, Mapping[str, str | None]],
) -> dict[str, str]:
    """Compare build records with the sources on disk; ``{module: why it is stale}``.

    ``recorded`` maps each compiled module to ``{file name: sha256 when it was built, or None
    if the file did not exist then}`` (``_build_info.py``); ``current`` maps the compiled
    modules to the same for the files on disk now (None: absent now). A module is stale when it
    has no build record, or when a file present now differs from (or did not exist at) the
    build. A file absent now is not checked: wheels ship no ``.pxd`` and may ship no ``.py``.
    """
    reasons: dict[str, str] = {}
    for module in sorted(current):
        record = recorded.get(module)
        if record is None:
            reasons[module] = (
                "no build record in holdem_env/_build_info.py (built by an older setup.py, or the record was deleted)"
            )
            continue
        changed = []
        for name, now in sorted(current[module].items()):
            if now is None:
                continue
            then = record.get(name)
            if then is None:
                changed.append(f"{name} is newer than the build")
            elif then != now:
                changed.append(f"{name} changed since the build")
        if changed:
            reasons[module] = ", ".join(changed)
    return reasons


class _PurePythonFinder(importlib.abc.MetaPathFinder):
    """Loads ``holdem_env.<module>`` from its ``.py`` even when an extension sits beside it, and
    refuses the modules that exist only compiled (their callers fall back to a Python twin)."""

    def find_spec(self, fullname: str, path: object = None, target: object = None):  # noqa: ANN201
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE:
            return None
        source = PACKAGE_DIR / f"{name}.py"
        if source.is_file():
            return importlib.util.spec_from_file_location(fullname, source)
        if any((PACKAGE_DIR / f"{name}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES):
            raise ImportError(f"{fullname} exists only compiled and {PURE_PYTHON_ENV} is set", name=fullname)
        return None


def use_pure_python() -> bool:
    """Make the rest of ``holdem_env`` import from its ``.py`` sources, compiled or not.

    ``import holdem_env`` calls it when ``HOLDEM_ENV_PURE_PYTHON`` is set (not ``""``/``"0"``);
    modules imported before it keep what they loaded. Returns False if it was already on.
    """
    import sys

    if any(isinstance(f, _PurePythonFinder) for f in sys.meta_path):
        return False
    sys.meta_path.insert(0, _PurePythonFinder())
    return True


def _pure_python_active() -> bool:
    import sys

    return any(isinstance(f, _PurePythonFinder) for f in sys.meta_path)


def pure_python_requested() -> bool:
    """Whether the environment asks for the pure-Python sources (``HOLDEM_ENV_PURE_PYTHON``)."""
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


def build_info() -> dict:
    """Which modules of the package run compiled, which run as pure Python, which are stale.

    Returns a dict:

    * ``"compiled"``: modules imported from a compiled extension (``.so``), sorted;
    * ``"pure_python"``: modules setup.py compiles when it can that run from their ``.py``;
    * ``"stale"``: compiled modules whose sources changed since their extension was built;
    * ``"stale_reasons"``: ``{module: which file changed}`` for the stale ones;
    * ``"build_info_file"``: the build record read (a path), or None when there is none;
    * ``"forced_pure_python"``: True when ``HOLDEM_ENV_PURE_PYTHON`` made this process load the
      ``.py`` sources (extensions present are then ignored).

    >>> info = build_info()
    >>> sorted(info)
    ['build_info_file', 'compiled', 'forced_pure_python', 'pure_python', 'stale', 'stale_reasons']
    >>> set(info["stale"]) <= set(info["compiled"])
    True
    """
    record = _read_build_info()
    modules: dict = (record or {}).get("modules", {}) or {}
    candidates = set((record or {}).get("candidates", ()) or ()) | set(_extension_modules())
    if record is None:
        candidates |= set(_setup_py_candidates())
    compiled, pure = [], []
    for module in sorted(candidates):
        state = _is_compiled(module)
        if state is True:
            compiled.append(module)
        elif state is False:
            pure.append(module)
    current = {m: _current_hashes(m, modules.get(m)) for m in compiled}
    reasons = stale_reasons(modules, current)
    return {
        "compiled": compiled,
        "pure_python": pure,
        "stale": sorted(reasons),
        "stale_reasons": reasons,
        "build_info_file": str(BUILD_INFO_FILE) if record is not None else None,
        "forced_pure_python": _pure_python_active(),
    }


def stale_message(reasons: Mapping[str, str]) -> str:
    """The warning text for stale compiled modules: which, why, and how to fix it."""
    by_reason: dict[str, list[str]] = {}
    for module, why in sorted(reasons.items()):
        by_reason.setdefault(why, []).append(module)
    detail = "; ".join(f"{', '.join(mods)}: {why}" for why, mods in by_reason.items())
    return (
        f"holdem_env: stale compiled build, the extension modules that run may not match their "
        f"current source ({detail}). Fix: {FIX}."
    )


def warn_if_stale() -> None:
    """Emit one RuntimeWarning if any compiled module is stale (called by ``import holdem_env``).

    Free when nothing is compiled (one directory listing). Never raises: a broken check must not
    break the import.
    """
    try:
        if not _extension_modules():
            return
        reasons = build_info()["stale_reasons"]
    except Exception:  # noqa: BLE001 - the check is advisory
        return
    if reasons:
        warnings.warn(stale_message(reasons), RuntimeWarning, stacklevel=2)

"""Type-check the package under the names it is imported by (``make typecheck``).

``agents/`` and ``training/`` are installed as ``holdem_env.agents`` and ``holdem_env.training``
(setup.py's ``package_dir``), which mypy cannot see from the repository layout: run on the folders,
it names them ``agents.*`` and ``training.*``, and every ``import holdem_env.agents...`` or
``import holdem_env.training...`` becomes an unchecked ``Any``. So this script writes a tree of
links in the installed layout, ``build/typecheck/holdem_env/`` (``engine -> holdem_env/engine``,
``agents -> agents``, ``training -> training``, ...), runs mypy (configured in pyproject.toml) on
it, and prints mypy's report with each path put back to the repository's own (``agents/ppo.py``,
not ``build/typecheck/holdem_env/agents/ppo.py``), so editors and CI logs point at the real file.

Usage: ``python tools/typecheck.py [--root DIR] [-- MYPY ARGS...]`` (exit status: mypy's).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPED = ("agents", "training")  # repository folder -> holdem_env.<folder> (setup.py's package_dir)
SHADOW = Path("build") / "typecheck"  # relative to the repository root; `make clean-build` removes it
SKIP = {"__pycache__"}
PATH_AT_LINE_START = re.compile(r"^([^:\s]+\.pyi?)(?=:)")


def write_shadow_tree(root: Path) -> Path:
    """(Re)write ``root/build/typecheck/holdem_env`` as relative links into ``root``; return that folder."""
    package = root / SHADOW / "holdem_env"
    if package.parent.exists():
        shutil.rmtree(package.parent)
    package.mkdir(parents=True)
    up = Path(*[".."] * len(package.relative_to(root).parts))  # from the shadow package back to root
    targets = {entry.name: Path("holdem_env") / entry.name for entry in (root / "holdem_env").iterdir()}
    targets.update({folder: Path(folder) for folder in MAPPED})
    for name, target in sorted(targets.items()):
        if name in SKIP:
            continue
        (package / name).symlink_to(up / target, target_is_directory=(root / target).is_dir())
    return package


def real_path(shown: str, root: Path) -> str:
    """A path as mypy printed it (inside the shadow tree), as the repository's own relative path."""
    path = Path(shown) if os.path.isabs(shown) else root / shown
    try:
        path.relative_to(root / SHADOW)
    except ValueError:
        return shown
    resolved = Path(os.path.realpath(path))
    try:
        return str(resolved.relative_to(root.resolve()))
    except ValueError:
        return str(resolved)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository to check (default: this one)")
    parser.add_argument("mypy_args", nargs="*", help="passed on to mypy (after --)")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    package = write_shadow_tree(root)
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
    command += [*args.mypy_args, str(package.relative_to(root))]
    process = subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        sys.stdout.write(PATH_AT_LINE_START.sub(lambda match: real_path(match.group(1), root), line))
    sys.stdout.flush()
    return process.wait()


if __name__ == "__main__":
    sys.exit(main())

"""Architecture checks over the whole repository: import directions, doctests, self-containment.

Dependencies point one way (docs/architecture.md)::

    engine  <-  formats
    engine  <-  env  <-  agents  <-  training  <-  cli / play

The layering is read from the source (every ``import``, also those inside functions), so a
forbidden import fails here even on a code path no other test runs.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import holdem_env

ROOT = Path(__file__).resolve().parent.parent

#: repository folder -> installed package (setup.py's package_dir mapping)
PACKAGE_ROOTS = {"holdem_env": "holdem_env", "agents": "holdem_env.agents", "training": "holdem_env.training"}

#: layer -> what it must never import (first-party layers or third-party top-level packages)
FORBIDDEN: dict[str, frozenset[str]] = {
    "engine": frozenset(
        {"env", "formats", "agents", "training", "cli", "play", "pettingzoo", "gymnasium", "torch", "tensorboard"}
    ),
    "formats": frozenset({"env", "agents", "training", "cli", "play", "pettingzoo", "gymnasium", "torch"}),
    "env": frozenset({"agents", "training", "cli", "play", "torch", "tensorboard"}),
    "agents": frozenset({"training", "cli", "play"}),
    "training": frozenset({"cli", "play"}),
    "acpc": frozenset({"training", "cli", "play", "torch"}),  # the ACPC dealer/client: engine, env, agents
    "util": frozenset({"engine", "env", "formats", "agents", "training", "cli", "play", "pettingzoo", "torch"}),
    "cli": frozenset(),  # the top: the command line and the play server may use every layer
    "play": frozenset({"cli"}),
}


def module_name(path: Path, root: Path = ROOT) -> str:
    """The installed dotted name of a source file of the repository."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    parts[0] = PACKAGE_ROOTS[parts[0]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str | None:
    """The layer of a first-party module, or None for the package root and alias modules."""
    parts = module.split(".")
    if parts[0] != "holdem_env" or len(parts) == 1:
        return None
    if parts[1] in ("engine", "env", "formats", "agents", "training", "cli", "play", "acpc"):
        return parts[1]
    if parts[1] in ("fileutil", "allocator", "signals"):
        return "util"
    return None


def imported_names(path: Path, module: str) -> list[tuple[int, str]]:
    """Every module a source file imports, absolute, with its line number (relative imports resolved)."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names if alias.name != "*"]
    return found


def forbidden_imports(root: Path = ROOT) -> list[str]:
    """``"file:line: layer imports name"`` for each import that breaks the layering."""
    problems: list[str] = []
    for folder in PACKAGE_ROOTS:
        for path in sorted((root / folder).rglob("*.py")):
            module = module_name(path, root)
            layer = layer_of(module)
            if layer is None:
                continue
            reported: set[int] = set()
            for line, name in imported_names(path, module):
                target = layer_of(name) if name.startswith("holdem_env.") else name.split(".")[0]
                if target in FORBIDDEN[layer] and target != layer and line not in reported:
                    reported.add(line)
                    problems.append(f"{path.relative_to(root)}:{line}: {layer} imports {name}")
    return sorted(problems)


def test_no_layer_imports_a_layer_above_it() -> None:
    assert forbidden_imports() == []


@pytest.mark.parametrize(
    ("where", "line", "expected"),
    [
        ("holdem_env/engine/planted.py", "from holdem_env.env import nlhe_v0", "engine imports holdem_env.env"),
        ("holdem_env/engine/planted.py", "import torch", "engine imports torch"),
        ("holdem_env/engine/planted.py", "def f():\n    import pettingzoo", "engine imports pettingzoo"),
        ("holdem_env/env/planted.py", "from holdem_env.agents.base import Agent", "env imports holdem_env.agents"),
        ("agents/planted.py", "from holdem_env.training import arena", "agents imports holdem_env.training"),
        ("agents/sub/planted.py", "from ...training.arena import run_match", "agents imports holdem_env.training"),
        ("holdem_env/formats/planted.py", "from ..env import _obs", "formats imports holdem_env.env"),
    ],
)
def test_a_planted_forbidden_import_is_reported(tmp_path: Path, where: str, line: str, expected: str) -> None:
    for folder in PACKAGE_ROOTS:
        (tmp_path / folder).mkdir()
    planted = tmp_path / where
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_text(line + "\n")
    problems = forbidden_imports(tmp_path)
    assert problems, f"planted {line!r} in {where} was not reported"
    assert all(p.startswith(f"{where}:") for p in problems)
    assert any(expected in p for p in problems), problems


def test_a_planted_forbidden_import_fails_then_passes_when_removed(tmp_path: Path) -> None:
    for folder in PACKAGE_ROOTS:
        (tmp_path / folder / "sub").mkdir(parents=True)
    bad = tmp_path / "agents" / "sub" / "bot.py"
    bad.write_text("from holdem_env.training.arena import run_match\n")
    assert forbidden_imports(tmp_path) == ["agents/sub/bot.py:1: agents imports holdem_env.training.arena"]
    bad.write_text("from holdem_env.engine.cards import parse_cards\n")
    assert forbidden_imports(tmp_path) == []


# --------------------------------------------------------------------------- imports inside functions

#: A first-party import inside a function says why it is not at the top of its module: a comment
#: ``# late import: <reason>`` on its line or right above it (one comment may head a run of imports).
LATE_IMPORT = re.compile(r"#\s*late import:\s*\S")

def _function_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement inside a function body (nested functions included), in line order."""
    found: dict[int, ast.Import | ast.ImportFrom] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    found[inner.lineno] = inner
    return [found[line] for line in sorted(found)]


def _first_party_target(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> str | None:
    """The first-party module an import names (relative imports resolved), or None for a third-party one."""
    if isinstance(node, ast.ImportFrom) and node.level:
        base = (module if is_package else module.rpartition(".")[0]).split(".")
        base = base[: len(base) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))
    names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [alias.name for alias in node.names]
    first_party = [n for n in names if n == "holdem_env" or n.startswith("holdem_env.")]
    return first_party[0] if first_party else None


def _late_imports_without_reason(root: Path) -> list[tuple[str, int, str]]:
    """``(file, line, imported module)`` of each first-party import inside a function with no reason comment."""
    found: list[tuple[str, int, str]] = []
    for folder in PACKAGE_ROOTS:
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            text = path.read_text()
            lines = text.splitlines()
            imports = _function_imports(ast.parse(text, str(path)))
            import_lines = {n for node in imports for n in range(node.lineno, (node.end_lineno or node.lineno) + 1)}
            for node in imports:
                target = _first_party_target(node, module_name(path, root), path.name == "__init__.py")
                if target is None:
                    continue
                own = lines[node.lineno - 1 : node.end_lineno or node.lineno]
                above = node.lineno - 2  # 0-based index of the line above
                while above >= 0 and above + 1 in import_lines:  # up the run of imports this one is part of
                    above -= 1
                comments = []
                while above >= 0 and lines[above].strip().startswith("#"):
                    comments.append(lines[above])
                    above -= 1
                if not any(LATE_IMPORT.search(line) for line in own + comments):
                    found.append((rel, node.lineno, target))
    return found


def unexplained_late_imports(root: Path = ROOT) -> list[str]:
    """``"file:line: late import of name has no '# late import: <reason>' comment"`` for each one."""
    return [
        f"{rel}:{line}: late import of {target} has no '# late import: <reason>' comment"
        for rel, line, target in _late_imports_without_reason(root)
    ]


def test_every_first_party_import_inside_a_function_says_why() -> None:
    assert unexplained_late_imports() == []


@pytest.mark.parametrize(
    ("source", "reported"),
    [
        ("def f():\n    from holdem_env.engine.cards import card_str\n", True),
        ("def f():\n    from ..engine import cards\n", True),
        ("def f():\n    import holdem_env.engine.cards\n", True),
        ("class A:\n    def m(self):\n        def g():\n            from holdem_env.env import nlhe_v1\n", True),
        ("def f():\n    # imported late\n    from holdem_env.engine.cards import card_str\n", True),
        ("def f():\n    # late import:\n    from holdem_env.engine.cards import card_str\n", True),  # no reason
        ("def f():\n    # late import: a cycle\n    from holdem_env.engine import state\n\n    x = 1\n"
         "    from holdem_env.engine import cards\n", True),  # the comment covers its own run only
        ("def f():\n    # late import: a cycle\n    from holdem_env.engine.cards import card_str\n", False),
        ("def f():\n    from holdem_env.engine import cards  # late import: a cycle\n", False),
        ("def f():\n    # late import: torch, only\n    # for the learner\n    from holdem_env.training import ppo\n"
         "    from holdem_env.training import pool\n", False),
        ("def f():\n    import numpy\n    from pathlib import Path\n", False),  # third-party and standard library
        ("from holdem_env.engine.cards import card_str\n", False),  # the top of the module
    ],
)
def test_a_planted_late_import_without_a_reason_is_reported(tmp_path: Path, source: str, reported: bool) -> None:
    for folder in PACKAGE_ROOTS:
        (tmp_path / folder).mkdir()
    (tmp_path / "holdem_env" / "planted.py").write_text(source)
    problems = unexplained_late_imports(tmp_path)
    assert bool(problems) == reported, problems
    assert all(p.startswith("holdem_env/planted.py:") for p in problems)


def import_cycles(root: Path = ROOT, package: str = "holdem_env.engine") -> list[list[str]]:
    """Each import cycle among the modules of ``package`` (every import, inside functions too), sorted."""
    folder = root.joinpath(*package.split("."))
    modules = {module_name(path, root): path for path in sorted(folder.glob("*.py"))}
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for _line, imported in imported_names(path, name):
            parts = imported.split(".")
            target = next((".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in modules), None)
            if target is not None and target != name:
                edges[name].add(target)
    # Tarjan's strongly connected components: a component of more than one module is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(cycles)


def test_the_engine_modules_import_one_another_without_a_cycle() -> None:
    assert import_cycles() == []


@pytest.mark.parametrize(
    ("a", "b", "cycle"),
    [
        ("from holdem_env.engine.b import B\n", "from holdem_env.engine.a import A\n", True),
        ("from . import b\n", "def f():\n    from .a import A\n", True),  # one side inside a function
        ("import holdem_env.engine.b\n", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n", True),
        ("from holdem_env.engine.b import B\n", "from holdem_env.engine.c import C\n", False),
        ("from holdem_env.engine import b\n", "import numpy\n", False),
    ],
)
def test_a_planted_engine_import_cycle_is_reported(tmp_path: Path, a: str, b: str, cycle: bool) -> None:
    engine = tmp_path / "holdem_env" / "engine"
    engine.mkdir(parents=True)
    (engine / "__init__.py").write_text("")
    (engine / "a.py").write_text(a)
    (engine / "b.py").write_text(b)
    (engine / "c.py").write_text("from holdem_env.engine.b import B\n" if cycle else "")
    expected = [["holdem_env.engine.a", "holdem_env.engine.b"]] if cycle else []
    assert import_cycles(tmp_path) == expected


def test_engine_imports_no_pettingzoo_gymnasium_or_torch_at_run_time() -> None:
    engine = [module_name(p) for p in sorted((ROOT / "holdem_env" / "engine").glob("*.py"))]
    code = (
        "import sys, importlib\n"
        f"for m in {engine + ['holdem_env', 'holdem_env.formats.phh', 'holdem_env.formats.replay']!r}:\n"
        "    importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pettingzoo','gymnasium','torch','tensorboard'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine pulled in: {out.stdout.strip()}"


# --------------------------------------------------------------------------- doctests

def _all_modules() -> list[str]:
    """Every module of the installed package, agents and training (mapped folders) included."""
    names = {"holdem_env"}
    for package in ("holdem_env", "holdem_env.agents", "holdem_env.training"):
        module = importlib.import_module(package)
        names.add(package)
        names.update(info.name for info in pkgutil.walk_packages(module.__path__, package + "."))
    aliases = ("holdem_env.nlhe_v", "holdem_env.env.nlhe_v0", "holdem_env.gym_wrapper", "holdem_env.phh")
    return sorted(n for n in names if not n.startswith(aliases) and not n.endswith("__main__"))


ALL_MODULES = _all_modules()

#: Third-party packages of the optional extras (a module needing one is skipped when it is absent).
OPTIONAL_DEPENDENCIES = frozenset({"starlette", "uvicorn", "websockets", "ray", "sb3_contrib", "stable_baselines3", "tianshou", "supersuit"})

#: Modules whose public functions carry examples: each must have at least one doctest.
MUST_HAVE_EXAMPLES = [
    "holdem_env",
    "holdem_env.engine.cards",
    "holdem_env.engine.config",
    "holdem_env.engine.errors",
    "holdem_env.engine.actions",
    "holdem_env.engine.pots",
    "holdem_env.engine.state",
    "holdem_env.engine.table",
    "holdem_env.engine.evaluator",
    "holdem_env.engine.equity",
    "holdem_env.engine.ranges",
    "holdem_env.formats.phh",
    "holdem_env.formats.replay",
]


@pytest.mark.parametrize("name", ALL_MODULES)
def test_module_doctests(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:  # a module of an optional extra (e.g. play: starlette)
        if exc.name and exc.name.split(".")[0] in OPTIONAL_DEPENDENCIES:
            pytest.skip(f"{name} needs the optional {exc.name!r} (pip install -e '.[dev]')")
        raise
    finder = doctest.DocTestFinder(exclude_empty=True)
    examples = sum(len(t.examples) for t in finder.find(module))
    if name in MUST_HAVE_EXAMPLES:
        assert examples > 0, f"{name} is listed in MUST_HAVE_EXAMPLES but has no doctest"
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_module_list_covers_the_packages() -> None:
    assert set(MUST_HAVE_EXAMPLES) <= set(ALL_MODULES)
    assert {"holdem_env.agents.base", "holdem_env.training.arena", "holdem_env.env.nlhe_v1"} <= set(ALL_MODULES)


def test_public_names_resolve() -> None:
    missing = [n for n in holdem_env.__all__ if not hasattr(holdem_env, n)]
    assert missing == []


# --------------------------------------------------------------------------- the installed names


def test_a_users_own_agents_and_training_packages_do_not_collide(tmp_path: Path) -> None:
    """The repository's agents/ and training/ are installed as holdem_env.agents / .training, so a
    researcher's own top-level ``agents`` package next to their script keeps working with ours."""
    for name in ("agents", "training"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"WHO = 'the users own {name}'\n")
    (tmp_path / "agents" / "mine.py").write_text(
        "class AlwaysCall:\n    def act(self, observation, info):\n        return 1\n"
    )
    code = (
        "import agents, training\n"
        "from holdem_env.cli import main\n"
        "assert agents.WHO.endswith('agents') and training.WHO.endswith('training')\n"
        "raise SystemExit(main(['eval', 'agents.mine:AlwaysCall', 'random', '--hands', '8', '--players', '2',"
        " '--workers', '1', '--seed', '3']))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "agents.mine:AlwaysCall" in out.stdout or "AlwaysCall" in out.stdout


# --------------------------------------------------------------------------- self-containment

OUTSIDE_PATTERNS = ("../shared", "shared/RULES", "shared/STYLE", "shared/seeds", "/work/", "seeds/00")


def test_no_file_of_the_repository_refers_to_a_path_outside_it() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offenders = []
    for rel in tracked:
        path = ROOT / rel
        if rel == "tests/test_layering.py" or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        offenders += [f"{rel}: {pattern}" for pattern in OUTSIDE_PATTERNS if pattern in text]
    assert offenders == []

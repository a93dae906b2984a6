"""Layering and documentation checks that span the whole package.

Rule of thumb 1 (STYLE.md): dependencies point one way, engine <- env <- agents, training.
The engine imports no PettingZoo, Gymnasium or torch.
"""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import pytest

ENGINE_MODULES = [
    "holdem_env",
    "holdem_env.engine.cards",
    "holdem_env.engine.config",
    "holdem_env.engine.errors",
    "holdem_env.engine.actions",
    "holdem_env.engine.pots",
    "holdem_env.engine.state",
    "holdem_env.engine.record",
    "holdem_env.engine.table",
    "holdem_env.engine.evaluator",
    "holdem_env.engine.equity",
    "holdem_env.engine.ranges",
    "holdem_env.formats.phh",
    "holdem_env.formats.replay",
    "holdem_env.cli.replay",
    "holdem_env.cli",
]


def test_engine_imports_no_pettingzoo_gymnasium_or_torch() -> None:
    code = (
        "import sys, importlib\n"
        f"for m in {ENGINE_MODULES!r}:\n"
        "    importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pettingzoo','gymnasium','torch','tensorboard'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine pulled in: {out.stdout.strip()}"


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_engine_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_public_names_resolve() -> None:
    import holdem_env

    missing = [n for n in holdem_env.__all__ if not hasattr(holdem_env, n)]
    assert missing == []

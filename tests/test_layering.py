"""Rule of thumb 1: the engine imports no PettingZoo, Gymnasium or torch."""

from __future__ import annotations

import subprocess
import sys

ENGINE_MODULES = [
    "holdem_env",
    "holdem_env.cards",
    "holdem_env.config",
    "holdem_env.errors",
    "holdem_env.cli",
]


def test_engine_imports_no_pettingzoo_gymnasium_or_torch() -> None:
    code = (
        "import sys, importlib\n"
        f"for m in {ENGINE_MODULES!r}:\n"
        "    try: importlib.import_module(m)\n"
        "    except ModuleNotFoundError: pass\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pettingzoo','gymnasium','torch','tensorboard'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"engine pulled in: {out.stdout.strip()}"

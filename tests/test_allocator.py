"""holdem_env.allocator: freed table buffers are reused instead of returned to the kernel.

The measure is the page faults of the real workload (tag's heads-up flop tables), counted by
the kernel for a fresh interpreter each time, so the tests see what a ``holdem`` process sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import holdem_env.cli as cli
from holdem_env.allocator import MMAP_THRESHOLD, TRIM_THRESHOLD, _glibc, tune_allocator

pytestmark = pytest.mark.skipif(_glibc() is None, reason="glibc's allocator only (Linux)")

WORKLOAD = """
import json, os, resource, sys
import numpy as np
from holdem_env.allocator import tune_allocator
tuned = tune_allocator() if sys.argv[1] == "tune" else None
from holdem_env.engine import ranges as R
rng = np.random.default_rng(0)
boards = [rng.choice(52, 3, replace=False) for _ in range(5)]
R.equity_against_random(boards[0], R.flop_runouts(boards[0])[:64])
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for b in boards[1:]:
    R.equity_against_random(b, R.flop_runouts(b)[:64])
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
print(json.dumps({"tuned": tuned, "faults": faults, "tunables": os.environ.get("GLIBC_TUNABLES")}))
"""


def _run(mode: str, **env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in ("GLIBC_TUNABLES", "HOLDEM_ENV_MALLOC")}
    out = subprocess.run(
        [sys.executable, "-c", WORKLOAD, mode], env={**base, **env}, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_tuned_process_reuses_the_tables_memory() -> None:
    plain = _run("plain")
    tuned = _run("tune")
    assert tuned["tuned"] is True
    # Four flop tables touch tens of megabytes of fresh pages with glibc's defaults.
    assert plain["faults"] > 2_000, plain
    assert tuned["faults"] * 20 < plain["faults"], (tuned, plain)
    assert f"glibc.malloc.mmap_threshold={MMAP_THRESHOLD}" in tuned["tunables"]
    assert f"glibc.malloc.trim_threshold={TRIM_THRESHOLD}" in tuned["tunables"]


def test_processes_started_afterwards_inherit_the_settings() -> None:
    """What the ``holdem`` command's spawned and Ray workers get: the tunables in their environment."""
    tunables = f"glibc.malloc.mmap_threshold={MMAP_THRESHOLD}:glibc.malloc.trim_threshold={TRIM_THRESHOLD}"
    child = _run("plain", GLIBC_TUNABLES=tunables)
    plain = _run("plain")
    assert child["faults"] * 20 < plain["faults"], (child, plain)


def test_opting_out_and_user_tunables_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOLDEM_ENV_MALLOC", "default")
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    assert tune_allocator() is False
    assert "GLIBC_TUNABLES" not in os.environ
    monkeypatch.delenv("HOLDEM_ENV_MALLOC")
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2")
    assert tune_allocator() is False
    assert os.environ["GLIBC_TUNABLES"] == "glibc.malloc.arena_max=2"
    assert _run("tune", HOLDEM_ENV_MALLOC="default")["tuned"] is False


def test_other_tunables_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOLDEM_ENV_MALLOC", raising=False)
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.rtld.optional_static_tls=2048")
    assert tune_allocator() is True
    parts = os.environ["GLIBC_TUNABLES"].split(":")
    assert parts[0] == "glibc.rtld.optional_static_tls=2048"
    assert f"glibc.malloc.mmap_threshold={MMAP_THRESHOLD}" in parts


def test_the_holdem_command_tunes_before_running_a_subcommand(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    calls: list[str] = []
    monkeypatch.setattr(cli, "tune_allocator", lambda: calls.append("tuned") or True)
    assert cli.main(["replay", "/nonexistent/hands.phh"]) != 0
    assert calls == ["tuned"]
    assert cli.main([]) == 2  # the bare command prints its help and starts nothing
    assert calls == ["tuned"]

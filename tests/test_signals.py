"""SIGTERM ends the entry points through their clean-up: worker pools are shut down, not orphaned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from holdem_env.signals import SIGTERM_STATUS, exit_on_sigterm

SCRIPT = textwrap.dedent(
    """
    import sys, time
    from holdem_env.signals import exit_on_sigterm
    from holdem_env.training.backends import LocalBackend

    if __name__ == "__main__":
        if sys.argv[1] == "handler":
            exit_on_sigterm()
        backend = LocalBackend(2)
        try:
            backend.map(time.sleep, [0.01, 0.01])
            print(" ".join(str(p) for p in backend._pool._processes), flush=True)
            while True:
                backend.map(time.sleep, [0.2, 0.2])
        finally:
            backend.close()
    """
)


def _alive(pid: int) -> bool:
    """Running or sleeping (a zombie or a missing process is not alive)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    state = next(line for line in status.splitlines() if line.startswith("State:"))
    return "Z" not in state.split()[1]


def _kill_and_watch(tmp_path: Path, mode: str) -> tuple[int, list[int]]:
    script = tmp_path / "pool_script.py"
    script.write_text(SCRIPT)
    proc = subprocess.Popen([sys.executable, str(script), mode], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    workers = [int(p) for p in proc.stdout.readline().split()]
    assert len(workers) == 2 and all(_alive(p) for p in workers)
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=60)
    deadline = time.monotonic() + (10 if mode == "handler" else 1)  # orphans never leave: 1 s shows them
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    return code, [p for p in workers if _alive(p)]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads process states from /proc")
def test_sigterm_shuts_the_worker_pool_down(tmp_path: Path) -> None:
    """With :func:`exit_on_sigterm` a killed process exits 143 through its ``finally`` and its two
    pool workers are gone; without it (Python's default) the workers are left running."""
    code, left = _kill_and_watch(tmp_path, "handler")
    assert code == SIGTERM_STATUS and left == []
    code, left = _kill_and_watch(tmp_path, "default")
    try:
        assert code == -signal.SIGTERM and len(left) == 2  # the orphans this module exists to prevent
    finally:
        for pid in left:
            os.kill(pid, signal.SIGKILL)


def test_a_handler_already_set_is_kept() -> None:
    def mine(signum: int, frame: object) -> None:
        pass

    previous = signal.signal(signal.SIGTERM, mine)
    try:
        assert exit_on_sigterm() is False
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, previous)

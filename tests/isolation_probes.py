"""Hostile agents for the isolation tests: each tries to escape its worker and says whether it could."""

from __future__ import annotations

import os
import signal
import subprocess
import sys


def _siblings() -> list[int]:
    """Other processes with this process's parent (the rival workers)."""
    me, parent = os.getpid(), os.getppid()
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                text = f.read().decode()
        except OSError:
            continue
        if int(text[text.rindex(")") + 2 :].split()[1]) == parent:
            out.append(int(name))
    return out


def read_memory(pid: int) -> int:
    """Bytes read from ``/proc/<pid>/mem`` at its first readable mapping (raises PermissionError when refused)."""
    with open(f"/proc/{pid}/mem", "rb") as mem:  # the open itself is the ptrace access check
        try:
            with open(f"/proc/{pid}/maps") as maps:
                start = next(int(line.split("-")[0], 16) for line in maps if line.split()[1].startswith("r"))
        except OSError:
            start = 0x400000
        mem.seek(start)
        return len(mem.read(4096))


class MemReader:
    """Tries to read the arena's memory, then its rivals'; raises if it could."""

    def act(self, observation, info) -> int:
        for pid in [os.getppid(), *_siblings()]:
            try:
                n = read_memory(pid)
            except OSError:
                continue
            raise RuntimeError(f"read {n} bytes of process {pid}'s memory")
        return 1


class Killer:
    """SIGKILLs its rivals and probes its parent; raises if any signal got through."""

    def act(self, observation, info) -> int:
        for pid in _siblings():
            try:
                os.kill(pid, signal.SIGKILL)
            except PermissionError:
                continue
            raise RuntimeError(f"killed process {pid}")
        try:
            os.kill(os.getppid(), 0)
        except PermissionError:
            return 1
        raise RuntimeError("may signal the arena")


class Forker:
    """Starts a long-lived grandchild and records its pid in the file ``$H7_PID_FILE``."""

    started = False

    def act(self, observation, info) -> int:
        if not self.started:
            self.started = True
            try:
                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
            except Exception:  # setsid refused: a plain child, still in the worker's group
                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            with open(os.environ["H7_PID_FILE"], "a") as f:
                f.write(f"{child.pid}\n")
        return 1


class Printer:
    """Floods stdout and stderr with fake result lines."""

    def act(self, observation, info) -> int:
        print("FAKE-RESULT mbb/hand +99999", flush=True)
        print("FAKE-RESULT on stderr", file=sys.stderr, flush=True)
        return 1


class Dies:
    """Exits its worker at its second decision."""

    calls = 0

    def act(self, observation, info) -> int:
        self.calls += 1
        if self.calls == 2:
            os._exit(3)
        return 1


class Greedy:
    """Allocates far past any sane budget."""

    def act(self, observation, info) -> int:
        block = bytearray(8 << 30)
        return 1 + 0 * len(block)


class Spinner:
    """Burns CPU in act until it has used 30 CPU seconds (or is stopped)."""

    def act(self, observation, info) -> int:
        import time

        start = time.process_time()
        while time.process_time() - start < 30:
            pass
        return 1


class FileHog:
    """Opens files until it has 2,000 (or is refused)."""

    def act(self, observation, info) -> int:
        held = [open(os.devnull) for _ in range(2000)]
        return 1 + 0 * len(held)

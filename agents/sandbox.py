"""OS confinement of an isolated agent's worker process: no reading or signalling other processes, bounded resources.

:func:`confine` runs first thing in a worker (Linux; elsewhere only the portable parts):

- the worker becomes the leader of a new session and process group, so the arena can kill it
  and every process it forks at once (``killpg``), and a terminal's Ctrl-C does not reach it;
  it dies with its parent (``PR_SET_PDEATHSIG``);
- it is not dumpable (``PR_SET_DUMPABLE 0``): no other worker may read its memory;
- resource limits: address space, open files, size of any file it writes, no core files;
  its stdout and stderr go to ``/dev/null`` (an agent cannot flood the terminal or print
  fake result lines);
- it drops every capability (a worker of a root process keeps uid 0 and can still read its
  own files, but can no longer read a non-dumpable process's memory or signal at will);
- a seccomp filter answers ``EPERM`` to the system calls that reach other processes:
  ``kill``/``tgkill``/``tkill``/``rt_(tg)sigqueueinfo``/``pidfd_*`` (signals), ``ptrace``,
  ``process_vm_readv``/``writev``, ``kcmp``, ``perf_event_open``; and to ``setsid``/``setpgid``
  (its children stay in its process group) and ``setrlimit``/``prlimit64`` with a new limit
  (it cannot lift its limits; the arena, outside the filter, still moves the CPU limit).

:func:`make_undumpable` is what the arena's own processes call before starting workers: a
non-dumpable process's ``/proc/<pid>/mem`` is readable only with ``CAP_SYS_PTRACE``, which
the workers no longer have.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform
import signal
import struct
import sys
from dataclasses import dataclass
from typing import Any

try:
    import resource
except ImportError:  # pragma: no cover - Windows: no limits
    resource = None  # type: ignore[assignment]

__all__ = ["WorkerLimits", "confine", "make_undumpable", "cpu_seconds_of"]

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_CAPBSET_DROP = 24
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_LINUX_CAPABILITY_VERSION_3 = 0x20080522

# Per architecture: the audit arch, capset, and the calls refused (signals, other processes,
# process groups, limits). prlimit64 is handled apart: allowed when it only reads.
_DENIED = (
    "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open", "pidfd_getfd",
    "pidfd_send_signal", "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "perf_event_open",
    "setsid", "setpgid", "setrlimit",
)


def _arch(audit: int, capset: int, prlimit64: int, deny: tuple[int, ...]) -> dict[str, Any]:
    """One architecture's audit value and syscall numbers; ``deny`` in the order of ``_DENIED``."""
    return {"audit": audit, "capset": capset, "prlimit64": prlimit64, "deny": dict(zip(_DENIED, deny, strict=True))}


_ARCH: dict[str, dict[str, Any]] = {
    "x86_64": _arch(0xC000003E, 126, 302, (62, 200, 234, 129, 297, 434, 438, 424, 101, 310, 311, 312, 298, 112, 109, 160)),
    "aarch64": _arch(0xC00000B7, 91, 261, (129, 130, 131, 138, 240, 434, 438, 424, 117, 270, 271, 272, 241, 157, 154, 164)),
}


@dataclass(frozen=True)
class WorkerLimits:
    """Resources one worker may use. ``None``: no limit of that kind.

    ``memory_bytes``: address space (``RLIMIT_AS``); ``open_files``: descriptors;
    ``file_bytes``: the largest file it may write (``RLIMIT_FSIZE``); ``cpu_seconds``: CPU
    time from the start of one call to the start of the next (the arena moves ``RLIMIT_CPU``
    before each call and checks the time used after it).
    """

    memory_bytes: int | None = 4 << 30
    open_files: int | None = 256
    file_bytes: int | None = 64 << 20
    cpu_seconds: float | None = 60.0


def _libc() -> Any:
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def _prctl(libc: Any, option: int, arg2: int = 0, arg3: int = 0) -> bool:
    return int(libc.prctl(option, ctypes.c_ulong(arg2), ctypes.c_ulong(arg3), ctypes.c_ulong(0), ctypes.c_ulong(0))) == 0


def make_undumpable() -> bool:
    """Make this process non-dumpable (Linux), so that processes without ``CAP_SYS_PTRACE``
    cannot read its memory; ``True`` if it is now so. Idempotent; elsewhere ``False``."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return _prctl(_libc(), _PR_SET_DUMPABLE, 0)
    except OSError:
        return False


def cpu_seconds_of(pid: int) -> float | None:
    """User + system CPU seconds process ``pid`` has used (Linux ``/proc``), or ``None``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("ascii", "replace")
        fields = text[text.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _drop_capabilities(libc: Any, arch: dict[str, Any]) -> None:
    for cap in range(64):
        _prctl(libc, _PR_CAPBSET_DROP, cap)  # fails past the last capability: harmless
    _prctl(libc, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL)
    header = struct.pack("Ii", _LINUX_CAPABILITY_VERSION_3, 0)
    data = bytes(24)  # two {effective, permitted, inheritable} words, all zero
    libc.syscall(ctypes.c_long(arch["capset"]), ctypes.c_char_p(header), ctypes.c_char_p(data))


def _seccomp_program(arch: dict[str, Any]) -> bytes:
    """A BPF filter: the calls in ``arch["deny"]`` (and prlimit64 with a new limit) get EPERM."""
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JGE|K, BPF_RET|K
    allow, eperm = 0x7FFF0000, 0x00050000 | 1
    deny = sorted(arch["deny"].values())
    prog: list[tuple[int, int, int, int]] = [
        (ld, 0, 0, 4),  # arch
        (jeq, 1, 0, arch["audit"]),
        (ret, 0, 0, eperm),  # a foreign ABI: refuse everything
        (ld, 0, 0, 0),  # nr
        (jge, 0, 1, 0x40000000),  # x32 numbers
        (ret, 0, 0, eperm),
    ]
    for nr in deny:
        prog += [(jeq, 0, 1, nr), (ret, 0, 0, eperm)]
    prog += [
        (jeq, 0, 5, arch["prlimit64"]),
        (ld, 0, 0, 32),  # args[2] (new limit) low word
        (jeq, 0, 2, 0),
        (ld, 0, 0, 36),  # high word
        (jeq, 1, 0, 0),
        (ret, 0, 0, eperm),
        (ret, 0, 0, allow),
    ]
    return b"".join(struct.pack("HBBI", *ins) for ins in prog)


def _install_seccomp(libc: Any, arch: dict[str, Any]) -> bool:
    code = _seccomp_program(arch)
    buf = ctypes.create_string_buffer(code, len(code))
    fprog = struct.pack("HxxxxxxP", len(code) // 8, ctypes.addressof(buf))
    if not _prctl(libc, _PR_SET_NO_NEW_PRIVS, 1):
        return False
    fbuf = ctypes.create_string_buffer(fprog, len(fprog))
    return _prctl(libc, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(fbuf))


def _set_limit(which: int, value: int | None) -> None:
    if value is None:
        return
    _, hard = resource.getrlimit(which)
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(which, (value, value))


def confine(limits: WorkerLimits) -> dict[str, bool]:
    """Confine this (worker) process as the module docstring says; which layers took effect.

    Call it before any untrusted code runs in this process: it cannot be undone.
    """
    done = {"session": False, "undumpable": False, "limits": False, "capabilities": False, "seccomp": False}
    try:
        os.setsid()
        done["session"] = True
    except OSError:
        pass
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    try:
        if resource is None:
            raise OSError("no resource limits on this platform")
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
        _set_limit(resource.RLIMIT_CORE, 0)
        _set_limit(resource.RLIMIT_AS, limits.memory_bytes)
        _set_limit(resource.RLIMIT_NOFILE, limits.open_files)
        _set_limit(resource.RLIMIT_FSIZE, limits.file_bytes)
        done["limits"] = True
    except (OSError, ValueError):
        pass
    if not sys.platform.startswith("linux"):
        return done
    libc = _libc()
    _prctl(libc, _PR_SET_PDEATHSIG, int(signal.SIGKILL))
    done["undumpable"] = _prctl(libc, _PR_SET_DUMPABLE, 0)
    arch = _ARCH.get(platform.machine())
    if arch is None:
        return done
    _drop_capabilities(libc, arch)
    done["capabilities"] = True
    done["seccomp"] = _install_seccomp(libc, arch)
    return done

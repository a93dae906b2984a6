"""Keep glibc from handing freed numpy buffers back to the kernel after every call.

The agents' per-board tables (tag's heads-up equity, ppo's equity feature, LBR's ranges) build
temporaries of one to a few megabytes. glibc serves blocks that large with ``mmap`` and returns
them with ``munmap`` (or trims the heap) as soon as they are freed, so every table pays the kernel
to zero fresh pages again: ``holdem eval tag random --hands 2000 --workers 1`` spent 6-8 s of its
13-19 s in the kernel. :func:`tune_allocator` raises glibc's ``mmap`` and trim thresholds so such
blocks are reused from the heap (the same command: 6.8 s, 0.07 s of it in the kernel). The cost is
that a process keeps up to :data:`TRIM_THRESHOLD` bytes of freed memory for reuse instead of
returning it.

The ``holdem`` command calls it at start-up, and puts the same settings in ``GLIBC_TUNABLES`` so
that the worker processes it starts (``spawn``, Ray) get them too. A script that runs heavy
matches itself can call it first. ``HOLDEM_ENV_MALLOC=default`` turns it off; a
``GLIBC_TUNABLES`` that already sets a ``glibc.malloc`` tunable is left as the user set it. On a
system without glibc it does nothing.

>>> import os
>>> os.environ["HOLDEM_ENV_MALLOC"] = "default"
>>> tune_allocator()
False
>>> del os.environ["HOLDEM_ENV_MALLOC"]
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

__all__ = ["MMAP_THRESHOLD", "TRIM_THRESHOLD", "OPT_OUT_ENV", "tune_allocator"]

#: Blocks below this are served from the heap (glibc's largest allowed value on 64-bit: 32 MiB).
MMAP_THRESHOLD = 32 * 1024 * 1024
#: Freed memory at the top of the heap is returned to the kernel only beyond this.
TRIM_THRESHOLD = 256 * 1024 * 1024
#: Set to ``default`` to keep glibc's own settings.
OPT_OUT_ENV = "HOLDEM_ENV_MALLOC"

_M_TRIM_THRESHOLD = -1  # mallopt parameter numbers, from glibc's malloc.h
_M_MMAP_THRESHOLD = -3


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c") or "libc.so.6"
    try:
        libc = ctypes.CDLL(name)
        libc.gnu_get_libc_version  # noqa: B018 -- present only in glibc (not musl)
    except (OSError, AttributeError):
        return None
    return libc


def tune_allocator() -> bool:
    """Raise glibc's ``mmap`` and trim thresholds for this process and the processes it starts.

    Returns ``True`` when the settings were applied, ``False`` when they were not: opted out
    with ``HOLDEM_ENV_MALLOC=default``, ``GLIBC_TUNABLES`` already setting a malloc tunable, or
    no glibc. Calling it again is harmless.
    """
    if os.environ.get(OPT_OUT_ENV, "").strip().lower() == "default":
        return False
    existing = os.environ.get("GLIBC_TUNABLES", "")
    if "glibc.malloc." in existing:
        return False
    libc = _glibc()
    if libc is None:
        return False
    if not (libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) and libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)):
        return False
    ours = f"glibc.malloc.mmap_threshold={MMAP_THRESHOLD}:glibc.malloc.trim_threshold={TRIM_THRESHOLD}"
    os.environ["GLIBC_TUNABLES"] = f"{existing}:{ours}" if existing else ours
    return True

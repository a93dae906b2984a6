"""File helpers shared by every layer: atomic writes and the cleanup of their leftovers."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

__all__ = ["TEMP_SUFFIX", "atomic_write_bytes", "atomic_write_text", "remove_stale_temp_files"]

#: Suffix of the temporary files :func:`atomic_write_bytes` writes next to their target.
TEMP_SUFFIX = ".tmp"


def _current_umask() -> int:
    """The process umask, read without changing it (``os.umask`` would race with other threads)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022  # the common default where /proc is unavailable


def atomic_write_bytes(path: str | Path, write: Callable[[BinaryIO], object]) -> None:
    """Write a file atomically: ``write(fileobj)`` fills a temporary file next to ``path``, which
    then replaces ``path`` in one ``os.replace``. A crash leaves the old file (or none) and at most
    a ``<name>.<random>.tmp`` file, which :func:`remove_stale_temp_files` cleans up."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=p.name + ".", suffix=TEMP_SUFFIX, dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_current_umask())  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
            # a failed write (a full disk) names no file: name the one being written
            raise OSError(exc.errno, exc.strerror or os.strerror(exc.errno), str(p)) from exc
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    """:func:`atomic_write_bytes` for UTF-8 text."""
    data = text.encode("utf-8")
    atomic_write_bytes(path, lambda fh: fh.write(data))


def remove_stale_temp_files(folder: str | Path) -> list[Path]:
    """Delete the temporary files an interrupted :func:`atomic_write_bytes` left in ``folder``
    (not recursive); returns what was removed. Call it only where no other process is writing."""
    removed: list[Path] = []
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return removed
    for entry in entries:
        if entry.name.endswith(TEMP_SUFFIX) and entry.is_file():
            try:
                entry.unlink()
                removed.append(entry)
            except OSError:
                pass
    return removed

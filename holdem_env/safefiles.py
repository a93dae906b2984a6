"""Reading untrusted zip-based files (``.npz``, torch ``.pt``) with their cost checked from the headers first.

A zip member's uncompressed size is in its header, and a ``.npy`` member's shape and dtype
are in its first bytes: both are checked against limits before anything is decompressed or
allocated, so a small crafted file (a zip bomb, a header announcing a terabyte array) is
refused at once with :class:`UnsafeFileError` naming the file, the member and the limit.

>>> import io, numpy as np
>>> buf = io.BytesIO(); np.savez(buf, a=np.arange(3)); _ = buf.seek(0)
>>> read_npz(buf)["a"].tolist()
[0, 1, 2]
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.lib import format as npy_format

from holdem_env.engine.errors import HoldemError

__all__ = ["UnsafeFileError", "MAX_FILE_BYTES", "check_zip", "read_npz"]

#: Default limit on a file's total uncompressed size.
MAX_FILE_BYTES = 2 << 30


class UnsafeFileError(HoldemError):
    """A file is not a well-formed zip archive, or would take more memory than allowed to read."""


def _name(source: str | Path | IO[bytes]) -> str:
    return str(source) if isinstance(source, (str, Path)) else "<stream>"


def check_zip(source: str | Path | IO[bytes], max_bytes: int = MAX_FILE_BYTES) -> list[zipfile.ZipInfo]:
    """The members of zip ``source`` after checking, from the headers alone, that they hold at
    most ``max_bytes`` uncompressed in all; :class:`UnsafeFileError` otherwise."""
    name = _name(source)
    try:
        with zipfile.ZipFile(source) as zf:
            members = zf.infolist()
    except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError) as exc:
        raise UnsafeFileError(f"{name!r} is not a readable zip archive ({type(exc).__name__}: {exc})") from None
    total = sum(m.file_size for m in members)
    if total > max_bytes:
        raise UnsafeFileError(
            f"{name!r} would decompress to {total:,} bytes; the limit is {max_bytes:,} (refused before decompressing)"
        )
    return members


def _npy_header(fp: IO[bytes]) -> tuple[tuple[int, ...], bool, np.dtype[Any]]:
    version = npy_format.read_magic(fp)
    if version == (1, 0):
        return npy_format.read_array_header_1_0(fp)
    if version == (2, 0):
        return npy_format.read_array_header_2_0(fp)
    raise ValueError(f"unsupported .npy version {version}")


def read_npz(source: str | Path | IO[bytes], max_bytes: int = MAX_FILE_BYTES) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` ``source`` (no pickles), after checking each member's zip
    header and ``.npy`` header: the arrays may take at most ``max_bytes`` in all, and each
    array's size must agree with its member's size. :class:`UnsafeFileError` otherwise."""
    name = _name(source)
    members = check_zip(source, max_bytes)
    if hasattr(source, "seek"):
        source.seek(0)
    out: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(source) as zf:
            for info in members:
                key = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
                with zf.open(info) as fp:
                    shape, fortran, dtype = _npy_header(fp)
                    if dtype.hasobject:
                        raise ValueError("holds Python objects (pickles are never loaded)")
                    if any(int(d) < 0 for d in shape):
                        raise ValueError(f"member {info.filename!r} has a negative dimension")
                    count = 1
                    for d in shape:
                        count *= int(d)
                    nbytes = count * dtype.itemsize
                    if nbytes > info.file_size:
                        raise UnsafeFileError(
                            f"{name!r} member {info.filename!r} announces {shape} {dtype} ({nbytes:,} bytes) "
                            f"in {info.file_size:,} bytes (refused before allocating)"
                        )
                    data = fp.read(nbytes)
                    if len(data) != nbytes:
                        raise ValueError("is truncated")
                    array = np.frombuffer(data, dtype=dtype)
                    out[key] = array.reshape(shape, order="F" if fortran else "C").copy()
    except UnsafeFileError:
        raise
    except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError, TypeError, SyntaxError, OverflowError) as exc:
        raise UnsafeFileError(f"{name!r} is not a readable .npz file ({type(exc).__name__}: {exc})") from None
    return out

"""Torch's process-wide settings (intra-op threads, deterministic algorithms) set for a block and restored after it."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

__all__ = ["torch_settings"]


@contextlib.contextmanager
def torch_settings(threads: int | None = None, deterministic: bool | None = None) -> Iterator[None]:
    """Inside the block torch computes with ``threads`` intra-op threads and, with
    ``deterministic``, deterministic algorithms only (``None``: left as they are); on leaving
    it, both are what they were. A process that has not imported torch has nothing to set
    (torch is not imported for it).

    Training and the workers' entry points use it, so that constructing a learner or an agent
    in a user's process leaves torch's global settings alone.
    """
    torch = sys.modules.get("torch")
    if torch is None:
        yield
        return
    threads_before = int(torch.get_num_threads())
    deterministic_before = bool(torch.are_deterministic_algorithms_enabled())
    warn_only_before = bool(torch.is_deterministic_algorithms_warn_only_enabled())
    try:
        if threads is not None:
            torch.set_num_threads(threads)
        if deterministic is not None:
            torch.use_deterministic_algorithms(deterministic)
        yield
    finally:
        if threads is not None:
            torch.set_num_threads(threads_before)
        if deterministic is not None:
            torch.use_deterministic_algorithms(deterministic_before, warn_only=warn_only_before)

"""Where the league's jobs run: a local process pool (default) or a Ray cluster (optional).

A backend maps a picklable top-level function over a list of picklable arguments and
returns the results *in input order*, so a league's results never depend on where or in
which order jobs finished. The league sends it two kinds of jobs: one match per pair of
agents (through :func:`holdem_env.training.arena.run_match`) and one CFR training chunk per learning
agent.

``ray`` is an optional extra (``pip install 'holdem-env[ray]'``); asking for it without
Ray installed is a :class:`~holdem_env.engine.errors.ConfigError` that says so.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_int

__all__ = ["Backend", "LocalBackend", "RayBackend", "make_backend"]

T = TypeVar("T")
R = TypeVar("R")


class Backend(Protocol):
    """Maps jobs over workers; results in input order."""

    workers: int

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """``[fn(x) for x in items]``, possibly in parallel."""
        ...

    def close(self) -> None:
        """Release workers."""
        ...


class LocalBackend:
    """A pool of ``workers`` local processes (``spawn`` start method), kept for the whole run.

    With one worker, or one job, everything runs in this process.
    """

    def __init__(self, workers: int = 2) -> None:
        self.workers = check_int("backend.workers", workers, 1, allowed="must be a positive integer")
        self._pool: ProcessPoolExecutor | None = None

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """Run ``fn`` over ``items``; results in input order."""
        if self.workers == 1 or len(items) <= 1:
            return [fn(x) for x in items]
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        return list(self._pool.map(fn, items))

    def close(self) -> None:
        """Shut the pool down."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayBackend:
    """Jobs as Ray tasks on a cluster (``address``) or a local Ray instance (``None``)."""

    def __init__(self, workers: int = 2, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError(
                "backend.kind", "ray", "needs the optional 'ray' package: pip install 'holdem-env[ray]' (or use kind: local)"
            ) from None
        self._ray = ray
        self.workers = workers
        if not ray.is_initialized():
            if address:
                ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, ignore_reinit_error=True, log_to_driver=False, include_dashboard=False)

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """Run ``fn`` over ``items`` as Ray tasks; results in input order."""
        remote = self._ray.remote(fn)
        return list(self._ray.get([remote.remote(x) for x in items]))

    def close(self) -> None:
        """Leave the Ray instance running (others may share it)."""


def make_backend(kind: str = "local", workers: int = 2, address: str | None = None) -> Any:
    """Build the backend named ``kind`` (``"local"`` or ``"ray"``)."""
    if kind == "local":
        return LocalBackend(workers)
    if kind == "ray":
        return RayBackend(workers, address)
    raise ConfigError("backend.kind", kind, "must be 'local' or 'ray'")

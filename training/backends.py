"""Where the league's jobs run: a local process pool (default) or a Ray cluster (optional).

A backend maps a picklable top-level function over a list of picklable arguments and
returns the results *in input order*, so a league's results never depend on where or in
which order jobs finished. The league sends it two kinds of jobs: one match per pair of
agents (through :func:`holdem_env.training.arena.run_match`) and one CFR training chunk per learning
agent.

A backend also starts long-lived *actors* (:meth:`LocalBackend.actors`,
:meth:`RayBackend.actors`): ``cls(setup)`` objects that keep their state between calls, one
per setup -- local processes (:class:`LocalActors`) or Ray actors (:class:`RayActors`), both
with the same interface (:class:`Actors`): :meth:`~Actors.submit` sends each actor a method
call, :meth:`~Actors.gather` returns the answers in actor order. The ppo learner's rollout
workers are such actors (:mod:`holdem_env.training.ppo.workers`), so a league on a Ray
cluster samples its ppo learners' rollouts there.

``ray`` is an optional extra (``pip install 'holdem-env[ray]'``); asking for it without
Ray installed is a :class:`~holdem_env.engine.errors.ConfigError` that says so.
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.engine.validate import check_int

__all__ = ["Actors", "Backend", "LocalActors", "LocalBackend", "RayActors", "RayBackend", "cpus_for", "make_backend"]

T = TypeVar("T")
R = TypeVar("R")


class Backend(Protocol):
    """Maps jobs over workers; results in input order."""

    workers: int

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """``[fn(x) for x in items]``, possibly in parallel."""
        ...

    def actors(self, cls: Callable[[Any], Any], setups: Sequence[Any], name: str = "actor") -> Actors:
        """One long-lived ``cls(setup)`` per setup (see :class:`Actors`)."""
        ...

    def close(self) -> None:
        """Release workers."""
        ...


class Actors(Protocol):
    """Long-lived objects in other processes, called all at once; answers in actor order."""

    def __len__(self) -> int:
        """How many actors."""
        ...

    def submit(self, method: str, args: Sequence[tuple[Any, ...]]) -> None:
        """Call ``method`` on every actor, actor ``k`` with ``*args[k]`` (without waiting)."""
        ...

    def gather(self) -> list[Any]:
        """The answers to the last :meth:`submit`, in actor order; an actor's error is a
        :class:`HoldemError` naming it, with its traceback."""
        ...

    @property
    def pending(self) -> bool:
        """Whether a :meth:`submit` waits to be gathered."""
        ...

    def close(self) -> None:
        """Stop the actors."""
        ...


def cpus_for(count: int) -> list[int]:
    """The CPU each of ``count`` pinned actors runs on: this process's allowed CPUs in turn (actor
    ``k`` on the ``k``-th, wrapping around); ``[]`` where the platform cannot pin."""
    if not hasattr(os, "sched_getaffinity"):
        return []
    allowed = sorted(os.sched_getaffinity(0))
    return [allowed[k % len(allowed)] for k in range(count)]


def _actor_loop(conn: Any, cls: Callable[[Any], Any], setup: Any, cpu: int | None = None) -> None:
    """A local actor process: (``cpu``: pinned to that CPU) build ``cls(setup)``, then answer
    ``(method, args)`` messages with ``("ok", result)`` or ``("error", traceback)`` until ``None``
    (or the pipe closes)."""
    if cpu is not None:
        try:
            os.sched_setaffinity(0, {cpu})
        except (AttributeError, OSError):  # not allowed here: run unpinned
            pass
    try:
        obj = cls(setup)
        conn.send(("ok", None))
    except BaseException:
        conn.send(("error", traceback.format_exc()))
        return
    while True:
        try:
            msg = conn.recv()
        except (EOFError, KeyboardInterrupt):
            return
        if msg is None:
            return
        try:
            conn.send(("ok", getattr(obj, msg[0])(*msg[1])))
        except KeyboardInterrupt:
            return
        except BaseException:  # everything goes back to the caller, which raises it
            conn.send(("error", traceback.format_exc()))


class _Actors:
    """What :class:`LocalActors` and :class:`RayActors` share: the call/answer bookkeeping. A
    subclass says how many actors it has (``_count``), sends the calls (``_send``) and receives
    actor ``k``'s answer (``_receive``: ``(value, None)`` or ``(None, error text)``)."""

    name: str
    _pending: bool

    def __len__(self) -> int:
        return self._count()

    def _count(self) -> int:
        raise NotImplementedError

    def _send(self, method: str, args: Sequence[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    def _receive(self, k: int) -> tuple[Any, str | None]:
        raise NotImplementedError

    def submit(self, method: str, args: Sequence[tuple[Any, ...]]) -> None:
        """Call ``method`` on every actor, ``args[k]`` for actor ``k`` (answers: :meth:`gather`)."""
        if len(args) != self._count():
            raise HoldemError(f"{self.name}s: {len(args)} argument tuples for {self._count()} actors")
        self._send(method, args)
        self._pending = True

    def gather(self, then: tuple[str, Sequence[tuple[Any, ...]]] | None = None) -> list[Any]:
        """Every actor's answer, in actor order; all are received before the first failure is
        raised as a :class:`HoldemError` naming its actor. ``then`` ``(method, args)``: as soon as
        actor ``k``'s answer is in, call ``method`` on it with ``args[k]`` (it starts while the
        others still work; the next :meth:`gather` receives those answers)."""
        self._pending = then is not None
        answers: list[Any] = []
        failure: HoldemError | None = None
        for k in range(self._count()):
            value, error = self._receive(k)
            if then is not None:
                self._send_one(k, then[0], then[1][k])
            if error is not None:
                failure = failure or HoldemError(error)
                continue
            answers.append(value)
        if then is None:
            self._after_gather()
        if failure is not None:
            raise failure
        return answers

    def _send_one(self, k: int, method: str, args: tuple[Any, ...]) -> None:
        raise NotImplementedError

    def _after_gather(self) -> None:
        """Anything to drop once every answer is in (nothing by default)."""

    @property
    def pending(self) -> bool:
        """Whether a :meth:`submit` waits to be gathered."""
        return self._pending


class LocalActors(_Actors):
    """``cls(setup)`` in one local process per setup (``spawn`` start method), talking over pipes.

    Each process computes on its own: nothing is shared with the caller but what the
    messages carry (pickled; send numpy arrays, not torch tensors, which would travel as
    handles to shared memory). ``name`` names an actor in errors (``"<name> <k>"``). ``pin``:
    each process stays on one CPU (:func:`cpus_for`; where the platform allows), so two busy
    actors on a machine with two free cores never share one or move between them; on a machine
    busy with other work, unpinned processes can go wherever a core is free.
    """

    def __init__(self, cls: Callable[[Any], Any], setups: Sequence[Any], name: str = "actor", pin: bool = False) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.name = name
        self._conns: list[Any] = []
        self._procs: list[Any] = []
        cpus: list[int | None] = list(cpus_for(len(setups))) if pin else []
        cpus += [None] * (len(setups) - len(cpus))
        try:
            for k, setup in enumerate(setups):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_actor_loop, args=(child, cls, setup, cpus[k]), daemon=True, name=f"{name}-{k}")
                proc.start()
                child.close()
                self._conns.append(parent)
                self._procs.append(proc)
            self._pending = True
            self.gather()  # every actor built (or the first failure raised)
        except BaseException:
            self.close()
            raise

    def _count(self) -> int:
        return len(self._conns)

    def _send(self, method: str, args: Sequence[tuple[Any, ...]]) -> None:
        for conn, a in zip(self._conns, args, strict=True):
            conn.send((method, tuple(a)))

    def _send_one(self, k: int, method: str, args: tuple[Any, ...]) -> None:
        try:
            self._conns[k].send((method, tuple(args)))
        except (BrokenPipeError, OSError):
            pass  # a dead actor: its next receive says so

    def _receive(self, k: int) -> tuple[Any, str | None]:
        try:
            status, value = self._conns[k].recv()
        except (EOFError, OSError):
            self._procs[k].join(timeout=5)
            return None, (
                f"{self.name} {k} died (exit code {self._procs[k].exitcode}); a script that starts worker "
                "processes must guard its entry point with `if __name__ == \"__main__\":`"
            )
        if status == "error":
            return None, f"{self.name} {k} failed:\n{value}"
        return value, None

    def close(self) -> None:
        """Stop the processes (each gets ``None``; one that does not end in 10 s is terminated)."""
        for conn in self._conns:
            try:
                conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        for proc in self._procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []


class RayActors(_Actors):
    """``cls(setup)`` as one Ray actor per setup (spread over the cluster's nodes); the same
    interface as :class:`LocalActors`."""

    def __init__(self, ray: Any, cls: Callable[[Any], Any], setups: Sequence[Any], name: str = "actor") -> None:
        self._ray = ray
        self.name = name
        remote = ray.remote(cls).options(scheduling_strategy="SPREAD")
        self._handles = [remote.remote(setup) for setup in setups]
        self._refs: list[Any] = []
        self._pending = False

    def _count(self) -> int:
        return len(self._handles)

    def _send(self, method: str, args: Sequence[tuple[Any, ...]]) -> None:
        self._refs = [getattr(h, method).remote(*a) for h, a in zip(self._handles, args, strict=True)]

    def _send_one(self, k: int, method: str, args: tuple[Any, ...]) -> None:
        self._refs[k] = getattr(self._handles[k], method).remote(*args)

    def _receive(self, k: int) -> tuple[Any, str | None]:
        try:
            return self._ray.get(self._refs[k]), None
        except Exception as exc:  # RayTaskError / RayActorError: its text carries the remote traceback
            return None, f"{self.name} {k} failed:\n{exc}"

    def _after_gather(self) -> None:
        self._refs = []

    def close(self) -> None:
        """Kill the actors (the Ray instance keeps running)."""
        for h in self._handles:
            try:
                self._ray.kill(h)
            except Exception:  # an actor already gone
                pass
        self._handles, self._refs = [], []


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

    def actors(self, cls: Callable[[Any], Any], setups: Sequence[Any], name: str = "actor") -> LocalActors:
        """One local process per setup holding ``cls(setup)`` (not counted in ``workers``)."""
        return LocalActors(cls, setups, name)

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

    def actors(self, cls: Callable[[Any], Any], setups: Sequence[Any], name: str = "actor") -> RayActors:
        """One Ray actor per setup holding ``cls(setup)``, spread over the nodes."""
        return RayActors(self._ray, cls, setups, name)

    def close(self) -> None:
        """Leave the Ray instance running (others may share it)."""


def make_backend(kind: str = "local", workers: int = 2, address: str | None = None) -> Any:
    """Build the backend named ``kind`` (``"local"`` or ``"ray"``)."""
    if kind == "local":
        return LocalBackend(workers)
    if kind == "ray":
        return RayBackend(workers, address)
    raise ConfigError("backend.kind", kind, "must be 'local' or 'ray'")

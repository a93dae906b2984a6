"""Worker processes that play chunks of work in order and stop at once on Ctrl-C or any failure.

The arena (``holdem eval``) and LBR (``holdem lbr``) split a match into chunks and play them on
worker processes. :class:`WorkerPool` gives each worker its own pipe and at most two chunks at a
time, and :meth:`WorkerPool.imap` yields the results in the order the chunks were made, making
each chunk only when it is sent (never more than ``window`` ahead of the oldest result not yet
yielded), so a 10-million-hand match never exists as a list of chunks.

Why not :class:`concurrent.futures.ProcessPoolExecutor`: on Ctrl-C its shutdown waits for the
running chunks and joins a manager thread that can block for ever on a half-written result, and a
forked worker inherits the parent's ``SIGTERM`` handler (:func:`holdem_env.signals.exit_on_sigterm`),
so ``terminate()`` raised a ``SystemExit`` that the executor's worker caught as a task's error
before it took the next chunk. Here a worker ignores ``SIGINT`` (the terminal sends Ctrl-C to the
whole process group: only the parent answers it, with one line) and dies on ``SIGTERM``; when the
``with`` block is left by any exception -- ``KeyboardInterrupt``, the ``SystemExit`` of ``SIGTERM``,
an error in a chunk -- the workers are killed and nothing is awaited. A chunk's exception is
raised again in the parent as itself (its remote traceback as ``__cause__``); a worker that dies
raises :class:`WorkerDiedError`.

>>> with WorkerPool(2) as pool:
...     list(pool.imap(pow, ((2, k) for k in range(6)), window=4))
[1, 2, 4, 8, 16, 32]
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from types import TracebackType
from typing import Any

from holdem_env.engine.validate import check_int

__all__ = ["WorkerPool", "WorkerDiedError", "RemoteTracebackError"]

#: Chunks a worker holds at once: the one it plays and the next, so it never waits for the parent.
_DEPTH = 2
_MASKS = hasattr(signal, "pthread_sigmask")  # POSIX; elsewhere a worker starts without the mask


class WorkerDiedError(RuntimeError):
    """A worker process ended while it held work (killed, out of memory, a crash in C code)."""


class RemoteTracebackError(Exception):
    """The traceback of an exception raised in a worker, attached as its ``__cause__``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _serve(conn: Connection, initializer: Callable[[], None] | None, inherited: list[Connection]) -> None:
    """A worker's loop: ``(fn, args)`` in, ``("ok", result)`` or ``("err", exc, traceback)`` out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to answer
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's SystemExit handler: terminate() ends it
    if _MASKS:  # blocked by the parent while it started this process; a Ctrl-C pending since is dropped
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for other in inherited:  # the parent's ends, copied by fork: the pipes see EOF when the parent dies
        other.close()
    if initializer is not None:
        initializer()
    while True:
        try:
            task = conn.recv()
        except EOFError:  # the parent is gone
            return
        if task is None:
            return
        fn, args = task
        try:
            reply: tuple[Any, ...] = ("ok", fn(*args))
        except BaseException as exc:  # a task's error goes back to the parent, which raises it
            reply = ("err", exc, traceback.format_exc())
        try:
            conn.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # an unpicklable result or error
            text = reply[2] if reply[0] == "err" else ""
            conn.send(("err", RuntimeError(f"a worker's reply could not be sent back: {exc}"), text))


class _Worker:
    def __init__(self, ctx: Any, initializer: Callable[[], None] | None, inherited: list[Connection]) -> None:
        self.conn, child = ctx.Pipe()
        forked = ctx.get_start_method() == "fork"
        self.process = ctx.Process(
            target=_serve, args=(child, initializer, [*inherited, self.conn] if forked else []), name="holdem-worker"
        )
        # SIGINT stays blocked from the fork until the worker ignores it (_serve): a Ctrl-C that lands
        # while the new process is still starting would otherwise kill it with KeyboardInterrupt.
        masked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if _MASKS else None
        try:
            self.process.start()
        finally:
            if masked is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, masked)
        child.close()  # only the worker holds its end: a dead worker's pipe reads as EOF
        self.pending: deque[int] = deque()  # the indices of the chunks it holds, in order


class WorkerPool:
    """``workers`` processes (``fork`` where the platform has it, else ``spawn``) for :meth:`imap`.

    Use it as a context manager: leaving the block normally stops the workers after their work;
    leaving it by an exception kills them at once. ``initializer`` runs once in each worker.
    """

    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        check_int("workers", workers, 1)
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._workers: list[_Worker] = []
        try:
            for _ in range(workers):
                self._workers.append(_Worker(ctx, initializer, [w.conn for w in self._workers]))
        except BaseException:
            self.kill()
            raise

    @property
    def pids(self) -> list[int]:
        """The workers' process ids."""
        return [w.process.pid or 0 for w in self._workers]

    def imap(self, fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]], window: int) -> Iterator[Any]:
        """``fn(*args)`` for each ``args`` of ``tasks`` on the workers; the results in order.

        ``tasks`` is read lazily, at most ``window`` items ahead of the oldest result not yet
        yielded. A task's exception is raised here (the pool should then be left, which kills it).
        """
        check_int("window", window, 1)
        source = iter(tasks)
        results: dict[int, Any] = {}
        sent = done = 0
        exhausted = False
        while True:
            while not exhausted and sent - done < window:
                worker = min(self._workers, key=lambda w: len(w.pending))
                if len(worker.pending) >= _DEPTH:
                    break
                try:
                    args = next(source)
                except StopIteration:
                    exhausted = True
                    break
                try:
                    worker.conn.send((fn, args))
                except OSError as exc:  # its end of the pipe is closed: the worker is gone
                    raise self._died(worker) from exc
                worker.pending.append(sent)
                sent += 1
            while done in results:
                yield results.pop(done)
                done += 1
            if done == sent:  # nothing out
                if exhausted:
                    return
                continue
            self._collect(results)  # wait for a reply: the window or the workers are full

    def _collect(self, results: dict[int, Any]) -> None:
        """Wait for at least one reply (or a worker's death) and file the replies that came."""
        busy = [w for w in self._workers if w.pending]
        ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
        for w in busy:
            if w.conn in ready:
                try:
                    reply = w.conn.recv()
                except (EOFError, OSError):  # its end closed; with a task it never read: ECONNRESET
                    reply = None
                if reply is not None:
                    index = w.pending.popleft()
                    if reply[0] == "err":
                        exc = reply[1]
                        exc.__cause__ = RemoteTracebackError(reply[2])
                        raise exc
                    results[index] = reply[1]
                    continue
            if w.process.sentinel in ready or w.conn in ready:
                raise self._died(w)

    @staticmethod
    def _died(w: _Worker) -> WorkerDiedError:
        w.process.join(timeout=1.0)
        return WorkerDiedError(f"worker process {w.process.pid} ended (exit code {w.process.exitcode})")

    def kill(self) -> None:
        """End every worker now (SIGKILL): nothing is awaited."""
        for w in self._workers:
            if w.process.is_alive():
                w.process.kill()
        for w in self._workers:
            w.process.join(timeout=5.0)
            w.conn.close()

    def close(self) -> None:
        """Stop the workers after the work they hold; kill any that does not stop within 10 s."""
        for w in self._workers:
            try:
                w.conn.send(None)
            except OSError:
                pass
        for w in self._workers:
            w.process.join(timeout=10.0)
        self.kill()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if kind is None:
            self.close()
        else:
            self.kill()

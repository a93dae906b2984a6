"""The arena's and LBR's worker pool: results in order, work made lazily, failures raised as
themselves, and a pool left by an exception (Ctrl-C) kills its workers instead of awaiting them."""

from __future__ import annotations

import os
import signal
import time

import pytest

from holdem_env.engine.errors import ConfigError
from holdem_env.signals import exit_on_sigterm
from holdem_env.training.workpool import RemoteTracebackError, WorkerDiedError, WorkerPool


def _square_slowly(x: int) -> int:
    time.sleep(0.002 * (x % 3))  # replies come back out of order
    return x * x


def _fail(x: int) -> int:
    if x == 5:
        raise ConfigError("bet", x, "must not be five")
    return x


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _die(code: int) -> None:
    os._exit(code)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (not yet reaped) is not alive
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1].split()[0] != "Z"
    except OSError:
        return True


def test_results_come_in_order_and_tasks_are_made_lazily() -> None:
    pulled: list[int] = []
    got: list[int] = []

    def tasks():
        for k in range(200):
            pulled.append(len(got))  # how many results had been yielded when task k was made
            yield (k,)

    with WorkerPool(2) as pool:
        for value in pool.imap(_square_slowly, tasks(), window=5):
            got.append(value)
    assert got == [k * k for k in range(200)]
    assert all(pulled[k] >= k - 5 for k in range(200))  # never more than the window ahead
    assert max(k - pulled[k] for k in range(200)) >= 3  # and it does run ahead: both workers busy


def test_a_task_error_is_raised_as_itself_with_the_remote_traceback() -> None:
    with pytest.raises(ConfigError, match="bet=5 is invalid: must not be five") as info:
        with WorkerPool(2) as pool:
            pids = pool.pids
            list(pool.imap(_fail, ((k,) for k in range(10)), window=4))
    cause = info.value.__cause__
    assert isinstance(cause, RemoteTracebackError) and "_fail" in str(cause)
    assert not any(_alive(p) for p in pids)


def test_leaving_by_an_exception_kills_busy_workers_at_once() -> None:
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with WorkerPool(2) as pool:
            pids = pool.pids
            for _ in pool.imap(_sleep, [(0.0,), (60.0,), (60.0,), (60.0,)], window=4):
                raise KeyboardInterrupt  # Ctrl-C while two workers play 60-second chunks
    assert time.monotonic() - start < 30
    assert not any(_alive(p) for p in pids)


def test_a_dead_worker_is_reported() -> None:
    with pytest.raises(WorkerDiedError, match=r"exit code 3"):
        with WorkerPool(1) as pool:
            list(pool.imap(_die, [(3,)], window=1))


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads process states from /proc")
def test_workers_ignore_ctrl_c_and_die_on_sigterm_even_under_the_cli_handler() -> None:
    """The CLI turns SIGTERM into SystemExit (exit_on_sigterm); a forked worker must not inherit
    that, or terminating it would only raise an error inside its chunk and it would play on."""
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        assert exit_on_sigterm()
        with WorkerPool(2) as pool:
            first, second = pool.pids
            os.kill(first, signal.SIGINT)
            assert list(pool.imap(_sleep, [(0.2,), (0.2,)], window=2)) == [0.2, 0.2]
            assert _alive(first)
            results = pool.imap(_sleep, [(0.0,), (60.0,), (60.0,)], window=3)
            assert next(results) == 0.0  # all three sent: the second worker plays a 60-second chunk
            os.kill(second, signal.SIGTERM)
            with pytest.raises(WorkerDiedError, match=f"exit code {-signal.SIGTERM}"):
                next(results)
            pool.kill()  # the first still plays its 60-second chunk
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert not _alive(first) and not _alive(second)


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ConfigError, match="workers=0 is invalid"):
        WorkerPool(0)
    with WorkerPool(1) as pool:
        with pytest.raises(ConfigError, match="window=0 is invalid"):
            list(pool.imap(_sleep, [(0.0,)], window=0))


def test_a_worker_killed_with_work_still_unread_is_a_worker_death_not_a_connection_error() -> None:
    """A worker that dies holding a task it never read closes its pipe with data unread: Linux then
    fails the parent's read with ECONNRESET instead of an end of file. That is the same death and
    must be raised as :class:`WorkerDiedError` (it was a bare ``ConnectionResetError``)."""
    import threading

    with WorkerPool(1) as pool:
        (pid,) = pool.pids
        results = pool.imap(_sleep, [(60.0,), (0.0,)], window=2)  # both sent; the second stays unread
        timer = threading.Timer(0.5, os.kill, (pid, signal.SIGKILL))
        timer.start()
        try:
            with pytest.raises(WorkerDiedError, match=f"exit code {-signal.SIGKILL}"):
                next(results)
        finally:
            timer.cancel()
        pool.kill()


def test_a_ctrl_c_while_the_workers_are_still_starting_does_not_kill_them() -> None:
    """SIGINT is blocked from the fork until a worker ignores it: a Ctrl-C that lands during the new
    process's start-up (before ``_serve`` runs) is dropped, not a KeyboardInterrupt that kills it."""
    for _ in range(10):
        with WorkerPool(2) as pool:
            for pid in pool.pids:  # at once: the workers are still in multiprocessing's bootstrap
                os.kill(pid, signal.SIGINT)
            assert list(pool.imap(_sleep, [(0.05,), (0.05,)], window=2)) == [0.05, 0.05]

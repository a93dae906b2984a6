"""Let the command-line entry points leave through their ``finally`` blocks on ``SIGTERM``.

By default ``SIGTERM`` (``kill PID``, a job scheduler's stop, ``timeout``) ends a Python process
at once: no ``finally`` block runs, so a worker pool it started is never shut down. The pool's
processes (``spawn``) then wait for work forever -- a ``cfr-lite`` build killed this way left its
two workers behind. :func:`exit_on_sigterm` turns ``SIGTERM`` into ``SystemExit(143)`` (the
status a shell reports for it), so the entry point's clean-up runs: worker pools are shut down
(a running job finishes first) and files being written are left as they were.

The ``holdem`` command, ``python -m holdem_env.training.cfr_lite.build`` and
``python -m holdem_env.training.ppo`` call it at start-up. A handler the program already set is
kept.

>>> import signal
>>> previous = signal.getsignal(signal.SIGTERM)
>>> exit_on_sigterm() in (True, False)
True
>>> _ = signal.signal(signal.SIGTERM, previous)
"""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType

__all__ = ["SIGTERM_STATUS", "exit_on_sigterm"]

#: Exit status after ``SIGTERM`` (128 + 15, as a shell reports a process ended by it).
SIGTERM_STATUS = 128 + signal.SIGTERM


def _exit(signum: int, frame: FrameType | None) -> None:
    sys.exit(SIGTERM_STATUS)


def exit_on_sigterm() -> bool:
    """Make ``SIGTERM`` raise ``SystemExit(143)`` in the main thread; True when installed (only
    over the default action, and only from the main thread, where Python allows it)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return False
    signal.signal(signal.SIGTERM, _exit)
    return True

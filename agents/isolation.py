"""Agents in their own processes: an agent you do not trust sees only its observation and info.

An in-process agent is trusted code: it runs in the arena's interpreter, next to the engine
and the other agents, and could read their memory. :class:`IsolatedAgent` instead builds the
agent from its spec in a fresh worker process (``spawn``: nothing of this process's memory
is inherited; the agent's module is never imported here) and forwards every call:

- ``act(observation, info)``: the worker receives a copy of the observation arrays and of
  the info as plain data (``legal`` and ``view`` as dicts of numbers, strings and tuples);
  its answer must be an integer action id;
- the hooks ``start_hand``, ``end_hand`` and ``set_rng`` (a no-op where the agent lacks one).

Answers come back as JSON (never pickle), at most :data:`MAX_REPLY_BYTES`, so a hostile
worker cannot run code in this process; a worker that takes longer than ``timeout``
seconds to answer is killed. Errors are :class:`~holdem_env.agents.base.AgentError` (the
agent failed while playing) or :class:`~holdem_env.agents.base.AgentSpecError` (it could not
be built).

The worker is confined by :mod:`holdem_env.agents.sandbox` before the agent's module is
imported (Linux): the process that starts workers is made non-dumpable and workers drop
every capability, so no worker can read its memory (``/proc/<pid>/mem``) or another
worker's; a seccomp filter stops workers from signalling or tracing any process; each
worker has its own process group, killed whole by :meth:`IsolatedAgent.close` (so every
process it forked ends with it); memory, open files, file size and CPU time per call are
limited (:class:`~holdem_env.agents.sandbox.WorkerLimits`); its stdout and stderr are
discarded. Files and the network stay reachable with the user's rights: run code you do
not trust inside an OS sandbox (container, VM) as well.

>>> agent = IsolatedAgent("random", timeout=60)
>>> agent.spec
'random'
>>> agent.close()
"""

from __future__ import annotations

import json
import multiprocessing
import os

try:
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]
import signal
import traceback
from collections.abc import Mapping
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from holdem_env.agents.base import AgentError, AgentSpecError, legal_of, make_agent, parse_spec
from holdem_env.agents.sandbox import WorkerLimits, confine, cpu_seconds_of, make_undumpable
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_number, is_int

__all__ = ["IsolatedAgent", "WorkerLimits", "plain_info", "MAX_REPLY_BYTES", "DEFAULT_TIMEOUT"]

#: Largest reply a worker may send (an action id or an error message needs far less).
MAX_REPLY_BYTES = 65_536
#: Seconds a worker may take to answer one call, unless told otherwise (and at least this to build its agent).
DEFAULT_TIMEOUT = 60.0
_HOOKS = ("start_hand", "end_hand", "set_rng")


def _plain(value: Any, depth: int = 0) -> Any:
    """``value`` as plain data (numbers, strings, None, tuples, dicts, numpy arrays); refuses anything else."""
    if depth > 8:
        raise TypeError("info is nested too deeply to send to an isolated agent")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return np.array(value, copy=True)
    if isinstance(value, Mapping):
        return {_plain(k, depth + 1): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v, depth + 1) for v in value)
    raise TypeError(f"cannot send a {type(value).__name__} to an isolated agent")


def plain_info(info: Mapping[str, Any]) -> dict[str, Any]:
    """A seat's info dict as plain data: ``legal`` as a dict, ``view`` (any mapping) copied key by key."""
    out = {k: _plain(v) for k, v in info.items() if k not in ("legal", "view")}
    if "legal" in info:
        out["legal"] = _plain(legal_of(info))
    if "view" in info:
        out["view"] = _plain(info["view"])
    return out


def _reply(conn: Connection, obj: Any) -> None:
    data = json.dumps(obj).encode()
    if len(data) > MAX_REPLY_BYTES:
        data = json.dumps(["error", "ValueError", "the reply is too large"]).encode()
    conn.send_bytes(data)


def _worker(conn: Connection, spec: str, limits: WorkerLimits) -> None:
    """The worker process: confine itself, build the agent, then answer calls until told to stop."""
    try:
        confine(limits)
        agent = make_agent(spec)
    except Exception as exc:
        _reply(conn, ["error", type(exc).__name__, str(exc)[:2000]])
        return
    _reply(conn, ["ok", [h for h in _HOOKS if callable(getattr(agent, h, None))]])
    while True:
        try:
            method, args = conn.recv()
        except EOFError:
            return
        if method == "close":
            return
        try:
            fn = getattr(agent, method, None)
            result = fn(*args) if fn is not None else None
            if method == "act":
                if is_int(result):
                    result = int(result)
                else:
                    raise TypeError(f"act returned {type(result).__name__}, not an integer action id")
            else:
                result = None
            _reply(conn, ["ok", result])
        except Exception as exc:
            _reply(conn, ["error", type(exc).__name__, (str(exc) or traceback.format_exc(limit=1))[:2000]])


def _move_cpu_limit(pid: int | None, soft: int) -> None:
    """Set worker ``pid``'s ``RLIMIT_CPU`` soft limit to ``soft`` seconds (its seccomp filter keeps
    it from moving the limit itself); a no-op where ``prlimit`` is missing or refused."""
    prlimit = getattr(resource, "prlimit", None)  # Linux only
    if prlimit is None or pid is None:
        return
    try:
        _, hard = prlimit(pid, resource.RLIMIT_CPU)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        prlimit(pid, resource.RLIMIT_CPU, (soft, hard))
    except (OSError, ValueError):
        pass


def _how_it_ended(process: Any) -> str:
    """``"exited with status 3"`` / ``"was killed by SIGKILL"`` / ``"stopped"`` for a finished worker."""
    process.join(0.5)
    code = process.exitcode
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


class IsolatedAgent:
    """An agent built from ``spec`` in its own worker process; see the module docstring.

    ``timeout``: seconds the worker may take to build the agent and to answer each call
    (``None``: no limit). ``limits``: what the worker may use (default
    :class:`~holdem_env.agents.sandbox.WorkerLimits()`). ``wait=False`` returns at once;
    :meth:`wait_ready` then waits for the build. Call :meth:`close` (or use ``with``) to
    stop the worker and everything it started. Starting one makes this process
    non-dumpable (its memory unreadable to the workers).
    """

    def __init__(
        self, spec: str, *, timeout: float | None = DEFAULT_TIMEOUT, wait: bool = True, limits: WorkerLimits | None = None
    ) -> None:
        parse_spec(spec)  # the syntax only: the agent's module is imported in the worker
        allowed = "must be a positive number of seconds or None"
        timeout = check_number("timeout", timeout, 0, lo_open=True, none_ok=True, allowed=allowed)
        if limits is not None and not isinstance(limits, WorkerLimits):
            raise ConfigError("limits", limits, "must be a WorkerLimits or None")
        self.spec = spec
        self.timeout = timeout
        self.limits = WorkerLimits() if limits is None else limits
        make_undumpable()  # before the worker exists: it must never see this process readable
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(
            target=_worker, args=(child, spec, self.limits), daemon=True, name=f"agent {spec}"
        )
        self._process.start()
        self.pid: int | None = self._process.pid
        child.close()
        self.hooks: tuple[str, ...] | None = None
        #: Why the worker stopped, once it has (``None`` while it runs).
        self.failure: str | None = None
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        """Wait until the worker has built its agent; :class:`AgentSpecError` if it could not."""
        if self.hooks is not None:
            return
        # Starting an interpreter and importing the agent may take longer than a decision.
        timeout = None if self.timeout is None else max(self.timeout, DEFAULT_TIMEOUT)
        try:
            status, *rest = self._receive("build", timeout)
        except AgentError as exc:
            raise AgentSpecError(f"agent spec {self.spec!r} could not be built: {exc}") from None
        if status != "ok":
            self.close()
            raise AgentSpecError(f"agent spec {self.spec!r} failed in its worker: {rest[0]}: {rest[1]}")
        self.hooks = tuple(str(h) for h in rest[0] if h in _HOOKS)

    @classmethod
    def start_many(
        cls, specs: list[str], *, timeout: float | None = DEFAULT_TIMEOUT, limits: WorkerLimits | None = None
    ) -> list[IsolatedAgent]:
        """One isolated agent per spec, their workers started together (they start in parallel)."""
        agents: list[IsolatedAgent] = []
        try:
            for spec in specs:
                agents.append(cls(spec, timeout=timeout, wait=False, limits=limits))
            for agent in agents:
                agent.wait_ready()
        except BaseException:
            for agent in agents:
                agent.close()
            raise
        return agents

    def _fail(self, message: str) -> AgentError:
        """Stop the worker and the error to raise (kept in :attr:`failure`)."""
        self.close()
        self.failure = message
        return AgentError(message, agent=self.spec)

    def _receive(self, what: str, timeout: float | None) -> list[Any]:
        try:
            answered = self._conn.poll(timeout)
        except (EOFError, OSError):
            answered = True  # the worker is gone: recv_bytes below says so
        if not answered:
            raise self._fail(f"agent {self.spec!r} did not answer {what} within {timeout:g} s")
        try:
            reply = json.loads(self._conn.recv_bytes(MAX_REPLY_BYTES))
        except (EOFError, OSError, ValueError) as exc:
            how = _how_it_ended(self._process) if isinstance(exc, (EOFError, OSError)) else "sent bad data"
            raise self._fail(f"agent {self.spec!r} worker {how} during {what}") from None
        if not isinstance(reply, list) or not reply or reply[0] not in ("ok", "error"):
            raise self._fail(f"agent {self.spec!r} worker sent a malformed reply to {what}")
        if reply[0] == "error" and (len(reply) != 3 or not all(isinstance(x, str) for x in reply[1:])):
            raise self._fail(f"agent {self.spec!r} worker sent a malformed reply to {what}")
        return reply

    def _cpu_used(self) -> float | None:
        return None if self.pid is None else cpu_seconds_of(self.pid)

    def _call(self, method: str, *args: Any) -> Any:
        if self._process is None or (not self._process.is_alive() and not self._conn.poll()):
            why = f" ({self.failure})" if self.failure else ""
            raise AgentError(f"agent {self.spec!r} worker is not running{why}", agent=self.spec)
        budget = self.limits.cpu_seconds
        before = self._cpu_used() if budget is not None else None
        if before is not None and budget is not None:
            _move_cpu_limit(self.pid, int(before + budget) + 1)
        try:
            self._conn.send((method, args))
        except (OSError, ValueError):
            raise self._fail(f"agent {self.spec!r} worker {_how_it_ended(self._process)} before {method}") from None
        reply = self._receive(method, self.timeout)
        if before is not None and budget is not None:
            after = self._cpu_used()
            if after is not None and after - before > budget:
                raise self._fail(
                    f"agent {self.spec!r} used {after - before:.1f} CPU seconds during {method} (limit {budget:g})"
                )
        if reply[0] == "error":
            raise AgentError(f"agent {self.spec!r} raised {reply[1]}: {reply[2]}", agent=self.spec)
        return reply[1]

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """The worker agent's action id for this observation and info (sent as copies)."""
        self.wait_ready()
        result = self._call("act", {k: _plain(v) for k, v in observation.items()}, plain_info(info))
        if not is_int(result):
            raise AgentError(f"agent {self.spec!r} returned {type(result).__name__}, not an action id", agent=self.spec)
        return int(result)

    def start_hand(self, info: Mapping[str, Any]) -> None:
        """Forward the hook (a no-op where the agent has none)."""
        self.wait_ready()
        if "start_hand" in self.hooks:  # type: ignore[operator]
            self._call("start_hand", plain_info(info))

    def end_hand(self, result: Mapping[str, Any]) -> None:
        """Forward the hook (a no-op where the agent has none)."""
        self.wait_ready()
        if "end_hand" in self.hooks:  # type: ignore[operator]
            self._call("end_hand", _plain(result))

    def set_rng(self, rng: np.random.Generator) -> None:
        """Give the worker's agent a generator in the same state as ``rng``."""
        self.wait_ready()
        if "set_rng" in self.hooks:  # type: ignore[operator]
            self._call("set_rng", rng)

    def close(self) -> None:
        """Stop the worker and every process it started (idempotent)."""
        process = getattr(self, "_process", None)
        if process is None:
            return
        try:
            if process.is_alive():
                try:
                    self._conn.send(("close", ()))
                except (OSError, ValueError):
                    pass
                process.join(1.0)
        finally:
            self._kill_group()
            if process.is_alive():
                process.kill()
            process.join(1.0)
            self._conn.close()
            self._process = None  # type: ignore[assignment]

    def _kill_group(self) -> None:
        """SIGKILL the worker's process group: the worker and whatever it forked (they cannot leave it)."""
        pid = self.pid
        if pid is None or pid <= 1 or pid == os.getpgrp():
            return
        try:
            if os.getpgid(pid) != pid:  # the worker is gone and its number reused, or it never got its group
                return
        except OSError:
            pass  # reaped already: the group (if any process is left in it) still carries its number
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass

    def __enter__(self) -> IsolatedAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

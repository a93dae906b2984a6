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
be built). This separates memory, not privileges: the worker runs as the same user with the
same files and network, so run code you do not trust inside an OS sandbox as well.

>>> agent = IsolatedAgent("random", timeout=60)
>>> agent.spec
'random'
>>> agent.close()
"""

from __future__ import annotations

import json
import multiprocessing
import traceback
from collections.abc import Mapping
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from holdem_env.agents.base import AgentError, AgentSpecError, legal_of, make_agent, parse_spec
from holdem_env.engine.validate import check_number, is_int

__all__ = ["IsolatedAgent", "plain_info", "MAX_REPLY_BYTES", "DEFAULT_TIMEOUT"]

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


def _worker(conn: Connection, spec: str) -> None:
    """The worker process: build the agent, then answer calls until told to stop."""
    try:
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


class IsolatedAgent:
    """An agent built from ``spec`` in its own worker process; see the module docstring.

    ``timeout``: seconds the worker may take to build the agent and to answer each call
    (``None``: no limit). ``wait=False`` returns at once; :meth:`wait_ready` then waits for
    the build. Call :meth:`close` (or use ``with``) to stop the worker.
    """

    def __init__(self, spec: str, *, timeout: float | None = DEFAULT_TIMEOUT, wait: bool = True) -> None:
        parse_spec(spec)  # the syntax only: the agent's module is imported in the worker
        allowed = "must be a positive number of seconds or None"
        self.spec = spec
        self.timeout = check_number("timeout", timeout, 0, lo_open=True, none_ok=True, allowed=allowed)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(target=_worker, args=(child, spec), daemon=True, name=f"agent {spec}")
        self._process.start()
        child.close()
        self.hooks: tuple[str, ...] | None = None
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        """Wait until the worker has built its agent; :class:`AgentSpecError` if it could not."""
        if self.hooks is not None:
            return
        # Starting an interpreter and importing the agent may take longer than a decision.
        timeout = None if self.timeout is None else max(self.timeout, DEFAULT_TIMEOUT)
        status, *rest = self._receive("build", timeout)
        if status != "ok":
            self.close()
            raise AgentSpecError(f"agent spec {self.spec!r} failed in its worker: {rest[0]}: {rest[1]}")
        self.hooks = tuple(str(h) for h in rest[0] if h in _HOOKS)

    @classmethod
    def start_many(cls, specs: list[str], *, timeout: float | None = DEFAULT_TIMEOUT) -> list[IsolatedAgent]:
        """One isolated agent per spec, their workers started together (they start in parallel)."""
        agents: list[IsolatedAgent] = []
        try:
            for spec in specs:
                agents.append(cls(spec, timeout=timeout, wait=False))
            for agent in agents:
                agent.wait_ready()
        except BaseException:
            for agent in agents:
                agent.close()
            raise
        return agents

    def _receive(self, what: str, timeout: float | None) -> list[Any]:
        try:
            answered = self._conn.poll(timeout)
        except (EOFError, OSError):
            answered = True  # the worker is gone: recv_bytes below says so
        if not answered:
            self.close()
            raise AgentError(f"agent {self.spec!r} did not answer {what} within {timeout:g} s", agent=self.spec)
        try:
            reply = json.loads(self._conn.recv_bytes(MAX_REPLY_BYTES))
        except (EOFError, OSError, ValueError) as exc:
            self.close()
            raise AgentError(
                f"agent {self.spec!r} worker failed during {what} ({type(exc).__name__})", agent=self.spec
            ) from None
        if not isinstance(reply, list) or not reply or reply[0] not in ("ok", "error"):
            self.close()
            raise AgentError(f"agent {self.spec!r} worker sent a malformed reply to {what}", agent=self.spec)
        if reply[0] == "error" and (len(reply) != 3 or not all(isinstance(x, str) for x in reply[1:])):
            self.close()
            raise AgentError(f"agent {self.spec!r} worker sent a malformed reply to {what}", agent=self.spec)
        return reply

    def _call(self, method: str, *args: Any) -> Any:
        if self._process is None or (not self._process.is_alive() and not self._conn.poll()):
            raise AgentError(f"agent {self.spec!r} worker is not running", agent=self.spec)
        try:
            self._conn.send((method, args))
        except (OSError, ValueError):
            self.close()
            raise AgentError(f"agent {self.spec!r} worker is not running", agent=self.spec) from None
        reply = self._receive(method, self.timeout)
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
        """Stop the worker (idempotent)."""
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
            if process.is_alive():
                process.kill()
                process.join(1.0)
        finally:
            self._conn.close()
            self._process = None  # type: ignore[assignment]

    def __enter__(self) -> IsolatedAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

"""The policy interface, the agent registry and agent spec strings.

An agent is any object with one method::

    class MyAgent:
        def act(self, observation: dict, info: dict) -> int:
            return 1  # check/call

``observation`` is the environment's observation dict for the acting seat (with its
``action_mask``); ``info`` is that seat's info dict (``info["legal"]``: ``fold``, ``check``,
``call``, ``min_raise_to``, ``max_raise_to``, plus a structured view of what the seat may
see). The return value is an action id that the mask allows.

Optional hooks, called only when the agent defines them:

- ``start_hand(info)``: before the first decision of a hand (the seat's own info);
- ``end_hand(result)``: after the hand, with ``{"seat", "payoff", "board", "shown"}``;
- ``set_rng(rng)``: the arena hands the agent a seeded ``numpy.random.Generator`` before
  each hand, so that results do not depend on scheduling.

Agents are created from a *spec string*:

- a registered name: ``"random"``, ``"tag"``;
- a registered name with keyword arguments: ``"tag(tightness=1.3, aggression=0.8)"``;
- ``"package.module:ClassName"`` or ``"package.module:ClassName(depth=3)"`` for your own
  class, which then plugs into every tool without touching this package.

Keyword values are Python literals (numbers, strings, booleans, ``None``, tuples, lists).

>>> parse_spec("tag(tightness=1.5)")
AgentSpec(target='holdem_env.agents.tag:TagAgent', kwargs={'tightness': 1.5}, text='tag(tightness=1.5)')
>>> parse_spec("nosuchbot")
Traceback (most recent call last):
...
holdem_env.agents.base.AgentSpecError: unknown agent 'nosuchbot': use a registered name (cfr-lite, ppo, random, random-type, tag) or 'package.module:ClassName'
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, runtime_checkable

import numpy as np

from holdem_env.engine.errors import ConfigError, HoldemError

__all__ = [
    "Agent",
    "AgentSpec",
    "AgentSpecError",
    "AgentError",
    "REGISTRY",
    "register_agent",
    "registered_agents",
    "parse_spec",
    "make_agent",
    "legal_of",
    "agent_rng",
    "check_bet_sizes",
]


class AgentSpecError(HoldemError):
    """An agent spec string names no known agent, has malformed arguments, or fails to build."""


class AgentError(HoldemError):
    """An agent misbehaved during play: it raised or returned an illegal action.

    The message names the agent, the hand and the action; ``agent``, ``hand`` and
    ``action`` hold them for programs.
    """

    def __init__(self, message: str, *, agent: str = "", hand: int | str = "", action: object = None) -> None:
        super().__init__(message)
        self.agent = agent
        self.hand = hand
        self.action = action

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep the fields when the error crosses from a worker process.
        return (_rebuild_agent_error, (str(self), self.agent, self.hand, self.action))


def _rebuild_agent_error(message: str, agent: str, hand: int | str, action: object) -> AgentError:
    return AgentError(message, agent=agent, hand=hand, action=action)


@runtime_checkable
class Agent(Protocol):
    """What every agent provides: ``act(observation, info) -> action id``."""

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """Return a legal action id for the seat on turn."""
        ...


#: Registered short name -> ``"module:ClassName"`` (imported only when used).
REGISTRY: dict[str, str] = {
    "random": "holdem_env.agents.random_agent:RandomAgent",
    "random-type": "holdem_env.agents.random_agent:RandomTypeAgent",
    "tag": "holdem_env.agents.tag:TagAgent",
    "cfr-lite": "holdem_env.agents.cfr_lite:CfrLiteAgent",
    "ppo": "holdem_env.agents.ppo:PpoAgent",
}

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_TARGET = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$")


def register_agent(name: str, target: str | type, *, replace: bool = False) -> None:
    """Register ``name`` for an agent class (a class or a ``"module:ClassName"`` string).

    Other packages call this to add names such as ``"cfr-lite"``. Re-registering an
    existing name needs ``replace=True``.
    """
    if not isinstance(name, str) or not _NAME.match(name) or ":" in name:
        raise AgentSpecError(f"agent name {name!r} is invalid: use letters, digits, '_', '-' or '.'")
    if name in REGISTRY and not replace:
        raise AgentSpecError(f"agent name {name!r} is already registered (for {REGISTRY[name]}); pass replace=True")
    if isinstance(target, type):
        target = f"{target.__module__}:{target.__qualname__}"
    if not isinstance(target, str) or not _TARGET.match(target):
        raise AgentSpecError(f"agent target {target!r} is invalid: expected 'package.module:ClassName'")
    REGISTRY[name] = target


def registered_agents() -> list[str]:
    """The registered names, sorted."""
    return sorted(REGISTRY)


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: the ``"module:ClassName"`` target, its keyword arguments, the original text."""

    target: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def _unknown(text: str) -> AgentSpecError:
    names = ", ".join(registered_agents())
    return AgentSpecError(f"unknown agent {text!r}: use a registered name ({names}) or 'package.module:ClassName'")


def parse_spec(spec: str) -> AgentSpec:
    """Parse an agent spec string (see the module docstring); raises :class:`AgentSpecError`."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"agent spec {spec!r} is invalid: expected a name like 'tag' or 'package.module:ClassName'")
    text = spec.strip()
    head, kwargs = text, {}
    if "(" in text:
        if not text.endswith(")"):
            raise AgentSpecError(f"agent spec {text!r}: arguments must be written 'name(key=value, ...)'")
        head, arg_text = text[: text.index("(")].strip(), text[text.index("(") :]
        kwargs = _parse_kwargs(text, arg_text)
    if head in REGISTRY:
        target = REGISTRY[head]
    elif _TARGET.match(head):
        target = head
    else:
        raise _unknown(head)
    return AgentSpec(target=target, kwargs=kwargs, text=text)


def _parse_kwargs(text: str, arg_text: str) -> dict[str, Any]:
    try:
        call = ast.parse("f" + arg_text, mode="eval").body
    except SyntaxError:
        raise AgentSpecError(f"agent spec {text!r}: cannot parse the arguments {arg_text!r}") from None
    if not isinstance(call, ast.Call) or call.args:
        raise AgentSpecError(f"agent spec {text!r}: only keyword arguments are allowed, e.g. 'tag(tightness=1.2)'")
    out: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise AgentSpecError(f"agent spec {text!r}: '**' is not allowed in the arguments")
        try:
            out[kw.arg] = ast.literal_eval(kw.value)
        except ValueError:
            raise AgentSpecError(
                f"agent spec {text!r}: the value of {kw.arg!r} must be a literal (number, string, bool, None, list)"
            ) from None
    return out


def make_agent(spec: str | AgentSpec, *, rng: np.random.Generator | None = None) -> Any:
    """Build an agent from a spec; ``rng`` is passed to the constructor when it takes ``rng``.

    Raises :class:`AgentSpecError` when the module or class cannot be found, the keyword
    arguments do not fit the constructor, or the object has no ``act`` method.
    """
    parsed = spec if isinstance(spec, AgentSpec) else parse_spec(spec)
    module_name, class_name = parsed.target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise AgentSpecError(f"agent spec {parsed.text!r}: cannot import module {module_name!r} ({exc})") from None
    cls = getattr(module, class_name, None)
    if cls is None or not callable(cls):
        raise AgentSpecError(f"agent spec {parsed.text!r}: module {module_name!r} has no class {class_name!r}")
    kwargs = dict(parsed.kwargs)
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        params = {}
    if rng is not None and "rng" in params and "rng" not in kwargs:
        kwargs["rng"] = rng
    try:
        agent = cls(**kwargs)
    except HoldemError as exc:
        raise AgentSpecError(f"agent spec {parsed.text!r}: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise AgentSpecError(f"agent spec {parsed.text!r}: bad arguments for {class_name}: {exc}") from None
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(f"agent spec {parsed.text!r}: {class_name} has no act(observation, info) method")
    return agent


def legal_of(info: Mapping[str, Any]) -> dict[str, Any]:
    """``info["legal"]`` as a plain dict (accepts a dict or an object with the same attributes)."""
    legal = info["legal"]
    if isinstance(legal, Mapping):
        return dict(legal)
    return {k: getattr(legal, k) for k in ("fold", "check", "call", "min_raise_to", "max_raise_to")}


def agent_rng(rng: Any, seed: Any) -> np.random.Generator:
    """An agent's generator: ``rng`` when given, else ``numpy.random.default_rng(seed)``.

    >>> int(agent_rng(None, 3).integers(100)) == int(np.random.default_rng(3).integers(100))
    True
    >>> agent_rng(None, -1)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: seed=-1 is invalid: must be an integer >= 0 or None
    """
    if rng is not None:
        if not isinstance(rng, np.random.Generator):
            raise ConfigError("rng", type(rng).__name__, "must be a numpy.random.Generator or None")
        return rng
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ConfigError("seed", seed, "must be an integer >= 0 or None")
    return np.random.default_rng(seed)


def check_bet_sizes(bet_sizes: Any) -> tuple[float, ...]:
    """The discrete mode's pot fractions as floats (what ``nlhe_v0`` accepts: finite and > 0).

    >>> check_bet_sizes([0.5, 1])
    (0.5, 1.0)
    >>> check_bet_sizes([0.5, -1])
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: bet_sizes=[0.5, -1] is invalid: must be a sequence of positive pot fractions
    """
    allowed = "must be a sequence of positive pot fractions"
    try:
        values = list(bet_sizes)
    except TypeError:
        raise ConfigError("bet_sizes", bet_sizes, allowed) from None
    if isinstance(bet_sizes, (str, bytes)) or not all(
        isinstance(f, (int, float, np.integer, np.floating)) and not isinstance(f, bool) and np.isfinite(f) and f > 0
        for f in values
    ):
        raise ConfigError("bet_sizes", bet_sizes, allowed)
    return tuple(float(f) for f in values)

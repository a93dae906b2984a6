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
- ``action_probabilities(observation, info, holdings)``: *range queries*, the probability
  of each action id for every holding the seat could have (see
  :mod:`holdem_env.agents.ranges`). Defining it is how a policy opts into exploitability
  measurement (``holdem lbr``, :mod:`holdem_env.training.lbr`); the tools that need it
  refuse other agents with a clear error.

Agents are created from a *spec string*:

- a registered name: ``"random"``, ``"tag"``;
- a registered name with keyword arguments: ``"tag(tightness=1.3, aggression=0.8)"``;
- ``"sb3(path='model.zip')"`` or ``"torchscript(path='policy.pt')"``: a policy trained with
  another RL library (:mod:`holdem_env.agents.external`);
- ``"package.module:ClassName"`` or ``"package.module:ClassName(depth=3)"`` for your own
  class, which then plugs into every tool without touching this package.

Keyword values are Python literals (numbers, strings, booleans, ``None``, tuples, lists).

A spec names code to run, so a spec string (and a league YAML that holds specs) is code you
trust, like a Python import. Still, nothing is called before the target is known to be an
agent: a ``module:Name`` target must be a *class* that defines ``act`` (a function such as
``os:system`` is refused before it runs), and the keyword arguments must fit its constructor.
Other callables build agents only when registered by code, with
``register_agent(name, factory, factory=True)``. To play an agent you do not trust, run it
in its own process (``holdem eval --isolate-agents``, :mod:`holdem_env.agents.isolation`).

>>> parse_spec("tag(tightness=1.5)")
AgentSpec(target='holdem_env.agents.tag:TagAgent', kwargs={'tightness': 1.5}, text='tag(tightness=1.5)')
>>> parse_spec("nosuchbot")
Traceback (most recent call last):
...
holdem_env.agents.base.AgentSpecError: unknown agent 'nosuchbot': use a registered name (acpc, always-call, always-fold, barreler, calling-station, cfr-lite, cfr-search, check-raiser, four-bettor, lag, min-raiser, pot-bettor, ppo, ppo-6max, random, random-type, sb3, shover, style, tag, three-bet-caller, tight-passive, torchscript, trapper, turn-bully) or 'package.module:ClassName'
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from holdem_env.engine.errors import ConfigError, HoldemError, short_repr
from holdem_env.engine.validate import check_bet_sizes as _check_bet_sizes
from holdem_env.engine.validate import check_seed

__all__ = [
    "Agent",
    "AgentSpec",
    "AgentSpecError",
    "AgentError",
    "REGISTRY",
    "register_agent",
    "registered_agents",
    "parse_spec",
    "resolve_spec",
    "make_agent",
    "MAX_SPEC_LENGTH",
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
    "cfr-search": "holdem_env.agents.cfr_search.agent:CfrSearchAgent",
    "style": "holdem_env.agents.styles:StyleAgent",
    "lag": "holdem_env.agents.styles:LooseAggressiveAgent",
    "calling-station": "holdem_env.agents.styles:CallingStationAgent",
    "tight-passive": "holdem_env.agents.styles:TightPassiveAgent",
    "always-fold": "holdem_env.agents.fixed:AlwaysFoldAgent",
    "always-call": "holdem_env.agents.fixed:AlwaysCallAgent",
    # exploiters: bots aimed at one leak each, card-blind and card-reading (agents/exploiters.py)
    "min-raiser": "holdem_env.agents.exploiters:MinRaiserAgent",
    "shover": "holdem_env.agents.exploiters:ShoverAgent",
    "pot-bettor": "holdem_env.agents.exploiters:PotBettorAgent",
    "check-raiser": "holdem_env.agents.exploiters:CheckRaiserAgent",
    "turn-bully": "holdem_env.agents.exploiters:TurnBullyAgent",
    "barreler": "holdem_env.agents.exploiters:BarrelerAgent",
    "four-bettor": "holdem_env.agents.exploiters:FourBettorAgent",
    "three-bet-caller": "holdem_env.agents.exploiters:ThreeBetCallerAgent",
    "trapper": "holdem_env.agents.exploiters:TrapperAgent",
    # policies trained with other RL libraries (agents/external.py)
    "sb3": "holdem_env.agents.external:Sb3Agent",
    "torchscript": "holdem_env.agents.external:TorchScriptAgent",
    "ppo": "holdem_env.agents.ppo:PpoAgent",
    "ppo-6max": "holdem_env.agents.ppo:Ppo6MaxAgent",
    # a bot in another language speaking the ACPC protocol (agents/acpc.py)
    "acpc": "holdem_env.agents.acpc:AcpcAgent",
}

#: Registered targets that are factory callables rather than agent classes (see :func:`register_agent`).
_FACTORIES: set[str] = set()

#: Longest spec string accepted (the arguments are parsed by Python's parser).
MAX_SPEC_LENGTH = 4096

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_TARGET = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$")


def register_agent(name: str, target: str | type | Any, *, replace: bool = False, factory: bool = False) -> None:
    """Register ``name`` for an agent class (a class or a ``"module:ClassName"`` string).

    Other packages call this to add names such as ``"cfr-lite"``. Re-registering an
    existing name needs ``replace=True``. ``factory=True`` registers a callable that returns
    an agent (a module-level function, or its ``"module:function"`` string) instead of a class.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name) or ":" in name:
        raise AgentSpecError(f"agent name {name!r} is invalid: use letters, digits, '_', '-' or '.'")
    if name in REGISTRY and not replace:
        raise AgentSpecError(f"agent name {name!r} is already registered (for {REGISTRY[name]}); pass replace=True")
    if isinstance(target, type) or (factory and callable(target) and not isinstance(target, str)):
        target = f"{target.__module__}:{target.__qualname__}"
    if not isinstance(target, str) or not _TARGET.fullmatch(target):
        raise AgentSpecError(f"agent target {target!r} is invalid: expected 'package.module:ClassName'")
    REGISTRY[name] = target
    if factory:
        _FACTORIES.add(target)


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
        raise AgentSpecError(
            f"agent spec {short_repr(spec)} is invalid: expected a name like 'tag' or 'package.module:ClassName'"
        )
    if len(spec) > MAX_SPEC_LENGTH:
        raise AgentSpecError(f"agent spec {short_repr(spec)} is too long: at most {MAX_SPEC_LENGTH} characters")
    text = spec.strip()
    head, kwargs = text, {}
    if "(" in text:
        if not text.endswith(")"):
            raise AgentSpecError(f"agent spec {text!r}: arguments must be written 'name(key=value, ...)'")
        head, arg_text = text[: text.index("(")].strip(), text[text.index("(") :]
        kwargs = _parse_kwargs(text, arg_text)
    if head in REGISTRY:
        target = REGISTRY[head]
    elif _TARGET.fullmatch(head):
        target = head
    else:
        raise _unknown(head)
    return AgentSpec(target=target, kwargs=kwargs, text=text)


def _parse_kwargs(text: str, arg_text: str) -> dict[str, Any]:
    try:
        call = ast.parse("f" + arg_text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # too deep for the parser too
        raise AgentSpecError(f"agent spec {text!r}: cannot parse the arguments {arg_text!r}") from None
    if not isinstance(call, ast.Call) or call.args:
        raise AgentSpecError(f"agent spec {text!r}: only keyword arguments are allowed, e.g. 'tag(tightness=1.2)'")
    out: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise AgentSpecError(f"agent spec {text!r}: '**' is not allowed in the arguments")
        try:
            out[kw.arg] = ast.literal_eval(kw.value)
        except (ValueError, TypeError, RecursionError, MemoryError):  # TypeError: e.g. {[1]: 2}
            raise AgentSpecError(
                f"agent spec {text!r}: the value of {kw.arg!r} must be a literal (number, string, bool, None, list)"
            ) from None
    return out


def resolve_spec(spec: str | AgentSpec) -> tuple[AgentSpec, Any]:
    """Import a spec's target and check it, calling nothing: ``(parsed spec, class or factory)``.

    The target must be a class with an ``act`` method, or a factory registered with
    ``register_agent(..., factory=True)``; the keyword arguments must fit its signature.
    Raises :class:`AgentSpecError` otherwise, before any of the target's code runs (importing
    the module runs the module's own top-level code, as any import does).
    """
    parsed = spec if isinstance(spec, AgentSpec) else parse_spec(spec)
    module_name, class_name = parsed.target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise AgentSpecError(f"agent spec {parsed.text!r}: cannot import module {module_name!r} ({exc})") from None
    target = getattr(module, class_name, None)
    if target is None:
        raise AgentSpecError(f"agent spec {parsed.text!r}: module {module_name!r} has no class {class_name!r}")
    if parsed.target in _FACTORIES:
        if not callable(target):
            raise AgentSpecError(f"agent spec {parsed.text!r}: the registered factory {parsed.target!r} is not callable")
    elif not inspect.isclass(target):
        raise AgentSpecError(
            f"agent spec {parsed.text!r}: {parsed.target!r} is a {type(target).__name__}, not an agent class; "
            "a spec must name a class with an act(observation, info) method (factories must be registered "
            "with register_agent(..., factory=True))"
        )
    elif not callable(getattr(target, "act", None)):
        raise AgentSpecError(f"agent spec {parsed.text!r}: {class_name} has no act(observation, info) method")
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        signature = None
    if signature is not None:
        try:
            signature.bind(**parsed.kwargs)
        except TypeError as exc:
            raise AgentSpecError(f"agent spec {parsed.text!r}: bad arguments for {class_name}: {exc}") from None
    return parsed, target


def make_agent(spec: str | AgentSpec, *, rng: np.random.Generator | None = None) -> Any:
    """Build an agent from a spec; ``rng`` is passed to the constructor when it takes ``rng``.

    Raises :class:`AgentSpecError` when the module or class cannot be found, the target is
    not an agent class (checked first, see :func:`resolve_spec`), the keyword arguments do
    not fit the constructor, or the object built has no ``act`` method.
    """
    parsed, cls = resolve_spec(spec)
    class_name = parsed.target.split(":")[1]
    kwargs = dict(parsed.kwargs)
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without signatures
        params = {}  # type: ignore[assignment]
    if rng is not None and "rng" in params and "rng" not in kwargs:
        kwargs["rng"] = rng
    try:
        agent = cls(**kwargs)
    except HoldemError as exc:
        raise AgentSpecError(f"agent spec {parsed.text!r}: {exc}") from None
    except (TypeError, ValueError, OverflowError) as exc:
        raise AgentSpecError(f"agent spec {parsed.text!r}: bad arguments for {class_name}: {exc}") from None
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(f"agent spec {parsed.text!r}: {class_name} has no act(observation, info) method")
    return agent


def legal_of(info: Mapping[str, Any]) -> dict[str, Any]:
    """``info["legal"]`` as a plain dict (accepts a dict or an object with the same attributes).

    ``min_raise_to``/``max_raise_to`` are ``None`` when no raise is allowed (the env's infos
    say 0 so that they batch; the engine's ``LegalActions`` says ``None``).

    >>> legal_of({"legal": {"fold": True, "check": False, "call": 10, "min_raise_to": 0, "max_raise_to": 0}})
    {'fold': True, 'check': False, 'call': 10, 'min_raise_to': None, 'max_raise_to': None}
    """
    legal = info["legal"]
    if isinstance(legal, Mapping):
        out = dict(legal)
    else:
        out = {k: getattr(legal, k) for k in ("fold", "check", "call", "min_raise_to", "max_raise_to")}
    if not out["min_raise_to"]:
        out["min_raise_to"] = out["max_raise_to"] = None
    return out


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
    return np.random.default_rng(check_seed("seed", seed))


def check_bet_sizes(bet_sizes: Any) -> tuple[float, ...]:
    """The discrete mode's pot fractions as floats (what ``nlhe_v1`` accepts: finite, > 0, at most 1000).

    The one check of :func:`holdem_env.engine.validate.check_bet_sizes`, under its older name.

    >>> check_bet_sizes([0.5, 1])
    (0.5, 1.0)
    >>> check_bet_sizes([0.5, -1])
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.ConfigError: bet_sizes=[0.5, -1] is invalid: must be a sequence of positive, finite pot fractions (numbers, not booleans) of at most 1000 pots
    """
    return _check_bet_sizes(bet_sizes)

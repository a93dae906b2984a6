"""Agents: the policy interface (``act(observation, info) -> action id``), spec strings and bots.

Create any agent from a spec string with :func:`make_agent` (``"random"``, ``"tag"``,
``"tag(tightness=1.3)"``, ``"package.module:ClassName(key=value)"``); see
:mod:`holdem_env.agents.base`. The bots themselves (:class:`~holdem_env.agents.random_agent.RandomAgent`,
:class:`~holdem_env.agents.tag.TagAgent`) are imported on first use.
"""

from __future__ import annotations

from typing import Any

from .base import (
    REGISTRY,
    Agent,
    AgentError,
    AgentSpec,
    AgentSpecError,
    make_agent,
    parse_spec,
    register_agent,
    registered_agents,
)

__all__ = [
    "Agent",
    "AgentError",
    "AgentSpec",
    "AgentSpecError",
    "REGISTRY",
    "make_agent",
    "parse_spec",
    "register_agent",
    "registered_agents",
    "RandomAgent",
    "RandomTypeAgent",
    "TagAgent",
    "StyleAgent",
    "LooseAggressiveAgent",
    "CallingStationAgent",
    "TightPassiveAgent",
    "PpoAgent",
    "Ppo6MaxAgent",
]

_LAZY = {
    "RandomAgent": "random_agent",
    "RandomTypeAgent": "random_agent",
    "TagAgent": "tag",
    "StyleAgent": "styles",
    "LooseAggressiveAgent": "styles",
    "CallingStationAgent": "styles",
    "TightPassiveAgent": "styles",
    "PpoAgent": "ppo",
    "Ppo6MaxAgent": "ppo",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

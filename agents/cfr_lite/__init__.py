"""cfr-lite: an abstracted no-limit hold'em agent trained by external-sampling MCCFR in our engine.

Modules: :mod:`~holdem_env.agents.cfr_lite.actions` (action abstraction, pseudo-harmonic translation),
:mod:`~holdem_env.agents.cfr_lite.buckets` (169 preflop classes, postflop strength buckets),
:mod:`~holdem_env.agents.cfr_lite.game` (the abstract game over the engine),
:mod:`~holdem_env.agents.cfr_lite.policy` (the ``.npz`` policy file) and
:mod:`~holdem_env.agents.cfr_lite.agent` (the ``cfr-lite`` agent). Training and building the
shipped policies live in :mod:`holdem_env.training.cfr_lite`.

Importing this package registers the agent name ``cfr-lite`` with :mod:`holdem_env.agents.base`.
"""

from __future__ import annotations

from holdem_env.agents import base

from .actions import ActionAbstraction, pseudo_harmonic, translate_size
from .agent import SHIPPED_POLICY, CfrLiteAgent
from .buckets import CardAbstraction, preflop_class, preflop_class_name
from .policy import CfrLitePolicy

__all__ = [
    "ActionAbstraction",
    "CardAbstraction",
    "CfrLiteAgent",
    "CfrLitePolicy",
    "SHIPPED_POLICY",
    "preflop_class",
    "preflop_class_name",
    "pseudo_harmonic",
    "register",
    "translate_size",
]


def register() -> None:
    """Register ``cfr-lite`` in the agent registry (idempotent)."""
    if base.REGISTRY.get("cfr-lite") != "holdem_env.agents.cfr_lite:CfrLiteAgent":
        base.register_agent("cfr-lite", "holdem_env.agents.cfr_lite:CfrLiteAgent", replace=True)


register()

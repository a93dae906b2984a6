"""cfr-lite: an abstracted no-limit hold'em agent trained by external-sampling MCCFR in our engine.

Modules: :mod:`~agents.cfr_lite.actions` (action abstraction, pseudo-harmonic translation),
:mod:`~agents.cfr_lite.buckets` (169 preflop classes, postflop strength buckets),
:mod:`~agents.cfr_lite.game` (the abstract game over the engine),
:mod:`~agents.cfr_lite.trainer` (MCCFR with numpy tables), :mod:`~agents.cfr_lite.policy`
(the ``.npz`` policy file), :mod:`~agents.cfr_lite.agent` (the ``cfr-lite`` agent) and
:mod:`~agents.cfr_lite.build` (the command that builds the shipped policy).

Importing this package registers the agent name ``cfr-lite`` with :mod:`agents.base`.
"""

from __future__ import annotations

from .actions import ActionAbstraction, pseudo_harmonic, translate_size
from .agent import SHIPPED_POLICY, CfrLiteAgent
from .buckets import CardAbstraction, preflop_class, preflop_class_name
from .policy import CfrLitePolicy
from .trainer import CfrLiteTrainer, TrainStats

__all__ = [
    "ActionAbstraction",
    "CardAbstraction",
    "CfrLiteAgent",
    "CfrLitePolicy",
    "CfrLiteTrainer",
    "SHIPPED_POLICY",
    "TrainStats",
    "preflop_class",
    "preflop_class_name",
    "pseudo_harmonic",
    "register",
    "translate_size",
]


def register() -> None:
    """Register ``cfr-lite`` in the agent registry (idempotent)."""
    from agents import base

    if base.REGISTRY.get("cfr-lite") != "agents.cfr_lite:CfrLiteAgent":
        base.register_agent("cfr-lite", "agents.cfr_lite:CfrLiteAgent", replace=True)


register()

"""Training cfr-lite: external-sampling MCCFR over the abstract game of
:mod:`holdem_env.agents.cfr_lite.game`, and the command that builds the shipped policies.

:mod:`~holdem_env.training.cfr_lite.trainer` runs :class:`holdem_env.training.cfr.mccfr.ExternalSamplingMCCFR`
(the project's one external-sampling traversal) on the game as
:mod:`~holdem_env.training.cfr_lite.sampled_game` presents it, and writes the ``.npz`` policy
that :class:`holdem_env.agents.cfr_lite.CfrLiteAgent` plays; :mod:`~holdem_env.training.cfr_lite.build`
is ``python -m holdem_env.training.cfr_lite.build``.
"""

from __future__ import annotations

from .trainer import CfrLiteTrainer, TrainStats

__all__ = ["CfrLiteTrainer", "TrainStats"]

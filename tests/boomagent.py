"""An agent that fails at its first decision (for the error paths of worker processes)."""

from __future__ import annotations

from typing import Any


class ExplodingAgent:
    """Raises ``RuntimeError("boom: ...")`` from ``act``."""

    def act(self, observation: Any, info: Any) -> int:
        raise RuntimeError("boom: this agent always fails")

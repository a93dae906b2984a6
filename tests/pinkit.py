"""A tiny actor for the pinning test (importable by spawned processes): it reports where it may run."""

from __future__ import annotations

import os
from typing import Any


class Where:
    """Reports the CPUs its process may run on."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.setup = setup

    def cpus(self) -> list[int]:
        """This process's allowed CPUs, sorted."""
        return sorted(os.sched_getaffinity(0))

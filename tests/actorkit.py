"""A tiny actor class for the backends' actor tests (importable by spawned processes and Ray workers)."""

from __future__ import annotations

import os
from typing import Any


class Counter:
    """Adds to a running total; ``setup["fail"]`` makes the constructor raise."""

    def __init__(self, setup: dict[str, Any]) -> None:
        if setup.get("fail"):
            raise ValueError("bad setup: this counter refuses to start")
        self.total = int(setup["start"])

    def add(self, x: int) -> tuple[int, int]:
        """The new total and this process's id."""
        if x < 0:
            raise ValueError(f"negative step {x}")
        self.total += x
        return self.total, os.getpid()

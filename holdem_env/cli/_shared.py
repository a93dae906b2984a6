"""What several ``holdem`` subcommands check or open the same way (``--json`` targets, TensorBoard writers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["json_target_problem", "open_writer"]


def json_target_problem(command: str, path: str | None) -> str | None:
    """Why ``--json path`` cannot be written (its folder is missing), or ``None``; checked before a long run."""
    if not path:
        return None
    folder = Path(path).resolve().parent
    if folder.is_dir():
        return None
    return f"holdem {command}: --json {path!r}: the folder {str(folder)!r} does not exist"


def open_writer(logdir: str, config: dict[str, Any]) -> Any:
    """A TensorBoard ``SummaryWriter`` on ``logdir`` with the run's ``config`` logged as text."""
    from torch.utils.tensorboard import SummaryWriter  # torch only when --tensorboard is asked for

    writer = SummaryWriter(logdir)
    writer.add_text("config", json.dumps(config, indent=1))
    return writer

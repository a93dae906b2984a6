"""What several ``holdem`` subcommands check or open the same way (``--json`` targets, TensorBoard writers)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from holdem_env.agents.base import AgentError, AgentSpecError
from holdem_env.engine.errors import HoldemError

__all__ = ["json_target_problem", "json_target_reported", "open_writer", "config_or_report", "run_or_report", "write_json", "int_arg"]

T = TypeVar("T")


def json_target_problem(command: str, path: str | None) -> str | None:
    """Why ``--json path`` cannot be written (its folder is missing), or ``None``; checked before a long run."""
    if not path:
        return None
    folder = Path(path).resolve().parent
    if folder.is_dir():
        return None
    return f"holdem {command}: --json {path!r}: the folder {str(folder)!r} does not exist"


def json_target_reported(command: str, path: str | None) -> bool:
    """Print why ``--json path`` cannot be written and answer ``True``; ``False`` (nothing printed) when it can."""
    problem = json_target_problem(command, path)
    if problem:
        print(problem, file=sys.stderr)
    return problem is not None


def open_writer(logdir: str, config: dict[str, Any]) -> Any:
    """A TensorBoard ``SummaryWriter`` on ``logdir`` with the run's ``config`` logged as text."""
    from torch.utils.tensorboard import SummaryWriter  # torch only when --tensorboard is asked for

    writer = SummaryWriter(logdir)
    writer.add_text("config", json.dumps(config, indent=1))
    return writer


def config_or_report(command: str, build: Callable[[], T]) -> T | None:
    """``build()``, or ``None`` after printing its ``HoldemError`` (bad input) as ``holdem command: ...``."""
    try:
        return build()
    except HoldemError as exc:
        print(f"holdem {command}: {exc}", file=sys.stderr)
        return None


def run_or_report(command: str, job: Callable[[], T], writer: Any) -> T | None:
    """``job()``, or ``None`` after printing an agent or env error; ``writer`` (if any) is closed either way."""
    try:
        return job()
    except (AgentError, AgentSpecError, HoldemError) as exc:  # HoldemError: the env's own checks, maybe in a worker
        print(f"holdem {command}: {exc}", file=sys.stderr)
        return None
    finally:
        if writer is not None:
            writer.close()


def write_json(path: str, data: Any) -> None:
    """Write ``data`` as indented JSON to ``path``; a failed write names the file."""
    try:  # written in place: --json may name a pipe or a device
        Path(path).write_text(json.dumps(data, indent=2, allow_nan=False) + "\n")
    except OSError as exc:  # a failed write (a full disk) names no file: name it
        raise OSError(exc.errno, exc.strerror, path) if exc.filename is None else exc from None


def int_arg(text: str, minimum: int, not_int: str, too_small: str) -> int:
    """``text`` as an integer >= ``minimum``, else ``argparse.ArgumentTypeError`` with ``not_int``/``too_small``
    (formatted with ``text``/``value``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(not_int.format(text=text)) from None
    if value < minimum:
        raise argparse.ArgumentTypeError(too_small.format(value=value))
    return value

"""The ``holdem`` command-line tool: one entry point, a subcommand per job.

Each subcommand lives in its own module, imported only when that subcommand runs (so
``holdem replay`` never imports torch). A subcommand module provides
``configure_parser(parser: argparse.ArgumentParser) -> None`` and
``run(args: argparse.Namespace) -> int`` (the exit status).

Agent specs may name modules in the current directory (``holdem eval mybots:MyBot random``
next to ``mybots.py``), as with ``python -m``; installed modules take precedence.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Sequence

from holdem_env.allocator import tune_allocator
from holdem_env.signals import exit_on_sigterm

__all__ = ["main", "SUBCOMMANDS"]

#: name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("holdem_env.cli.demo", "play and print a few hands, then replay a hand history"),
    "replay": ("holdem_env.cli.replay", "replay .phh/.phhs hand histories through the engine"),
    "eval": ("holdem_env.cli.eval", "head-to-head matches between agents with confidence intervals"),
    "lbr": ("holdem_env.cli.lbr", "Local Best Response: a lower bound on a heads-up agent's exploitability"),
    "solve": ("holdem_env.cli.solve", "solve Kuhn or Leduc poker with CFR and report exploitability"),
    "cfr-search": ("holdem_env.cli.cfr_search", "build the cfr-search bot's blueprint (compiled MCCFR)"),
    "train": ("holdem_env.cli.train", "league training from a YAML config, logged to TensorBoard"),
    "play": ("holdem_env.cli.play", "play against the bots in the browser (a local web server)"),
    "dealer": ("holdem_env.cli.dealer", "an ACPC protocol dealer: bots in any language play over TCP"),
    "connect": ("holdem_env.cli.connect", "seat one of our agents at an ACPC dealer"),
}


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="holdem",
        description="holdem-env: Texas Hold'em engine, environment, agents and training tools.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in SUBCOMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


def _add_current_directory() -> None:
    """Let agent specs name modules in the current directory (``mybots:MyBot``), as ``python -m``
    does. The directory goes last on ``sys.path``, so a local file never shadows an installed module."""
    cwd = os.getcwd()
    if "" not in sys.path and cwd not in sys.path:
        sys.path.append(cwd)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tool; returns the exit status (also used as the console script)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0] not in SUBCOMMANDS:
        parser = _top_parser()
        if not args_list or args_list[0] in ("-h", "--help"):
            parser.print_help()
            return 0 if args_list else 2
        parser.error(f"unknown command {args_list[0]!r}; choose from {', '.join(SUBCOMMANDS)}")
    name = args_list[0]
    module_name, help_text = SUBCOMMANDS[name]
    _add_current_directory()
    tune_allocator()  # before any worker process starts: they inherit the settings
    exit_on_sigterm()  # a `kill` still shuts the worker pools down
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            print(f"holdem {name}: this command is not available in this build ({exc})", file=sys.stderr)
            return 2
        raise
    parser = argparse.ArgumentParser(prog=f"holdem {name}", description=help_text)
    module.configure_parser(parser)
    args = parser.parse_args(args_list[1:])
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        print(f"holdem {name}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        problem = file_problem(exc)
        if problem is None:
            raise
        print(f"holdem {name}: {problem}", file=sys.stderr)
        return 1


def file_problem(exc: BaseException) -> str | None:
    """One line for an error that is really a file system failure (a full disk, an unwritable
    path), found anywhere in ``exc``'s chain of causes; ``None`` for any other error.

    >>> file_problem(PermissionError(13, "Permission denied", "/x/out.json"))
    "cannot use '/x/out.json': Permission denied"
    """
    chain: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and all(e is not c for c in chain):
        chain.append(e)
        e = e.__cause__ or e.__context__
    for e in chain:  # the OS's own error first: it says what failed and where
        if isinstance(e, OSError) and e.errno is not None:
            reason = e.strerror or os.strerror(e.errno)
            if e.errno == errno.ENOSPC:
                reason += " (the disk is full)"
            return f"cannot use {str(e.filename)!r}: {reason}" if e.filename is not None else f"file system error: {reason}"
    markers = ("file write failed", "No space left", "PytorchStreamWriter", "inline_container")
    for e in chain:  # torch's writer reports a failed write as a RuntimeError
        text = str(e)
        if isinstance(e, RuntimeError) and any(m in text for m in markers):
            return f"writing a file failed (is the disk full?): {text.splitlines()[0]}"
    return None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``holdem cfr-search build ...``: build the cfr-search bot's blueprint file from the command line.

The options are those of ``python -m holdem_env.training.cfr_search build`` (one definition,
:func:`holdem_env.training.cfr_search.build.add_build_arguments`); like every subcommand module, this one
(and with it the training code) is imported only when the subcommand runs. Progress bars go to stderr, the JSON summary to stdout; a bad option or
setting prints one line and exits with status 2, before any work starts.
"""

from __future__ import annotations

import argparse

from holdem_env.training.cfr_search.build import add_build_arguments, run_build

__all__ = ["configure_parser", "run"]


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``cfr-search`` actions (``build``) to ``parser``."""
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add_build_arguments(sub.add_parser("build", help="build a blueprint file (MCCFR on the abstracted heads-up game)"))


def run(args: argparse.Namespace) -> int:
    """Run the chosen action; returns the exit status."""
    return run_build(args, command="holdem cfr-search build")

"""``holdem lbr AGENT``: Local Best Response, a lower bound on a heads-up agent's exploitability.

Examples::

    holdem lbr cfr-lite --hands 20000 --workers 2
    holdem lbr tag --actions all --check-until flop --json lbr_tag.json
    holdem lbr mypkg.bots:MyBot --small-blind 5 --big-blind 10 --stack 1000

The agent must answer range queries (``action_probabilities``; see
:mod:`holdem_env.agents.ranges`). Prints LBR's winnings in mbb/hand with a 95% interval
over duplicate deals, by position, the speed, and the published figures for comparison;
see :mod:`holdem_env.training.lbr` for the algorithm and the action sets.
"""

from __future__ import annotations

import argparse

from holdem_env.agents.base import registered_agents
from holdem_env.cli._shared import (
    config_or_report,
    int_arg,
    json_target_reported,
    open_writer,
    run_or_report,
    write_json,
)
from holdem_env.training.lbr import LbrConfig, format_result, run_lbr

__all__ = ["configure_parser", "run"]


def _workers(text: str) -> int | None:
    """``--workers``: a positive integer, or ``all`` (``None``: every CPU core)."""
    if text.strip().lower() == "all":
        return None
    return int_arg(
        text, 1, "{text!r} is not a positive integer or 'all'", "{value} is not a positive integer (use 'all' for every CPU core)"
    )


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem lbr`` arguments to ``parser``."""
    parser.add_argument(
        "agent",
        metavar="AGENT",
        help=f"agent spec: a registered name ({', '.join(registered_agents())}), 'name(key=value)' "
        "or 'package.module:ClassName'; it must answer range queries",
    )
    parser.add_argument("--hands", type=int, default=2000, help="hands, rounded up to duplicate pairs (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every deal and agent generator (default 0)")
    parser.add_argument(
        "--workers", type=_workers, default=1, help="worker processes, a positive integer or 'all' (every CPU core; default 1)"
    )
    parser.add_argument(
        "--actions",
        default="fcpa",
        choices=["fc", "fcpa", "all"],
        help="LBR's bets: fc fold/call; fcpa + pot raise and all-in (default, the paper's); "
        "all: + min-raise and every pot fraction 0.33, 0.5, 0.75, 1, 1.5, 2",
    )
    parser.add_argument(
        "--check-until",
        default="turn",
        choices=["preflop", "flop", "turn", "river"],
        help="LBR only checks/calls before this street (default turn, the paper's best setting)",
    )
    parser.add_argument(
        "--aivat",
        default=None,
        choices=["flop", "turn"],
        help="also report the AIVAT estimate of the same value (LBR's range and check-down values as "
        "control variates from this street on): the same expectation, a narrower interval",
    )
    parser.add_argument("--small-blind", type=int, default=50, help="default 50 (the published setting)")
    parser.add_argument("--big-blind", type=int, default=100, help="default 100")
    parser.add_argument("--stack", type=int, default=20000, help="chips per seat, reset every hand (default 20000)")
    parser.add_argument("--json", metavar="PATH", default=None, help="write the result as JSON")
    parser.add_argument(
        "--tensorboard", metavar="DIR", default=None, help="log the running figure as TensorBoard scalars"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run the LBR match and print the report; 0 on success, 2 on bad input or an unsuitable agent."""
    cfg = config_or_report(
        "lbr",
        lambda: LbrConfig(
            agent=args.agent, hands=args.hands, seed=args.seed, small_blind=args.small_blind, big_blind=args.big_blind,
            stack=args.stack, actions=args.actions, check_until=args.check_until, workers=args.workers,
            aivat=args.aivat,
        ),
    )
    # The --json target is checked before the match, so that a long run is not lost to a typo in a path.
    if cfg is None or json_target_reported("lbr", args.json):
        return 2

    writer = None
    callback = None
    if args.tensorboard:
        writer = open_writer(args.tensorboard, cfg.to_dict())

        def callback(hands: int, mbb: float, half: float) -> None:
            writer.add_scalar(f"eval/{cfg.agent}/lbr_mbb", mbb, hands)
            if half != float("inf"):
                writer.add_scalar(f"eval/{cfg.agent}/lbr_ci95", half, hands)

    result = run_or_report("lbr", lambda: run_lbr(cfg, progress=not args.no_progress, callback=callback), writer)
    if result is None:
        return 2
    print(format_result(result))
    if args.json:
        write_json(args.json, result.to_json_dict())
    return 0

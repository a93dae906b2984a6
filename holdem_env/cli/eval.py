"""``holdem eval``: duplicate matches between agent specs, with 95% confidence intervals.

Examples::

    holdem eval tag random --hands 20000 --players 2 --seed 7
    holdem eval tag tag random random random random --players 6 --hands 20000
    holdem eval "tag(tightness=1.3)" mypkg.bots:MyBot --json out.json --history hands/
    holdem eval mybots:Untrusted tag --isolate-agents

A spec string names code that runs in this process (agents are trusted code); with
``--isolate-agents`` each agent runs in its own process instead (see
:mod:`holdem_env.agents.isolation`). Modules are also looked up in the current directory.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from holdem_env.agents.base import registered_agents
from holdem_env.cli._shared import config_or_report, json_target_reported, open_writer, run_or_report, write_json
from holdem_env.training.aivat import format_luck_adjusted, luck_adjusted
from holdem_env.training.arena import ArenaConfig, format_table, run_match

__all__ = ["configure_parser", "run"]


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem eval`` arguments to ``parser``."""
    parser.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help=f"agent specs: a registered name ({', '.join(registered_agents())}), 'name(key=value)' "
        "or 'package.module:ClassName'; repeated in order to fill --players seats",
    )
    parser.add_argument(
        "--players", type=int, default=None, help="seats at the table, 2..10 (default: number of agents)"
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=2000,
        help="hands to play (at most 10,000,000), rounded up to whole duplicate groups (default 2000)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of every deal and agent generator (default 0)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: all CPU cores)")
    parser.add_argument(
        "--no-duplicate", action="store_true", help="fresh deals for every hand instead of duplicate groups"
    )
    parser.add_argument("--small-blind", type=int, default=5)
    parser.add_argument("--big-blind", type=int, default=10)
    parser.add_argument("--buy-in", type=int, default=1000)
    parser.add_argument("--betting", default="no-limit", choices=["no-limit", "pot-limit", "fixed-limit"])
    parser.add_argument("--action-mode", default="discrete", choices=["discrete", "exact"])
    parser.add_argument(
        "--on-illegal",
        default="raise",
        choices=["raise", "timeout"],
        help="an illegal action or an agent error: stop with an error (default) or count a timed-out turn",
    )
    parser.add_argument(
        "--isolate-agents",
        action="store_true",
        help="run every agent in its own process, seeing only its observation and info "
        "(for agents you do not trust; in-process agents are trusted code)",
    )
    parser.add_argument("--json", metavar="PATH", default=None, help="write the results as JSON")
    parser.add_argument("--history", metavar="DIR", default=None, help="write every hand as a .phh file in DIR")
    parser.add_argument("--tensorboard", metavar="DIR", default=None, help="log running results as TensorBoard scalars")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--aivat",
        action="store_true",
        help="heads-up only: also report the luck-adjusted estimate (AIVAT: chance terms at the deal, flop, turn "
        "and river, plus action terms at the decisions of agents that answer range queries, the hands replayed; "
        "when both answer range queries, also the showdown over the ranges and public chance and action terms "
        "computed on the ranges; each term has mean zero, so the estimate stays unbiased) and how much it "
        "narrows the interval; the hands are replayed on --workers processes after the match",
    )


def run(args: argparse.Namespace) -> int:
    """Run the match; print the table; 0 on success, 2 on bad input or a misbehaving agent."""
    cfg = config_or_report(
        "eval",
        lambda: ArenaConfig(
            agents=tuple(args.agents), players=args.players, hands=args.hands, seed=args.seed,
            duplicate=not args.no_duplicate, workers=args.workers, small_blind=args.small_blind,
            big_blind=args.big_blind, buy_in=args.buy_in, betting=args.betting, action_mode=args.action_mode,
            on_illegal=args.on_illegal, history_dir=args.history, isolate_agents=args.isolate_agents,
        ),
    )
    # The --json target is checked before the match, so that a long run is not lost to a typo in a path.
    if cfg is None or json_target_reported("eval", args.json):
        return 2
    if args.history and Path(args.history).exists() and not Path(args.history).is_dir():
        print(
            f"holdem eval: --history {args.history!r} is a file: give a folder (it is created if missing)",
            file=sys.stderr,
        )
        return 2

    if args.aivat and (args.players or len(args.agents)) != 2:
        print("holdem eval: --aivat needs a heads-up match (--players 2)", file=sys.stderr)
        return 2
    writer = None
    callback = None
    if args.tensorboard:
        writer = open_writer(args.tensorboard, cfg.to_dict())

        def callback(hands: int, rows: list[dict]) -> None:
            for i, row in enumerate(rows):
                tag = f"{i}_{row['agent']}".replace(" ", "")
                writer.add_scalar(f"eval/{tag}/mbb_per_hand", row["mbb_per_hand"], hands)
                if row["ci95"] != float("inf"):
                    writer.add_scalar(f"eval/{tag}/ci95", row["ci95"], hands)

    result = run_or_report(
        "eval", lambda: run_match(cfg, progress=not args.no_progress, callback=callback, keep_records=args.aivat), writer
    )
    if result is None:
        return 2
    print(format_table(result))
    data = result.to_json_dict()
    if args.aivat:
        adjusted = luck_adjusted(result, workers=cfg.workers, progress=not args.no_progress)
        print(format_luck_adjusted(adjusted))
        data["aivat"] = adjusted
    if args.json:
        write_json(args.json, data)
    return 0

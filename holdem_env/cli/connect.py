"""``holdem connect``: seat one of our agents at an ACPC dealer (ours or the reference's).

Examples::

    holdem connect 127.0.0.1 18791 tag
    holdem connect dealer.example.org 18792 "cfr-lite" --game holdem.limit.3p --secret s3cret

The game definition must be the dealer's (``--game``: a file or a name, default heads-up
no-limit 50/100 with 20,000 stacks). At the end it prints the hands played and chips won.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from holdem_env.acpc.client import AcpcClient, connect_and_play
from holdem_env.acpc.dealer import load_game
from holdem_env.agents.base import make_agent, registered_agents
from holdem_env.engine.errors import HoldemError

__all__ = ["configure_parser", "run"]


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem connect`` arguments to ``parser``."""
    parser.add_argument("host", help="the dealer's address")
    parser.add_argument("port", type=int, help="the port of the seat to take")
    parser.add_argument("agent", metavar="AGENT_SPEC", help=f"an agent spec: {', '.join(registered_agents())}, "
                        "'name(key=value)' or 'package.module:ClassName'")
    parser.add_argument("--game", default="nolimit", help="the dealer's game definition file or name (default nolimit)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the agent's generator (default 0)")
    parser.add_argument("--secret", default=None, help="the seat's secret, if the dealer asks for one")
    parser.add_argument("--log", default=None, help="write one line per hand: hand, position, chips won")


def run(args: argparse.Namespace) -> int:
    """Run ``holdem connect``; returns the exit status."""
    try:
        game = load_game(args.game)
        agent = make_agent(args.agent)
        client = AcpcClient(game, agent, seed=args.seed, log=lambda t: print(t, file=sys.stderr, flush=True))
    except ValueError as exc:
        print(f"holdem connect: {exc}", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.log, "w")) if args.log else None
        try:
            results = connect_and_play(
                args.host, args.port, client, secret=args.secret, timeout=30.0,
                on_hand=(lambda r: out.write(f"{r.hand} {r.position} {r.payoff}\n")) if out else None,
            )
        except OSError as exc:
            print(f"holdem connect: cannot play on {args.host}:{args.port}: {exc}", file=sys.stderr)
            return 1
        except HoldemError as exc:
            print(f"holdem connect: {exc}", file=sys.stderr)
            return 1
    total = sum(r.payoff for r in results)
    print(f"{len(results)} hands, {total:+d} chips")
    return 0

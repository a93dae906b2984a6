"""``holdem dealer``: an ACPC-compatible dealer on the engine, one TCP port per seat (docs/acpc.md).

Examples::

    holdem dealer --hands 10000 --seed 7 --ports 18791,18792        # heads-up no-limit 50/100, 20,000 stacks
    holdem dealer --game holdem.limit.3p --hands 3000 --ports 0,0,0  # any free ports, printed first
    holdem dealer --game my.game --hands 1000 --secrets-file seats.txt --host 0.0.0.0

Like the reference dealer it prints the ports on its first stdout line, writes ``STATE:``
lines and a ``SCORE`` line to the ACPC log (``--log``), and ends stdout with the ``SCORE``
line. Events (connections, refusals, timeouts, ignored messages) go to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Any

from holdem_env.acpc.dealer import Dealer, DealerConfig, load_game
from holdem_env.engine.errors import HoldemError
from holdem_env.training.stats import mean_ci95

__all__ = ["configure_parser", "run"]


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``holdem dealer`` arguments to ``parser``."""
    parser.add_argument("--game", default="nolimit", help="a game definition file (ACPC format) or a name: nolimit "
                        "(default: heads-up no-limit, blinds 50/100, stacks 20,000), limit, holdem.limit.3p, holdem.nolimit.3p")
    parser.add_argument("--hands", type=int, required=True, help="hands to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of every deal (default 0)")
    parser.add_argument("--ports", default=None, help="one port per seat, comma-separated; 0 = any free port (default)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--names", default=None, help="seat names, comma-separated (default seat1,seat2,...)")
    parser.add_argument("--no-duplicate", action="store_true", help="a fresh deal every hand (default: each deal once per seat)")
    parser.add_argument("--t-response", type=float, default=10.0, help="seconds per answer (default 10)")
    parser.add_argument("--t-hand", type=float, default=600.0, help="seconds per seat per hand (default 600)")
    parser.add_argument("--t-connect", type=float, default=None, help="seconds to wait for all seats (default: no limit)")
    parser.add_argument("--secrets-file", default=None, help="a file with one secret per line, one per seat; "
                        "clients then send SECRET:<secret> after VERSION (off by default: the protocol has none)")
    parser.add_argument("--log", default=None, help="the ACPC log file (default <name>.log in the current folder)")
    parser.add_argument("--phh", default=None, help="also write every hand to this .phhs file")
    parser.add_argument("--name", default="match", help="match name (default 'match')")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def _bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency of the training extras
        return None
    return tqdm(total=total, unit="hand", file=sys.stderr, dynamic_ncols=True)


def run(args: argparse.Namespace) -> int:
    """Run ``holdem dealer``; returns the exit status."""
    try:
        game = load_game(args.game)
        n = game.num_players
        try:
            ports = [int(p) for p in args.ports.split(",")] if args.ports else [0] * n
        except ValueError:
            print(f"holdem dealer: --ports {args.ports!r} is invalid: give {n} port numbers separated by commas", file=sys.stderr)
            return 2
        secrets: list[str | None] = []
        if args.secrets_file:
            secrets = [line.strip() for line in Path(args.secrets_file).read_text().splitlines() if line.strip()]
        cfg = DealerConfig(
            game=game, hands=args.hands, seed=args.seed, ports=ports, host=args.host,
            names=args.names.split(",") if args.names else (), duplicate=not args.no_duplicate,
            t_response=args.t_response, t_hand=args.t_hand, t_connect=args.t_connect, secrets=secrets,
            match_name=args.name,
        )
    except (ValueError, OSError) as exc:
        print(f"holdem dealer: {exc}", file=sys.stderr)
        return 2
    try:
        dealer = Dealer(cfg, log=lambda text: print(text, file=sys.stderr, flush=True))
    except HoldemError as exc:
        print(f"holdem dealer: {exc}", file=sys.stderr)
        return 2
    print(" ".join(map(str, dealer.ports)), flush=True)
    log_path = Path(args.log) if args.log else Path(f"{args.name}.log")
    bar = None
    try:
        dealer.wait_for_seats()
        bar = _bar(cfg.hands, not args.no_progress)
        with contextlib.ExitStack() as stack:
            log_file = stack.enter_context(log_path.open("w"))
            phh_file = stack.enter_context(Path(args.phh).open("w")) if args.phh else None
            result = dealer.play(log_file=log_file, phh_file=phh_file, progress=(lambda done: bar.update(1)) if bar else None)
    except HoldemError as exc:
        print(f"holdem dealer: {exc}", file=sys.stderr)
        return 1
    finally:
        if bar is not None:
            bar.close()
        dealer.close()
    bb = dealer.table.big_blind
    hands_per_group = cfg.hands / max(1, len(result.groups))
    for s, name in enumerate(result.names):
        samples = [1000.0 * g[s] / hands_per_group / bb for g in result.groups]
        mean, half = mean_ci95(samples)
        print(f"{name}: {result.totals[s]:+d} chips, {mean:+.1f} +- {half:.1f} mbb/hand (95%), "
              f"{result.timeouts[s]} timeouts")
    print(result.score_line(), flush=True)
    return 0

"""``holdem solve kuhn|leduc``: solve a small poker game and report exploitability and value.

Output (text, or one JSON object with ``--json``): the game, algorithm, iterations, seed,
number of information sets, exploitability of the average policy (chips, NashConv/2),
the first player's game value under it (and Kuhn's known −1/18), and the seconds taken.
``--policy-out F.json`` writes ``{infoset key: [probabilities over legal actions]}``;
see :mod:`holdem_env.training.cfr.kuhn` and :mod:`holdem_env.training.cfr.leduc` for the key and action order.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from holdem_env.cli._shared import int_arg
from holdem_env.training.cfr.cfr import CFRSolver
from holdem_env.training.cfr.game import ExtensiveFormGame, compile_game
from holdem_env.training.cfr.kuhn import KUHN_GAME_VALUE, KuhnPoker
from holdem_env.training.cfr.leduc import LeducPoker
from holdem_env.training.cfr.mccfr import AVERAGING, Averaging, BatchedExternalSamplingMCCFR

__all__ = ["configure_parser", "run", "GAMES", "SOLVER_CHOICES"]

GAMES: dict[str, type[ExtensiveFormGame]] = {"kuhn": KuhnPoker, "leduc": LeducPoker}
SOLVER_CHOICES = ("cfr+", "cfr", "mccfr")


def _non_negative_int(text: str) -> int:
    return int_arg(text, 0, "{text!r} is not an integer", "{value} is negative: expected an integer >= 0")


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 is invalid: expected an integer >= 1")
    return value


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``solve`` arguments to ``parser``."""
    parser.add_argument("game", choices=sorted(GAMES), help="which game to solve")
    parser.add_argument("--iterations", type=_non_negative_int, default=1000, help="iterations (default 1000)")
    parser.add_argument("--algorithm", choices=SOLVER_CHOICES, default="cfr+", help="solver (default cfr+)")
    parser.add_argument("--seed", type=_non_negative_int, default=0, help="random seed for mccfr (default 0)")
    parser.add_argument("--averaging", choices=AVERAGING, default="linear", help="mccfr averaging (default linear)")
    parser.add_argument("--batch-size", type=_positive_int, default=64, help="mccfr traversals per numpy pass")
    parser.add_argument("--policy-out", metavar="F.json", help="write the average policy as JSON")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Solve, print the report, optionally write the policy; returns the exit status."""
    from tqdm import tqdm

    tree = compile_game(GAMES[args.game]())
    if args.algorithm == "mccfr":
        solver: CFRSolver | BatchedExternalSamplingMCCFR = BatchedExternalSamplingMCCFR(
            tree,
            rng=np.random.default_rng(args.seed),
            averaging=Averaging(args.averaging),
            batch_size=args.batch_size,
        )
    else:
        solver = CFRSolver(tree, algorithm=args.algorithm)
    chunk = max(1, min(args.batch_size if args.algorithm == "mccfr" else 10, args.iterations or 1))
    disable = args.quiet or not sys.stderr.isatty()
    start = time.perf_counter()
    with tqdm(total=args.iterations, file=sys.stderr, disable=disable, desc=f"{args.game} {args.algorithm}") as bar:
        done = 0
        while done < args.iterations:
            step = min(chunk, args.iterations - done)
            solver.run(step)
            done += step
            bar.update(step)
    seconds = time.perf_counter() - start
    policy = solver.average_policy()
    result = {
        "game": args.game,
        "algorithm": args.algorithm,
        "iterations": args.iterations,
        "seed": args.seed,
        "infosets": tree.num_infosets,
        "exploitability": solver.evaluator.exploitability(policy),
        "game_value": float(solver.evaluator.expected_values(policy)[0]),
        "known_game_value": KUHN_GAME_VALUE if args.game == "kuhn" else None,
        "seconds": round(seconds, 3),
    }
    if args.algorithm == "mccfr":
        result["averaging"] = args.averaging
        result["batch_size"] = args.batch_size
    if args.policy_out:
        try:
            with open(args.policy_out, "w", encoding="utf-8") as fh:
                json.dump(tree.policy_to_dict(policy), fh, indent=1, sort_keys=True)
        except OSError as exc:
            print(f"holdem solve: cannot write policy to {args.policy_out!r}: {exc}", file=sys.stderr)
            return 1
        result["policy_out"] = args.policy_out
    if args.json:
        print(json.dumps(result))
    else:
        print(f"game: {args.game}  algorithm: {args.algorithm}  iterations: {args.iterations}  infosets: {tree.num_infosets}")
        print(f"exploitability: {result['exploitability']:.6g} chips (NashConv/2)")
        known = f"  (known: {KUHN_GAME_VALUE:.6f})" if args.game == "kuhn" else ""
        print(f"game value (player 0): {result['game_value']:.6f}{known}")
        print(f"time: {seconds:.2f} s")
        if args.policy_out:
            print(f"policy written to {args.policy_out}")
    return 0

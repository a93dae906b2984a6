"""The blueprint build command: card abstraction, deal pool, then MCCFR on the no-limit betting tree, written as one file.

::

    python -m holdem_env.training.cfr_search build --out blueprint.npz --stack-bb 200 --iterations 2000000

Every random choice comes from ``--seed`` (the abstraction's flops and k-means seeds, the pool's
flops, the deals and the sampled actions), so the options reproduce the file bit for bit.
Progress bars go to stderr; a JSON summary (times of each stage, iterations/s, file size) to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

import numpy as np

from holdem_env.agents.cfr_search.abstraction import AbstractionConfig, build_abstraction
from holdem_env.agents.cfr_search.blueprint import write_blueprint
from holdem_env.engine.errors import HoldemError
from holdem_env.training.cfr.game import GameError
from holdem_env.training.cfr.mccfr import Averaging
from holdem_env.training.cfr_search.holdem import DealPool
from holdem_env.training.cfr_search.nolimit import NoLimitConfig, nolimit_tree
from holdem_env.training.cfr_search.solver import MCCFRSolver, Pruning

__all__ = ["build_blueprint", "add_build_arguments", "run_build", "main"]


def _bar(total: int, desc: str, quiet: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, file=sys.stderr, disable=quiet, dynamic_ncols=True)


def build_blueprint(
    out: str,
    *,
    game: NoLimitConfig,
    abstraction: AbstractionConfig,
    iterations: int,
    pool_flops: int,
    seed: int = 0,
    averaging: Averaging | None = None,
    pruning: Pruning | None = None,
    quiet: bool = False,
    checkpoint_every: int | None = None,
) -> dict[str, Any]:
    """Build and write a blueprint; returns the summary (seconds per stage, sizes).

    With ``checkpoint_every`` (a multiple of the solver's batch of 10,000 deals), the file is also
    written every that many iterations, its header saying how many are done; the batches are the
    same, so a checkpoint after ``k`` iterations holds the policy of a build with ``iterations=k``.
    """
    batch = 10_000
    if checkpoint_every is not None and (
        not isinstance(checkpoint_every, int) or checkpoint_every < batch or checkpoint_every % batch
    ):
        raise GameError(f"checkpoint_every={checkpoint_every!r} is invalid: expected a positive multiple of {batch:,}")
    rng = np.random.default_rng(seed)
    averaging = averaging or Averaging("discounted", discount_interval=100_000)
    pruning = pruning or Pruning(after=1_000_000)
    times: dict[str, float] = {}
    start = time.perf_counter()
    with _bar(abstraction.flops, "abstraction (flops)", quiet) as bar:
        cards = build_abstraction(abstraction, rng, lambda done, total: bar.update(1))
    times["abstraction_s"] = time.perf_counter() - start
    tick = time.perf_counter()
    with _bar(pool_flops, "deal pool (flops)", quiet) as bar:
        pool = DealPool(cards, pool_flops, rng, lambda done, total: bar.update(1))
    times["pool_s"] = time.perf_counter() - tick
    tree = nolimit_tree(game, cards.num_buckets)
    solver = MCCFRSolver(tree, pool, rng=rng, averaging=averaging, pruning=pruning, batch_size=batch)
    game_meta = {
        k: (list(map(list, v)) if isinstance(v, tuple) and v and isinstance(v[0], tuple) else v)
        for k, v in asdict(game).items()
    }

    def write(done: int) -> None:
        info = {
            "seed": seed,
            "iterations": done,
            "pool_flops": pool_flops,
            "averaging": asdict(averaging),
            "pruning": {k: float(v) for k, v in asdict(pruning).items()},
            **{k: round(v, 1) for k, v in times.items()},
        }
        write_blueprint(
            out,
            actor=tree.actor,
            street=tree.street,
            first=tree.first,
            num_children=tree.num_children,
            labels=tree.labels,
            probabilities=solver.average_policy(),
            abstraction=cards,
            game=game_meta,
            info=info,
        )

    tick = time.perf_counter()
    with _bar(iterations, "MCCFR (iterations)", quiet) as bar:
        last = [0]
        offset = [0]  # iterations done before this call of solver.run

        def progress(done: int) -> None:
            bar.update(offset[0] + done - last[0])
            last[0] = offset[0] + done

        step = checkpoint_every or iterations
        while solver.iteration < iterations:
            offset[0] = solver.iteration
            solver.run(min(step, iterations - solver.iteration), progress)
            if solver.iteration < iterations:
                times["mccfr_s"] = time.perf_counter() - tick
                write(solver.iteration)
                if not quiet:
                    cpu = time.process_time()
                    bar.write(f"checkpoint: {solver.iteration} iterations written to {out} ({cpu:.0f} CPU-s)")
    times["mccfr_s"] = time.perf_counter() - tick
    write(iterations)
    total = time.perf_counter() - start
    return {
        "out": out,
        "bytes": os.path.getsize(out),
        "nodes": tree.num_nodes,
        "infosets": tree.num_infosets,
        "cells": tree.num_cells,
        "iterations": iterations,
        "iterations_per_second": round(iterations / times["mccfr_s"], 1) if times["mccfr_s"] else None,
        **{k: round(v, 1) for k, v in times.items()},
        "total_s": round(total, 1),
    }


def _int_at_least(minimum: int, multiple: int = 1) -> Callable[[str], int]:
    """An argparse type: an integer >= ``minimum`` (and a multiple of ``multiple``), else a clear error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is invalid: expected an integer >= {minimum:,}")
        if value % multiple:
            raise argparse.ArgumentTypeError(f"{value} is invalid: expected a multiple of {multiple:,}")
        return value

    return parse


def _fractions(text: str) -> tuple[float, ...]:
    """One street's pot fractions, ``"0.5,1"``: each a number in (0, 100], at least one."""
    try:
        out = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is invalid: expected pot fractions separated by commas, e.g. 0.5,1"
        ) from None
    if not out or any(not 0 < f <= 100 for f in out):
        raise argparse.ArgumentTypeError(f"{text!r} is invalid: expected pot fractions in (0, 100], e.g. 0.5,1")
    return out


def add_build_arguments(b: argparse.ArgumentParser) -> None:
    """The build options (shared by ``python -m holdem_env.training.cfr_search build`` and ``holdem cfr-search build``)."""
    b.add_argument("--out", required=True, help="blueprint file to write (.npz)")
    b.add_argument("--stack-bb", type=int, default=200, help="stacks in big blinds (blinds 50/100; default 200)")
    b.add_argument(
        "--iterations", type=_int_at_least(0), default=2_000_000, help="MCCFR iterations (default 2,000,000)"
    )
    b.add_argument("--seed", type=_int_at_least(0), default=0, help="seed of every random choice (default 0)")
    b.add_argument(
        "--buckets", type=_int_at_least(1), nargs=3, default=(50, 50, 50), metavar=("FLOP", "TURN", "RIVER"),
        help="buckets per postflop street (default 50 50 50)",
    )  # fmt: skip
    b.add_argument(
        "--reraise-sizes", type=_fractions, nargs=4, default=((1.0,),) * 4,
        metavar=("PREFLOP", "FLOP", "TURN", "RIVER"),
        help="pot fractions of the raises after a street's first bet, per street, comma-separated "
        "(default 1 1 1 1; e.g. 1 0.5,1 1 1 adds a 3x raise on the flop)",
    )  # fmt: skip
    b.add_argument("--bins", type=_int_at_least(1), default=20, help="equity histogram bins (flop and turn)")
    b.add_argument("--abstraction-flops", type=_int_at_least(1), default=40, help="random flops the clustering sees")
    b.add_argument(
        "--pool-flops",
        type=_int_at_least(1),
        default=60,
        help="flops of the training deal pool (3.6 MB each in memory)",
    )
    b.add_argument(
        "--discount-interval", type=_int_at_least(1), default=100_000, help="DCFR discounts every N iterations"
    )
    b.add_argument("--linear", action="store_true", help="Linear CFR instead of DCFR")
    b.add_argument("--prune-after", type=_int_at_least(0), default=1_000_000, help="iterations before pruning starts")
    b.add_argument(
        "--checkpoint-every", type=_int_at_least(10_000, 10_000), default=None, metavar="N",
        help="also write the file every N iterations (a multiple of 10,000)",
    )  # fmt: skip
    b.add_argument("--quiet", action="store_true", help="no progress bars")


def run_build(args: argparse.Namespace, command: str = "cfr-search build") -> int:
    """Run a build from parsed :func:`add_build_arguments` options; bad settings print one line and give 2."""
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder):
        print(f"{command}: --out {args.out!r}: the folder {folder!r} does not exist", file=sys.stderr)
        return 2
    try:
        game = NoLimitConfig(stack=100 * args.stack_bb, reraise_sizes=tuple(args.reraise_sizes))
        cards = AbstractionConfig(
            flop_buckets=args.buckets[0],
            turn_buckets=args.buckets[1],
            river_buckets=args.buckets[2],
            bins=args.bins,
            flops=args.abstraction_flops,
        )
        averaging = (
            Averaging("linear") if args.linear else Averaging("discounted", discount_interval=args.discount_interval)
        )
        summary = build_blueprint(
            args.out,
            game=game,
            abstraction=cards,
            iterations=args.iterations,
            pool_flops=args.pool_flops,
            seed=args.seed,
            averaging=averaging,
            pruning=Pruning(after=args.prune_after),
            quiet=args.quiet,
            checkpoint_every=args.checkpoint_every,
        )
    except HoldemError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=1))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m holdem_env.training.cfr_search", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    add_build_arguments(sub.add_parser("build", help="build a blueprint file"))
    return run_build(parser.parse_args(argv))

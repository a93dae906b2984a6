"""Benchmark cfr-search's compiled MCCFR core against the Python MCCFR of training/cfr on Leduc.

One solver per process (``--only``), iterations/s counting iterating only (the exact
exploitability check afterwards is not timed). ``core``: the compiled core through
:class:`holdem_env.training.cfr_search.solver.MCCFRSolver` (Linear CFR, no pruning);
``callback``: :class:`holdem_env.training.cfr.mccfr.ExternalSamplingMCCFR` (the traversal that
trains cfr-lite); ``batched``: :class:`~holdem_env.training.cfr.mccfr.BatchedExternalSamplingMCCFR`
(numpy, 64 traversals per pass).

    .venv/bin/python benchmarks/bench_cfr_search.py --only core --iterations 3000000
    .venv/bin/python benchmarks/bench_cfr_search.py --only callback --iterations 20000
    .venv/bin/python benchmarks/bench_cfr_search.py --only batched --iterations 200000
    .venv/bin/python benchmarks/bench_cfr_search.py --only holdem-lite --iterations 200000
    .venv/bin/python benchmarks/bench_cfr_search.py --only holdem-200bb --iterations 200000

``holdem-lite``: the core on a hold'em tree shaped like cfr-lite's heads-up preset (5/10, 100 big
blinds, 0.5 and 1 pot, 2 raises a street, 169/8/8/8 buckets) for comparison with
``bench_cfr_lite.py --only speed``; ``holdem-200bb``: the blueprint's default tree (50/100, 200 big
blinds, 169/50/50/50 buckets). Both deal from a 2-flop pool (its build is not timed) under the
equal-spaced placeholder abstraction (the speed does not depend on the centroids).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from holdem_env.agents.cfr_search.abstraction import AbstractionConfig, CardAbstraction
from holdem_env.training.cfr import BatchedExternalSamplingMCCFR, ExternalSamplingMCCFR, LeducPoker, compile_game
from holdem_env.training.cfr.evaluation import TreeEvaluator
from holdem_env.training.cfr_search.holdem import DealPool
from holdem_env.training.cfr_search.leduc import leduc_deals, leduc_policy, leduc_tree
from holdem_env.training.cfr_search.nolimit import NoLimitConfig, nolimit_tree
from holdem_env.training.cfr_search.solver import MCCFRSolver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("core", "callback", "batched", "holdem-lite", "holdem-200bb"), required=True)
    parser.add_argument("--iterations", type=int, default=100_000)
    parser.add_argument("--averaging", default="linear")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.only.startswith("holdem"):
        holdem(args)
        return
    game_tree = compile_game(LeducPoker())
    ev = TreeEvaluator(game_tree)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    if args.only == "core":
        tree = leduc_tree()
        solver = MCCFRSolver(tree, leduc_deals, rng=rng, averaging=args.averaging, batch_size=10_000)
        solver.run(args.iterations)
        spent = time.perf_counter() - start
        policy = leduc_policy(tree, solver.average_policy(), game_tree)
    elif args.only == "callback":
        cb = ExternalSamplingMCCFR(LeducPoker(), rng=rng, averaging=args.averaging)
        cb.run(args.iterations)
        spent = time.perf_counter() - start
        policy = cb.average_policy_array(game_tree)
    else:
        batched = BatchedExternalSamplingMCCFR(game_tree, rng=rng, averaging=args.averaging, batch_size=64)
        batched.run(args.iterations)
        spent = time.perf_counter() - start
        policy = batched.average_policy()
    print(
        f"| leduc | {args.only} | {args.averaging} | {args.iterations:,} | {ev.exploitability(policy):.4f} "
        f"| {ev.expected_values(policy)[0]:+.4f} | {args.iterations / spent:,.0f} | {spent:.2f} |"
    )


def holdem(args: argparse.Namespace) -> None:
    """The core on a hold'em betting tree (see the module docstring)."""
    if args.only == "holdem-lite":
        game = NoLimitConfig(5, 10, 1_000, ((0.5, 1.0),) * 4, ((0.5, 1.0),) * 4, (2, 2, 2, 2))
        buckets = (8, 8, 8)
    else:
        game, buckets = NoLimitConfig(), (50, 50, 50)
    abstraction = CardAbstraction.uniform(
        AbstractionConfig(flop_buckets=buckets[0], turn_buckets=buckets[1], river_buckets=buckets[2])
    )
    rng = np.random.default_rng(args.seed)
    pool = DealPool(abstraction, 2, rng)
    tree = nolimit_tree(game, abstraction.num_buckets)
    solver = MCCFRSolver(tree, pool, rng=rng, averaging=args.averaging, batch_size=10_000)
    start = time.perf_counter()
    solver.run(args.iterations)
    spent = time.perf_counter() - start
    print(
        f"| {args.only} | core | {args.averaging} | {args.iterations:,} | nodes {tree.num_nodes:,}, "
        f"infosets {tree.num_infosets:,} | | {args.iterations / spent:,.0f} | {spent:.2f} |"
    )


if __name__ == "__main__":
    main()

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
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from holdem_env.training.cfr import BatchedExternalSamplingMCCFR, ExternalSamplingMCCFR, LeducPoker, compile_game
from holdem_env.training.cfr.evaluation import TreeEvaluator
from holdem_env.training.cfr_search.leduc import leduc_deals, leduc_policy, leduc_tree
from holdem_env.training.cfr_search.solver import MCCFRSolver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("core", "callback", "batched"), required=True)
    parser.add_argument("--iterations", type=int, default=100_000)
    parser.add_argument("--averaging", default="linear")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()

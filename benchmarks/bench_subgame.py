"""Time per subgame solve (river and turn, full 1,326 x 1,326 ranges) and the exploitability it reaches.

Usage::

    .venv/bin/python benchmarks/bench_subgame.py [--boards 5] [--seed 1]

For each configuration (bet sizes, raises per round, iterations) and each of ``--boards`` random boards
(seeded), builds the :class:`~holdem_env.agents.cfr_search.resolve.Subgame` with uniform ranges
(every holding the board leaves: no range weight is zero, so nothing is skipped: the worst case for
the solver's work), runs the iterations in this one process (one core), and prints the CPU time of
the setup and of the solve (``time.process_time``), the wall time, and the exploitability of the
average strategy (exact best responses) in percent of the pot. Heads-up, 1,000 chips each in the pot,
19,000 behind (200 big blinds at 50/100, the pot of a raised and called flop and turn). Prints a
markdown table for benchmarks/BENCHMARKS.md and the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from holdem_env.agents.cfr_search.resolve import Subgame
from holdem_env.agents.cfr_search.tree import SubgameSpec
from holdem_env.engine.ranges import uniform_range

TURN_SMALL = {"sizes": (1.0, "allin"), "max_raises": 1, "river_sizes": (1.0,), "river_max_raises": 1}
TURN_LARGE = {"sizes": (0.5, 1.0, "allin"), "max_raises": 1, "river_sizes": (0.5, 1.0), "river_max_raises": 1}
# (street, tree options, iterations, river cards walked per iteration: 48 = all, fewer = sampled)
CONFIGS = [
    ("river", {"sizes": (0.5, 1.0, "allin"), "max_raises": 2}, 100, 48),
    ("river", {"sizes": (0.5, 1.0, "allin"), "max_raises": 2}, 250, 48),
    ("river", {"sizes": (0.33, 0.75, 1.5, "allin"), "max_raises": 3}, 100, 48),
    ("turn", TURN_SMALL, 20, 48),
    ("turn", TURN_SMALL, 50, 48),
    ("turn", TURN_SMALL, 80, 12),
    ("turn", TURN_LARGE, 50, 48),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="run only the configurations of this street (river or turn)")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    print(
        "| street | sizes (pot fractions) x raises | nodes | iterations (rivers each) | setup CPU s | solve CPU s (mean / max) "
        "| wall s (max) | exploitability, % of pot (mean / max) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for street, options, iterations, rivers in CONFIGS:
        if args.only and street != args.only:
            continue
        cpu, wall, setup, expl = [], [], [], []
        nodes = 0
        for _ in range(args.boards):
            board = tuple(int(c) for c in rng.choice(52, 5 if street == "river" else 4, replace=False))
            spec = SubgameSpec(board=board, contrib=(1000, 1000), stacks=(19000, 19000))
            ranges = np.vstack([uniform_range(board), uniform_range(board)])
            c0 = time.process_time()
            sub = Subgame(spec, ranges, **options)  # type: ignore[arg-type]
            c1, w1 = time.process_time(), time.perf_counter()
            sub.solve(iterations, rivers=rivers, rng=np.random.default_rng(args.seed))
            c2, w2 = time.process_time(), time.perf_counter()
            nodes = len(sub.tree)
            setup.append(c1 - c0)
            cpu.append(c2 - c1)
            wall.append(w2 - w1)
            expl.append(100 * sub.exploitability() / 2000)
        shape = f"{options['sizes']} x{options['max_raises']}"
        if street == "turn":
            shape += f"; river {options['river_sizes']} x{options['river_max_raises']}"
        its = f"{iterations}" if street == "river" else f"{iterations} ({rivers})"
        print(
            f"| {street} | {shape} | {nodes} | {its} | {np.mean(setup):.3f} | {np.mean(cpu):.2f} / "
            f"{np.max(cpu):.2f} | {np.max(wall):.2f} | {np.mean(expl):.2f} / {np.max(expl):.2f} |",
            flush=True,
        )
    print(f"\nload average: {os.getloadavg()}")


if __name__ == "__main__":
    main()

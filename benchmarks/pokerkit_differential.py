"""The full PokerKit differential: our engine against PokerKit 0.7.7 on 10,000 random hands.

    .venv/bin/python benchmarks/pokerkit_differential.py [--hands 10000] [--first-seed 0]

The test suite plays a seeded sample of the same hands (``tests/test_pokerkit_diff.py``: seeds
0 .. 1,099); this script plays the long run with the same comparison and the same checks (no
unexplained disagreement; at least half the hands agree exactly, final stacks compared in at
least 80%, at least 5% of hands with two or more side pots and 5% with a short all-in raise).
It prints the counts that ``benchmarks/BENCHMARKS.md`` quotes and exits 1 when a check fails.
Needs PokerKit (the ``dev`` extra).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_pokerkit_diff import N_HANDS, run_differential  # tests/ is not a package: found through sys.path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=N_HANDS, help=f"hands to compare (default {N_HANDS:,})")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first hand (default 0)")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.first_seed < 0:
        parser.error("--hands must be at least 1 and --first-seed at least 0")
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    summary = run_differential(range(args.first_seed, args.first_seed + args.hands))
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    print(summary.text())
    print(f"time: {wall:.1f} s wall, {cpu:.1f} s CPU ({1000 * cpu / args.hands:.2f} ms CPU per hand)")
    try:
        summary.check()
    except AssertionError as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

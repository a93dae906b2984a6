"""Arena throughput and the ``tag`` evaluation targets, measured with the real ``holdem eval`` code.

Usage::

    .venv/bin/python benchmarks/bench_arena.py --throughput [--hands 4000] [--workers 2]
    .venv/bin/python benchmarks/bench_arena.py --targets [--hands 20000] [--workers 2]

``--throughput`` prints hands/s for random vs random and tag vs random (heads-up and
6-max). ``--targets`` plays tag vs random heads-up and at 6-max (tag, tag and four
random) and tag self-play at 6-max for its HUD statistics, printing each table and a
markdown row per match for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import time

from holdem_env.training.arena import ArenaConfig, format_table, run_match

THROUGHPUT = [
    ("random vs random, heads-up", ("random", "random"), 2),
    ("random x6", ("random",), 6),
    ("tag vs random, heads-up", ("tag", "random"), 2),
    ("tag x2 + random x4, 6-max", ("tag", "tag", "random", "random", "random", "random"), 6),
    ("tag x6", ("tag",), 6),
]

TARGETS = [
    ("tag vs random, heads-up", ("tag", "random"), 2),
    ("tag x2 vs random x4, 6-max", ("tag", "tag", "random", "random", "random", "random"), 6),
    ("tag self-play, 6-max (HUD stats)", ("tag",), 6),
]


def _row(name: str, result, seconds: float) -> str:
    r = result.rows[0]
    st = r["stats"]
    pct = lambda v: "-" if v is None else f"{100 * v:.1f}%"  # noqa: E731
    af = "-" if st["af"] is None else f"{st['af']:.2f}"
    return (
        f"| {name} | {r['hands']} | {r['mbb_per_hand']:+.0f} ± {r['ci95']:.0f} | {pct(st['vpip'])} | {pct(st['pfr'])} "
        f"| {pct(st['three_bet'])} | {af} | {pct(st['wtsd'])} | {r['hands'] / seconds:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throughput", action="store_true")
    parser.add_argument("--targets", action="store_true")
    parser.add_argument("--hands", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not (args.throughput or args.targets):
        args.throughput = True
    if args.throughput:
        hands = args.hands or 4000
        print("| match | hands | workers | hands/s |\n|---|---:|---:|---:|")
        for name, agents, players in THROUGHPUT:
            cfg = ArenaConfig(agents=agents, players=players, hands=hands, seed=args.seed, workers=args.workers)
            t0 = time.perf_counter()
            run_match(cfg)
            dt = time.perf_counter() - t0
            print(f"| {name} | {cfg.groups * players} | {args.workers} | {cfg.groups * players / dt:,.0f} |", flush=True)
    if args.targets:
        hands = args.hands or 20_000
        rows = []
        for name, agents, players in TARGETS:
            cfg = ArenaConfig(agents=agents, players=players, hands=hands, seed=args.seed, workers=args.workers)
            t0 = time.perf_counter()
            result = run_match(cfg, progress=True)
            dt = time.perf_counter() - t0
            print(format_table(result), flush=True)
            rows.append(_row(name, result, dt))
        print("\n| match (first agent's row) | hands | mbb/hand ± 95% | VPIP | PFR | 3-bet | AF | WTSD | hands/s |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        print("\n".join(rows))


if __name__ == "__main__":
    main()

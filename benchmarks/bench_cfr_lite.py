"""cfr-lite benchmark: MCCFR training speed, and the shipped policy against random and tag.

    .venv/bin/python benchmarks/bench_cfr_lite.py                      # everything (long)
    .venv/bin/python benchmarks/bench_cfr_lite.py --only speed          # training speed only
    .venv/bin/python benchmarks/bench_cfr_lite.py --only hu --hands 20000 --workers 2
    .venv/bin/python benchmarks/bench_cfr_lite.py --only sixmax --hands 6000
    .venv/bin/python benchmarks/bench_cfr_lite.py --only sixmax --hands 12000 --preflop chart   # cfr-lite(preflop="chart")
    .venv/bin/python benchmarks/bench_cfr_lite.py --only sixmax --hands 12000 --seed 1 --policy FILE.npz   # another policy file

Matches are duplicate (every deal played with the seats rotated) through the arena, so the
95% intervals are over duplicate groups. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from holdem_env.engine.config import TableConfig


def bench_speed(iterations: int, players: int) -> dict[str, object]:
    """Single-process MCCFR iterations per second with the shipped presets' abstraction."""
    from holdem_env.training.cfr_lite.build import preset_abstraction
    from holdem_env.training.cfr_lite.trainer import CfrLiteTrainer

    actions, cards = preset_abstraction(players)
    t0 = time.perf_counter()
    cards.thresholds()
    thresholds_s = time.perf_counter() - t0
    tr = CfrLiteTrainer(TableConfig(num_players=players), actions, cards)
    stats = tr.train(iterations, np.random.default_rng(0))
    return {
        "players": players,
        "iterations": iterations,
        "iterations_per_second": round(stats.iterations_per_second, 1),
        "infosets": stats.infosets,
        "bucket_thresholds_seconds_first_time_or_cached": round(thresholds_s, 2),
    }


def bench_match(players: int, hands: int, workers: int, seed: int, spec: str = "cfr-lite") -> list[dict[str, object]]:
    """The shipped policy (bare ``cfr-lite``, or ``spec``) against random and tag."""
    import holdem_env.agents.cfr_lite  # noqa: F401
    from holdem_env.training.arena import ArenaConfig, run_match

    out = []
    for opp in ("random", "tag"):
        t0 = time.perf_counter()
        res = run_match(ArenaConfig(agents=(spec, opp), players=players, hands=hands, seed=seed, workers=workers))
        dt = time.perf_counter() - t0
        row = next(r for r in res.rows if r["agent"] == spec)
        out.append({
            "players": players,
            "opponent": opp,
            "hands": row["hands"],
            "mbb_per_hand": round(row["mbb_per_hand"], 1),
            "ci95": round(row["ci95"], 1),
            "interval_above_zero": row["mbb_per_hand"] - row["ci95"] > 0,
            "hands_per_second": round(row["hands"] / dt, 1),
        })
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("speed", "hu", "sixmax"), default=None)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--preflop", choices=("auto", "policy", "chart"), default="auto",
                        help="who plays cfr-lite's preflop (the agent's preflop option; default: as the policy file says)")
    parser.add_argument("--policy", default=None, help="a cfr-lite .npz policy file (default: the shipped ones)")
    args = parser.parse_args()
    options = ([] if args.policy is None else [f"policy={args.policy!r}"]) + ([] if args.preflop == "auto" else [f'preflop="{args.preflop}"'])
    spec = "cfr-lite" + (f"({', '.join(options)})" if options else "")
    report: dict[str, object] = {}
    if args.only in (None, "speed"):
        report["speed"] = [bench_speed(args.iterations, 2), bench_speed(max(1, args.iterations // 5), 6)]
    if args.only in (None, "hu"):
        report["heads_up"] = bench_match(2, args.hands, args.workers, args.seed, spec)
    if args.only in (None, "sixmax"):
        report["six_max"] = bench_match(6, args.hands, args.workers, args.seed, spec)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

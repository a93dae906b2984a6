"""The PPO trainer's sampling, this checkout beside another one (e.g. an older commit), alternated in one run.

Usage::

    git clone -q . /tmp/old && git -C /tmp/old checkout -q 74ebf11 && make -C /tmp/old venv build
    .venv/bin/python benchmarks/bench_sampling_pair.py --baseline-python /tmp/old/.venv/bin/python \\
        [--tables 256] [--seconds 20] [--pairs 3] [--players 6 --opponents tag random calling-station lag] [--whole]

Each side is one fresh process of its own checkout's interpreter (one torch thread): a heads-up
``PpoLearner`` whose pool is ``tag`` alone, ``num_envs`` = ``--tables`` and ``num_steps`` = 2,048 /
tables (2,048 learner decisions a rollout), sampling with ``LocalRollouts.collect`` (the trainer's
rollouts, the network's forward passes included, no update) for ``--seconds`` after one warm-up
rollout. It prints learner decisions per CPU second (``time.process_time``) for each side, pair by
pair (baseline first), the ratio of each pair, and the ratio of the totals. Only the settings both
versions have are passed (the trainer's defaults otherwise), so an older commit runs it too.
``--players`` and ``--opponents`` change the table size and the pool (``pool_uniform_share`` 1: each
member drawn uniformly); ``--whole`` times whole iterations instead (``PpoLearner.train_round`` of 4
iterations: the sampling plus the PPO update; each round seeded by its number, the same on both sides).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

INNER = """
import time, numpy as np, torch
torch.set_num_threads(1)
from holdem_env.engine.config import TableConfig
from holdem_env.training.ppo import PpoLearner, PpoSettings
from holdem_env.training.ppo.workers import LocalRollouts
tables, seconds, players, whole = {tables}, {seconds}, {players}, {whole}
settings = PpoSettings(num_envs=tables, num_steps=max(1, 2048 // tables), opponents={opponents!r}, snapshot_every=0,
                       pool_uniform_share=1.0, learning_rate=3e-4, gamma=1.0, gae_lambda=0.95, clip_coef=0.2,
                       ent_coef=0.01, vf_coef=0.5, max_grad_norm=0.5, update_epochs=4, hidden=(128, 128))
learner = PpoLearner(settings, TableConfig(num_players=players), 0)
if whole:
    learner.train_round(1, 1)
    c0, w0, n, r = time.process_time(), time.perf_counter(), 0, 1
    while time.perf_counter() - w0 < seconds:
        r += 1
        n += learner.train_round(4, r).decisions
else:
    sampler = LocalRollouts(learner, np.random.default_rng(0))
    sampler.collect()
    c0, w0, n = time.process_time(), time.perf_counter(), 0
    while time.perf_counter() - w0 < seconds:
        n += sampler.collect().actions.size
print(n, time.process_time() - c0)
"""


def measure(
    python: str, tables: int, seconds: float, players: int = 2, opponents: tuple[str, ...] = ("tag",), whole: bool = False
) -> tuple[int, float]:
    """Learner decisions and CPU seconds of one sampling run (``whole``: whole iterations) with the interpreter ``python``."""
    code = INNER.format(tables=tables, seconds=seconds, players=players, opponents=tuple(opponents), whole=whole)
    out = subprocess.run(
        [python, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(python))),
    )
    if out.returncode != 0:
        sys.exit(f"error: {python} failed:\n{out.stderr.strip()[-2000:]}")
    n, cpu = out.stdout.split()[-2:]
    return int(n), float(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline-python", required=True, help="the other checkout's .venv/bin/python")
    ap.add_argument("--tables", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--players", type=int, default=2, help="seats per table (2..10)")
    ap.add_argument("--opponents", nargs="+", default=["tag"], help="the pool's agent specs (default: tag)")
    ap.add_argument("--whole", action="store_true", help="whole iterations (sampling + update), not the sampling alone")
    args = ap.parse_args()
    if not os.path.isfile(args.baseline_python):
        ap.error(
            f"--baseline-python {args.baseline_python!r} is not a file (give the other checkout's .venv/bin/python)"
        )
    if not 1 <= args.tables <= 2048 or args.seconds <= 0 or args.pairs < 1 or not 2 <= args.players <= 10:
        ap.error("--tables must be in 1..2048, --seconds > 0, --pairs >= 1 and --players in 2..10")
    what = "whole iterations" if args.whole else "sampling"
    print(
        f"| pair | baseline per CPU s | this checkout per CPU s | ratio |  ({what}, tables {args.tables}, "
        f"{args.players} seats, {' '.join(args.opponents)}, {args.seconds:g} s each)"
    )
    print("|---:|---:|---:|---:|")
    totals = [[0, 0.0], [0, 0.0]]
    for k in range(args.pairs):
        rates = []
        for side, python in enumerate((args.baseline_python, sys.executable)):
            n, cpu = measure(python, args.tables, args.seconds, args.players, tuple(args.opponents), args.whole)
            totals[side][0] += n
            totals[side][1] += cpu
            rates.append(n / cpu)
        print(f"| {k + 1} | {rates[0]:,.0f} | {rates[1]:,.0f} | {rates[1] / rates[0]:.2f}x |", flush=True)
    old, new = (t[0] / t[1] for t in totals)
    print(f"| all | {old:,.0f} | {new:,.0f} | **{new / old:.2f}x** |")
    print(f"\nload average: {os.getloadavg()}")


if __name__ == "__main__":
    main()

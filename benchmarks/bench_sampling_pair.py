"""The PPO trainer's sampling, this checkout beside another one (e.g. an older commit), alternated in one run.

Usage::

    git clone -q . /tmp/old && git -C /tmp/old checkout -q 74ebf11 && make -C /tmp/old venv build
    .venv/bin/python benchmarks/bench_sampling_pair.py --baseline-python /tmp/old/.venv/bin/python \\
        [--tables 256] [--seconds 20] [--pairs 3]

Each side is one fresh process of its own checkout's interpreter (one torch thread): a heads-up
``PpoLearner`` whose pool is ``tag`` alone, ``num_envs`` = ``--tables`` and ``num_steps`` = 2,048 /
tables (2,048 learner decisions a rollout), sampling with ``LocalRollouts.collect`` (the trainer's
rollouts, the network's forward passes included, no update) for ``--seconds`` after one warm-up
rollout. It prints learner decisions per CPU second (``time.process_time``) for each side, pair by
pair (baseline first), the ratio of each pair, and the ratio of the totals. Only the settings both
versions have are passed (the trainer's defaults otherwise), so an older commit runs it too.
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
tables, seconds = {tables}, {seconds}
settings = PpoSettings(num_envs=tables, num_steps=max(1, 2048 // tables), opponents=("tag",), snapshot_every=0,
                       pool_uniform_share=1.0, learning_rate=3e-4, gamma=1.0, gae_lambda=0.95, clip_coef=0.2,
                       ent_coef=0.01, vf_coef=0.5, max_grad_norm=0.5, update_epochs=4, hidden=(128, 128))
learner = PpoLearner(settings, TableConfig(num_players=2), 0)
sampler = LocalRollouts(learner, np.random.default_rng(0))
sampler.collect()
c0, w0, n = time.process_time(), time.perf_counter(), 0
while time.perf_counter() - w0 < seconds:
    n += sampler.collect().actions.size
print(n, time.process_time() - c0)
"""


def measure(python: str, tables: int, seconds: float) -> tuple[int, float]:
    """Learner decisions and CPU seconds of one sampling run with the interpreter ``python``."""
    out = subprocess.run(
        [python, "-c", INNER.format(tables=tables, seconds=seconds)],
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
    args = ap.parse_args()
    if not os.path.isfile(args.baseline_python):
        ap.error(
            f"--baseline-python {args.baseline_python!r} is not a file (give the other checkout's .venv/bin/python)"
        )
    if not 1 <= args.tables <= 2048 or args.seconds <= 0 or args.pairs < 1:
        ap.error("--tables must be in 1..2048, --seconds > 0 and --pairs >= 1")
    print(
        f"| pair | baseline per CPU s | this checkout per CPU s | ratio |  (tables {args.tables}, {args.seconds:g} s each)"
    )
    print("|---:|---:|---:|---:|")
    totals = [[0, 0.0], [0, 0.0]]
    for k in range(args.pairs):
        rates = []
        for side, python in enumerate((args.baseline_python, sys.executable)):
            n, cpu = measure(python, args.tables, args.seconds)
            totals[side][0] += n
            totals[side][1] += cpu
            rates.append(n / cpu)
        print(f"| {k + 1} | {rates[0]:,.0f} | {rates[1]:,.0f} | {rates[1] / rates[0]:.2f}x |", flush=True)
    old, new = (t[0] / t[1] for t in totals)
    print(f"| all | {old:,.0f} | {new:,.0f} | **{new / old:.2f}x** |")
    print(f"\nload average: {os.getloadavg()}")


if __name__ == "__main__":
    main()

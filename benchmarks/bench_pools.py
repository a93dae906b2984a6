"""Population sampling: learner decisions per CPU second against a many-member opponent pool, per-table
backend against the batched core, side by side in one process.

The pool is ``configs/ppo_hu_population.yaml``'s (tag, cfr-lite, calling-station and the six exploiters)
plus ``--snapshots`` ppo snapshots (untrained networks of the config's size, features on), with its
prioritised weights (window 1000, temperature 300, uniform share 0.3). The learner picks a uniformly
random legal discrete id at every table (no network): this measures the env and the opponents, which
is what the batched core changes. Each run: ``reset(seed)``, 5 warm-up steps, then steps until
``--seconds`` of process CPU time; the two backends alternate ``--pairs`` times.

    python benchmarks/bench_pools.py --tables 32 256 --seconds 15 --pairs 2
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from holdem_env.agents.ppo import PolicyConfig, PpoPolicy
from holdem_env.env.vector import HoldemVectorEnv
from holdem_env.training.pool import OpponentPool

SPECS = ["tag", "cfr-lite", "calling-station", "min-raiser", "shover", "pot-bettor", "check-raiser", "turn-bully", "barreler"]


def make_pool(snapshots: int, seed: int = 0) -> OpponentPool:
    pool = OpponentPool(SPECS, max_snapshots=max(snapshots, 1), window=1000, temperature=300.0, uniform_share=0.3)
    for k in range(snapshots):
        torch.manual_seed(seed + k)
        pool.add_snapshot(f"snap{k}", PpoPolicy(PolicyConfig(num_players=2)))
    return pool


def run(backend: str, tables: int, seconds: float, snapshots: int, seed: int) -> tuple[int, float, int, int]:
    """``(learner decisions, CPU seconds, hands, opponent decisions)`` of one timed run."""
    torch.set_num_threads(1)
    pool = make_pool(snapshots)
    venv = HoldemVectorEnv(tables, pool, num_players=2, small_blind=5, big_blind=10, buy_in=1000, backend=backend, final_obs=False)
    assert venv.backend == backend, venv.backend_reason
    rng = np.random.default_rng(seed)
    obs, _ = venv.reset(seed=seed)

    def actions(masks: np.ndarray) -> np.ndarray:
        return np.argmax(np.where(masks > 0, rng.random(masks.shape), -1.0), axis=1)

    for _ in range(5):
        obs, *_ = venv.step(actions(obs["action_mask"]))
    hands0, opp0 = venv.hands_played, venv.opponent_decisions
    t0 = time.process_time()
    steps = 0
    while time.process_time() - t0 < seconds:
        obs, *_ = venv.step(actions(obs["action_mask"]))
        steps += 1
    cpu = time.process_time() - t0
    return steps * tables, cpu, venv.hands_played - hands0, venv.opponent_decisions - opp0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[32, 256])
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--snapshots", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backends", nargs="+", default=["tables", "batched"], help="which backends to time (in this order)")
    args = ap.parse_args()
    print(f"pool: {', '.join(SPECS)} + {args.snapshots} ppo snapshots; heads-up, discrete learner, random legal actions")
    print("| tables | backend | learner decisions | CPU s | per CPU s | hands | opponent decisions |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for tables in args.tables:
        for _ in range(args.pairs):
            for backend in args.backends:
                d, cpu, hands, opp = run(backend, tables, args.seconds, args.snapshots, args.seed)
                print(f"| {tables} | {backend} | {d:,} | {cpu:.1f} | {d / cpu:,.0f} | {hands:,} | {opp:,} |", flush=True)


if __name__ == "__main__":
    main()

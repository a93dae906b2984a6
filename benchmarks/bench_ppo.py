"""Vector-env throughput (decisions/s against N tables) and the PPO learner's sampling speed.

Usage::

    .venv/bin/python benchmarks/bench_ppo.py --vector [--tables 1 16 64 256] [--seconds 5] [--players 2]

``--vector`` measures :class:`holdem_env.env.vector.HoldemVectorEnv` with random opponents
(one batched call per step) and a random learner (uniform over each row's legal ids,
vectorised), against the plain AEC loop of ``nlhe_v0`` with a :class:`RandomAgent` in every
seat. *Decisions* count every seat's actions (learner and opponents); the learner's share is
printed too. Prints a markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from holdem_env.agents.random_agent import RandomAgent

from holdem_env.env import nlhe_v0
from holdem_env.env.vector import FixedOpponents, HoldemVectorEnv


def _uniform_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal id per row, vectorised (random keys, masked ids pushed below zero)."""
    keys = rng.random(masks.shape) + masks
    return keys.argmax(axis=1)


def bench_aec(players: int, seconds: float) -> float:
    """Decisions/s of the AEC loop, one RandomAgent per seat."""
    env = nlhe_v0.raw_env(num_players=players)
    agents = [RandomAgent(seed=s) for s in range(players)]
    env.reset(seed=0)
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        while env.agents and not all(env.terminations.values()):
            name = env.agent_selection
            env.step(agents[env.agent_name_mapping[name]].act(env.observe(name), env.infos[name]))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def bench_vector(tables: int, players: int, seconds: float) -> tuple[float, float]:
    """``(all decisions/s, learner decisions/s)`` of the vector env with ``tables`` tables."""
    venv = HoldemVectorEnv(tables, FixedOpponents([RandomAgent]), num_players=players)
    rng = np.random.default_rng(0)
    obs, _ = venv.reset(seed=0)
    learner, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, *_ = venv.step(_uniform_legal(obs["action_mask"], rng))
        learner += tables
    dt = time.perf_counter() - start
    return (learner + venv.opponent_decisions) / dt, learner / dt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--vector", action="store_true", help="vector env decisions/s against N tables")
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 16, 64, 256])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    if not args.vector:
        parser.error("choose --vector")
    aec = bench_aec(args.players, args.seconds)
    print(f"| loop | tables | decisions/s | learner decisions/s | vs AEC loop |  ({args.players} players)")
    print("|---|---:|---:|---:|---:|")
    print(f"| AEC loop, RandomAgent.act per seat | 1 | {aec:,.0f} | - | 1.00x |")
    for n in args.tables:
        total, learner = bench_vector(n, args.players, args.seconds)
        row = f"| {n} | {total:,.0f} | {learner:,.0f} | {total / aec:.2f}x |"
        print("| HoldemVectorEnv, batched random opponents " + row)


if __name__ == "__main__":
    main()

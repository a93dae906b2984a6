"""Decisions per CPU-second of the rule bots' batched ``decide`` (batches of 256 tables) beside ``act`` one at a time.

Decisions are collected from 6-max exact-mode hands where seat 0 is a stand-in learner (``--learner
random``: uniformly random legal ids; ``call``: always check/call, which takes more hands past the flop
and multiway) and the bot plays the other five seats; ``act`` is timed there, one call per
decision (its view conversion included). The same decisions are then decided again by ``decide`` in
batches of ``--batch`` rows (``BatchViews.from_seat_views`` built outside the timing, as the batched
core fills its arrays itself) with the uniforms ``act`` drew, checked equal to ``act``'s ids.
"bot decisions per learner decision" is how many opponent decisions each learner decision costs at
these tables; the ceiling it implies is the learner decisions/s the opponents alone would allow.

    python benchmarks/bench_rule_bots.py --hands 1500 --learner random
    python benchmarks/bench_rule_bots.py --hands 1500 --learner call
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from holdem_env import build_info
from holdem_env.agents.base import make_agent
from holdem_env.batched.views import BatchViews
from holdem_env.env import nlhe_v1
from holdem_env.env.loop import decisions


class _Recorder:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.last: np.ndarray | None = None

    def random(self, size: Any = None) -> Any:
        out = self.rng.random(size)
        self.last = np.atleast_1d(out)
        return out


def collect(spec: str, hands: int, seed: int, learner_policy: str) -> tuple[list[tuple[Any, Any, np.ndarray, int]], float, int]:
    """(rows, act CPU seconds, learner decisions)."""
    env = nlhe_v1.env(num_players=6, action_mode="exact")
    bots = [make_agent(spec) for _ in range(5)]
    for i, b in enumerate(bots):
        b.rng = _Recorder(seed + i)
    learner = np.random.default_rng(seed)
    rows: list[tuple[Any, Any, np.ndarray, int]] = []
    act_cpu, learner_decisions = 0.0, 0
    for obs, info in decisions(env, hands=hands, seed=seed * 100_000):
        seat = info["view"]["seat"]
        if seat == 0:
            learner_decisions += 1
            legal = np.flatnonzero(obs["action_mask"])
            env.step(1 if learner_policy == "call" else int(learner.choice(legal)))
            continue
        bot = bots[seat - 1]
        t = time.process_time()
        action = bot.act(obs, info)
        act_cpu += time.process_time() - t
        rows.append((info["view"], info["legal"], bot.rng.last.copy(), action))
        env.step(action)
    return rows, act_cpu, learner_decisions


def bench(spec: str, hands: int, batch: int, seed: int, learner_policy: str) -> dict[str, float]:
    rows, act_cpu, learner_decisions = collect(spec, hands, seed, learner_policy)
    bot = make_agent(spec)
    batches = []
    for start in range(0, len(rows) - batch + 1, batch):
        part = rows[start : start + batch]
        views = BatchViews.from_seat_views([r[0] for r in part], [r[1] for r in part])
        batches.append((views, np.stack([r[2] for r in part]), [r[3] for r in part]))
    t = time.process_time()
    out = [bot.decide(v, u) for v, u, _ in batches]
    decide_cpu = time.process_time() - t
    assert all(o.tolist() == ids for o, (_, _, ids) in zip(out, batches, strict=True)), "decide differs from act"
    decided = batch * len(batches)
    postflop = float(np.mean([r[0]["street"] != "preflop" for r in rows]))
    per_learner = len(rows) / max(learner_decisions, 1)
    return {
        "act": len(rows) / act_cpu,
        "decide": decided / decide_cpu,
        "postflop": postflop,
        "per_learner": per_learner,
        "ceiling": decided / decide_cpu / per_learner,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--learner", choices=["random", "call"], default="random")
    parser.add_argument("--bots", nargs="+", default=["tag", "lag", "calling-station", "tight-passive"])
    args = parser.parse_args()
    print(f"compiled: {build_info()['compiled']}; learner: {args.learner}")
    print(f"| bot | act decisions/CPU-s | decide decisions/CPU-s (batch {args.batch}) | speed-up | postflop share | bot decisions per learner decision | learner decisions/s the bots allow |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for spec in args.bots:
        r = bench(spec, args.hands, args.batch, args.seed, args.learner)
        print(f"| {spec} | {r['act']:,.0f} | {r['decide']:,.0f} | {r['decide'] / r['act']:.1f}x | {r['postflop']:.2f} | {r['per_learner']:.2f} | {r['ceiling']:,.0f} |")


if __name__ == "__main__":
    main()

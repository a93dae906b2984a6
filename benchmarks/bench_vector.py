"""Learner decisions per CPU-second: the vector env on the batched core beside one single-table env.

Three measurements, each timed by process CPU time in this one process (run them in the same run):

* ``single``: one :class:`~holdem_env.env.gym_wrapper.HoldemGymEnv` table (discrete actions), its other
  seats played by the opponents' ``act``; the learner picks a uniform legal id from the mask.
* ``vector``: :class:`~holdem_env.env.vector.HoldemVectorEnv` with ``--tables`` tables on the batched
  backend, the same opponents deciding in batch (``decide``) inside the core, observations and masks
  written by :mod:`holdem_env.batched.encode`; the learner picks a uniform legal id per row.
* ``core``: :class:`~holdem_env.batched.BatchedTables` with its built-in random opponents and a random
  learner seat, the learner's view filled (``fill_views``) and its observation and discrete mask
  encoded at every step; counted are all decisions (every seat) per CPU-second.

Opponents: ``random`` (a uniform legal discrete id: :class:`DiscreteRandom`, the same policy as the
single-table env's default opponents) or ``tag`` (:class:`holdem_env.agents.tag.TagAgent`, when it has
``decide``).

    python benchmarks/bench_vector.py --players 2 6 --opponents random --tables 1024 --seconds 10
    python benchmarks/bench_vector.py --players 2 6 --opponents tag --tables 1024 --seconds 10
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from holdem_env import build_info
from holdem_env.batched import BatchedTables
from holdem_env.batched import encode as enc
from holdem_env.batched.views import BatchViews
from holdem_env.env.gym_wrapper import HoldemGymEnv
from holdem_env.env.vector import FixedOpponents, HoldemVectorEnv


class DiscreteRandom:
    """A uniform legal id of the discrete action set (fold, check/call, each size kept), for one table
    (``act``) or many (``decide``, answering with exact ids)."""

    uniforms_per_decision = 1

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def set_rng(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: dict[str, np.ndarray], info: Any) -> int:
        return int(self.rng.choice(np.flatnonzero(observation["action_mask"])))

    def decide(self, views: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        amounts = enc.discrete_amounts(views)
        legal = np.concatenate([views.legal_fold[:, None] > 0, np.ones((views.rows, 1), bool), amounts > 0], axis=1)
        pick = (uniforms[:, 0] * legal.sum(axis=1)).astype(np.int64)
        ids = (np.cumsum(legal, axis=1) > pick[:, None]).argmax(axis=1)
        raise_to = amounts[np.arange(views.rows), np.maximum(ids - 2, 0)]
        return np.where(ids < 2, ids, raise_to + 1)


def _opponent(name: str) -> Callable[[], Any]:
    if name == "random":
        return DiscreteRandom
    from holdem_env.agents.tag import TagAgent

    if not callable(getattr(TagAgent, "decide", None)):
        raise SystemExit("TagAgent has no decide(views, uniforms) here: the batched tag is not in this checkout")
    return TagAgent


def bench_single(players: int, factory: Callable[[], Any], seconds: float, seed: int) -> tuple[float, int]:
    """(learner decisions per CPU-second, decisions) of one HoldemGymEnv table."""
    opponents = {s: factory() for s in range(1, players)}
    genv = HoldemGymEnv(learner=0, opponents=opponents, num_players=players, illegal_action="raise")
    rng = np.random.default_rng(seed)
    obs, _ = genv.reset(seed=seed)
    decisions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(200):
            obs, _r, term, trunc, _i = genv.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            decisions += 1
            if term or trunc:
                obs, _ = genv.reset()
    return decisions / (time.process_time() - t0), decisions


def _uniform_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal id per row (the largest of uniforms over the legal ids)."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def bench_vector(players: int, factory: Callable[[], Any], tables: int, seconds: float, seed: int) -> tuple[float, float, int]:
    """(learner decisions per CPU-second, all decisions per CPU-second, learner decisions) of the vector env."""
    venv = HoldemVectorEnv(tables, FixedOpponents([factory]), num_players=players, backend="batched", final_obs=False)
    rng = np.random.default_rng(seed)
    obs, _ = venv.reset(seed=seed)
    for _ in range(5):
        obs, *_ = venv.step(_uniform_legal(obs["action_mask"], rng))
    steps, o0 = 0, venv.opponent_decisions
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(10):
            obs, *_ = venv.step(_uniform_legal(obs["action_mask"], rng))
            steps += 1
    elapsed = time.process_time() - t0
    learner = steps * tables
    return learner / elapsed, (learner + venv.opponent_decisions - o0) / elapsed, learner


def bench_core(players: int, tables: int, seconds: float, seed: int) -> tuple[float, float]:
    """(all decisions per CPU-second, learner decisions per CPU-second) of the core with random opponents,
    the learner's observations and discrete masks encoded every step."""
    bt = BatchedTables(tables, players, 5, 10, 1000, seed=seed, random_opponents=True, random_learner_seat=True)
    views = BatchViews.empty(tables, players, 5, 10)
    obs = np.zeros((tables, enc.observation_size(players)), dtype=np.float32)
    masks = np.zeros((tables, enc.num_actions("discrete")), dtype=np.int8)
    for _ in range(5):
        bt.step(bt.random_actions())
    d0, steps = bt.decisions, 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(20):
            bt.step(bt.random_actions())
            bt.fill_views(None, views)
            enc.encode_observations(views, obs)
            enc.legal_masks(views, "discrete", masks)
            steps += 1
    elapsed = time.process_time() - t0
    return (bt.decisions - d0) / elapsed, steps * tables / elapsed


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, nargs="+", default=[2, 6])
    p.add_argument("--opponents", choices=("random", "tag"), default="random")
    p.add_argument("--tables", type=int, default=1024)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--skip-core", action="store_true", help="only the single table and the vector env")
    args = p.parse_args(argv)
    print(f"build: {build_info()['compiled']}")
    factory = _opponent(args.opponents)
    for n in args.players:
        single, sd = bench_single(n, factory, args.seconds, args.seed)
        learner, everyone, ld = bench_vector(n, factory, args.tables, args.seconds, args.seed)
        print(f"{n}-max, {args.opponents} opponents: single HoldemGymEnv {single:,.0f} learner decisions/s ({sd:,}); "
              f"vector env ({args.tables} tables, batched) {learner:,.0f} learner decisions/s ({ld:,}), "
              f"{everyone:,.0f} decisions/s all seats; ratio {learner / single:.1f}x")
        if not args.skip_core:
            dec, lrn = bench_core(n, args.tables, args.seconds, args.seed)
            print(f"{n}-max core, random opponents, obs + discrete masks encoded: {dec:,.0f} decisions/s (all seats), "
                  f"{lrn:,.0f} learner decisions/s")


if __name__ == "__main__":
    main()

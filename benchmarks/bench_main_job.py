"""CPU cost of one round of the main job (``configs/quickstart.yaml``), part by part, in one process.

Usage::

    .venv/bin/python benchmarks/bench_main_job.py [--config configs/quickstart.yaml] [--cfr-iterations 300] [--hands 200]

Times, with the CPU time of this process (so a loaded machine inflates it less than wall
time), a sample of each part of a league round and scales it to the config's sizes:

* cfr-lite: ``--cfr-iterations`` MCCFR iterations (after the bucket thresholds are ready;
  their one-off cost is timed first), scaled to ``cfr.iterations_per_round``;
* ppo: one PPO iteration of ``ppo.num_envs * ppo.num_steps`` learner decisions, scaled to
  ``ppo.iterations_per_round``;
* evaluation: ``--hands`` duplicate hands of every pair (the learners play the policies
  this script just trained), scaled to ``league.eval_hands``; a pair of two agents that do
  not train is counted once (the league plays its seeded match once and repeats it).

Prints a markdown table: CPU seconds per round for each part, what is paid once, and the
job's total CPU (rounds x round + once). The league runs cfr-lite's sampling and the
evaluation matches on ``backend.workers`` processes, the ppo learner in the main process
(at the same time as cfr-lite's sampling).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="configs/quickstart.yaml")
    parser.add_argument("--cfr-iterations", type=int, default=300)
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-main-job-"))
    os.environ.setdefault("HOLDEM_ENV_CACHE", str(tmp / "cache"))

    import holdem_env.agents.cfr_lite  # noqa: F401  (registers cfr-lite)
    from holdem_env.training.arena import ArenaConfig, run_match
    from holdem_env.training.config import load_config
    from holdem_env.training.league import _make_ppo_learner, _make_trainer
    from holdem_env.training.league_eval import _ppo_spec, _spec_for

    cfg = load_config(args.config)
    rows: list[tuple[str, float]] = []
    t0 = time.process_time()
    trainers = {e.name: _make_trainer(cfg) for e in cfg.cfr_trainers}
    for tr in trainers.values():
        tr.game.cards.thresholds()
    thresholds = time.process_time() - t0
    specs = {e.name: _spec_for(e, None) for e in cfg.agents}
    for name, tr in trainers.items():
        t0 = time.process_time()
        tr.train(args.cfr_iterations, np.random.default_rng(0))
        rows.append((f"{name}: {cfg.cfr.iterations_per_round:,} MCCFR iterations",
                     (time.process_time() - t0) * cfg.cfr.iterations_per_round / args.cfr_iterations))
        tr.policy({}).save(tmp / f"{name}.npz")
        specs[name] = _spec_for(next(e for e in cfg.agents if e.name == name), tmp / f"{name}.npz")
    for e in cfg.ppo_trainers:
        learner = _make_ppo_learner(cfg, e.name)
        t0 = time.process_time()
        learner.learner.train_round(1, 1)
        its = cfg.ppo.iterations_per_round
        rows.append((f"{e.name}: {its} PPO iterations x {cfg.ppo.batch_size} decisions", (time.process_time() - t0) * its))
        learner.save_policy(tmp / f"{e.name}.pt")
        specs[e.name] = _ppo_spec(e, tmp / f"{e.name}.pt")
    entries = list(cfg.agents)
    t = cfg.table
    once: list[tuple[str, float]] = [("bucket thresholds", thresholds)]
    for i, a in enumerate(entries):
        for b in entries[i + 1 :]:
            t0 = time.process_time()
            run_match(ArenaConfig(agents=(specs[a.name], specs[b.name]), hands=args.hands, seed=1, small_blind=t.small_blind,
                                  big_blind=t.big_blind, buy_in=t.buy_in))
            cost = (time.process_time() - t0) * cfg.league.eval_hands / args.hands
            label = f"eval {a.name} vs {b.name}: {cfg.league.eval_hands:,} hands"
            # two agents that do not train play one seeded match, repeated every round (league_eval._evaluate)
            (rows if a.train or b.train else once).append((label, cost))
    per_round = sum(s for _, s in rows)
    fixed = sum(s for _, s in once)
    print(f"| part ({args.config}) | CPU s |")
    print("|---|---:|")
    for label, s in rows:
        print(f"| {label} (every round) | {s:.1f} |")
    print(f"| **round** | **{per_round:.1f}** |")
    for label, s in once:
        print(f"| {label} (once) | {s:.1f} |")
    print(f"| **job: {cfg.league.rounds} rounds + once** | **{cfg.league.rounds * per_round + fixed:.0f}** |")


if __name__ == "__main__":
    main()

"""Where the PPO trainer's sampling spends its CPU time: per-step CPU time of each part of ``LocalRollouts.collect``.

Usage::

    .venv/bin/python benchmarks/profile_sampling.py [--tables 32] [--players 2] [--opponents tag] [--seconds 10] [--cprofile]

One process, one torch thread, ``num_steps`` = 2,048 / tables (as ``bench_sampling_pair.py``). After one
warm-up rollout it samples for ``--seconds`` with each part wrapped in a timer of the thread's CPU time
(``time.thread_time``), and prints learner decisions per CPU second, then per part: CPU microseconds per
step, per learner decision, and calls per step. Parts marked ``- `` are inside the part above them (the env's
step holds the opponents' ``play``, which holds the bots' ``decide``). The wrappers cost a little
themselves: compare rates with ``bench_sampling_pair.py``, not with this. ``--cprofile``: cProfile's
table (internal time) instead of the timers.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import inspect
import pstats
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

_T: collections.Counter[str] = collections.Counter()
_C: collections.Counter[str] = collections.Counter()


def _wrap(owner: Any, name: str, label: str) -> None:
    """Time ``owner.name`` (a function, method or static method) under ``label``."""
    raw = inspect.getattr_static(owner, name, None)
    if raw is None:
        return
    f: Callable[..., Any] = getattr(owner, name)

    def timed(*a: Any, **k: Any) -> Any:
        t = time.thread_time()
        try:
            return f(*a, **k)
        finally:
            _T[label] += time.thread_time() - t
            _C[label] += 1

    setattr(owner, name, staticmethod(timed) if isinstance(raw, staticmethod) else timed)


def _instrument() -> None:
    import holdem_env.agents.tag as tag
    import holdem_env.batched._external as ext
    import holdem_env.env._vector_batched as vb
    import holdem_env.env.vector as vec
    import holdem_env.training.ppo.algorithm as alg
    import holdem_env.training.ppo.workers as wk

    _wrap(wk, "collect_rollout", "collect_rollout")  # (the name LocalRollouts calls)
    _wrap(alg, "_draw", "  action draw")
    _wrap(alg._StepForward, "run", "  forward (actor, critic)")
    try:
        import holdem_env.training.ppo._encode as encm

        _wrap(encm.StepEncoder, "encode", "  network input")
    except ImportError:  # an older checkout
        import holdem_env.agents.ppo as ppom

        _wrap(ppom.PpoPolicy, "encode", "  network input")
    import holdem_env.agents.features as feat

    _wrap(feat._features, "equity_rows", "    learner's equity (compiled)")
    _wrap(vec.HoldemVectorEnv, "step_arrays", "  env step")
    _wrap(vec.HoldemVectorEnv, "step", "  env step (with infos)")
    _wrap(ext, "play", "    opponents' play")
    _wrap(tag.RowRuleAgent, "decide", "      bots' decide")
    _wrap(tag.RowRuleAgent, "_decide_trusted", "      bots' decide")  # (the core's own draws: no argument checks)
    _wrap(tag, "rule_equities", "        rule bots' equity")
    _wrap(vb.BatchedBackend, "_observe", "    observations and masks")
    _wrap(vb.BatchedBackend, "_report", "    pool records")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=32)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", nargs="+", default=["tag"])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--cprofile", action="store_true")
    args = ap.parse_args()
    if not 1 <= args.tables <= 2048 or not 2 <= args.players <= 10 or args.seconds <= 0:
        ap.error("--tables must be in 1..2048, --players in 2..10 and --seconds > 0")
    torch.set_num_threads(1)
    from holdem_env.engine.config import TableConfig
    from holdem_env.training.ppo import PpoLearner, PpoSettings
    from holdem_env.training.ppo.workers import LocalRollouts

    if not args.cprofile:
        _instrument()
    settings = PpoSettings(num_envs=args.tables, num_steps=max(1, 2048 // args.tables), opponents=tuple(args.opponents),
                           snapshot_every=0, pool_uniform_share=1.0)
    learner = PpoLearner(settings, TableConfig(num_players=args.players), 0)
    sampler = LocalRollouts(learner, np.random.default_rng(0))
    sampler.collect()
    _T.clear()
    _C.clear()
    prof = cProfile.Profile() if args.cprofile else None
    c0, w0, n = time.process_time(), time.perf_counter(), 0
    if prof is not None:
        prof.enable()
    while time.perf_counter() - w0 < args.seconds:
        n += sampler.collect().actions.size
    if prof is not None:
        prof.disable()
    cpu = time.process_time() - c0
    steps = n / args.tables
    print(f"{args.tables} tables, {args.players} seats, {' '.join(args.opponents)}: {n / cpu:,.0f} learner decisions per "
          f"CPU s, {cpu / steps * 1e6:,.0f} us a step, {cpu / n * 1e6:.1f} us a decision")
    if prof is not None:
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return
    print(f"| {'part':<36} | us/step | us/decision | calls/step |\n|---|---:|---:|---:|")
    order = ["collect_rollout", "  network input", "    learner's equity (compiled)", "  forward (actor, critic)",
             "  action draw", "  env step", "  env step (with infos)", "    opponents' play", "      bots' decide",
             "        rule bots' equity", "    observations and masks", "    pool records"]
    for label in order:
        if _C[label]:
            depth = (len(label) - len(label.lstrip())) // 2
            print(f"| {'- ' * depth + label.strip():<36} | {_T[label] / steps * 1e6:7,.0f} | "
                  f"{_T[label] / n * 1e6:11.1f} | {_C[label] / steps:10.2f} |")


if __name__ == "__main__":
    main()

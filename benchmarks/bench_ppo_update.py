"""The PPO update's cost per CPU second: the trainer's fast paths against torch's own layers and Adam, alternated in one process.

Usage::

    .venv/bin/python benchmarks/bench_ppo_update.py --update [--reps 6]
    .venv/bin/python benchmarks/bench_ppo_update.py --whole [--tables 256] [--seconds 15] [--pairs 4]
    .venv/bin/python benchmarks/bench_ppo_update.py --floor

``--update``: :func:`~holdem_env.training.ppo.algorithm.ppo_update` on a batch of 2,048 random heads-up rows
(4 epochs x 4 minibatches, ``hidden`` 128 x 128: the trainer's defaults), CPU seconds per update, for
*before* (``model(x, mask)``: torch's tanh; ``torch.optim.Adam``'s per-tensor loop), *tanh* (numpy's
tanh only), *adam* (the fused Adam only) and *after* (both: what the trainer runs). ``--whole``: whole
iterations (``PpoLearner.train_round``: sampling against ``tag`` on the batched core plus the update),
learner decisions per CPU second, *before* and *after* alternated (``--pairs`` pairs of ``--seconds``
each). ``--floor``: the network's forward and backward passes alone on 16 minibatches of 512 rows (the
update's matrix work, its lower bound without changing the maths), and one ``addmm``'s GFLOPS.
One torch thread throughout, deterministic algorithms on (as the trainer).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from holdem_env.agents.ppo import ActorCritic, PolicyConfig
from holdem_env.training.ppo import algorithm as alg
from holdem_env.training.ppo.config import PpoSettings

FAST = alg.policy_value


def _plain(model: Any, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return model(x, mask)  # type: ignore[no-any-return]


def _adam(params: Any, fused: bool) -> torch.optim.Adam:
    return alg.fast_adam(params, 3e-4) if fused else torch.optim.Adam(params, lr=3e-4, eps=1e-5, foreach=False)


VARIANTS = {"before": (_plain, False), "tanh": (FAST, False), "adam": (_plain, True), "after": (FAST, True)}


def _batch(cfg: PolicyConfig, n: int) -> dict[str, torch.Tensor]:
    rng = np.random.default_rng(0)
    masks = (rng.random((n, cfg.num_actions)) < 0.5).astype(np.int64)
    masks[:, 1] = 1
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    return {"x": torch.from_numpy(rng.standard_normal((n, cfg.input_size)).astype(np.float32)),
            "masks": torch.from_numpy(masks), "actions": torch.from_numpy(actions),
            "logprobs": torch.full((n,), -1.0), "advantages": torch.from_numpy(rng.standard_normal(n).astype(np.float32)),
            "returns": torch.from_numpy(rng.standard_normal(n).astype(np.float32))}


def bench_update(reps: int) -> dict[str, float]:
    """CPU seconds per update of 2,048 rows for each variant (``reps`` updates each, alternated)."""
    cfg = PolicyConfig(num_players=2)
    batch, settings = _batch(cfg, 2048), PpoSettings()
    setups = {}
    for name, (_, fused) in VARIANTS.items():
        torch.manual_seed(0)
        model = ActorCritic(cfg)
        setups[name] = (model, _adam(model.parameters(), fused))
    total = dict.fromkeys(VARIANTS, 0.0)
    for rep in range(reps + 1):
        for name, (forward, _) in VARIANTS.items():
            alg.policy_value = forward  # type: ignore[assignment]
            model, opt = setups[name]
            t = time.process_time()
            alg.ppo_update(model, opt, batch, settings, np.random.default_rng(rep))
            if rep:  # the first round warms up
                total[name] += time.process_time() - t
    alg.policy_value = FAST
    return {k: v / reps for k, v in total.items()}


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def bench_whole(tables: int, seconds: float, pairs: int) -> dict[str, list[float]]:
    """Learner decisions per CPU second of whole iterations, before and after, alternated."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_ppo import COMPARE_PPO

    from holdem_env.engine.config import TableConfig
    from holdem_env.training.ppo import PpoLearner

    learners = {}
    for name in ("before", "after"):
        s = PpoSettings(num_envs=tables, num_steps=max(1, 2048 // tables), opponents=("tag",), snapshot_every=0,
                        pool_uniform_share=1.0, **COMPARE_PPO)
        learners[name] = PpoLearner(s, TableConfig(num_players=2), 0)
        learners[name].optimizer = _adam(learners[name].model.parameters(), name == "after")
    out: dict[str, list[float]] = {"before": [], "after": []}
    r = 1
    try:
        for p in range(pairs + 1):
            for name in ("before", "after") if p % 2 == 0 else ("after", "before"):
                alg.policy_value = FAST if name == "after" else _plain  # type: ignore[assignment]
                c0, w0, n = _cpu(), time.perf_counter(), 0
                while time.perf_counter() - w0 < (seconds if p else 0.0) or n == 0:
                    r += 1
                    n += learners[name].train_round(4 if p else 1, r).decisions
                if p:  # the first pair warms up
                    out[name].append(n / (_cpu() - c0))
    finally:
        alg.policy_value = FAST
        for learner in learners.values():
            learner.close()
    return out


def bench_floor(reps: int = 64) -> tuple[float, float, float]:
    """(ms per 16 minibatches' forward + backward: numpy's tanh, torch's tanh; GFLOPS of one 512x164x128 addmm)."""
    cfg = PolicyConfig(num_players=2)
    model = ActorCritic(cfg)
    x = torch.randn(512, cfg.input_size)
    mask = torch.ones(512, cfg.num_actions, dtype=torch.int64)
    times = []
    for forward in (FAST, _plain):
        t = time.process_time()
        for _ in range(reps):
            logits, values = forward(model, x, mask)
            (logits.sum() + values.sum()).backward()
        times.append((time.process_time() - t) / reps * 16 * 1e3)
    w, b = torch.randn(128, cfg.input_size), torch.randn(128)
    t = time.process_time()
    for _ in range(500):
        torch.addmm(b, x, w.t())
    dt = (time.process_time() - t) / 500
    return times[0], times[1], 2 * 512 * cfg.input_size * 128 / dt / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--update", action="store_true")
    parser.add_argument("--whole", action="store_true")
    parser.add_argument("--floor", action="store_true")
    parser.add_argument("--reps", type=int, default=6)
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--pairs", type=int, default=4)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    if args.update:
        res = bench_update(args.reps)
        print("| variant | CPU s per update of 2,048 | vs before |\n|---|---:|---:|")
        for k, v in res.items():
            print(f"| {k} | {v:.4f} | {v / res['before']:.2f}x |")
    elif args.whole:
        res2 = bench_whole(args.tables, args.seconds, args.pairs)
        b, a = np.mean(res2["before"]), np.mean(res2["after"])
        print("| tables | before per CPU s | after per CPU s | after / before |\n|---:|---:|---:|---:|")
        print(f"| {args.tables} | {b:,.0f} ({', '.join(f'{x:,.0f}' for x in res2['before'])}) | "
              f"{a:,.0f} ({', '.join(f'{x:,.0f}' for x in res2['after'])}) | {a / b:.3f}x |")
    elif args.floor:
        fast, plain, gflops = bench_floor()
        print(f"forward + backward, 16 minibatches of 512: {fast:.1f} ms (numpy tanh), {plain:.1f} ms (torch tanh); "
              f"addmm 512x{PolicyConfig(num_players=2).input_size}x128: {gflops:.0f} GFLOPS")
    else:
        parser.error("choose --update, --whole or --floor")


if __name__ == "__main__":
    main()

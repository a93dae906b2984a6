"""The ppo agent deciding one seat at a time: the numpy path of ``act`` against the torch path of ``act_batch``.

Usage::

    .venv/bin/python benchmarks/bench_ppo_act.py [--decisions 400] [--repeats 5] [--hidden 64 64]

Records ``--decisions`` decisions (observation and mask) from heads-up hands played mostly
by calling (every street is seen), then, on the same decisions and in the same process,
alternates ``--repeats`` times between

* **torch**: ``PpoAgent.act_batch(row[None], mask[None])`` -- a one-row batch through the
  torch network and :func:`holdem_env.agents.features.encode_batch` (what ``act`` did before
  :mod:`holdem_env.agents.ppo_fast`), and
* **numpy**: ``PpoAgent.act(observation, info)`` -- :func:`holdem_env.agents.ppo_fast.probabilities_one`
  (numpy forward pass, :func:`holdem_env.agents.features.encode_row`) and ``sample_row``,

and prints decisions per CPU second of each (best repeat) and their ratio, for the shipped
policy and a fresh network of ``--hidden`` layers. The equity cache is warm for both (each
repeat replays the same decisions), as it is within a hand.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from holdem_env import nlhe_v1
from holdem_env.agents.ppo import PolicyConfig, PpoAgent, PpoPolicy
from holdem_env.env.loop import decisions


def _decisions(count: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    env = nlhe_v1.raw_env(num_players=2)
    rng = np.random.default_rng(seed)
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for o, _info in decisions(env, seed=seed * 100_000):
        if len(out) == count:
            break
        out.append((o["observation"].copy(), o["action_mask"].copy()))
        legal = np.flatnonzero(o["action_mask"])
        env.step(1 if o["action_mask"][1] and rng.random() < 0.7 else int(rng.choice(legal)))
    return out


def _rate(fn: object, rows: list[tuple[np.ndarray, np.ndarray]]) -> float:
    t0 = time.process_time()
    for o, m in rows:
        fn(o, m)  # type: ignore[operator]
    return len(rows) / max(time.process_time() - t0, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--hidden", type=int, nargs="+", default=[64, 64])
    args = parser.parse_args()
    torch.set_num_threads(1)
    rows = _decisions(args.decisions, 7)
    torch.manual_seed(0)
    policies = {
        "shipped ppo_hu.pt": PpoAgent().policy,
        f"fresh {args.hidden}": PpoPolicy(PolicyConfig(hidden=tuple(args.hidden))),
    }
    print("| policy | torch `act_batch` (1 row) decisions/s | numpy `act` decisions/s | ratio |")
    print("|---|---:|---:|---:|")
    for label, policy in policies.items():
        agent = PpoAgent(policy, rng=np.random.default_rng(0))
        torch_path = lambda o, m, agent=agent: agent.act_batch(o[None, :], m[None, :])  # noqa: E731
        numpy_path = lambda o, m, agent=agent: agent.act({"observation": o, "action_mask": m}, {})  # noqa: E731
        _rate(numpy_path, rows[:20])
        _rate(torch_path, rows[:20])
        best = {"torch": 0.0, "numpy": 0.0}
        for _ in range(args.repeats):
            best["torch"] = max(best["torch"], _rate(torch_path, rows))
            best["numpy"] = max(best["numpy"], _rate(numpy_path, rows))
        print(f"| {label} | {best['torch']:,.0f} | {best['numpy']:,.0f} | {best['numpy'] / best['torch']:.1f}x |")


if __name__ == "__main__":
    main()

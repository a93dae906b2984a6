"""Hands per second through the public AEC API: nlhe_v0 vs PettingZoo's and RLCard's no-limit envs.

Random legal play for every env: uniform over {fold (only when facing a bet), check/call,
raise}, then a uniform legal size among the raise ids. nlhe_v0 and PettingZoo's
``texas_holdem_no_limit_v6`` are driven through ``agent_iter``/``last``/``step``; RLCard's
no-limit env is called directly (``reset``/``step``/``is_over``). Default table: 6 players,
100 big blinds (RLCard: ``chips_for_each=200`` with its 1/2 blinds; PettingZoo's wrapper
does not expose stacks and plays RLCard's default 100 chips = 50 big blinds).

Run: ``.venv/bin/python benchmarks/bench_env.py [--hands 3000] [--seconds 0]``. Prints
markdown rows (hands/s and ratios). Timings are not tests; keep them out of ``tests/``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np

from holdem_env import nlhe_v0


def _choose(mask: np.ndarray, rng: np.random.Generator) -> int:
    """Uniform over fold-if-facing / check-call / raise, then a uniform legal raise id."""
    kinds = []
    if mask[0]:
        kinds.append(0)
    if mask[1]:
        kinds.append(1)
    raises = np.flatnonzero(mask[2:])
    if raises.size:
        kinds.append(2)
    kind = kinds[rng.integers(len(kinds))]
    if kind < 2:
        return kind
    return int(raises[rng.integers(raises.size)]) + 2


def _play_aec(env, hands: int, rng: np.random.Generator) -> tuple[int, int]:
    steps = 0
    for _ in range(hands):
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(_choose(obs["action_mask"], rng))
            steps += 1
    return hands, steps


def bench_nlhe(num_players: int, action_mode: str, hands: int, seed: int) -> tuple[float, float]:
    env = nlhe_v0.env(num_players=num_players, action_mode=action_mode)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    _play_aec(env, max(hands // 20, 10), rng)  # warm-up
    t = time.perf_counter()
    n, steps = _play_aec(env, hands, rng)
    dt = time.perf_counter() - t
    return n / dt, steps / n


def bench_pettingzoo(num_players: int, hands: int, seed: int) -> tuple[float, float]:
    from pettingzoo.classic import texas_holdem_no_limit_v6

    env = texas_holdem_no_limit_v6.env(num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    _play_aec(env, max(hands // 20, 5), rng)
    t = time.perf_counter()
    n, steps = _play_aec(env, hands, rng)
    dt = time.perf_counter() - t
    return n / dt, steps / n


def bench_rlcard(num_players: int, hands: int, seed: int) -> tuple[float, float]:
    import rlcard

    env = rlcard.make("no-limit-holdem", config={"game_num_players": num_players, "chips_for_each": 200, "seed": seed})
    rng = np.random.default_rng(seed)
    num_actions = env.num_actions

    def play(k: int) -> int:
        steps = 0
        for _ in range(k):
            state, _ = env.reset()
            while not env.is_over():
                mask = np.zeros(num_actions, dtype=np.int8)
                mask[list(state["legal_actions"].keys())] = 1
                state, _ = env.step(_choose(mask, rng))
                steps += 1
        return steps

    play(max(hands // 20, 5))
    t = time.perf_counter()
    steps = play(hands)
    dt = time.perf_counter() - t
    return hands / dt, steps / hands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per nlhe_v0 run (others get a share)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    h = args.hands
    rows: list[tuple[str, float, float]] = []

    def run(name: str, fn: Callable[[], tuple[float, float]]) -> float:
        hps, steps = fn()
        rows.append((name, hps, steps))
        return hps

    ours6 = run("nlhe_v0 exact, 6 players", lambda: bench_nlhe(6, "exact", h, args.seed))
    pz6 = run("PettingZoo texas_holdem_no_limit_v6, 6 players", lambda: bench_pettingzoo(6, max(h // 6, 50), args.seed))
    rl6 = run("RLCard no-limit-holdem (direct), 6 players", lambda: bench_rlcard(6, max(h // 3, 50), args.seed))
    run("nlhe_v0 discrete, 6 players", lambda: bench_nlhe(6, "discrete", h, args.seed))
    ours2 = run("nlhe_v0 exact, heads-up", lambda: bench_nlhe(2, "exact", h, args.seed))
    pz2 = run("PettingZoo texas_holdem_no_limit_v6, heads-up", lambda: bench_pettingzoo(2, max(h // 6, 50), args.seed))
    rl2 = run("RLCard no-limit-holdem (direct), heads-up", lambda: bench_rlcard(2, max(h // 3, 50), args.seed))
    ours10 = run("nlhe_v0 exact, 10 players", lambda: bench_nlhe(10, "exact", h, args.seed))
    pz10 = run("PettingZoo texas_holdem_no_limit_v6, 10 players", lambda: bench_pettingzoo(10, max(h // 6, 50), args.seed))
    rl10 = run("RLCard no-limit-holdem (direct), 10 players", lambda: bench_rlcard(10, max(h // 3, 50), args.seed))

    print("| env | hands/s | actions/hand |")
    print("|---|---:|---:|")
    for name, hps, steps in rows:
        print(f"| {name} | {hps:,.0f} | {steps:.1f} |")
    print()
    print("| table | nlhe_v0 exact / PettingZoo | nlhe_v0 exact / RLCard |")
    print("|---|---:|---:|")
    for label, ours, pz, rl in (("6 players", ours6, pz6, rl6), ("heads-up", ours2, pz2, rl2), ("10 players", ours10, pz10, rl10)):
        print(f"| {label} | {ours / pz:.1f}x | {ours / rl:.1f}x |")
    disc = next(hps for name, hps, _ in rows if name.startswith("nlhe_v0 discrete"))
    print(f"\ndiscrete mode costs {100 * (ours6 / disc - 1):+.0f}% time per hand vs exact (6 players)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

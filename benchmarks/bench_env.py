"""Hands per second through the public AEC API: nlhe_v0 vs PettingZoo's and RLCard's no-limit envs.

Random legal play for every env: uniform over {fold (only when facing a bet), check/call,
raise}, then a uniform legal size among the raise ids. nlhe_v0 and PettingZoo's
``texas_holdem_no_limit_v6`` are driven through ``agent_iter``/``last``/``step``; RLCard's
no-limit env is called directly (``reset``/``step``/``is_over``). Default table: 6 players,
100 big blinds (RLCard: ``chips_for_each=200`` with its 1/2 blinds; PettingZoo's wrapper
does not expose stacks and plays RLCard's default 100 chips = 50 big blinds).

Run: ``.venv/bin/python benchmarks/bench_env.py [--hands 2000] [--chunk 100] [--clock cpu]``. The four
envs of a table size run in alternating chunks of hands (shared machines: load hits them
alike); prints markdown rows (hands/s and ratios). Timings are not tests; keep them out of ``tests/``.
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
    raises = mask[2:].nonzero()[0]
    kinds = [k for k in (0, 1) if mask[k]]
    if raises.size:
        kinds.append(2)
    u, v = rng.random(2)
    kind = kinds[int(u * len(kinds))]
    if kind < 2:
        return kind
    return int(raises[int(v * raises.size)]) + 2


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


_clock = time.process_time


class _Runner:
    """One environment kept alive across chunks; ``run(k)`` plays k hands and adds up time."""

    def __init__(self, name: str, play: Callable[[int], int]) -> None:
        self.name, self._play = name, play
        self.hands = self.steps = 0
        self.seconds = 0.0

    def run(self, k: int) -> None:
        t = _clock()
        steps = self._play(k)
        self.seconds += _clock() - t
        self.hands += k
        self.steps += steps

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds


def nlhe_runner(num_players: int, action_mode: str, seed: int) -> _Runner:
    env = nlhe_v0.env(num_players=num_players, action_mode=action_mode)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    return _Runner(f"nlhe_v0 {action_mode}", lambda k: _play_aec(env, k, rng)[1])


def pettingzoo_runner(num_players: int, seed: int) -> _Runner:
    from pettingzoo.classic import texas_holdem_no_limit_v6

    env = texas_holdem_no_limit_v6.env(num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    return _Runner("PettingZoo texas_holdem_no_limit_v6", lambda k: _play_aec(env, k, rng)[1])


def rlcard_runner(num_players: int, seed: int) -> _Runner:
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

    return _Runner("RLCard no-limit-holdem (direct)", play)


def engine_runner(num_players: int, seed: int) -> _Runner:
    """The engine alone (Table/HandState, same policy on LegalActions): the floor under the env."""
    from holdem_env.config import TableConfig
    from holdem_env.table import Table

    table = Table(TableConfig(num_players=num_players), seed=seed)
    rng = np.random.default_rng(seed)

    def play(k: int) -> int:
        steps = 0
        for _ in range(k):
            state = table.start_hand()
            while not state.is_over:
                la = state.legal_actions()
                kinds = [0] if la.fold else []
                kinds.append(1)
                if la.min_raise_to is not None:
                    kinds.append(2)
                u, v = rng.random(2)
                kind = kinds[int(u * len(kinds))]
                if kind == 0:
                    state.fold()
                elif kind == 1:
                    state.check() if la.check else state.call()
                else:
                    state.raise_to(la.min_raise_to + int(v * (la.max_raise_to - la.min_raise_to + 1)))
                steps += 1
        return steps

    return _Runner("engine alone (no env; reference)", play)


def bench_table(num_players: int, hands: int, chunk: int, seed: int) -> list[_Runner]:
    """All four envs on one table size, in alternating chunks so machine load hits them alike."""
    runners = [
        nlhe_runner(num_players, "exact", seed),
        nlhe_runner(num_players, "discrete", seed),
        pettingzoo_runner(num_players, seed),
        rlcard_runner(num_players, seed),
        engine_runner(num_players, seed),
    ]
    for r in runners:  # warm-up, not counted
        r.run(max(chunk // 4, 5))
        r.hands = r.steps = 0
        r.seconds = 0.0
    for _ in range(max(hands // chunk, 1)):
        for r in runners:
            r.run(chunk)
    return runners


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per env and table size")
    parser.add_argument("--chunk", type=int, default=100, help="hands per turn when alternating envs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--clock", choices=("cpu", "wall"), default="cpu",
        help="cpu: process CPU time (steady on a shared machine; every env is single-threaded); wall: perf_counter",
    )
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    global _clock
    _clock = time.process_time if args.clock == "cpu" else time.perf_counter
    tables = {}
    for n, label in ((6, "6 players"), (2, "heads-up"), (10, "10 players")):
        tables[label] = bench_table(n, args.hands, args.chunk, args.seed)

    print("| table | env | hands/s | actions/hand |")
    print("|---|---|---:|---:|")
    for label, runners in tables.items():
        for r in runners:
            print(f"| {label} | {r.name} | {r.hands_per_second:,.0f} | {r.steps / r.hands:.1f} |")
    print()
    print("| table | exact / PettingZoo | exact / RLCard | discrete / PettingZoo | discrete / RLCard | discrete cost vs exact |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, (ex, di, pz, rl, _engine) in tables.items():
        e, d, p, r = (x.hands_per_second for x in (ex, di, pz, rl))
        print(f"| {label} | {e / p:.1f}x | {e / r:.1f}x | {d / p:.1f}x | {d / r:.1f}x | {100 * (e / d - 1):+.0f}% time/hand |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

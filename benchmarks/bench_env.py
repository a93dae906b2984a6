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


class _Uniforms:
    """Uniform floats in [0, 1) drawn from ``rng`` in blocks (one numpy call per 4096 numbers)."""

    __slots__ = ("_rng", "_it")

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._it = iter(())

    def pair(self) -> tuple[float, float]:
        try:
            return next(self._it), next(self._it)
        except StopIteration:
            self._it = iter(self._rng.random(4096).tolist())
            return next(self._it), next(self._it)


def _pick(fold: bool, call: bool, num_raises: int, u: float, v: float) -> int:
    """The policy, shared by every env: uniform over the legal kinds of {fold, check/call,
    raise}, then (for a raise) the index ``int(v * num_raises)`` of a uniform legal size.

    Returns 0 (fold), 1 (check/call) or ``2 + index`` (the index-th legal raise id).
    """
    k = fold + call + (num_raises > 0)
    r = int(u * k)
    if fold:
        if r == 0:
            return 0
        r -= 1
    if call:
        if r == 0:
            return 1
    return 2 + int(v * num_raises)


def _choose_mask(mask: np.ndarray, u: float, v: float) -> int:
    """The policy on an action mask (ids 0 fold, 1 check/call, 2.. raise sizes)."""
    m = mask.tolist()
    raises = [i for i in range(2, len(m)) if m[i]]
    a = _pick(m[0] == 1, m[1] == 1, len(raises), u, v)
    return a if a < 2 else raises[a - 2]


def _choose_exact(legal: dict, u: float, v: float) -> int:
    """The same policy on nlhe_v0's ``info["legal"]`` in exact mode (raise ids are one
    contiguous range, ``min_raise_to + 1 .. max_raise_to + 1``): no scan of the mask."""
    lo = legal["min_raise_to"]
    n = 0 if lo is None else legal["max_raise_to"] - lo + 1
    a = _pick(legal["fold"], True, n, u, v)
    return a if a < 2 else lo + 1 + (a - 2)


def _play_aec(env, hands: int, rng: np.random.Generator, exact: bool = False) -> tuple[int, int]:
    """Play ``hands`` hands through ``agent_iter``/``last``/``step``; returns (hands, decisions)."""
    steps = 0
    uniforms = _Uniforms(rng)
    for _ in range(hands):
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            u, v = uniforms.pair()
            if exact:
                env.step(_choose_exact(info["legal"], u, v))
            else:
                env.step(_choose_mask(obs["action_mask"], u, v))
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
    exact = action_mode == "exact"
    return _Runner(f"nlhe_v0 {action_mode}", lambda k: _play_aec(env, k, rng, exact)[1])


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
    uniforms = _Uniforms(rng)

    def play(k: int) -> int:
        steps = 0
        for _ in range(k):
            state, _ = env.reset()
            while not env.is_over():
                legal = state["legal_actions"]  # ids: 0 fold, 1 check/call, 2.. raise sizes
                raises = [a for a in legal if a >= 2]
                u, v = uniforms.pair()
                a = _pick(0 in legal, 1 in legal, len(raises), u, v)
                state, _ = env.step(a if a < 2 else raises[a - 2])
                steps += 1
        return steps

    return _Runner("RLCard no-limit-holdem (direct)", play)


def engine_runner(num_players: int, seed: int) -> _Runner:
    """The engine alone (Table/HandState, same policy on LegalActions): the floor under the env."""
    from holdem_env.config import TableConfig
    from holdem_env.table import Table

    table = Table(TableConfig(num_players=num_players), seed=seed)
    uniforms = _Uniforms(np.random.default_rng(seed))

    def play(k: int) -> int:
        steps = 0
        for _ in range(k):
            state = table.start_hand()
            while not state.is_over:
                la = state.legal_actions()
                lo = la.min_raise_to
                u, v = uniforms.pair()
                a = _pick(la.fold, True, 0 if lo is None else la.max_raise_to - lo + 1, u, v)
                if a == 0:
                    state.fold()
                elif a == 1:
                    state.check() if la.check else state.call()
                else:
                    state.raise_to(lo + a - 2)
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

"""Hands per second through the public AEC API: nlhe_v1 vs PettingZoo's and RLCard's no-limit envs.

Random legal play for every env: uniform over {fold (only when facing a bet), check/call,
raise}, then a uniform legal size among the raise ids. nlhe_v1 and PettingZoo's
``texas_holdem_no_limit_v6`` are driven through ``agent_iter``/``last``/``step``; RLCard's
no-limit env is called directly (``reset``/``step``/``is_over``). Default table: 6 players,
100 big blinds (RLCard: ``chips_for_each=200`` with its 1/2 blinds; PettingZoo's wrapper
does not expose stacks and plays RLCard's default 100 chips = 50 big blinds).

The policy draws its uniforms in blocks and, for nlhe_v1's exact mode, reads
``info["legal"]`` (the legal raise ids are one contiguous range) instead of scanning the
1,000-entry mask; the discrete mode and PettingZoo read their masks, RLCard its legal ids.

Run: ``.venv/bin/python benchmarks/bench_env.py [--hands 2000] [--chunk 100] [--clock cpu]
[--players 6 2 10] [--breakdown] [--pure-python [MODULES]]``. ``holdem_env`` runs as it is built
(``make build`` compiles the hot modules with Cython; ``holdem_env.build_info()`` says which
are); ``--pure-python`` runs the same measurement with ``HOLDEM_ENV_PURE_PYTHON=1`` (the ``.py``
sources, no compiled module), the speed of an install without a C compiler;
``--pure-python holdem_env.env._core`` (comma-separated names) runs only those modules from
their sources, which measures what compiling each one gains (naming ``holdem_env.engine.state``
takes the env's module with it: the compiled env calls the compiled engine directly). The envs of a table size run in alternating chunks of
hands (shared machines: load hits them alike); prints ready-to-paste markdown rows (hands/s
and ratios) headed by the exact command. ``--breakdown`` adds where the time of a 6-max
exact hand goes (policy, observation, env and PettingZoo bookkeeping, engine), measured by
replaying one recorded action sequence with parts left out. Timings are not tests; keep
them out of ``tests/``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import subprocess
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np

from holdem_env import nlhe_v1
from holdem_env.env.loop import decisions


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
    """The same policy on nlhe_v1's ``info["legal"]`` in exact mode (raise ids are one
    contiguous range, ``min_raise_to + 1 .. max_raise_to + 1``): no scan of the mask."""
    lo = legal["min_raise_to"]
    n = legal["max_raise_to"] - lo + 1 if lo else 0  # 0: no raise allowed
    a = _pick(legal["fold"], True, n, u, v)
    return a if a < 2 else lo + 1 + (a - 2)


def _play_aec(env, hands: int, rng: np.random.Generator, exact: bool = False) -> tuple[int, int]:
    """Play ``hands`` hands through ``agent_iter``/``last``/``step``; returns (hands, decisions)."""
    steps = 0
    uniforms = _Uniforms(rng)
    for obs, info in decisions(env, hands):
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
    env = nlhe_v1.env(num_players=num_players, action_mode=action_mode)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    exact = action_mode == "exact"
    return _Runner(f"nlhe_v1 {action_mode}", lambda k: _play_aec(env, k, rng, exact)[1])


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
    from holdem_env.engine.config import TableConfig
    from holdem_env.engine.table import Table

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


def _record_actions(num_players: int, hands: int, seed: int) -> list[int]:
    """The action ids the policy picks over ``hands`` exact-mode hands from ``seed``."""
    env = nlhe_v1.env(num_players=num_players, action_mode="exact")
    env.reset(seed=seed)
    uniforms = _Uniforms(np.random.default_rng(seed))
    actions = []
    for _obs, info in decisions(env, hands):
        u, v = uniforms.pair()
        a = _choose_exact(info["legal"], u, v)
        actions.append(a)
        env.step(a)
    return actions


def _replay_env(num_players: int, hands: int, seed: int, actions: list[int], observe: bool) -> float:
    """Seconds to replay ``actions`` through the AEC API (no policy); ``observe=False`` skips observations."""
    env = nlhe_v1.env(num_players=num_players, action_mode="exact")
    env.reset(seed=seed)
    it = iter(actions)
    t = _clock()
    for _ in range(hands):
        env.reset()
        for _agent in env.agent_iter():
            _obs, _, term, trunc, _info = env.last(observe)
            env.step(None if term or trunc else next(it))
    return _clock() - t


def _replay_engine(num_players: int, hands: int, seed: int, actions: list[int]) -> float:
    """Seconds to replay ``actions`` on the engine alone (the same hands: the env's table and seed)."""
    from holdem_env.engine.config import TableConfig
    from holdem_env.engine.table import Table

    t = _clock()
    table = Table(TableConfig(num_players=num_players), rng=np.random.default_rng(seed))
    table.start_hand()  # the env's reset(seed=...) hand, abandoned by its first reset()
    it = iter(actions)
    for _ in range(hands):
        state = table.start_hand(abandon=True)
        while not state.is_over:
            la = state.legal_actions()  # the env asks for it at every decision too
            a = next(it)
            if a == 0:
                state.fold()
            elif a == 1:
                state.check() if la.check else state.call()
            else:
                state.raise_to(a - 1)
    return _clock() - t


def breakdown(num_players: int, hands: int, seed: int, rounds: int = 5) -> list[tuple[str, float]]:
    """Microseconds per hand of a 6-max exact hand, by part (best of ``rounds`` interleaved runs)."""
    actions = _record_actions(num_players, hands, seed)
    runner = nlhe_runner(num_players, "exact", seed)
    best = {"full": 1e9, "fixed": 1e9, "noobs": 1e9, "engine": 1e9}
    for _ in range(rounds):
        runner.hands = runner.steps = 0
        runner.seconds = 0.0
        runner.run(hands)
        best["full"] = min(best["full"], runner.seconds)
        best["fixed"] = min(best["fixed"], _replay_env(num_players, hands, seed, actions, True))
        best["noobs"] = min(best["noobs"], _replay_env(num_players, hands, seed, actions, False))
        best["engine"] = min(best["engine"], _replay_engine(num_players, hands, seed, actions))
    us = {k: v / hands * 1e6 for k, v in best.items()}
    return [
        ("benchmark policy (uniform draws, choice)", us["full"] - us["fixed"]),
        ("observation + action mask (`observe`)", us["fixed"] - us["noobs"]),
        ("env + PettingZoo bookkeeping (reset, infos, rewards, agent_iter, dead steps)", us["noobs"] - us["engine"]),
        ("engine (deal, legal actions, actions, showdown)", us["engine"]),
        ("total", us["full"]),
    ]


def _run_pure_python(argv: list[str], modules: str) -> int:
    """Re-run this script with ``HOLDEM_ENV_PURE_PYTHON=modules`` (``1``: every module from its ``.py``)."""
    env = {**os.environ, "HOLDEM_ENV_PURE_PYTHON": modules}
    print(f"HOLDEM_ENV_PURE_PYTHON={modules} (these modules run from their .py sources):", flush=True)
    return subprocess.run([sys.executable, __file__, *argv, "--pure-python-child"], env=env, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per env and table size")
    parser.add_argument("--chunk", type=int, default=100, help="hands per turn when alternating envs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--clock", choices=("cpu", "wall"), default="cpu",
        help="cpu: process CPU time (steady on a shared machine; every env is single-threaded); wall: perf_counter",
    )
    parser.add_argument("--players", type=int, nargs="+", default=[6, 2, 10], help="table sizes to run")
    parser.add_argument("--breakdown", action="store_true", help="also print where a 6-max exact hand's time goes")
    parser.add_argument(
        "--pure-python", nargs="?", const="1", default=None, metavar="MODULES",
        help="measure holdem_env's .py sources (all, or the comma-separated modules named)",
    )
    parser.add_argument(
        "--play-only", type=int, default=None, metavar="HANDS",
        help="only play HANDS nlhe_v1 exact hands (the first --players size, the policy above, no timing, no "
        "reference libraries) and exit: a fixed workload for instruction-count profilers such as "
        "`valgrind --tool=callgrind` (0 measures the start-up alone)",
    )
    parser.add_argument("--pure-python-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play_only is not None and args.play_only < 0:
        parser.error(f"--play-only must be a number of hands >= 0, not {args.play_only}")
    given = [a for a in (sys.argv[1:] if argv is None else argv) if a != "--pure-python-child"]
    if args.pure_python and not args.pure_python_child:
        return _run_pure_python(given, args.pure_python)
    if args.play_only is not None:
        env = nlhe_v1.env(num_players=args.players[0], action_mode="exact")
        env.reset(seed=args.seed)
        hands, steps = _play_aec(env, args.play_only, np.random.default_rng(args.seed), exact=True)
        print(f"played {hands} hands, {steps} decisions")
        return 0
    missing = [m for m in ("rlcard", "pygame") if importlib.util.find_spec(m) is None]
    if missing:  # the references compared against (PettingZoo's hold'em needs both)
        parser.error(f"the reference libraries {', '.join(missing)} are missing: `make bench` installs the bench "
                     "extra (or pip install -e '.[bench]')")
    warnings.filterwarnings("ignore")
    global _clock
    _clock = time.process_time if args.clock == "cpu" else time.perf_counter
    labels = {2: "heads-up"}
    tables = {}
    for n in args.players:
        tables[labels.get(n, f"{n} players")] = bench_table(n, args.hands, args.chunk, args.seed)

    command = " ".join([".venv/bin/python", "benchmarks/bench_env.py", *map(shlex.quote, given)])
    import holdem_env

    compiled = [m.rpartition(".")[2] for m in holdem_env.build_info()["compiled"]]  # type: ignore[union-attr]
    build = f"compiled: {', '.join(compiled)}" if compiled else "pure-Python holdem_env"
    print(f"Command: `{command}` ({args.clock} time, {args.hands} hands per env and table size, {build})")
    print()
    print("| table | env | hands/s | actions/hand |")
    print("|---|---|---:|---:|")
    for label, runners in tables.items():
        for r in runners:
            print(f"| {label} | {r.name} | {r.hands_per_second:,.0f} | {r.steps / r.hands:.1f} |")
    print()
    print("| table | exact / PettingZoo | exact / RLCard | discrete / PettingZoo | discrete / RLCard | discrete cost |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, (ex, di, pz, rl, _engine) in tables.items():
        e, d, p, r = (x.hands_per_second for x in (ex, di, pz, rl))
        cost = f"{100 * (e / d - 1):+.0f}% time/hand"
        print(f"| {label} | {e / p:.1f}x | {e / r:.1f}x | {d / p:.1f}x | {d / r:.1f}x | {cost} |")
    if args.breakdown:
        parts = breakdown(6, args.hands, args.seed)
        total = parts[-1][1]
        print()
        print("| 6-max exact, per hand | µs | share |")
        print("|---|---:|---:|")
        for name, us in parts:
            print(f"| {name} | {us:.1f} | {100 * us / total:.0f}% |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

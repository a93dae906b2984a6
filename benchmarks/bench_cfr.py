"""Benchmark the CFR core against OpenSpiel 2.0.2 on Kuhn and Leduc poker.

Prints markdown table rows: exploitability (NashConv/2, chips) at checkpoints and
iterations per second (time spent iterating only; exploitability evaluation excluded).
Compared: our vectorised full-tree CFR/CFR+ and external-sampling MCCFR (batched over a
compiled tree, and the callback version, also as the cfr-lite trainer runs it: linear
averaging of the strategy only, dealt once per iteration, states moved in place) vs
OpenSpiel's C++ solvers (``pyspiel``) and
its Python solvers (``open_spiel.python.algorithms``). The slow OpenSpiel Python CFR+
is run only for a few iterations on Leduc (``--openspiel-python-iters``).

    .venv/bin/python benchmarks/bench_cfr.py            # full run (a few minutes)
    .venv/bin/python benchmarks/bench_cfr.py --quick    # smaller budgets
    .venv/bin/python benchmarks/bench_cfr.py --games kuhn --no-openspiel \
        --cfr-lite-checkpoints 10000,100000,400000,1000000   # the cfr-lite path to 1e-3
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from holdem_env.training.cfr import (
    BatchedExternalSamplingMCCFR,
    CFRSolver,
    DealtInPlace,
    ExternalSamplingMCCFR,
    KuhnPoker,
    LeducPoker,
    TreeEvaluator,
    compile_game,
)

GAMES = {"kuhn": (KuhnPoker, "kuhn_poker"), "leduc": (LeducPoker, "leduc_poker")}
HEADER = "| game | algorithm | implementation | iterations | exploitability | P0 value | it/s | seconds |"
RULE = "|---|---|---|---:|---:|---:|---:|---:|"


def row(game: str, algo: str, impl: str, iters: int, expl: float, value: float, seconds: float) -> None:
    rate = iters / seconds if seconds > 0 else float("inf")
    cells = f"| {game} | {algo} | {impl} | {iters:,} | {expl:.3e} | {value:+.5f} | {rate:,.0f} | {seconds:.2f} |"
    print(cells, flush=True)


def curve(
    game: str,
    algo: str,
    impl: str,
    checkpoints: list[int],
    step: Callable[[int], None],
    measure: Callable[[], tuple[float, float]],
) -> None:
    """Run ``step(n)`` up to each checkpoint, timing only the steps, and print a row each."""
    done, spent = 0, 0.0
    for target in checkpoints:
        start = time.perf_counter()
        step(target - done)
        spent += time.perf_counter() - start
        done = target
        expl, value = measure()
        row(game, algo, impl, done, expl, value, spent)


def ours_full_tree(name: str, algo: str, checkpoints: list[int]) -> None:
    tree = compile_game(GAMES[name][0]())
    solver = CFRSolver(tree, algorithm=algo)
    measure = lambda: (solver.exploitability(), solver.game_value())  # noqa: E731
    curve(name, algo, "ours (numpy, full tree)", checkpoints, solver.run, measure)


def ours_mccfr(name: str, checkpoints: list[int], batch_size: int, seed: int, averaging: str = "linear") -> None:
    tree = compile_game(GAMES[name][0]())
    solver = BatchedExternalSamplingMCCFR(
        tree, rng=np.random.default_rng(seed), batch_size=batch_size, averaging=averaging
    )
    curve(
        name, f"ES-MCCFR {averaging}", f"ours (batched {batch_size})", checkpoints, solver.run,
        lambda: (solver.exploitability(), solver.game_value()),
    )


def ours_mccfr_callback(name: str, checkpoints: list[int], seed: int) -> None:
    tree = compile_game(GAMES[name][0]())
    evaluator = TreeEvaluator(tree)
    solver = ExternalSamplingMCCFR(GAMES[name][0](), rng=np.random.default_rng(seed))

    def measure() -> tuple[float, float]:
        policy = solver.average_policy_array(tree)
        return evaluator.exploitability(policy), float(evaluator.expected_values(policy)[0])

    curve(name, "ES-MCCFR linear", "ours (callbacks)", checkpoints, solver.run, measure)


def ours_cfr_lite_path(name: str, checkpoints: list[int], seed: int) -> None:
    """The callback solver exactly as :class:`CfrLiteTrainer` configures it, on ``name`` dealt in place."""
    from holdem_env.training.cfr_lite.trainer import AVERAGING

    tree = compile_game(GAMES[name][0]())
    evaluator = TreeEvaluator(tree)
    averaging = AVERAGING["linear"]
    game = DealtInPlace(GAMES[name][0]())
    solver = ExternalSamplingMCCFR(game, rng=np.random.default_rng(seed), averaging=averaging)

    def measure() -> tuple[float, float]:
        policy = solver.average_policy_array(tree)
        return evaluator.exploitability(policy), float(evaluator.expected_values(policy)[0])

    curve(name, f"ES-MCCFR {averaging}", "ours (cfr-lite trainer's path)", checkpoints, solver.run, measure)


def openspiel_rows(name: str, checkpoints: dict[str, list[int]], seed: int) -> None:
    import pyspiel
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms import cfr as os_cfr
    from open_spiel.python.algorithms import expected_game_score
    from open_spiel.python.algorithms import exploitability as os_expl
    from open_spiel.python.algorithms import external_sampling_mccfr as os_es

    game = pyspiel.load_game(GAMES[name][1])

    def value_of(pol) -> float:
        return float(expected_game_score.policy_value(game.new_initial_state(), [pol, pol])[0])

    def cpp(solver_cls, algo: str, marks: list[int]) -> None:
        solver = solver_cls(game)

        def step(n: int) -> None:
            for _ in range(n):
                solver.evaluate_and_update_policy()

        def measure() -> tuple[float, float]:
            pol = solver.average_policy()
            value = float(pyspiel.expected_returns(game.new_initial_state(), pol, -1, True)[0])
            return pyspiel.exploitability(game, pol), value

        curve(name, algo, "OpenSpiel C++", marks, step, measure)

    cpp(pyspiel.CFRPlusSolver, "cfr+", checkpoints["cfr+"])
    cpp(pyspiel.CFRSolver, "cfr", checkpoints["cfr"])

    def py_curve(algo: str, solver: Any, iterate: Callable[[], None], points: list[int]) -> None:
        """The curve of an OpenSpiel Python solver: ``iterate`` runs one iteration of ``solver``."""

        def py_step(n: int) -> None:
            for _ in range(n):
                iterate()

        def py_measure() -> tuple[float, float]:
            pol = solver.average_policy()
            return os_expl.exploitability(game, pol), value_of(pol)

        curve(name, algo, "OpenSpiel Python", points, py_step, py_measure)

    py_solver = os_cfr.CFRPlusSolver(game)
    py_curve("cfr+", py_solver, py_solver.evaluate_and_update_policy, checkpoints["cfr+ python"])

    es_py = os_es.ExternalSamplingSolver(game, average_type=os_es.AverageType.SIMPLE)
    np.random.seed(seed)  # OpenSpiel's Python MCCFR samples from numpy's global generator
    py_curve("ES-MCCFR simple", es_py, es_py.iteration, checkpoints["mccfr python"])

    es_cpp = pyspiel.ExternalSamplingMCCFRSolver(game, seed, pyspiel.MCCFRAverageType.SIMPLE)

    def es_cpp_step(n: int) -> None:
        for _ in range(n):
            es_cpp.run_iteration()

    def es_cpp_measure() -> tuple[float, float]:
        pol = es_cpp.average_policy()
        try:
            value = float(pyspiel.expected_returns(game.new_initial_state(), pol, -1, False)[0])
        except pyspiel.SpielError:  # some C++ policies cannot be evaluated this way
            value = float("nan")
        return pyspiel.exploitability(game, pol), value

    curve(name, "ES-MCCFR simple", "OpenSpiel C++", checkpoints["mccfr"], es_cpp_step, es_cpp_measure)

    # Rules cross-check: the uniform policy must give identical numbers in both implementations.
    tree = compile_game(GAMES[name][0]())
    ev = TreeEvaluator(tree)
    uniform = tree.uniform_policy()
    os_uniform = os_policy.UniformRandomPolicy(game)
    print(
        f"<!-- {name} uniform policy: exploitability ours {ev.exploitability(uniform):.12f} "
        f"OpenSpiel {os_expl.exploitability(game, os_uniform):.12f}; P0 value ours "
        f"{ev.expected_values(uniform)[0]:+.12f} OpenSpiel {value_of(os_uniform):+.12f} -->",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller iteration budgets")
    parser.add_argument("--games", default="kuhn,leduc", help="comma-separated: kuhn, leduc")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--openspiel-python-iters", type=int, default=None,
                        help="iterations of OpenSpiel's slow Python CFR+ on Leduc (default 100; quick 20)")
    parser.add_argument("--no-openspiel", action="store_true", help="only our solvers")
    parser.add_argument("--cfr-lite-checkpoints", default=None,
                        help="comma-separated iterations of the cfr-lite trainer's path (default: the MCCFR ones)")
    args = parser.parse_args()
    q = args.quick
    print(HEADER)
    print(RULE)
    for name in args.games.split(","):
        if name not in GAMES:
            parser.error(f"unknown game {name!r}: choose from {', '.join(GAMES)}")
        full = [10, 100, 1000] if not q else [10, 100]
        mc = [1_000, 10_000, 100_000] if not q else [1_000, 10_000]
        ours_full_tree(name, "cfr+", full)
        ours_full_tree(name, "cfr", full)
        for batch in (1, 16, 64, 256):
            marks = mc if batch > 1 else mc[:2]
            ours_mccfr(name, marks, batch, args.seed)
        ours_mccfr(name, mc, 64, args.seed, "uniform")
        ours_mccfr(name, mc, 64, args.seed, "discounted")
        ours_mccfr_callback(name, mc[:2], args.seed)
        if args.cfr_lite_checkpoints:
            lite_marks = [int(n) for n in args.cfr_lite_checkpoints.split(",")]
        else:
            lite_marks = mc if name == "kuhn" else mc[:2]
        ours_cfr_lite_path(name, lite_marks, args.seed)
        if args.no_openspiel:
            continue
        py_iters = args.openspiel_python_iters or (20 if q else 100)
        if name == "kuhn":
            py_marks = full
        else:
            py_marks = sorted({min(10, py_iters), py_iters})
        checkpoints = {
            "cfr+": full,
            "cfr": full,
            "cfr+ python": py_marks,
            "mccfr python": mc[:2] if name == "kuhn" or not q else mc[:1],
            "mccfr": mc,
        }
        openspiel_rows(name, checkpoints, args.seed)


if __name__ == "__main__":
    main()

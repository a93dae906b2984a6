"""Time per subgame solve (river, turn and flop, full 1,326 x 1,326 ranges) and the exploitability it reaches.

Usage::

    .venv/bin/python benchmarks/bench_subgame.py [--boards 5] [--seed 1]
    .venv/bin/python benchmarks/bench_subgame.py --only flop --boards 3     # flop subgames (not played by the bot)
    .venv/bin/python benchmarks/bench_subgame.py --baseline OLD/_subgame.cpython-311-x86_64-linux-gnu.so

``--baseline`` loads another build of the solver core (e.g. the compiled core of an older commit) and
solves every board with it and with this one, one after the other in this process: the CPU-time ratio,
and whether the two give the same average strategy bit for bit.

For each configuration (bet sizes, raises per round, iterations) and each of ``--boards`` random boards
(seeded), builds the :class:`~holdem_env.agents.cfr_search.resolve.Subgame` with uniform ranges
(every holding the board leaves: no range weight is zero, so nothing is skipped: the worst case for
the solver's work), runs the iterations in this one process (one core), and prints the CPU time of
the setup and of the solve (``time.process_time``), the wall time, and the exploitability of the
average strategy (exact best responses) in percent of the pot. Heads-up, 1,000 chips each in the pot,
19,000 behind (200 big blinds at 50/100, the pot of a raised and called flop and turn). Prints a
markdown table for benchmarks/BENCHMARKS.md and the machine's load average. A flop subgame's
iterations walk a sample of turn and river cards (``(turns x rivers)``); with no sizes a later round is
checked down.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator

import numpy as np

from holdem_env.agents.cfr_search import resolve
from holdem_env.agents.cfr_search.resolve import Subgame
from holdem_env.agents.cfr_search.tree import SubgameSpec
from holdem_env.engine.ranges import uniform_range

TURN_SMALL = {"sizes": (1.0, "allin"), "max_raises": 1, "river_sizes": (1.0,), "river_max_raises": 1}
TURN_LARGE = {"sizes": (0.5, 1.0, "allin"), "max_raises": 1, "river_sizes": (0.5, 1.0), "river_max_raises": 1}
# cfr-search's turn trees: its default, and 0.5 and 1 pot, all-in with two raises (issue 26, h-solve)
TURN_TWO_RAISES = {"sizes": (0.5, 1.0, "allin"), "max_raises": 2, "river_sizes": (1.0,), "river_max_raises": 1}
# flop subgames: the turn betting of cfr-search's turn tree with the river checked down, and the turn and
# the river both checked down (the smallest depth-limited flop games; issue 26, the flop probe)
FLOP_RIVER_CHECKED = {"sizes": (0.5, 1.0, "allin"), "max_raises": 2, "turn_sizes": (1.0, "allin"), "turn_max_raises": 2, "river_sizes": ()}
FLOP_CHECKED_DOWN = {"sizes": (0.5, 1.0, "allin"), "max_raises": 2, "turn_sizes": (), "river_sizes": ()}
# (street, tree options, iterations, river cards walked per iteration: 48 = all, fewer = sampled; on
# the flop (turn cards, river cards) walked per iteration)
CONFIGS = [
    ("river", {"sizes": (0.5, 1.0, "allin"), "max_raises": 2}, 100, 48),
    ("river", {"sizes": (0.5, 1.0, "allin"), "max_raises": 2}, 250, 48),
    ("river", {"sizes": (0.33, 0.75, 1.5, "allin"), "max_raises": 3}, 100, 48),
    ("turn", TURN_SMALL, 20, 48),
    ("turn", TURN_SMALL, 50, 48),
    ("turn", TURN_SMALL, 80, 12),
    ("turn", TURN_LARGE, 50, 48),
    ("turn", TURN_SMALL, 40, 12),
    ("turn", TURN_TWO_RAISES, 40, 12),
    ("flop", FLOP_RIVER_CHECKED, 20, (8, 8)),
    ("flop", FLOP_RIVER_CHECKED, 60, (8, 8)),
    ("flop", FLOP_CHECKED_DOWN, 60, (8, 8)),
    ("flop", FLOP_CHECKED_DOWN, 200, (8, 8)),
]


def load_core(path: str) -> type:
    """``SubgameCore`` from another build of the solver core: a compiled ``_subgame*.so`` or a ``.py`` source."""
    import importlib.machinery
    import importlib.util

    loader: importlib.machinery.SourceFileLoader | importlib.machinery.ExtensionFileLoader
    if path.endswith(".py"):
        loader = importlib.machinery.SourceFileLoader("_subgame_baseline", path)
    else:  # an extension module's init function is named after its file: load it as `_subgame`
        loader = importlib.machinery.ExtensionFileLoader("_subgame", path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module.SubgameCore  # type: ignore[no-any-return]


def run_one(
    core: type, spec: SubgameSpec, ranges: np.ndarray, options: dict, iterations: int, rivers: int | tuple[int, int], seed: int
) -> dict:
    """Set up and solve one subgame with the solver core ``core``: CPU and wall times, exploitability, strategy."""
    resolve.SubgameCore = core  # type: ignore[misc]
    c0 = time.process_time()
    sub = Subgame(spec, ranges, **options)
    c1, w1 = time.process_time(), time.perf_counter()
    if isinstance(rivers, tuple):  # a flop subgame: (turns, rivers)
        sub.solve(iterations, turns=rivers[0], rivers=rivers[1], rng=np.random.default_rng(seed))
    else:
        sub.solve(iterations, rivers=rivers, rng=np.random.default_rng(seed))
    c2, w2 = time.process_time(), time.perf_counter()
    return {
        "setup": c1 - c0,
        "cpu": c2 - c1,
        "wall": w2 - w1,
        "nodes": len(sub.tree),
        "expl": 100 * sub.exploitability() / 2000,
        "avg": np.array(sub.core.avg),
    }


def workloads(args: argparse.Namespace) -> Iterator[tuple[str, dict, int, int, list, str, str]]:
    """Each configuration (filtered by ``--only``) with its ``--boards`` seeded boards and uniform ranges."""
    rng = np.random.default_rng(args.seed)
    for street, options, iterations, rivers in CONFIGS:
        if (args.only and street != args.only) or (not args.only and street == "flop"):
            continue  # flop subgames only when asked: minutes, and not what the bot plays
        boards = []
        for _ in range(args.boards):
            board = tuple(int(c) for c in rng.choice(52, {"river": 5, "turn": 4, "flop": 3}[street], replace=False))
            spec = SubgameSpec(board=board, contrib=(1000, 1000), stacks=(19000, 19000))
            boards.append((spec, np.vstack([uniform_range(board), uniform_range(board)])))
        shape = f"{options['sizes']} x{options['max_raises']}"
        if street == "turn":
            shape += f"; river {options['river_sizes']} x{options['river_max_raises']}"
        if street == "flop":
            shape += f"; turn {options['turn_sizes'] or 'checked down'}; river {options['river_sizes'] or 'checked down'}"
        its = f"{iterations}" if street == "river" else f"{iterations} ({rivers})" if street == "turn" else f"{iterations} ({rivers[0]} x {rivers[1]})"
        yield street, options, iterations, rivers, boards, shape, its


def compare(args: argparse.Namespace) -> None:
    """Each configuration and board solved by the baseline core and by this one, one after the other."""
    base, current = load_core(args.baseline), resolve.SubgameCore
    print(f"baseline: {args.baseline}")
    print(
        "| street | sizes (pot fractions) x raises | nodes | iterations (rivers each) | solve CPU s, baseline (mean) "
        "| solve CPU s, now (mean / max) | speed-up (mean of ratios) | exploitability, % of pot (mean) | same strategy |"
    )
    print("|---|---|---:|---|---:|---:|---:|---:|---|")
    for street, options, iterations, rivers, boards, shape, its in workloads(args):
        old_cpu, new_cpu, ratios, expl, same = [], [], [], [], True
        nodes = 0
        for spec, ranges in boards:
            a = run_one(base, spec, ranges, options, iterations, rivers, args.seed)
            b = run_one(current, spec, ranges, options, iterations, rivers, args.seed)
            same = same and bool(np.array_equal(a["avg"], b["avg"])) and a["expl"] == b["expl"]
            old_cpu.append(a["cpu"])
            new_cpu.append(b["cpu"])
            ratios.append(a["cpu"] / b["cpu"])
            expl.append(b["expl"])
            nodes = b["nodes"]
        print(
            f"| {street} | {shape} | {nodes} | {its} | {np.mean(old_cpu):.2f} | {np.mean(new_cpu):.2f} / "
            f"{np.max(new_cpu):.2f} | {np.mean(ratios):.2f}x | {np.mean(expl):.2f} | {'yes' if same else 'NO'} |",
            flush=True,
        )
    resolve.SubgameCore = current  # type: ignore[misc]
    print(f"\nload average: {os.getloadavg()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="run only the configurations of this street (river, turn or flop)")
    ap.add_argument(
        "--baseline", default="",
        help="another build of the solver core (a _subgame*.so or .py): solve every board with both, report the ratio",
    )  # fmt: skip
    args = ap.parse_args()
    if args.baseline:
        compare(args)
        return
    print(
        "| street | sizes (pot fractions) x raises | nodes | iterations (rivers each) | setup CPU s | solve CPU s (mean / max) "
        "| wall s (max) | exploitability, % of pot (mean / max) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    current = resolve.SubgameCore
    for street, options, iterations, rivers, boards, shape, its in workloads(args):
        runs = [run_one(current, spec, ranges, options, iterations, rivers, args.seed) for spec, ranges in boards]
        cpu, expl = [r["cpu"] for r in runs], [r["expl"] for r in runs]
        print(
            f"| {street} | {shape} | {runs[-1]['nodes']} | {its} | {np.mean([r['setup'] for r in runs]):.3f} | "
            f"{np.mean(cpu):.2f} / {np.max(cpu):.2f} | {np.max([r['wall'] for r in runs]):.2f} | "
            f"{np.mean(expl):.2f} / {np.max(expl):.2f} |",
            flush=True,
        )
    print(f"\nload average: {os.getloadavg()}")


if __name__ == "__main__":
    main()

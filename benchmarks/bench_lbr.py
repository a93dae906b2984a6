"""LBR benchmark: how exploitable the shipped agents are, and how fast LBR runs; AIVAT-style narrowing.

    .venv/bin/python benchmarks/bench_lbr.py                                  # random, tag, cfr-lite
    .venv/bin/python benchmarks/bench_lbr.py --agents cfr-lite --hands 20000 --workers 2
    .venv/bin/python benchmarks/bench_lbr.py --only lbr --small-blind 5 --big-blind 10 --stack 1000
    .venv/bin/python benchmarks/bench_lbr.py --only aivat --hands 2000 --workers 2
    .venv/bin/python benchmarks/bench_lbr.py --only tables                    # range tables, new vs old

LBR settings are the paper's (fcpa, LBR checks/calls before the turn, blinds 50/100,
20,000-chip stacks) unless told otherwise. ``--only aivat`` plays ``holdem eval cfr-lite
tag`` (5/10, 1,000 chips) and reports the plain and luck-adjusted intervals (the estimate
``--aivat`` prints, the public estimate alone, the private range-showdown mix, the
previous chance-and-action one, and the range showdown variants (a)-(d)) and the CPU time per hand of the match and of the adjustment. ``--only tables`` times the per-board range
tables (ppo's equity feature, tag's heads-up table, LBR's exact equity) against the first
implementations, kept as references in ``tests/test_equity_tables.py``, in CPU milliseconds
per board. Prints one JSON object (and the text reports on stderr).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


# A timed range-table case: hole cards, board, flop run-outs (an (m, 2) array or None).
_Case = tuple[tuple[int, ...], tuple[int, ...], Any]


def _cpu_seconds() -> float:
    """User + system CPU seconds of this process and its terminated children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def bench_lbr(
    agents: list[str], hands: int, workers: int, seed: int, actions: str, check_until: str, blinds: tuple[int, int, int]
) -> list[dict]:
    """One LBR match per agent: the figure, its interval and the speed (blinds: small, big, stack)."""
    from holdem_env.training.lbr import LbrConfig, format_result, run_lbr

    out = []
    for spec in agents:
        small_blind, big_blind, stack = blinds
        cfg = LbrConfig(
            agent=spec, hands=hands, seed=seed, workers=workers, actions=actions, check_until=check_until,
            small_blind=small_blind, big_blind=big_blind, stack=stack,
        )
        cpu0 = _cpu_seconds()
        result = run_lbr(cfg)
        cpu = _cpu_seconds() - cpu0
        print(format_result(result), file=sys.stderr)
        out.append(
            {
                "agent": spec,
                "blinds": f"{blinds[0]}/{blinds[1]}, stacks {blinds[2]}",
                "lbr_mbb_per_hand": round(result.mbb_per_hand, 1),
                "ci95": round(result.ci95, 1),
                "hands": result.hands,
                "workers": workers,
                "seconds": round(result.seconds, 1),
                "hands_per_second": round(result.hands_per_second, 2),
                # CPU time of this process and its finished workers: on a shared machine the
                # wall time depends on the load, the CPU time much less.
                "cpu_seconds": round(cpu, 1),
                "hands_per_cpu_second": round(result.hands / cpu, 2) if cpu > 0 else None,
                "by_position": {k: round(v, 1) for k, v in result.by_position.items()},
            }
        )
    return out


def bench_aivat(hands: int, workers: int, seed: int) -> dict:
    """``holdem eval cfr-lite tag`` plain and luck-adjusted, with the CPU time of each part:
    the estimate ``holdem eval --aivat`` prints, the public estimate alone (``public_weight``
    1), the private one (the range showdown mixed with the chance and action terms, the
    default before the public terms), the one before that (chance and action terms), and
    the four ways of using the range showdown outright (weight 1): (a) with the chance and
    action terms, (b) with the action terms, (c) with the chance terms, (d) alone."""
    from holdem_env.training.aivat import format_luck_adjusted, luck_adjusted, luck_terms
    from holdem_env.training.arena import ArenaConfig, run_match
    from holdem_env.training.stats import mean_ci95

    t0, cpu0 = time.perf_counter(), _cpu_seconds()
    cfg = ArenaConfig(agents=("cfr-lite", "tag"), players=2, hands=hands, seed=seed, workers=workers)
    result = run_match(cfg, keep_records=True)
    played, played_cpu = time.perf_counter() - t0, _cpu_seconds() - cpu0
    terms_done, terms_cpu = time.perf_counter(), _cpu_seconds()
    terms = luck_terms(result)  # every part, once: each estimate below combines them
    aivat_seconds, aivat_cpu = time.perf_counter() - terms_done, _cpu_seconds() - terms_cpu
    adjusted = luck_adjusted(result, terms=terms)  # what `holdem eval --aivat` computes
    previous = luck_adjusted(result, terms=terms, showdown=False)
    private = luck_adjusted(result, terms=terms, public=False)  # the estimate before the public terms
    public = luck_adjusted(result, terms=terms, public_weight=1.0)  # the public estimate alone
    # the range showdown u_bar outright, less: (a) chance and action terms, (b) action terms,
    # (c) chance terms, (d) nothing; contestant 0 (cfr-lite) per group, as the arena samples
    u_bar, chance, action = (terms[k][:, 0] for k in ("showdown", "chance", "action"))
    plain_half = mean_ci95(terms["payoffs"][:, 0].tolist())[1]
    variants = {
        "a_showdown_chance_action": u_bar - chance - action,
        "b_showdown_action": u_bar - action,
        "c_showdown_chance": u_bar - chance,
        "d_showdown_alone": u_bar,
    }
    print(format_luck_adjusted(previous), file=sys.stderr)
    print(format_luck_adjusted(adjusted), file=sys.stderr)
    row = adjusted["rows"][0]
    n = int(result.group_net.shape[0] * 2)
    return {
        "match": "cfr-lite vs tag",
        "hands": n,
        "seed": seed,
        "plain_mbb_per_hand": round(row["mbb_per_hand"], 1),
        "plain_ci95": round(row["ci95"], 1),
        "adjusted_mbb_per_hand": round(row["adjusted_mbb_per_hand"], 1),
        "adjusted_ci95": round(row["adjusted_ci95"], 1),
        "ci_ratio": round(adjusted["ci_ratio"], 3),
        "variance_reduction": round(adjusted["variance_reduction"], 3),
        "previous_chance_action_ci_ratio": round(previous["ci_ratio"], 3),
        "private_range_mix_ci_ratio": round(private["ci_ratio"], 3),
        "public_alone_ci_ratio": round(public["ci_ratio"], 3),
        **{f"{name}_ci_ratio": round(plain_half / mean_ci95(v.tolist())[1], 3) for name, v in variants.items()},
        "match_seconds": round(played, 1),
        "aivat_seconds": round(aivat_seconds, 1),
        # CPU time (this process and its finished workers): the wall time depends on the load.
        "match_cpu_ms_per_hand": round(1000 * played_cpu / n, 1),
        "aivat_cpu_ms_per_hand": round(1000 * aivat_cpu / n, 1),
        "aivat_cpu_over_match_cpu": round(aivat_cpu / played_cpu, 2) if played_cpu > 0 else None,
        "loadavg": _loadavg(),
    }


def _loadavg() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def bench_tables(boards_per_size: int = 8, seed: int = 0) -> dict:
    """CPU ms per board of each range table, now and with the reference (first) implementation.

    Every call is timed on a fresh board (the tables are cached per board) and the two
    implementations' answers are checked equal bit for bit.
    """
    import importlib.util

    import numpy as np

    from holdem_env.agents import features
    from holdem_env.engine import ranges

    spec = importlib.util.spec_from_file_location(
        "_ref", Path(__file__).resolve().parent.parent / "tests" / "test_equity_tables.py"
    )
    assert spec is not None and spec.loader is not None
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    rng = np.random.default_rng(seed)

    def old_tag_table(board: tuple[int, ...], tails: np.ndarray | None) -> np.ndarray:
        fast = ranges.values_on_boards
        ranges.values_on_boards = ref._reference_values_on_boards  # the first version, inside the same code
        try:
            return ranges.equity_against_random(board, tails)
        finally:
            ranges.values_on_boards = fast

    def timed(fn: Callable[[_Case], Any], case: _Case) -> tuple[float, Any]:
        t0 = time.process_time()
        answer = fn(case)
        return time.process_time() - t0, answer

    rows = []
    for m in (0, 3, 4, 5):
        cases: list[_Case] = []
        for _ in range(boards_per_size):
            cards = tuple(int(c) for c in rng.permutation(52)[: m + 2])
            hole, board = cards[:2], tuple(sorted(cards[2:]))
            tails = None
            if m == 3:
                tails = ranges.flop_runouts(board)[np.sort(rng.choice(1176, 64, replace=False))]
            cases.append((hole, board, tails))
        kinds: list[tuple[str, Callable[[_Case], Any], Callable[[_Case], Any]]] = [
            ("ppo equity_table", lambda c: features._equity_table(c[1]), lambda c: ref._reference_equity_table(c[1]))
        ]
        if m in (3, 4):  # a river table is strength_against_random, unchanged (and cached per board)
            kinds.append(
                (
                    "tag equity_against_random" + (" (64 run-outs)" if m == 3 else ""),
                    lambda c: ranges.equity_against_random(c[1], c[2]),
                    lambda c: old_tag_table(c[1], c[2]),
                )
            )
        if m >= 4:  # LBR computes from the turn on by default
            kinds.append(
                (
                    "LBR equity_against_each",
                    lambda c: ranges.equity_against_each(c[0], c[1]),
                    lambda c: ref._reference_equity_against_each(c[0], c[1]),
                )
            )
        for name, new, old in kinds:
            t_new = t_old = 0.0
            for case in cases:
                dn, a = timed(new, case)
                do, b = timed(old, case)
                if not np.array_equal(a, b, equal_nan=True):
                    raise AssertionError(f"{name} differs from its reference on board {case[1]}")
                t_new, t_old = t_new + dn, t_old + do
            rows.append(
                {
                    "table": name,
                    "street": {0: "preflop", 3: "flop", 4: "turn", 5: "river"}[m],
                    "boards": len(cases),
                    "ms_now": round(1000 * t_new / len(cases), 2),
                    "ms_before": round(1000 * t_old / len(cases), 2),
                    "speedup": round(t_old / t_new, 2) if t_new > 0 else None,
                }
            )
            print(f"{rows[-1]}", file=sys.stderr)
    return {"tables": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["lbr", "aivat", "tables"], default=None)
    parser.add_argument("--agents", nargs="+", default=["random", "tag", "cfr-lite"])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--actions", default="fcpa")
    parser.add_argument("--check-until", default="turn")
    parser.add_argument("--small-blind", type=int, default=50)
    parser.add_argument("--big-blind", type=int, default=100)
    parser.add_argument("--stack", type=int, default=20000)
    args = parser.parse_args()
    out: dict[str, object] = {}
    if args.only in (None, "lbr"):
        blinds = (args.small_blind, args.big_blind, args.stack)
        out["lbr"] = bench_lbr(args.agents, args.hands, args.workers, args.seed, args.actions, args.check_until, blinds)
    if args.only in (None, "aivat"):
        out["aivat"] = bench_aivat(args.hands, args.workers, args.seed)
    if args.only == "tables":
        out["tables"] = bench_tables(seed=args.seed)["tables"]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

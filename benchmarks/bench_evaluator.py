"""Benchmark holdem_env.engine.evaluator against eval7 and phevaluator; prints markdown table rows.

Run: ``.venv/bin/python benchmarks/bench_evaluator.py [--hands 1000000] [--calls 200000] [--skip-enumeration]``

Rows report wall time and process CPU time (the CPU column is the fairer one on a shared
machine); ratios are computed from CPU time. The full enumeration walks all
133,784,560 seven-card hands through ``evaluate_batch`` (validated) in chunks.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np

from holdem_env.engine.cards import card_str
from holdem_env.engine.evaluator import NUM_HAND_VALUES, evaluate_batch, hand_strength, iter_seven_card_hands

COMMAND = "python " + " ".join(sys.argv)


def timed(fn: Callable[[], object], repeat: int = 3) -> tuple[float, float]:
    """Best (wall, cpu) seconds over ``repeat`` runs."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best_wall, best_cpu


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``n`` random ``k``-card hands (distinct cards per row) as uint8 ids."""
    out = np.empty((n, k), dtype=np.uint8)
    step = 200_000
    for s in range(0, n, step):
        m = min(step, n - s)
        out[s : s + m] = np.argsort(rng.random((m, 52)), axis=1)[:, :k]
    return out


def row(name: str, per_item_wall: float, per_item_cpu: float, unit: str, note: str = "") -> None:
    print(f"| {name} | {per_item_wall * 1e9:,.1f} | {per_item_cpu * 1e9:,.1f} | ns/{unit} | {note} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--skip-enumeration", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(20260101)
    hands = random_hands(rng, args.hands, 7)

    print(f"command: `{COMMAND}`  numpy {np.__version__}\n")
    print("| what | wall | cpu | unit | ratio (cpu) |")
    print("|---|---:|---:|---|---|")

    # --- batch vs eval7 per hand
    w_b, c_b = timed(lambda: evaluate_batch(hands))
    w_bn, c_bn = timed(lambda: evaluate_batch(hands, validate=False))
    n = len(hands)
    try:
        import eval7

        deck = [eval7.Card(card_str(c)) for c in range(52)]
        prebuilt = [[deck[c] for c in h] for h in hands.tolist()]
        ev7 = eval7.evaluate
        w_e, c_e = timed(lambda: [ev7(h) for h in prebuilt], repeat=1)
    except ImportError:
        w_e = c_e = float("nan")
    row(f"evaluate_batch, {n:,} random 7-card hands (validated)", w_b / n, c_b / n, "hand",
        f"{c_e / c_b:.1f}x eval7")
    row("evaluate_batch, same, validate=False", w_bn / n, c_bn / n, "hand", f"{c_e / c_bn:.1f}x eval7")
    row("eval7.evaluate per hand (Card lists pre-built)", w_e / n, c_e / n, "hand", "1.0x")

    # --- scalar vs phevaluator per call
    calls = hands[: args.calls].tolist()
    w_s, c_s = timed(lambda: [hand_strength(h) for h in calls])
    try:
        from phevaluator import evaluate_cards

        w_p, c_p = timed(lambda: [evaluate_cards(*h) for h in calls])
    except ImportError:
        w_p = c_p = float("nan")
    m = len(calls)
    row("hand_strength per call (7 ids, Python list)", w_s / m, c_s / m, "call", f"{c_p / c_s:.2f}x phevaluator")
    row("phevaluator.evaluate_cards(*ids) per call", w_p / m, c_p / m, "call", "1.0x")

    # --- the full 7-card enumeration
    if not args.skip_enumeration:
        per_value = np.zeros(NUM_HAND_VALUES + 1, dtype=np.int64)
        w0, c0 = time.perf_counter(), time.process_time()
        total = 0
        for block in iter_seven_card_hands():
            per_value += np.bincount(evaluate_batch(block), minlength=NUM_HAND_VALUES + 1)
            total += len(block)
        w_x, c_x = time.perf_counter() - w0, time.process_time() - c0
        print(f"| all {total:,} 7-card hands (build chunks + evaluate_batch + bincount) "
              f"| {w_x:.1f} s | {c_x:.1f} s | total | {int((per_value > 0).sum())} distinct values |")


if __name__ == "__main__":
    main()

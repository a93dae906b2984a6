"""Equity speed: ``holdem_env.engine.equity`` against eval7's and PokerKit's Monte Carlo equity.

Usage::

    .venv/bin/python benchmarks/bench_equity.py [--samples 200000] [--pokerkit-samples 2000] [--repeat 3]

Prints a markdown table: samples/s for each library on each spot (hero vs one random
hand), the ratios, and the estimates (they must agree within Monte Carlo error). eval7
(compiled Cython) and PokerKit (pure Python) are dev dependencies only. Also prints the
latency of the small call the ``tag`` agent makes (300 samples).
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from holdem_env.engine.equity import equity

SPOTS = [
    ("AsKs vs random, preflop", "AsKs", ""),
    ("7h8h vs random, flop 9h Tc 2d", "7h8h", "9hTc2d"),
    ("QdQc vs random, turn Js 4h 4c 9d", "QdQc", "Js4h4c9d"),
]


def _eval7_equity(hole: str, board: str, samples: int) -> float:
    import eval7

    hero = [eval7.Card(hole[i : i + 2]) for i in range(0, len(hole), 2)]
    board_cards = [eval7.Card(board[i : i + 2]) for i in range(0, len(board), 2)]
    known = {str(c) for c in hero + board_cards}
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    villain = [((a, b), 1.0) for a, b in itertools.combinations(deck, 2) if str(a) not in known and str(b) not in known]
    return eval7.py_hand_vs_range_monte_carlo(hero, villain, board_cards, samples)


def _pokerkit_equity(hole: str, board: str, samples: int) -> float:
    from pokerkit import Card, Deck, StandardHighHand, calculate_equities, parse_range

    any_two = {frozenset(pair) for pair in itertools.combinations(Deck.STANDARD, 2)}
    board_cards = tuple(Card.parse(board)) if board else ()
    return calculate_equities(
        (parse_range(hole), any_two), board_cards, 2, 5, Deck.STANDARD, (StandardHighHand,), sample_count=samples
    )[0]


def _best_time(fn, repeat: int) -> tuple[float, float]:
    best, value = float("inf"), 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t0)
    return best, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200_000)
    parser.add_argument("--pokerkit-samples", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.samples
    print(
        "| spot | holdem_env samples/s | eval7 samples/s | PokerKit samples/s | vs eval7 | vs PokerKit "
        "| holdem_env eq | eval7 eq | PokerKit eq |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, hole, board in SPOTS:
        rng = np.random.default_rng(0)
        ours_t, ours = _best_time(lambda hole=hole, board=board, rng=rng: equity(hole, board, samples=n, rng=rng), args.repeat)
        ref_t, ref = _best_time(lambda hole=hole, board=board: _eval7_equity(hole, board, n), args.repeat)
        m = args.pokerkit_samples
        pk_t, pk = _best_time(lambda hole=hole, board=board, m=m: _pokerkit_equity(hole, board, m), 1)
        ours_rate, ref_rate, pk_rate = n / ours_t, n / ref_t, m / pk_t
        print(
            f"| {name} | {ours_rate:,.0f} | {ref_rate:,.0f} | {pk_rate:,.0f} | {ours_rate / ref_rate:.2f}x "
            f"| {ours_rate / pk_rate:,.0f}x | {ours:.4f} | {ref:.4f} | {pk:.4f} |",
            flush=True,
        )
    rng = np.random.default_rng(1)
    calls = 200
    t0 = time.perf_counter()
    for _ in range(calls):
        equity("Th9h", "8h7c2d", opponents=2, samples=300, rng=rng)
    per_call = (time.perf_counter() - t0) / calls
    print(f"\ntag-sized call (300 samples, 2 opponents, flop): {per_call * 1e3:.2f} ms per call")


if __name__ == "__main__":
    main()

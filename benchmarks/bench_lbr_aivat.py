"""LBR with and without AIVAT (``holdem_env.training.aivat.lbr``) on the same deals: the interval each gives and its CPU cost.

Usage::

    .venv/bin/python benchmarks/bench_lbr_aivat.py ppo --hands 600 --seed 11 [--blinds 5 10 --stack 1000]

Plays the same duplicate deals three times in this process (one worker): plain LBR, AIVAT from
the flop, AIVAT from the turn; prints a markdown table with each estimate, its 95% half-width,
the CPU seconds, and the hands plain LBR would need for the same half-width
(``hands * (plain / aivat) ** 2``), so that the saving can be weighed against the cost.
"""

from __future__ import annotations

import argparse
import time

from holdem_env.training.lbr import LbrConfig, run_lbr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent")
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--blinds", type=int, nargs=2, default=(5, 10))
    parser.add_argument("--stack", type=int, default=1000)
    args = parser.parse_args()
    sb, bb = args.blinds
    print(f"LBR vs {args.agent}, {args.hands} hands, seed {args.seed}, blinds {sb}/{bb}, stacks {args.stack}, one worker\n")
    print("| scoring | LBR mbb/hand | ± 95% | ± % of value | CPU-s | plain hands for the same ± |")
    print("|---|---:|---:|---:|---:|---:|")
    plain_half = None
    for aivat in (None, "flop", "turn"):
        cfg = LbrConfig(agent=args.agent, hands=args.hands, seed=args.seed, small_blind=sb, big_blind=bb,
                        stack=args.stack, workers=1, aivat=aivat)
        t0 = time.process_time()
        res = run_lbr(cfg)
        cpu = time.process_time() - t0
        if aivat is None:
            value, half, plain_half = res.mbb_per_hand, res.ci95, res.ci95
            name = "plain"
        else:
            assert res.aivat_mbb is not None and res.aivat_ci95 is not None
            value, half = res.aivat_mbb, res.aivat_ci95
            name = f"AIVAT from the {aivat}"
        same = f"{res.hands * (plain_half / half) ** 2:,.0f}" if plain_half and half > 0 else "-"
        share = f"{100 * half / abs(value):.0f}%" if value else "-"
        print(f"| {name} | {value:,.0f} | {half:,.0f} | {share} | {cpu:,.1f} | {same} |")


if __name__ == "__main__":
    main()

"""Two ``holdem eval --history`` runs of cfr-search on the same deals, compared hand by hand.

    nice -n 5 .venv/bin/python benchmarks/compare_cfr_search_histories.py runs/hist_a runs/hist_b

Both directories must come from the same seed and hand count (``holdem eval ... --seed S --history DIR``
with the same opponent), so that hand ``k`` of one is dealt like hand ``k`` of the other and the
opponent draws the same uniforms: the two runs differ only from the bot's first different decision.
The paired difference (A - B, mbb/hand of the match, ± 95%) is therefore much narrower than either
run's own interval when few hands differ. It prints, for A and B, the results split by the street
each hand of A ended on, by the bot's position and preflop line, and by the bot's flop line (``B`` the
bot, ``T`` the opponent; ``x`` check, ``c`` call, ``f`` fold, ``r0.50`` a bet or raise of that fraction
of the pot after a call). The bot is the player whose name starts with ``--bot`` (default
``cfr-search``). A development tool: use seeds other than the issue's 90210 to choose anything.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env import phh

STREETS = ("preflop", "flop", "turn", "river")


def read(directory: str, bot: str) -> dict[str, dict[str, Any]]:
    """Each hand of ``directory`` by file name: the bot's payoff (chips), its position, its lines."""
    out = {}
    for path in sorted(Path(directory).glob("*.phh")):
        hand = phh.load_file(path)[0]
        me = next(i for i, name in enumerate(hand.players) if str(name).startswith(bot))
        payoff = float(hand.finishing_stacks[me] - hand.starting_stacks[me])
        street, lines = 0, [[], [], [], []]
        blinds = sorted(int(x) for x in hand.blinds_or_straddles)
        bets = [blinds[1], blinds[0]]  # heads-up PHH: p1 is the big blind, p2 the button
        pot = sum(bets)
        for action in hand.actions:
            if action.kind == "db":
                street += 1
                bets = [0, 0]
                continue
            if action.player is None or action.kind not in ("cc", "cbr", "f"):
                continue
            who = "B" if action.player == me else "T"
            if action.kind == "cbr":  # a bet or raise to ``amount`` on the street: its fraction of the pot after a call
                facing = max(bets)
                frac = (int(action.amount) - facing) / max(1, pot + facing - bets[action.player])
                pot += int(action.amount) - bets[action.player]
                bets[action.player] = int(action.amount)
                lines[street].append(f"{who}r{frac:.2f}" if street else f"{who}r")
            elif action.kind == "cc":
                pot += max(bets) - bets[action.player]
                checked = bets[0] == bets[1]
                bets[action.player] = max(bets)
                lines[street].append(f"{who}{'x' if checked and street else 'c'}")
            else:
                lines[street].append(f"{who}f")
        out[path.name] = {"payoff": payoff, "ended": street, "position": "button" if me == 1 else "big blind",
                          "preflop": " ".join(lines[0]), "flop": " ".join(lines[1]) if street >= 1 else None}
    return out


def ci95(x: np.ndarray) -> float:
    return 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="history directory (or several, joined by commas)")
    parser.add_argument("b", help="the same deals' directory (or as many, in the same order)")
    parser.add_argument("--bot", default="cfr-search")
    parser.add_argument("--big-blind", type=float, default=10.0)
    parser.add_argument("--min-share", type=float, default=20.0, help="print lines worth at least this many mbb/hand")
    args = parser.parse_args()
    dirs_a, dirs_b = args.a.split(","), args.b.split(",")
    if len(dirs_a) != len(dirs_b):
        print(f"{len(dirs_a)} directories for a but {len(dirs_b)} for b", file=sys.stderr)
        return 1
    a = {f"{i}/{k}": v for i, d in enumerate(dirs_a) for k, v in read(d, args.bot).items()}
    b = {f"{i}/{k}": v for i, d in enumerate(dirs_b) for k, v in read(d, args.bot).items()}
    keys = sorted(set(a) & set(b))
    if not keys:
        print("no hand in common", file=sys.stderr)
        return 1
    n = len(keys)
    pa = np.array([a[k]["payoff"] for k in keys]) * 1000 / args.big_blind
    pb = np.array([b[k]["payoff"] for k in keys]) * 1000 / args.big_blind
    d = pa - pb
    print(f"{n} hands: A {pa.mean():+.1f} ± {ci95(pa):.1f}, B {pb.mean():+.1f} ± {ci95(pb):.1f}, "
          f"A - B {d.mean():+.1f} ± {ci95(d):.1f} mbb/hand ({int(np.count_nonzero(d))} hands differ)")
    for s, name in enumerate(STREETS):
        m = np.array([a[k]["ended"] == s for k in keys])
        print(f"  ended on the {name} in A ({int(m.sum())} hands): A {pa[m].sum() / n:+.1f}, B {pb[m].sum() / n:+.1f}")
    for label, field in (("position and preflop line", "preflop"), ("flop line", "flop")):
        for side, hands, pay in (("A", a, pa), ("B", b, pb)):
            split: dict[tuple[str, str], list[float]] = defaultdict(list)
            for k, p in zip(keys, pay, strict=True):
                if hands[k][field] is not None:
                    split[(hands[k]["position"], hands[k][field])].append(p / n)
            rows = sorted(split.items(), key=lambda kv: sum(kv[1]))
            print(f"{side} by {label} (mbb/hand of the match, hands):")
            for (position, line), got in rows:
                if abs(sum(got)) >= args.min_share:
                    print(f"  {sum(got):+8.1f} {len(got):4d}  {position:9s} {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Two ``holdem eval --history`` runs of cfr-search on the same deals, compared hand by hand.

    nice -n 5 .venv/bin/python benchmarks/compare_cfr_search_histories.py runs/hist_a runs/hist_b

Both directories must come from the same seed and hand count (``holdem eval ... --seed S --history DIR``
with the same opponent), so that hand ``k`` of one is dealt like hand ``k`` of the other and the
opponent draws the same uniforms: the two runs differ only from the bot's first different decision.
The paired difference (A - B, mbb/hand of the match, ± 95%) is therefore much narrower than either
run's own interval when few hands differ. It prints, for A and B, the results split by the street
each hand of A ended on, by the bot's position and preflop line, and by the bot's flop, turn and river lines (``B`` the
bot, ``T`` the opponent; ``x`` check, ``c`` call, ``f`` fold, ``r0.50`` a bet or raise of that fraction
of the pot after a call). The bot is the player whose name starts with one of ``--bot`` (default
``cfr-search`` and ``diagnose_cfr_search``, so ``diagnose_cfr_search.py --history`` runs pair with
``holdem eval`` ones). A development tool: use seeds other than the issue's 90210 to choose anything.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env import phh
from holdem_env.engine.equity import exact_equity

STREETS = ("preflop", "flop", "turn", "river")


def read(directory: str, bot: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Each hand of ``directory`` by file name: the bot's payoff (chips), its position, its lines."""
    out = {}
    for path in sorted(Path(directory).glob("*.phh")):
        hand = phh.load_file(path)[0]
        me = next((i for i, name in enumerate(hand.players) if str(name).startswith(bot)), None)
        if me is None:
            raise SystemExit(f"{path}: no player's name starts with {' or '.join(bot)} (players {list(hand.players)}); pass --bot")
        payoff = float(hand.finishing_stacks[me] - hand.starting_stacks[me])
        street, lines, sizes = 0, [[], [], [], []], []
        cap = int(min(hand.starting_stacks))
        holes: dict[int, tuple[int, ...]] = {}
        board: list[int] = []
        allin_board: tuple[int, ...] | None = None  # the board when both stacks were all in
        blinds = sorted(int(x) for x in hand.blinds_or_straddles)
        bets = [blinds[1], blinds[0]]  # heads-up PHH: p1 is the big blind, p2 the button
        pot = sum(bets)
        total = list(bets)  # chips in over the hand
        for action in hand.actions:
            if action.kind == "dh" and action.player is not None:
                holes[action.player] = tuple(int(c) for c in action.cards if c is not None)
                continue
            if action.kind == "db":
                street += 1
                bets = [0, 0]
                board.extend(int(c) for c in action.cards if c is not None)
                continue
            if action.player is None or action.kind not in ("cc", "cbr", "f"):
                continue
            who = "B" if action.player == me else "T"
            if action.kind == "cbr":  # a bet or raise to ``amount`` on the street: its fraction of the pot after a call
                facing = max(bets)
                frac = (int(action.amount) - facing) / max(1, pot + facing - bets[action.player])
                pot += int(action.amount) - bets[action.player]
                total[action.player] += int(action.amount) - bets[action.player]
                bets[action.player] = int(action.amount)
                lines[street].append(f"{who}r{frac:.2f}" if street else f"{who}r")
                if not street:
                    sizes.append(f"{who}r{frac:.2f}")
            elif action.kind == "cc":
                pot += max(bets) - bets[action.player]
                total[action.player] += max(bets) - bets[action.player]
                checked = bets[0] == bets[1]
                bets[action.player] = max(bets)
                lines[street].append(f"{who}{'x' if checked and street else 'c'}")
            else:
                lines[street].append(f"{who}f")
            if action.kind == "cc" and total[0] == total[1] == cap and allin_board is None:
                allin_board = tuple(board)
        allin_ev = None  # the bot's expected payoff (chips) at the moment both stacks went in, by exact equity
        if allin_board is not None and len(allin_board) < 5 and len(holes) == 2 and all(len(h) == 2 for h in holes.values()):
            eq = float(exact_equity([holes[me], holes[1 - me]], allin_board)[0])
            allin_ev = (2.0 * eq - 1.0) * cap
        out[path.name] = {"payoff": payoff, "allin_ev": allin_ev, "ended": street, "position": "button" if me == 1 else "big blind",
                          "preflop": " ".join(lines[0]), "flop": " ".join(lines[1]) if street >= 1 else None,
                          "turn": " ".join(lines[2]) if street >= 2 else None,
                          "river": " ".join(lines[3]) if street >= 3 else None,
                          "raises": f"{min(len(sizes), 5)}{'+' if len(sizes) >= 5 else ''} preflop bets/raises",
                          "sizes": " ".join(sizes),
                          "stack": "a whole stack" if abs(payoff) >= cap else "less"}
    return out


def ci95(x: np.ndarray) -> float:
    return 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="history directory (or several, joined by commas)")
    parser.add_argument("b", help="the same deals' directory (or as many, in the same order)")
    parser.add_argument(
        "--bot", nargs="+", default=["cfr-search", "diagnose_cfr_search"],
        help="name prefixes of the bot's seat (default: holdem eval's and diagnose_cfr_search.py's names)",
    )
    parser.add_argument("--big-blind", type=float, default=10.0)
    parser.add_argument("--min-share", type=float, default=20.0, help="print lines worth at least this many mbb/hand")
    args = parser.parse_args()
    dirs_a, dirs_b = args.a.split(","), args.b.split(",")
    if len(dirs_a) != len(dirs_b):
        print(f"{len(dirs_a)} directories for a but {len(dirs_b)} for b", file=sys.stderr)
        return 1
    a = {f"{i}/{k}": v for i, d in enumerate(dirs_a) for k, v in read(d, tuple(args.bot)).items()}
    b = {f"{i}/{k}": v for i, d in enumerate(dirs_b) for k, v in read(d, tuple(args.bot)).items()}
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
    for label, field in (("position and preflop line", "preflop"), ("flop line", "flop"), ("turn line", "turn"), ("river line", "river"),
                         ("number of preflop bets and raises", "raises"), ("whole stack won or lost", "stack"),
                         ("preflop raise sizes (pot fractions after a call)", "sizes")):
        for side, hands, pay in (("A", a, pa), ("B", b, pb)):
            split: dict[tuple[str, str], list[int]] = defaultdict(list)
            for i, k in enumerate(keys):
                if hands[k][field] is not None:
                    split[(hands[k]["position"], hands[k][field])].append(i)
            rows = sorted(split.items(), key=lambda kv: float(pay[kv[1]].sum()))
            print(f"{side} by {label} (mbb/hand of the match ± 95%, hands):")
            for (position, line), idx in rows:
                share = np.zeros(n)
                share[idx] = pay[idx]
                if abs(share.sum() / n) >= args.min_share:
                    print(f"  {share.sum() / n:+8.1f} ± {ci95(share):6.1f} {len(idx):4d}  {position:9s} {line}")
    for side, hands in (("A", a), ("B", b)):
        faced: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
        for k in keys:
            for street in STREETS[1:]:
                words = (hands[k][street] or "").split()
                for i in range(len(words) - 1):
                    if words[i].startswith("Tr") and words[i + 1].startswith("B"):
                        size = float(words[i][2:])
                        band = "below 0.45" if size < 0.45 else "0.45-0.8" if size < 0.8 else "0.8-1.2" if size < 1.2 else "above 1.2"
                        kind = {"Bf": "fold", "Bc": "call"}.get(words[i + 1], "raise")
                        faced[(street, "a raise" if i and words[i - 1].startswith("Br") else "a bet", band)][kind] += 1
        print(f"{side}: the bot's answers to the opponent's postflop bets (pot fractions after a call):")
        for (street, what, band), got in sorted(faced.items(), key=lambda kv: (STREETS.index(kv[0][0]), kv[0][1], kv[0][2])):
            total = sum(got.values())
            print(f"  {street:5s} facing {what:7s} {band:10s} {total:4d}: fold {got['fold'] / total:.2f}, "
                  f"call {got['call'] / total:.2f}, raise {got['raise'] / total:.2f}")
    for side, hands, pay in (("A", a, pa), ("B", b, pb)):
        idx = [i for i, k in enumerate(keys) if hands[k]["allin_ev"] is not None]
        if idx:
            ev = np.array([hands[keys[i]]["allin_ev"] for i in idx]) * 1000 / args.big_blind
            print(f"{side}: {len(idx)} hands with both stacks in before the river: {pay[idx].sum() / n:+.1f} mbb/hand of the "
                  f"match won, {ev.sum() / n:+.1f} expected by exact equity when the stacks went in (luck {(pay[idx].sum() - ev.sum()) / n:+.1f}); "
                  f"match all-in adjusted: {(pay.sum() - pay[idx].sum() + ev.sum()) / n:+.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

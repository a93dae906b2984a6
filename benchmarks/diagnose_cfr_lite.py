"""Where cfr-lite wins and loses against an opponent: chips by position, by preflop line, by
who decided (the policy, the fallback rule, the preflop chart).

    .venv/bin/python benchmarks/diagnose_cfr_lite.py --players 6 --hands 4002 --seed 1
    .venv/bin/python benchmarks/diagnose_cfr_lite.py --players 6 --hands 4002 --seed 1 --preflop policy

One process, duplicate groups through the arena (the lineup cfr-lite, opponent, cfr-lite,
... as in ``bench_cfr_lite.py``). Every figure is mbb per hand of the whole match, summed
over the cfr-lite seats and divided by their number, so the rows of a breakdown add up to
the total. Prints one JSON object. A development tool: use seeds other than the benchmark's.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from holdem_env.agents.cfr_lite.agent import CfrLiteAgent

#: Every finished hand of every diagnosed seat (this process only: run with one worker).
HANDS: list[dict[str, Any]] = []


class DiagnosedCfrLite(CfrLiteAgent):
    """``cfr-lite`` that notes each decision's street, source and action, and each hand's result."""

    def start_hand(self, info: Any) -> None:
        super().start_hand(info)
        self._notes: list[tuple[str, str, str, int]] = []

    def act(self, observation: Any, info: Any) -> int:
        view = info["view"]
        before = (self.charted, self.lookups, self.fallbacks)
        action = super().act(observation, info)
        after = (self.charted, self.lookups, self.fallbacks)
        source = ("chart", "policy", "fallback")[[a != b for a, b in zip(after, before, strict=True)].index(True)]
        street = str(view["street"])
        raises = sum(1 for h in view["history"] if h[1] == street and h[2] in ("bet", "raise"))
        kind = "fold" if action == 0 else ("raise" if action >= 2 else ("check" if info["legal"]["check"] else "call"))
        self._notes.append((street, source, kind, raises))
        return action

    def end_hand(self, result: dict[str, Any]) -> None:
        HANDS.append({"seat": result["seat"], "payoff": result["payoff"], "notes": getattr(self, "_notes", [])})


def _preflop_line(notes: list[tuple[str, str, str, int]]) -> str:
    pre = [n for n in notes if n[0] == "preflop"]
    if not pre:
        return "no preflop decision"
    line = f"{pre[0][2]} facing {pre[0][3]} raise(s)"
    if len(pre) > 1:
        line += f", then {pre[1][2]} facing {pre[1][3]}"
    return line



def payoff_breakdown(recorded: list[dict[str, Any]], key: Any, mbb: Any) -> dict[str, dict[str, float]]:
    """The recorded hands' payoffs summed by ``key(hand)``: mbb/hand (``mbb`` of the sum) and hands, worst first."""
    acc: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for h in recorded:
        k = key(h)
        acc[k][0] += h["payoff"]
        acc[k][1] += 1
    return {k: {"mbb_per_hand": mbb(v[0]), "hands": int(v[1])} for k, v in sorted(acc.items(), key=lambda kv: kv[1][0])}

def main() -> int:
    from holdem_env.training.arena import ArenaConfig, run_match

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hands", type=int, default=4002)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="tag")
    parser.add_argument("--preflop", default="auto", choices=("auto", "policy", "chart"))
    parser.add_argument("--policy", default=None, help="a cfr-lite .npz policy (default: the shipped one)")
    args = parser.parse_args()
    policy = "" if args.policy is None else f"policy={args.policy!r}, "
    spec = f"diagnose_cfr_lite:DiagnosedCfrLite({policy}preflop={args.preflop!r})"
    res = run_match(ArenaConfig(agents=(spec, args.opponent), players=args.players, hands=args.hands, seed=args.seed, workers=1))
    row = next(r for r in res.rows if r["agent"] == spec)
    import importlib

    recorded = importlib.import_module("diagnose_cfr_lite").HANDS  # the module the spec loaded (not __main__)
    hands = int(row["hands"])
    seats = sum(1 for i in range(args.players) if i % 2 == 0)
    big_blind = 10

    def mbb(chips: float) -> float:
        return round(1000 * chips / big_blind / hands / seats, 1)

    def breakdown(key: Any) -> dict[str, dict[str, float]]:
        return payoff_breakdown(recorded, key, mbb)

    names = {0: "button", 1: "small blind", 2: "big blind"}
    report = {
        "players": args.players,
        "hands": hands,
        "seed": args.seed,
        "opponent": args.opponent,
        "preflop": args.preflop,
        "mbb_per_hand": round(row["mbb_per_hand"], 1),
        "ci95": round(row["ci95"], 1),
        "by_position": breakdown(lambda h: names.get(h["seat"], f"seat {h['seat']} (button + {h['seat']})")),
        "by_preflop_line": breakdown(lambda h: _preflop_line(h["notes"])),
        "by_first_fallback": breakdown(lambda h: next((f"fallback first on the {n[0]}" for n in h["notes"] if n[1] == "fallback"), "no fallback")),
        "decisions": {f"{s} {src}": c for (s, src), c in sorted(Counter((n[0], n[1]) for h in recorded for n in h["notes"]).items())},
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

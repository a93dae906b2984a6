"""Where cfr-search wins and loses heads-up against an opponent: chips by position, by the street the
hand ended on, by who decided (blueprint, re-solve, off-tree rule), and by the translations taken.

    nice -n 5 .venv/bin/python benchmarks/diagnose_cfr_search.py --opponent tag --hands 600 --seed 7

One process (duplicate groups through the arena, one worker). Every figure is mbb per hand of the
whole match (the bot's payoff), so the rows of a breakdown add up to the total. ``--spec`` plays
another configuration of the bot (keyword arguments of ``CfrSearchAgent``, e.g. ``"resolve='river'"``).
It also splits the match by the number of preflop bets and raises, by whether a whole stack changed
hands, and by each decision the off-tree rule made (street, answer, price); ``--history DIR`` writes the
hands as ``holdem eval --history`` does (the same deals as ``holdem eval`` with the same seed), for
``compare_cfr_search_histories.py``. Prints one JSON object. A development tool: use seeds other than the issue's 90210.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from diagnose_cfr_lite import payoff_breakdown

from holdem_env.agents.cfr_search.agent import CfrSearchAgent
from holdem_env.agents.cfr_search.follow import public_state, walk

#: Every finished hand of the diagnosed seat (this process only: run with one worker).
HANDS: list[dict[str, Any]] = []


class DiagnosedCfrSearch(CfrSearchAgent):
    """``cfr-search`` that notes each decision's street, source and action, the translations of the
    opponent's bets it took, and each hand's result."""

    def start_hand(self, info: Any) -> None:
        super().start_hand(info)
        self._notes: list[dict[str, Any]] = []

    def _strategy(self, public: Any, walked: Any, legal: Any) -> Any:
        got = super()._strategy(public, walked, legal)
        self._last_source = got[2]
        return got

    def act(self, observation: Any, info: Any) -> int:
        view = info["view"]
        self._last_source = "cached"
        action = super().act(observation, info)
        public = public_state(view, self._blinds)
        walked = walk(self.blueprint, public, self._key)
        to_allin = 0
        bp = self.blueprint
        for step, (p, _s, kind, total) in zip(walked.steps, public.actions, strict=False):
            label = bp.children(step.node)[step.child][0]
            if p != public.me and kind == "r" and label == "a" and total < public.cap:
                to_allin += 1
        street = str(view["street"])
        raises = sum(1 for h in view["history"] if h[1] == street and h[2] in ("bet", "raise"))
        pre_raises = sum(1 for h in view["history"] if h[1] == "preflop" and h[2] in ("bet", "raise"))
        legal = info["legal"]
        to_call = int(legal.get("call", 0) or 0)
        kind = "fold" if action == 0 else ("raise" if action >= 2 else ("check" if legal["check"] else "call"))
        self._notes.append({
            "street": street, "source": self._last_source, "kind": kind, "facing": raises,
            "lost": walked.lost, "bet_to_allin": to_allin, "me": public.me, "pre_raises": pre_raises,
            "price": round(to_call / max(1, sum(public.contrib) + to_call), 3),
        })
        return action

    def end_hand(self, result: dict[str, Any]) -> None:
        HANDS.append({"seat": result["seat"], "payoff": result["payoff"], "notes": getattr(self, "_notes", [])})


def main() -> int:
    from holdem_env.training.arena import ArenaConfig, run_match

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--opponent", default="tag")
    parser.add_argument("--spec", default="", help="keyword arguments of CfrSearchAgent, e.g. \"resolve='river'\"")
    parser.add_argument("--stack", type=int, default=1000, help="the buy-in (chips): a payoff this large is a whole stack")
    parser.add_argument("--history", default=None, help="also write every hand to this directory (PHH, as holdem eval --history)")
    args = parser.parse_args()
    spec = f"diagnose_cfr_search:DiagnosedCfrSearch({args.spec})"
    res = run_match(ArenaConfig(agents=(spec, args.opponent), players=2, hands=args.hands, seed=args.seed, workers=1,
                                    history_dir=args.history))
    row = next(r for r in res.rows if r["agent"] == spec)
    import importlib

    recorded = importlib.import_module("diagnose_cfr_search").HANDS  # the module the spec loaded (not __main__)
    hands = int(row["hands"])
    big_blind = 10

    def mbb(chips: float) -> float:
        return round(1000 * chips / big_blind / hands, 1)

    def breakdown(key: Any) -> dict[str, dict[str, float]]:
        return payoff_breakdown(recorded, key, mbb)

    def last_street(h: dict[str, Any]) -> str:
        return h["notes"][-1]["street"] + " (" + h["notes"][-1]["kind"] + ")" if h["notes"] else "no decision"

    def first_off_tree(h: dict[str, Any]) -> str:
        return next((f"off-tree first on the {n['street']}" for n in h["notes"] if n["source"] == "off_tree"), "never off the tree")

    def preflop_line(h: dict[str, Any]) -> str:
        pre = [n for n in h["notes"] if n["street"] == "preflop"]
        return " / ".join(f"{n['kind']}@{n['facing']}" for n in pre) or "no preflop decision"

    def preflop_raises(h: dict[str, Any]) -> str:
        if not h["notes"]:
            return "no decision"
        last = h["notes"][-1]
        n = last["pre_raises"] + (1 if last["street"] == "preflop" and last["kind"] == "raise" else 0)
        return f"{min(n, 5)}{'+' if n >= 5 else ''} preflop bets/raises"

    def stacked(h: dict[str, Any]) -> str:
        return "a whole stack won or lost" if abs(h["payoff"]) >= args.stack else "less"

    def off_tree_kind(h: dict[str, Any]) -> str:
        off = [n for n in h["notes"] if n["source"] == "off_tree"]
        return " / ".join(f"{n['street']} {n['kind']} at price {n['price']:.2f}" for n in off) or "never off the tree"

    report = {
        "hands": hands,
        "seed": args.seed,
        "opponent": args.opponent,
        "spec": spec,
        "mbb_per_hand": round(row["mbb_per_hand"], 1),
        "ci95": round(row["ci95"], 1),
        "by_position": breakdown(lambda h: ("button", "big blind")[h["notes"][0]["me"]] if h["notes"] else "no decision"),
        "by_last_decision": breakdown(last_street),
        "by_off_tree": breakdown(first_off_tree),
        "by_translation_to_allin": breakdown(lambda h: "a bet taken as all-in" if any(n["bet_to_allin"] for n in h["notes"]) else "none"),
        "by_preflop_line": breakdown(preflop_line),
        "by_preflop_raises": breakdown(preflop_raises),
        "by_stack": breakdown(stacked),
        "by_preflop_raises_and_stack": breakdown(lambda h: preflop_raises(h) + ", " + stacked(h)),
        "by_off_tree_decisions": breakdown(off_tree_kind),
        "decisions": {f"{s} {src} {k}": c for (s, src, k), c in sorted(Counter((n["street"], n["source"], n["kind"]) for h in recorded for n in h["notes"]).items())},
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

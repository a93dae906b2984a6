"""The flop solved over full ranges from the blueprint's ranges: does the big blind defend a c-bet as the blueprint does?

    nice -n 5 .venv/bin/python benchmarks/probe_cfr_search_flop_solve.py --flops 6 --iterations 300
    nice -n 5 .venv/bin/python benchmarks/probe_cfr_search_flop_solve.py --river-sizes      # the river checked down

The hand is that of ``probe_cfr_search_flop.py``: heads-up 5/10 with 1,000 chips (``holdem eval``'s
table, the 100 bb blueprint), the button opens to 25 and the big blind calls. The two ranges at the
flop are the blueprint's (each holding's probability of the open and of the call, at its preflop
bucket). For each random flop the script solves the flop subgame over every holding
(:class:`~holdem_env.agents.cfr_search.resolve.Subgame` on a 3-card board: each of the 49 turns and
48 rivers, DCFR with ``--turns`` turn and ``--rivers`` river cards sampled per iteration) and reads, at
the big blind's node facing a half-pot bet after its check, the reach-weighted fold and raise rates,
beside the blueprint's at the same node (its check and the bet read as its half-pot size).

Beside them, in pots per deal of the two ranges: the solved game's value for the button, and what a best
response wins against each player's solved strategy and against the blueprint's strategy mapped onto the
same tree (:func:`~holdem_env.agents.cfr_search.search.map_blueprint`, the bot's own mapping, each turn and
river card at its own buckets).

It is a probe, not the bot: the solved game has lossless cards but a small betting tree (``--flop-sizes``
and ``--flop-raises`` on the flop, ``--turn-sizes`` and ``--turn-raises`` on the turn, one bet of
``--river-sizes`` on the river, pot-sized by default; with no size a round is checked down) so that it
fits in memory (the three tables of a flop tree are gigabytes), and no re-solving gadget: it is the
equilibrium of the flop subgame for those ranges, not a safe re-solve. A line per flop and a summary, as
JSON, on stdout; a bad option prints one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from holdem_env.agents.cfr_search.agent import SHIPPED_BLUEPRINTS, _loaded
from holdem_env.agents.cfr_search.follow import Public, Walk, blueprint_matrix, walk
from holdem_env.agents.cfr_search.resolve import Subgame
from holdem_env.agents.cfr_search.search import map_blueprint
from holdem_env.agents.cfr_search.tree import SubgameSpec
from holdem_env.engine.cards import format_cards
from holdem_env.engine.errors import HoldemError

OPEN = 25  # the button's open, chips (2.5 big blinds)
POT = 2 * OPEN


def blueprint_side(flop: tuple[int, ...], key: int, blueprint: Path) -> dict[str, object]:
    """The blueprint's ranges at the flop (button, big blind) and its big blind's fold and raise rates
    facing a half-pot bet after a check, reach-weighted (its check included)."""
    bp, tables = _loaded(blueprint)
    bet = OPEN + POT // 2
    actions = ((0, 0, "r", OPEN), (1, 0, "c", OPEN), (1, 1, "c", OPEN), (0, 1, "r", bet))
    public = Public(
        me=1, seat_of=(0, 1), small_blind=5, big_blind=10, start=(1000, 1000), actions=actions,
        contrib=(bet, OPEN), street=1, street_start=(0, OPEN), board=flop, key=(0, 5, 10, (1000, 1000), actions, flop),
    )
    walked = walk(bp, public, key)
    pre = tables.buckets(())
    buckets = tables.buckets(flop)
    opened, called, check = walked.steps[0], walked.steps[1], walked.steps[2]
    live = buckets >= 0
    button = blueprint_matrix(bp, opened.node, pre)[opened.child] * live
    big_blind = blueprint_matrix(bp, called.node, pre)[called.child] * live
    checked = big_blind * blueprint_matrix(bp, check.node, buckets)[check.child]
    probs = blueprint_matrix(bp, walked.node, buckets)
    labels = [label for label, _ in bp.children(walked.node)]
    raises = [i for i, label in enumerate(labels) if label not in ("f", "c")]
    bet_node = walked.steps[3]
    cbet = float(np.average(blueprint_matrix(bp, bet_node.node, buckets)[bet_node.child], weights=button))
    return {
        "walked": walked,
        "ranges": np.stack([button, big_blind]),
        "check": float(checked.sum() / big_blind.sum()),
        "cbet": cbet,
        "fold": float(np.average(probs[labels.index("f")], weights=checked)),
        "raise": float(np.average(probs[raises].sum(axis=0), weights=checked)),
    }


def best_responses(sub: Subgame, walked: Walk, blueprint: Path, options: dict[str, object]) -> dict[str, float]:
    """What a best response wins (pot fractions per deal of the two ranges) against each player's strategy
    in the solved game, and against the blueprint's mapped onto the same tree (its flop and turn
    strategy at each turn card's buckets; ``map_blueprint``), beside the solved game's value."""
    bp, tables = _loaded(blueprint)
    root, contrib = walked.entered[1]
    out = {"game_value_button": sub.game_value(0) / POT}
    for me, name in ((0, "button"), (1, "big_blind")):
        given = Subgame(sub.spec, sub.ranges, **options)  # type: ignore[arg-type]
        map_blueprint(given, bp, root, contrib, me, tables.buckets(sub.spec.board), board_buckets=tables.buckets)
        out[f"br_vs_blueprint_{name}"] = given.game_value(1 - me, best_response=True) / POT
        out[f"br_vs_solved_{name}"] = sub.game_value(1 - me, best_response=True) / POT
    return out


def solved_side(sub: Subgame) -> dict[str, float]:
    """The solved subgame's big blind (player 1): its check, and its fold and raise facing the half-pot
    bet, reach-weighted; the button's bet after the check."""
    tree = sub.tree
    r_bb, r_btn = sub.ranges[1], sub.ranges[0]
    root = sub.strategy(0)
    k = tree.labels[0].index("k")
    checked = r_bb * root[k]
    after = tree.find(["k"])
    bet_label = f"b{OPEN + POT // 2}"
    cb = sub.strategy(after)[tree.labels[after].index(bet_label)]
    node = tree.find(["k", bet_label])
    probs = sub.strategy(node)
    labels = tree.labels[node]
    raises = [i for i, label in enumerate(labels) if label.startswith("b")]
    return {
        "check": float(checked.sum() / r_bb.sum()),
        "cbet": float(np.average(cb, weights=r_btn)),
        "fold": float(np.average(probs[labels.index("f")], weights=checked)),
        "raise": float(np.average(probs[raises].sum(axis=0), weights=checked)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flops", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--turns", type=int, default=8, help="turn cards walked per iteration (1..49)")
    parser.add_argument("--rivers", type=int, default=8, help="river cards drawn per iteration (2..49)")
    parser.add_argument("--flop-sizes", nargs="+", default=["0.5", "allin"], help="flop bet sizes (pot fractions, allin)")
    parser.add_argument("--flop-raises", type=int, default=2, help="bets and raises on the flop")
    parser.add_argument("--turn-sizes", nargs="*", default=["1.0"], help="turn bet sizes (none: checked down)")
    parser.add_argument("--turn-raises", type=int, default=1, help="bets and raises on the turn")
    parser.add_argument("--river-sizes", nargs="*", default=["1.0"], help="river bet sizes, one bet (none: checked down)")
    parser.add_argument("--report-every", type=int, default=100, help="iterations between readings of the fold rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blueprint", type=Path, default=SHIPPED_BLUEPRINTS[100], help="blueprint file (default: shipped 100 bb)")
    args = parser.parse_args()
    sizes = [s if s == "allin" else float(s) for s in args.flop_sizes]
    turn = tuple(s if s == "allin" else float(s) for s in args.turn_sizes)
    river = tuple(s if s == "allin" else float(s) for s in args.river_sizes)
    rng = np.random.default_rng(args.seed)
    flops = [tuple(int(c) for c in rng.choice(52, 3, replace=False)) for _ in range(args.flops)]
    rows: list[dict] = []
    try:
        probe(args, flops, (sizes, turn, river), rng, rows)
    except HoldemError as exc:
        print(f"probe_cfr_search_flop_solve: {exc}", file=sys.stderr)
        return 2
    if not rows:
        return 0
    print(json.dumps({
        "flops": len(rows),
        "blueprint_fold": round(float(np.mean([r["blueprint"]["fold"] for r in rows])), 3),
        "solved_fold": round(float(np.mean([r["solved"]["fold"] for r in rows])), 3),
        "blueprint_raise": round(float(np.mean([r["blueprint"]["raise"] for r in rows])), 3),
        "solved_raise": round(float(np.mean([r["solved"]["raise"] for r in rows])), 3),
        **{k: round(float(np.mean([r[k] for r in rows])), 4) for k in rows[0] if k.startswith(("br_", "game_value"))},
        "any_two_break_even_fold": round(0.5 / 1.5, 3),
    }))
    return 0


def probe(args: argparse.Namespace, flops: list[tuple[int, ...]], trees: tuple, rng: np.random.Generator, rows: list[dict]) -> None:
    """Solve and read each flop (a JSON line each, appended to ``rows``)."""
    sizes, turn, river = trees
    for flop in flops:
        t0 = time.process_time()
        bp = blueprint_side(flop, 0, args.blueprint)
        spec = SubgameSpec(board=flop, contrib=(OPEN, OPEN), stacks=(1000 - OPEN, 1000 - OPEN), first=1, big_blind=10)
        walked = bp.pop("walked")
        options: dict[str, object] = {
            "sizes": sizes, "max_raises": args.flop_raises, "turn_sizes": turn, "turn_max_raises": args.turn_raises, "river_sizes": river, "river_max_raises": 1,
        }
        sub = Subgame(spec, bp.pop("ranges"), **options)  # type: ignore[arg-type]
        path = {}  # the big blind's fold rate as the solve goes on: has it levelled off?
        while sub.iterations < args.iterations:
            sub.solve(min(args.report_every, args.iterations - sub.iterations), turns=args.turns, rivers=args.rivers, rng=rng)
            path[sub.iterations] = round(solved_side(sub)["fold"], 3)
        solved = solved_side(sub)
        row = {
            "flop": format_cards(flop), "blueprint": {k: round(float(v), 3) for k, v in bp.items()},
            "solved": {k: round(v, 3) for k, v in solved.items()},
            "fold_by_iteration": path,
            "exploitability_pot_fraction": round(sub.exploitability() / POT, 4),
            **{k: round(v, 4) for k, v in best_responses(sub, walked, args.blueprint, options).items()},
            "cpu_s": round(time.process_time() - t0, 1),
        }
        print(json.dumps(row), flush=True)
        rows.append(row)
        del sub

if __name__ == "__main__":
    sys.exit(main())

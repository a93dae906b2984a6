"""How the cfr-search blueprint's big blind defends the flop against a continuation bet of each size.

    nice -n 5 .venv/bin/python benchmarks/probe_cfr_search_flop.py --flops 40 --sizes 0.25 0.33 0.5 0.75 1.0
    nice -n 5 .venv/bin/python benchmarks/probe_cfr_search_flop.py --blueprint other.npz   # another file

The hand: heads-up 5/10 with 1,000 chips (``holdem eval``'s table, played on the 100 bb blueprint),
the button opens to 25, the big blind calls, checks a random flop, and the button bets each size (a
fraction of the 50-chip pot). For every flop and translation key the script walks the blueprint
(:func:`~holdem_env.agents.cfr_search.follow.walk`, the bot's own translation of the button's sizes)
and weighs each holding's fold and raise probabilities at the big blind's node by its reach there
(the blueprint's preflop call and flop check). It prints, per size, the mean fold and raise rates of
the blueprint at the node the bet is read as, the fold rate the agent plays (the blueprint's, less the
share :func:`~holdem_env.agents.cfr_search.follow.under_size` moves to the call for a bet below the
smallest size) and the fold rate above which a bet with any two cards wins at once (``size / (1 +
size)``). No game is played: a few CPU seconds per flop. ``--blueprint`` probes another file (default:
the shipped 100 bb one) on the same table.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from holdem_env.agents.cfr_search.agent import SHIPPED_BLUEPRINTS, _loaded
from holdem_env.agents.cfr_search.follow import Public, blueprint_matrix, walk


def defence(
    flop: tuple[int, ...], bet: int, key: int, open_to: int = 25, blueprint: Path = SHIPPED_BLUEPRINTS[100]
) -> tuple[float, float, float] | None:
    """The big blind's reach-weighted (blueprint fold, raise, played fold) rates facing ``bet`` chips on
    ``flop`` (on ``blueprint``); None if off the tree."""
    bp, tables = _loaded(blueprint)
    actions = ((0, 0, "r", open_to), (1, 0, "c", open_to), (1, 1, "c", open_to), (0, 1, "r", open_to + bet))
    public = Public(
        me=1, seat_of=(0, 1), small_blind=5, big_blind=10, start=(1000, 1000), actions=actions,
        contrib=(open_to + bet, open_to), street=1, street_start=(0, open_to), board=flop,
        key=(0, 5, 10, (1000, 1000), actions, flop),
    )
    walked = walk(bp, public, key)
    if walked.lost:
        return None
    buckets = tables.buckets(flop)
    call, check = walked.steps[1], walked.steps[2]
    reach = (
        blueprint_matrix(bp, call.node, tables.buckets(()))[call.child]
        * blueprint_matrix(bp, check.node, buckets)[check.child]
        * (buckets >= 0)
    )
    probs = blueprint_matrix(bp, walked.node, buckets)
    labels = [label for label, _ in bp.children(walked.node)]
    raises = [i for i, label in enumerate(labels) if label not in ("f", "c")]
    fold = float(np.average(probs[labels.index("f")], weights=reach))
    played = blueprint_matrix(bp, walked.node, buckets, walked.under)  # what the bot plays: the mix below the smallest size
    return fold, float(np.average(probs[raises].sum(axis=0), weights=reach)), float(np.average(played[labels.index("f")], weights=reach))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flops", type=int, default=40)
    parser.add_argument("--keys", type=int, default=4, help="translation keys per flop")
    parser.add_argument("--sizes", type=float, nargs="+", default=[0.25, 0.33, 0.5, 0.75, 1.0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blueprint", type=Path, default=SHIPPED_BLUEPRINTS[100], help="blueprint file (default: shipped 100 bb)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    flops = [tuple(int(c) for c in rng.choice(52, 3, replace=False)) for _ in range(args.flops)]
    for size in args.sizes:
        got = [d for f in flops for k in range(args.keys) if (d := defence(f, int(round(50 * size)), k, blueprint=args.blueprint)) is not None]
        folds = np.array([g[0] for g in got])
        print(json.dumps({
            "bet_pot_fraction": size, "walks": len(got), "fold": round(float(folds.mean()), 3),
            "fold_range": [round(float(folds.min()), 2), round(float(folds.max()), 2)],
            "raise": round(float(np.mean([g[1] for g in got])), 3), "played_fold": round(float(np.mean([g[2] for g in got])), 3),
            "any_two_break_even_fold": round(size / (1 + size), 3),
        }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

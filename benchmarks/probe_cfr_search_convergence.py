"""How far a cfr-search blueprint's strategy still moves with more MCCFR iterations, at the nodes that decide its matches.

    nice -n 5 .venv/bin/python benchmarks/probe_cfr_search_convergence.py A.npz B.npz ... --flops 30

Give the checkpoints of one build (``holdem cfr-search build ... --checkpoint-every N``, each copied as it
was written), shortest first. For each file the script reads, on the blueprint's own tree (no
translation: the tree's action labels), these nodes of heads-up play:

* ``sb``: the button's first decision (fold, limp, the opening raises, all-in), over the 1,326 holdings;
* ``bb``: the big blind facing the button's open to 3 big blinds (the tree's one-pot open);
* ``cbet``: the button after that open is called and the big blind checks a random flop (``--flops`` of
  them, the same for every file), its holdings weighted by the blueprint's preflop open;
* ``defend``: the big blind facing the button's half-pot bet there, weighted by its preflop call and
  flop check.

It prints, per file, the reach-weighted frequencies (the button's bet rate overall and with the weakest
fifth of its flop buckets; the big blind's fold rate) and, per node, the reach-weighted mean total
variation distance between each holding's strategy in this file and in the last file (0: the same
strategy, 1: disjoint). Distances that shrink towards the last file say the build is still moving there;
a plateau says more iterations of the same build will not change that node much. No game is played.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.agents.cfr_search.agent import _loaded
from holdem_env.agents.cfr_search.blueprint import Blueprint
from holdem_env.agents.cfr_search.follow import blueprint_matrix


def _labels(bp: Blueprint, node: int) -> list[str]:
    """The action labels at ``node``, in the order of its strategy's rows."""
    return [label for label, _ in bp.children(node)]


def _raise_label(bp: Blueprint, node: int, to: int) -> str:
    """The tree's raise at ``node`` whose total is nearest ``to`` chips (the labels read ``r<total>``)."""
    raises = [label for label in _labels(bp, node) if label.startswith("r")]
    return min(raises, key=lambda label: abs(int(label[1:]) - to))


def probe(path: Path, flops: list[tuple[int, ...]]) -> dict[str, Any]:
    """Each node's ``(actions, 1326)`` strategies (flop nodes: one per flop) and the reach weights."""
    bp, tables = _loaded(path)
    bb = int(bp.game["big_blind"])
    pre = tables.buckets(())
    root = bp.root
    open_label = _raise_label(bp, root, 3 * bb)
    to = int(open_label[1:])
    after_open = bp.child(root, open_label)
    sb = blueprint_matrix(bp, root, pre)
    bb_answer = blueprint_matrix(bp, after_open, pre)
    sb_labels = _labels(bp, root)
    bb_labels = _labels(bp, after_open)
    open_reach = sb[sb_labels.index(open_label)]
    call_reach = bb_answer[bb_labels.index("c")]
    flop_node = bp.child(after_open, "c")
    button_node = bp.child(flop_node, "c")
    bet_label = _raise_label(bp, button_node, to + to)  # half the pot (2 * to) on top of `to`
    defend_node = bp.child(button_node, bet_label)
    cbets, defends = [], []
    for flop in flops:
        b = tables.buckets(flop)
        live = (b >= 0).astype(float)
        check = blueprint_matrix(bp, flop_node, b)[_labels(bp, flop_node).index("c")]
        cbets.append((blueprint_matrix(bp, button_node, b), open_reach * live, b))
        defends.append((blueprint_matrix(bp, defend_node, b), call_reach * check * live, b))
    return {
        "bp": bp,
        "open": open_label,
        "sb": (sb, sb_labels),
        "bb": (bb_answer, bb_labels),
        "cbet": (*_joined(cbets), _labels(bp, button_node)),
        "defend": (*_joined(defends), _labels(bp, defend_node)),
    }


def _joined(per_flop: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> tuple[np.ndarray, ...]:
    """The flops' ``(strategies, weights, buckets)`` side by side: one column per (flop, holding)."""
    return tuple(np.concatenate(parts, axis=-1) for parts in zip(*per_flop, strict=True))


def _tv(a: np.ndarray, b: np.ndarray, w: np.ndarray) -> float:
    return float(np.average(0.5 * np.abs(a - b).sum(axis=0), weights=w))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", type=Path, nargs="+", help="blueprint files of one build, shortest first")
    parser.add_argument("--flops", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for f in args.files:
        if not f.is_file():
            parser.error(f"no such blueprint file: {f}")
    rng = np.random.default_rng(args.seed)
    flops = [tuple(int(c) for c in rng.choice(52, 3, replace=False)) for _ in range(args.flops)]
    probes = [probe(f, flops) for f in args.files]
    last = probes[-1]
    for f, p in zip(args.files, probes, strict=True):
        sb, sb_labels = p["sb"]
        bb_probs, bb_labels = p["bb"]
        uniform = np.ones(sb.shape[1])
        cb_probs, cb_w, cb_b, cb_labels = p["cbet"]
        bet = 1.0 - cb_probs[cb_labels.index("c")]
        weak = (cb_b >= 0) & (cb_b < p["bp"].abstraction.num_buckets[1] // 5)
        d_probs, d_w, _, d_labels = p["defend"]
        iterations = p["bp"].info.get("iterations")
        print(
            json.dumps(
                {
                    "file": str(f),
                    "iterations": iterations,
                    "sb": {label: round(float(x), 3) for label, x in zip(sb_labels, sb.mean(axis=1), strict=True)},
                    "bb_vs_open": {
                        label: round(float(x), 3) for label, x in zip(bb_labels, bb_probs.mean(axis=1), strict=True)
                    },
                    "cbet_rate": round(float(np.average(bet, weights=cb_w)), 3),
                    "cbet_rate_weakest_fifth": round(float(np.average(bet[weak], weights=cb_w[weak])), 3),
                    "fold_to_half_pot": round(float(np.average(d_probs[d_labels.index("f")], weights=d_w)), 3),
                    "tv_to_last": {
                        "sb": round(_tv(sb, last["sb"][0], uniform), 4),
                        "bb": round(_tv(bb_probs, last["bb"][0], uniform), 4),
                        "cbet": round(_tv(cb_probs, last["cbet"][0], cb_w), 4),
                        "defend": round(_tv(d_probs, last["defend"][0], d_w), 4),
                    },
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

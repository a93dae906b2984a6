"""Real-time re-solving for the cfr-search bot: a street's subgame from the public hand, blueprint ranges and values, safe re-solving.

At a river decision, :func:`street_subgame` builds the subgame that starts at the beginning of the
street (the board, both contributions, the chips behind, the big blind to act first) and the path of
the street's actions in it. The opponent's actual bets are always in the tree: a bet that is not
already one of the tree's sizes is inserted with ``extra`` at the node where it was made, and the tree
rebuilt, until every one of them is in it; the agent's own bets go to the nearest size of the tree.

:func:`blueprint_ranges` gives both players' ranges at the street's start by Bayes' rule
(:func:`~holdem_env.agents.cfr_search.beliefs.range_after`) along the blueprint actions taken before
it, each holding's probability read at its own bucket. :func:`resolve_street` then sets the agent's
strategy in the subgame to the blueprint's (:func:`map_blueprint`: each tree action takes the
probability of the blueprint actions nearest to it, by pot fraction; nodes the blueprint does not
reach stay uniform), takes the opponent's best-response counterfactual values against it as the
gadget's terminate values, and safely re-solves (:func:`~holdem_env.agents.cfr_search.resolve.resolve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from holdem_env.agents.cfr_search.beliefs import range_after
from holdem_env.agents.cfr_search.blueprint import Blueprint
from holdem_env.agents.cfr_search.follow import BucketTables, Public, Walk, blueprint_matrix, raise_fractions
from holdem_env.agents.cfr_search.resolve import Subgame, resolve
from holdem_env.agents.cfr_search.tree import DECISION, SubgameSpec, Tree, build_tree
from holdem_env.engine.ranges import NUM_HOLDINGS, blocked_by

__all__ = ["street_subgame", "blueprint_ranges", "map_blueprint", "resolve_street"]

_BOARD = (0, 3, 4, 5)


def _fraction(to: int, contrib: tuple[int, int], actor: int) -> float:
    opp = contrib[1 - actor]
    return (to - opp) / (2.0 * opp)


def _nearest(x: float, options: Sequence[tuple[float, Any]]) -> Any:
    """The option whose fraction is nearest ``x`` on a log scale (fractions > 0)."""
    return min(options, key=lambda o: abs(np.log(max(x, 1e-9) / max(o[0], 1e-9))))[1]


def street_subgame(
    public: Public, sizes: Sequence[float | str], max_raises: int
) -> tuple[SubgameSpec, dict[tuple[str, ...], list[int]], tuple[str, ...]]:
    """The subgame of the current street (turn or river): its spec, the inserted opponent bets and the
    path of the street's actions so far (see the module docstring)."""
    street = public.street
    c = public.street_start[street]
    spec = SubgameSpec(
        board=public.board, contrib=(c, c), stacks=(public.start[0] - c, public.start[1] - c), first=1,
        big_blind=public.big_blind,
    )
    seen = [a for a in public.actions if a[1] == street]
    extra: dict[tuple[str, ...], list[int]] = {}
    cap = public.cap
    while True:
        tree = build_tree(spec, sizes, max_raises, extra=extra)
        node: int = 0
        path: list[str] = []
        missing: tuple[tuple[str, ...], int] | None = None
        for p, _, kind, total in seen:
            labels = tree.labels[node]
            if kind == "f":
                label = "f"
            elif kind == "c":
                label = "k" if "k" in labels else "c"
            else:
                label = f"b{min(total, cap)}"
                if label not in labels:
                    if p != public.me:
                        missing = (tuple(path), min(total, cap))
                        break
                    bets = [(_fraction(int(lb[1:]), tree.contrib[node], p), lb) for lb in labels if lb.startswith("b")]
                    label = _nearest(_fraction(total, tree.contrib[node], p), bets) if bets else ("k" if "k" in labels else "c")
            path.append(label)
            node = tree.children[node][labels.index(label)]
        if missing is None:
            return spec, extra, tuple(path)
        extra.setdefault(missing[0], []).append(missing[1])


def blueprint_ranges(bp: Blueprint, public: Public, walked: Walk, tables: BucketTables) -> np.ndarray:
    """``(2, 1326)``: each player's range at the start of the current street, by Bayes' rule along
    the blueprint steps of the earlier streets (uniform over the holdings the board leaves when the
    blueprint never takes that line)."""
    out = np.zeros((2, NUM_HOLDINGS))
    for p in (0, 1):
        probs = []
        for step in walked.steps:
            if step.player == p and step.street < public.street:
                buckets = tables.buckets(public.board[: _BOARD[step.street]])
                probs.append(blueprint_matrix(bp, step.node, buckets)[step.child])
        try:
            out[p] = range_after(np.ones(NUM_HOLDINGS), probs, dead=public.board)
        except Exception:  # the blueprint never takes this line: nothing to learn from it
            out[p] = range_after(np.ones(NUM_HOLDINGS), [], dead=public.board)
    return out


def map_blueprint(sub: Subgame, bp: Blueprint, root: int, contrib: tuple[int, int], me: int, buckets: np.ndarray) -> int:
    """Set ``me``'s strategy in ``sub`` to the blueprint's below blueprint node ``root`` (the tree's
    contributions ``contrib`` there); returns the number of nodes set (see the module docstring)."""
    tree: Tree = sub.tree
    stack = int(bp.game["stack"])
    done = 0

    def visit(n: int, b: int, bc: tuple[int, int]) -> None:
        nonlocal done
        if tree.kind[n] != DECISION:
            return
        labels, kids, player = tree.labels[n], tree.children[n], tree.player[n]
        on = b >= 0 and int(bp.actor[b]) == player and int(bp.street[b]) == len(sub.spec.board) - 2
        if not on:
            for kid in kids:
                visit(kid, -1, bc)
            return
        blabels = [label for label, _ in bp.children(b)]
        braises = raise_fractions(bp, b, bc, stack)
        sraises = [(_fraction(int(lb[1:]), tree.contrib[n], player), j) for j, lb in enumerate(labels) if lb.startswith("b")]
        passive = labels.index("k") if "k" in labels else labels.index("c")
        cap = min(sub.spec.contrib[0] + sub.spec.stacks[0], sub.spec.contrib[1] + sub.spec.stacks[1])

        def sub_of(i: int) -> int:
            label = blabels[i]
            if label == "f":
                return labels.index("f") if "f" in labels else passive
            if label == "c":
                return passive
            if label == "a" and f"b{cap}" in labels:
                return labels.index(f"b{cap}")
            frac = next(f for f, j in braises if j == i)
            return int(_nearest(frac, sraises)) if sraises else passive

        def bp_of(j: int) -> int:
            label = labels[j]
            if label == "f":
                return blabels.index("f") if "f" in blabels else -1
            if label in ("k", "c"):
                return blabels.index("c") if "c" in blabels else -1
            if int(label[1:]) >= cap and "a" in blabels:
                return blabels.index("a")
            return int(_nearest(_fraction(int(label[1:]), tree.contrib[n], player), braises)) if braises else -1

        if player == me:
            probs = np.zeros((len(labels), NUM_HOLDINGS))
            table = blueprint_matrix(bp, b, buckets)
            for i in range(len(blabels)):
                probs[sub_of(i)] += table[i]
            sub.set_strategy(n, probs)
            done += 1
        for j, kid in enumerate(kids):
            i = bp_of(j)
            if i < 0:
                visit(kid, -1, bc)
                continue
            label = blabels[i]
            after = list(bc)
            after[player] = max(bc) if label == "c" else stack if label == "a" else int(label[1:]) if label[0] == "r" else bc[player]
            visit(kid, int(bp.first[b]) + i if label != "f" else -1, (after[0], after[1]))

    visit(0, root, contrib)
    return done


def resolve_street(
    bp: Blueprint,
    public: Public,
    walked: Walk,
    tables: BucketTables,
    *,
    sizes: Sequence[float | str],
    max_raises: int,
    iterations: int,
) -> tuple[Subgame, tuple[str, ...]]:
    """The safely re-solved subgame of the current street and the path of its actions so far."""
    spec, extra, path = street_subgame(public, sizes, max_raises)
    ranges = blueprint_ranges(bp, public, walked, tables)
    me, opp = public.me, 1 - public.me
    options: dict[str, Any] = {"sizes": tuple(sizes), "max_raises": max_raises, "extra": extra}
    given = Subgame(spec, ranges, **options)
    entered = walked.entered.get(public.street)
    if entered is not None:
        map_blueprint(given, bp, entered[0], entered[1], me, tables.buckets(public.board))
    their_values = given.values(opp, best_response=True)
    their_values[blocked_by(list(public.board))] = 0.0
    sub = resolve(spec, me, ranges[me], their_values, iterations, **options)
    return sub, path

"""Real-time re-solving for the cfr-search bot: a street's subgame from the public hand, blueprint ranges and values, safe re-solving.

At a re-solved decision, :func:`street_subgame` builds the subgame that starts at the beginning of the
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
The same holds on the turn (a river round inside the subgame) and on the flop (the agent's
``resolve="flop"`` option: its later rounds checked down); :func:`river_start` starts the river from a
turn's re-solve, :func:`flop_turn_start` the turn from a flop's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from holdem_env.agents.cfr_search.beliefs import range_after
from holdem_env.agents.cfr_search.blueprint import Blueprint
from holdem_env.agents.cfr_search.follow import BucketTables, Public, Walk, blueprint_matrix, raise_fractions
from holdem_env.agents.cfr_search.resolve import Subgame, resolve, subgame_tree
from holdem_env.agents.cfr_search.tree import CHANCE, DECISION, SubgameError, SubgameSpec, Tree
from holdem_env.engine.ranges import NUM_HOLDINGS, blocked_by

__all__ = [
    "street_subgame", "blueprint_ranges", "map_blueprint", "copy_strategy", "river_start", "resolve_street", "flop_turn_start",
]

_BOARD = (0, 3, 4, 5)


def _fraction(to: int, contrib: tuple[int, int], actor: int) -> float:
    opp = contrib[1 - actor]
    return (to - opp) / (2.0 * opp)


def _nearest(x: float, options: Sequence[tuple[float, Any]]) -> Any:
    """The option whose fraction is nearest ``x`` on a log scale (fractions > 0)."""
    return min(options, key=lambda o: abs(np.log(max(x, 1e-9) / max(o[0], 1e-9))))[1]


def street_subgame(
    public: Public,
    sizes: Sequence[float | str],
    max_raises: int,
    river_sizes: Sequence[float | str] | None = None,
    river_max_raises: int | None = None,
    turn_sizes: Sequence[float | str] | None = None,
) -> tuple[SubgameSpec, dict[tuple[str, ...], list[int]], tuple[str, ...]]:
    """The subgame of the current street (flop, turn or river): its spec, the inserted opponent bets and
    the path of the street's actions so far (see the module docstring). ``river_sizes`` and
    ``river_max_raises``: the river's betting inside a turn or flop subgame, ``turn_sizes`` the turn's
    inside a flop subgame (the tree built here is the solver's)."""
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
        tree = subgame_tree(
            spec, sizes, max_raises, extra=extra, river_sizes=river_sizes, river_max_raises=river_max_raises,
            turn_sizes=turn_sizes,
        )
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
    blueprint never takes that line). An answer to a bet below the tree's smallest size is the mix the
    agent plays (:func:`~holdem_env.agents.cfr_search.follow.under_size`)."""
    out = np.zeros((2, NUM_HOLDINGS))
    for p in (0, 1):
        probs = []
        for k, step in enumerate(walked.steps):
            if step.player == p and step.street < public.street:
                buckets = tables.buckets(public.board[: _BOARD[step.street]])
                under = walked.steps[k - 1].under if k else 0.0  # the bet this step answers
                probs.append(blueprint_matrix(bp, step.node, buckets, under)[step.child])
        try:
            out[p] = range_after(np.ones(NUM_HOLDINGS), probs, dead=public.board)
        except Exception:  # the blueprint never takes this line: nothing to learn from it
            out[p] = range_after(np.ones(NUM_HOLDINGS), [], dead=public.board)
    return out


def map_blueprint(
    sub: Subgame,
    bp: Blueprint,
    root: int,
    contrib: tuple[int, int],
    me: int,
    buckets: np.ndarray,
    river_buckets: Callable[[int], np.ndarray] | None = None,
    board_buckets: Callable[[tuple[int, ...]], np.ndarray] | None = None,
) -> int:
    """Set ``me``'s strategy in ``sub`` to the blueprint's below blueprint node ``root`` (the tree's
    contributions ``contrib`` there); returns the number of nodes set (see the module docstring).
    In a turn subgame, ``river_buckets(card)`` gives every holding's river bucket when ``card`` is the
    river, and the blueprint's river strategy is mapped below each river card too (without it, the
    river nodes stay uniform). ``board_buckets(board)`` does the same for any board a card dealt in the
    subgame leads to (a flop subgame's turns and rivers)."""
    tree: Tree = sub.tree
    stack = int(bp.game["stack"])
    done = 0
    street_of_root = len(sub.spec.board) - 2
    cap = min(sub.spec.contrib[0] + sub.spec.stacks[0], sub.spec.contrib[1] + sub.spec.stacks[1])
    plans: dict[tuple[Any, ...], tuple[list[int], list[int], list[str]]] = {}

    def plan(n: int, b: int, bc: tuple[int, int]) -> tuple[list[int], list[int], list[str]]:
        """The tree action of each blueprint action at ``n`` and the blueprint action (-1: none) of
        each tree action; the same for every river's copy of a node, so worked out once for them all."""
        labels, player = tree.labels[n], tree.player[n]
        key = (b, labels, tree.contrib[n], player, bc)
        got = plans.get(key)
        if got is not None:
            return got
        blabels = [label for label, _ in bp.children(b)]
        braises = raise_fractions(bp, b, bc, stack)
        sraises = [(_fraction(int(lb[1:]), tree.contrib[n], player), j) for j, lb in enumerate(labels) if lb.startswith("b")]
        passive = labels.index("k") if "k" in labels else labels.index("c")

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

        got = ([sub_of(i) for i in range(len(blabels))], [bp_of(j) for j in range(len(labels))], blabels)
        plans[key] = got
        return got

    def visit(n: int, b: int, bc: tuple[int, int], buckets: np.ndarray = buckets) -> None:
        nonlocal done
        if tree.kind[n] == CHANCE and b >= 0:
            for kid in tree.children[n]:
                if river_buckets is not None and street_of_root == 2:
                    visit(kid, b, bc, river_buckets(tree.river[kid]))
                elif board_buckets is not None:
                    visit(kid, b, bc, board_buckets(tree.board_of(kid)))
            return
        if tree.kind[n] != DECISION:
            return
        labels, kids, player = tree.labels[n], tree.children[n], tree.player[n]
        street = street_of_root + (tree.turn[n] >= 0) + (tree.river[n] >= 0)
        on = b >= 0 and int(bp.actor[b]) == player and int(bp.street[b]) == street
        if not on:
            for kid in kids:
                visit(kid, -1, bc, buckets)
            return
        sub_index, bp_index, blabels = plan(n, b, bc)
        if player == me:
            probs = np.zeros((len(labels), NUM_HOLDINGS))
            table = blueprint_matrix(bp, b, buckets)
            for i in range(len(blabels)):
                probs[sub_index[i]] += table[i]
            sub.set_strategy(n, probs)
            done += 1
        for j, kid in enumerate(kids):
            i = bp_index[j]
            if i < 0:
                visit(kid, -1, bc, buckets)
                continue
            label = blabels[i]
            after = list(bc)
            after[player] = max(bc) if label == "c" else stack if label == "a" else int(label[1:]) if label[0] == "r" else bc[player]
            visit(kid, int(bp.first[b]) + i if label != "f" else -1, (after[0], after[1]), buckets)

    visit(0, root, contrib)
    return done


def _cap(tree: Tree) -> int:
    spec = tree.spec
    return min(spec.contrib[0] + spec.stacks[0], spec.contrib[1] + spec.stacks[1])


def _match(label: str, tree: Tree, node: int, other: Tree, at: int) -> int:
    """The index of ``other``'s action at node ``at`` that stands for ``tree``'s action ``label`` at
    ``node``: the same kind (fold, check or call), all-in for all-in, else the bet nearest by pot fraction."""
    labels = other.labels[at]
    passive = labels.index("k") if "k" in labels else labels.index("c")
    if label == "f":
        return labels.index("f") if "f" in labels else passive
    if label in ("k", "c"):
        return passive
    player = tree.player[node]
    if int(label[1:]) >= _cap(tree) and f"b{_cap(other)}" in labels:
        return labels.index(f"b{_cap(other)}")
    bets = [(_fraction(int(lb[1:]), other.contrib[at], player), j) for j, lb in enumerate(labels) if lb.startswith("b")]
    return int(_nearest(_fraction(int(label[1:]), tree.contrib[node], player), bets)) if bets else passive


def copy_strategy(src: Subgame, s: int, dst: Subgame, d: int, me: int) -> int:
    """Set ``me``'s strategy in ``dst`` below node ``d`` to ``src``'s below node ``s`` (two trees of the
    same street, possibly other sizes or pots: actions matched by :func:`_match`; ``dst``'s nodes that
    ``src`` does not reach stay uniform); returns the number of nodes set."""
    st, dt = src.tree, dst.tree
    if st.kind[s] != DECISION or dt.kind[d] != DECISION or st.player[s] != dt.player[d]:
        return 0
    done = 0
    if dt.player[d] == me:
        probs = np.zeros((len(dt.labels[d]), NUM_HOLDINGS))
        for i, row in enumerate(src.strategy(s)):
            probs[_match(st.labels[s][i], st, s, dt, d)] += row
        dst.set_strategy(d, probs)
        done += 1
    for j, kid in enumerate(dt.children[d]):
        done += copy_strategy(src, st.children[s][_match(dt.labels[d][j], dt, d, st, s)], dst, kid, me)
    return done


def _range_at_street_end(sub: Subgame, path: Sequence[str], public: Public, street: int) -> tuple[int, np.ndarray]:
    """Where ``path`` (the actions of ``street``, 1 flop or 2 turn) ends that street in the re-solve
    ``sub``'s tree (the chance node dealing the next card), and my range there: ``sub``'s range times the
    re-solved strategy's probability of each of my actions (Bayes' rule), less the holdings the next
    street's board (``public``'s) blocks. Raises :class:`SubgameError` when the path leaves the tree or
    does not end the street."""
    name, after = ("flop", "turn") if street == 1 else ("turn", "river")
    tree = sub.tree
    node = 0
    steps = []
    for label in path:
        if tree.kind[node] != DECISION or label not in tree.labels[node]:
            raise SubgameError(f"the {name}'s path {tuple(path)!r} is not in its re-solved tree")
        j = tree.labels[node].index(label)
        if tree.player[node] == public.me:
            steps.append(sub.strategy(node)[j])
        node = tree.children[node][j]
    if tree.kind[node] != CHANCE or len(public.board) != _BOARD[street + 1]:
        raise SubgameError(f"the {name}'s path {tuple(path)!r} does not end the {name} before a {after}")
    return node, range_after(sub.ranges[public.me], steps, dead=public.board)


def river_start(
    turn: Subgame,
    turn_path: Sequence[str],
    public: Public,
    *,
    river_sizes: Sequence[float | str],
    river_max_raises: int,
) -> tuple[np.ndarray, np.ndarray]:
    """``(my range, the opponent's gadget values)`` at the start of the river, consistent with the turn's
    re-solve ``turn`` (its tree's path of the turn's actions ``turn_path``): my range is the turn's by
    Bayes' rule along the re-solved strategy's probabilities of my turn actions; the values are the
    opponent's best-response counterfactual values against the re-solve's river strategy below the
    river card dealt, carried onto the table's river pot (:func:`copy_strategy`). Raises
    :class:`SubgameError` when the path does not end the turn in that tree or no holding is left."""
    me = public.me
    tree = turn.tree
    node, my_range = _range_at_street_end(turn, turn_path, public, 2)
    node = tree.children[node][tree.labels[node].index(f"d{public.board[4]}")]
    c = public.street_start[3]
    spec = SubgameSpec(
        board=public.board, contrib=(c, c), stacks=(public.start[0] - c, public.start[1] - c), first=1,
        big_blind=public.big_blind,
    )
    ranges = np.zeros((2, NUM_HOLDINGS))
    ranges[me] = my_range
    ranges[1 - me] = (~blocked_by(list(public.board))).astype(np.float64)
    given = Subgame(spec, ranges, sizes=tuple(river_sizes), max_raises=river_max_raises)
    copy_strategy(turn, node, given, 0, me)
    return my_range, given.values(1 - me, best_response=True)


def _seeded(spec: SubgameSpec, extra: dict[tuple[str, ...], list[int]]) -> np.random.Generator:
    """A generator seeded by the subgame and its inserted bets (the same solve for the same public state)."""
    text = repr((spec, sorted((k, tuple(v)) for k, v in extra.items())))
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little"))


def resolve_street(
    bp: Blueprint,
    public: Public,
    walked: Walk,
    tables: BucketTables,
    *,
    sizes: Sequence[float | str],
    max_raises: int,
    iterations: int,
    river_sizes: Sequence[float | str] | None = None,
    river_max_raises: int | None = None,
    rivers: int = 48,
    start: tuple[np.ndarray, np.ndarray] | None = None,
    turn_sizes: Sequence[float | str] | None = None,
    turns: int = 49,
) -> tuple[Subgame, tuple[str, ...]]:
    """The safely re-solved subgame of the current street (flop, turn or river) and the path of its
    actions so far. ``start``: ``(my range, the opponent's gadget values)`` at the street's start (e.g.
    from :func:`river_start`); default from the blueprint (:func:`blueprint_ranges`, :func:`map_blueprint`).
    On the turn, ``river_sizes`` and ``river_max_raises`` shape the river inside the subgame and
    ``rivers`` below 48 samples that many river cards per iteration, from a generator seeded by the
    subgame (:func:`_seeded`), so the same public state gives the same solve. On the flop,
    ``turn_sizes`` and ``river_sizes`` shape the later rounds (empty: checked down, the flop's
    continuation in :func:`flop_turn_start`), and ``turns`` and ``rivers`` below 49 sample the cards the
    same way; the blueprint is mapped onto the flop's decisions only."""
    street = public.street
    if street not in (1, 2, 3):
        raise SubgameError(f"re-solving starts on the flop, the turn or the river, not street {street}")
    later = street < 3
    spec, extra, path = street_subgame(
        public, sizes, max_raises, river_sizes if later else None, river_max_raises if later else None,
        turn_sizes if street == 1 else None,
    )
    me, opp = public.me, 1 - public.me
    options: dict[str, Any] = {"sizes": tuple(sizes), "max_raises": max_raises, "extra": extra}
    if later:
        options.update(river_sizes=river_sizes, river_max_raises=river_max_raises)
    if street == 1:
        options.update(turn_sizes=turn_sizes)
    if start is None:
        ranges = blueprint_ranges(bp, public, walked, tables)
        given = Subgame(spec, ranges, **options)
        entered = walked.entered.get(street)
        if entered is not None:
            rivers_of = tables.river_buckets(public.board) if street == 2 else {}
            map_blueprint(given, bp, entered[0], entered[1], me, tables.buckets(public.board), rivers_of.__getitem__ if street == 2 else None)
        my_range, their_values = ranges[me], given.values(opp, best_response=True)
    else:
        my_range, their_values = start[0], np.array(start[1], dtype=np.float64)
    their_values[blocked_by(list(public.board))] = 0.0
    sampled = (street == 2 and rivers < 48) or (street == 1 and min(turns, rivers) < 49)
    sampling: dict[str, Any] = {"rivers": rivers if sampled else 48, "rng": _seeded(spec, extra) if sampled else None}
    if street == 1:
        sampling.update(turns=turns if sampled else 49, rivers=rivers if sampled else 49)
    sub = resolve(spec, me, my_range, their_values, iterations, **sampling, **options)
    sub.finish()  # only its strategies are asked from now on: the regrets' memory goes to the next solve
    return sub, path


def flop_turn_start(
    flop: Subgame,
    flop_path: Sequence[str],
    bp: Blueprint,
    public: Public,
    walked: Walk,
    tables: BucketTables,
    **turn_tree: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """``(my range, the opponent's gadget values)`` at the start of the turn after a flop re-solve
    ``flop`` (its tree's path of the flop's actions ``flop_path``): my range is the flop's by Bayes' rule
    along the re-solved strategy's probabilities of my flop actions; the opponent's range is the
    blueprint's, and its values are its best response against the blueprint's turn strategy
    (:func:`map_blueprint`, every river card at its buckets) with my range. Not continual re-solving:
    the flop's re-solve checks the later streets down, so it has no turn strategy to hold the opponent
    to. Raises :class:`SubgameError` when the path does not end the flop in that tree."""
    me = public.me
    ranges = blueprint_ranges(bp, public, walked, tables)
    ranges[me] = _range_at_street_end(flop, flop_path, public, 1)[1]
    spec, extra, _ = street_subgame(public, turn_tree["sizes"], turn_tree["max_raises"], turn_tree["river_sizes"], turn_tree["river_max_raises"])
    given = Subgame(spec, ranges, extra=extra, **turn_tree)
    entered = walked.entered.get(2)
    if entered is not None:
        map_blueprint(given, bp, entered[0], entered[1], me, tables.buckets(public.board), tables.river_buckets(public.board).__getitem__)
    return ranges[me], given.values(1 - me, best_response=True)

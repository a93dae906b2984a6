"""Following a heads-up hand's public action history on the blueprint's betting tree, with every holding's bucket on each street.

:func:`public_state` reads one seat's sealed view (``info["view"]``) into a :class:`Public`: the
seats' blueprint roles (player 0 is the button, 1 the big blind), each action as ``(player, street,
kind, raise-to total)`` with totals counted over the whole hand, and the starting stacks. It refuses
tables the blueprint cannot play (not heads-up, other blind ratios) with a clear error.

:func:`walk` follows those actions down the blueprint tree. Checks, calls and folds are the tree's
``c`` and ``f``. A bet or raise is compared with the tree's raises at that node as a fraction of the
pot after a call (the blueprint's own contributions for the tree's sizes, the table's for the bet):
the agent's own bets go to the nearest size (the agent chose them as the nearest legal amount to a
tree size), the opponent's are translated by the pseudo-harmonic mapping of Ganzfried and Sandholm
(2013) between the two neighbouring sizes (the all-in is a neighbour only of a bet that leaves the
bettor less behind than the pot once the bet is called: an uncommitted bet read as an all-in would
end the tree and leave the rest of the hand to the off-tree rule), randomised by a uniform per bet from :func:`bet_uniform`
(a keyed hash of the public history, so that the agent and its range answers agree). Where the table's
hand leaves the tree (more raises than the tree allows, a street the tree has ended by an all-in that
the table has not), the walk says so (``lost``) and keeps the steps taken before.

:class:`BucketTables` gives the abstraction's bucket of every one of the 1,326 holdings on a board,
from one vectorised pass per flop (the builder's route), so that a decision and its range answers
read the same numbers.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from holdem_env.agents.cfr_lite.actions import pseudo_harmonic
from holdem_env.agents.cfr_lite.buckets import preflop_class
from holdem_env.agents.cfr_search.abstraction import CardAbstraction, flop_strengths, histograms_from_strengths
from holdem_env.agents.cfr_search.blueprint import Blueprint
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import HOLDINGS

__all__ = ["Public", "Step", "Walk", "public_state", "walk", "bet_uniform", "BucketTables", "STREETS", "under_size"]

STREETS = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True)
class Public:
    """The public hand as the blueprint sees it (amounts in table chips).

    ``actions``: ``(player, street, kind, total)`` with ``kind`` one of ``f``, ``c`` (check or
    call), ``r`` (bet or raise to ``total`` chips over the hand); ``start``: each player's chips at
    the start of the hand; ``street_start``: each street's contribution of either player when it
    began (equal); ``me``: the viewing seat's player; ``key``: the public history, hashable.
    """

    me: int
    seat_of: tuple[int, int]
    small_blind: int
    big_blind: int
    start: tuple[int, int]
    actions: tuple[tuple[int, int, str, int], ...]
    contrib: tuple[int, int]
    street: int
    street_start: tuple[int, ...]
    board: tuple[int, ...]
    key: tuple[Any, ...]

    @property
    def cap(self) -> int:
        """The most either player can put in over the hand (the smaller starting stack)."""
        return min(self.start)


def public_state(view: Mapping[str, Any], blueprint_blinds: tuple[int, int]) -> Public:
    """Read a seat's view (:class:`~holdem_env.env._view.SeatView` or a mapping) into a :class:`Public`."""
    dealt = [bool(d) for d in view["dealt_in"]]
    if len(dealt) != 2 or not all(dealt):
        raise ConfigError(
            "table", f"{sum(dealt)} players dealt in of {len(dealt)} seats",
            "cfr-search plays heads-up only: use a table of 2 seats (--players 2)",
        )
    sb, bb = int(view["small_blind"]), int(view["big_blind"])
    bsb, bbb = blueprint_blinds
    if sb * bbb != bb * bsb or bb <= 0:
        raise ConfigError(
            "blinds", f"{sb}/{bb}",
            f"cfr-search's blueprint was built for blinds in the ratio {bsb}/{bbb}: use blinds in that ratio "
            "(e.g. 5/10 or 50/100)",
        )
    button = int(view["button"])
    seat_of = (button, 1 - button)  # player 0 is the button (small blind), player 1 the big blind
    player_of = {seat_of[0]: 0, seat_of[1]: 1}
    contrib = [sb, bb]
    street_bet = [sb, bb]
    street = 0
    street_start = [0]
    actions = []
    for seat, street_name, kind, to in view["history"]:
        s = STREETS.index(str(street_name))
        while street < s:
            street += 1
            street_bet = [0, 0]
            street_start.append(contrib[0])
        p = player_of[int(seat)]
        if kind == "fold":
            actions.append((p, s, "f", contrib[p]))
            continue
        if kind == "check":
            actions.append((p, s, "c", contrib[p]))
            continue
        new = int(to) if kind in ("call", "bet", "raise") else street_bet[p]
        contrib[p] += new - street_bet[p]
        street_bet[p] = new
        actions.append((p, s, "c" if kind == "call" else "r", contrib[p]))
    now = STREETS.index(str(view["street"]))
    while street < now:
        street += 1
        street_start.append(contrib[0])
    stacks = [int(view["stacks"][seat_of[p]]) for p in (0, 1)]
    start = (stacks[0] + contrib[0], stacks[1] + contrib[1])
    board = tuple(parse_cards(view["board"])) if view["board"] else ()
    key = (button, sb, bb, start, tuple(actions), board)
    return Public(
        me=player_of[int(view["seat"])], seat_of=seat_of, small_blind=sb, big_blind=bb, start=start,
        actions=tuple(actions), contrib=(contrib[0], contrib[1]), street=now, street_start=tuple(street_start),
        board=board, key=key,
    )


def bet_uniform(key: int, public: Public, index: int) -> float:
    """The translation uniform of action ``index``: a hash of ``key`` and the public hand up to it."""
    text = repr((key, public.key[:4], public.actions[: index + 1], public.board[: (0, 3, 4, 5)[public.actions[index][1]]]))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") / 2.0**64


@dataclass
class Step:
    """One action followed on the tree: the node it was taken at, the child index, the actor; ``under``:
    for a bet below the node's smallest size, the pseudo-harmonic weight of reading it as no bet."""

    node: int
    child: int
    player: int
    street: int
    under: float = 0.0


@dataclass
class Walk:
    """Where the public history leads on the blueprint: the node (``-1`` when ``lost``), the tree's
    contributions there, and the steps taken on the tree."""

    node: int
    contrib: tuple[int, int]
    steps: list[Step] = field(default_factory=list)
    lost: bool = False
    #: street -> (node, contributions) where the walk first stood on that street
    entered: dict[int, tuple[int, tuple[int, int]]] = field(default_factory=dict)

    @property
    def under(self) -> float:
        """When the last action is the opponent's bet or raise below the node's smallest size (read as
        that size): the pseudo-harmonic weight of reading it as no bet at all (0 otherwise)."""
        return self.steps[-1].under if self.steps else 0.0


def raise_fractions(bp: Blueprint, node: int, contrib: tuple[int, int], stack: int) -> list[tuple[float, int]]:
    """``(pot fraction, child index)`` of each raise at ``node`` (contributions ``contrib``, sorted)."""
    actor = int(bp.actor[node])
    opp = contrib[1 - actor]
    out = []
    for i, (label, _) in enumerate(bp.children(node)):
        if label.startswith("r"):
            total = int(label[1:])
        elif label == "a":
            total = stack
        else:
            continue
        out.append(((total - opp) / (2.0 * opp), i))
    return sorted(out)


def _after(label: str, actor: int, contrib: tuple[int, int], stack: int) -> tuple[int, int]:
    c = list(contrib)
    if label == "c":
        c[actor] = max(c)
    elif label == "a":
        c[actor] = stack
    elif label.startswith("r"):
        c[actor] = int(label[1:])
    return (c[0], c[1])


def walk(bp: Blueprint, public: Public, key: int) -> Walk:
    """Follow ``public``'s actions on ``bp`` (see the module docstring); ``key`` keys the translations."""
    stack = int(bp.game["stack"])
    node = bp.root
    contrib = (int(bp.game["small_blind"]), int(bp.game["big_blind"]))
    real = [public.small_blind, public.big_blind]
    out = Walk(node, contrib)
    for i, (p, s, kind, total) in enumerate(public.actions):
        under = 0.0
        if bp.actor[node] >= 0:
            out.entered.setdefault(int(bp.street[node]), (node, contrib))
        if bp.actor[node] != p or bp.street[node] != s:
            out.lost = True
            break
        labels = [label for label, _ in bp.children(node)]
        if kind in ("f", "c"):
            if kind not in labels:
                out.lost = True
                break
            child = labels.index(kind)
        else:
            sizes = raise_fractions(bp, node, contrib, stack)
            if total < public.cap and public.cap - total > 2 * total and len(sizes) > 1:
                # a bet that leaves the bettor more behind than the pot once called is never the all-in
                sizes = [(f, c) for f, c in sizes if labels[c] != "a"]
            if not sizes:
                out.lost = True
                break
            if total >= public.cap and "a" in labels:
                child = labels.index("a")
            else:
                opp = real[1 - p]
                x = (total - opp) / (2.0 * opp)
                fr = [f for f, _ in sizes]
                if x <= fr[0]:
                    j = 0
                    if p != public.me and 0.0 <= x < fr[0]:
                        under = pseudo_harmonic(x, 0.0, fr[0])
                elif x >= fr[-1]:
                    j = len(fr) - 1
                else:
                    hi = int(np.searchsorted(fr, x))
                    lo = hi - 1
                    if p == public.me:  # our own bet: the nearest size (log scale)
                        j = lo if abs(math.log(x / fr[lo])) <= abs(math.log(fr[hi] / x)) else hi
                    else:
                        j = lo if bet_uniform(key, public, i) < pseudo_harmonic(x, fr[lo], fr[hi]) else hi
                child = sizes[j][1]
        out.steps.append(Step(node, child, p, s, under))
        label = labels[child]
        contrib = _after(label, p, contrib, stack)
        real[p] = total if kind != "c" else max(real)
        node = int(bp.first[node]) + child
        if kind == "f":
            break
    out.node, out.contrib = node, contrib
    if not out.lost and (bp.actor[node] < 0 or bp.street[node] != public.street):
        out.lost = True
    if not out.lost:
        out.entered.setdefault(int(bp.street[node]), (node, contrib))
    return out


@functools.lru_cache(maxsize=1)
def preflop_classes() -> np.ndarray:
    """The preflop class of each of the 1,326 holdings."""
    return np.array([preflop_class((int(a), int(b))) for a, b in HOLDINGS], dtype=np.int64)


class BucketTables:
    """Every holding's bucket on each street of one flop's run-outs (``-1`` where blocked).

    Built from :func:`~holdem_env.agents.cfr_search.abstraction.flop_strengths` (every run-out's river
    equity of every holding) once per flop; a few flops are kept.
    """

    def __init__(self, abstraction: CardAbstraction, kept: int = 4) -> None:
        self.abstraction = abstraction
        self.kept = kept
        self._flops: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}

    def _flop(self, flop: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        key = tuple(sorted(flop))
        got = self._flops.get(key)
        if got is None:
            runouts, strengths = flop_strengths(list(key))
            flop_hist, turn_hist = histograms_from_strengths(list(key), runouts, strengths, self.abstraction.config.bins)
            if len(self._flops) >= self.kept:
                self._flops.pop(next(iter(self._flops)))
            got = self._flops[key] = (runouts, strengths, flop_hist, turn_hist)
        return got

    def buckets(self, board: Sequence[int]) -> np.ndarray:
        """``(1326,)`` buckets on ``board`` (0, 3, 4 or 5 cards); ``-1`` for holdings it blocks."""
        b = tuple(int(c) for c in board)
        if len(b) == 0:
            return preflop_classes()
        if len(b) not in (3, 4, 5):
            raise ConfigError("board", b, "must have 0, 3, 4 or 5 cards")
        runouts, strengths, flop_hist, turn_hist = self._flop(b[:3])
        blocked = np.isin(HOLDINGS, b).any(axis=1)
        if len(b) == 3:
            out = self.abstraction.flop_bucket_of(flop_hist)
        elif len(b) == 4:
            out = self.abstraction.turn_bucket_of(turn_hist[b[3]])
        else:
            t, r = b[3], b[4]
            row = int(np.flatnonzero(((runouts[:, 0] == t) & (runouts[:, 1] == r)) | ((runouts[:, 0] == r) & (runouts[:, 1] == t)))[0])
            out = self.abstraction.river_bucket_of(np.nan_to_num(strengths[row]))
        out = np.asarray(out, dtype=np.int64).copy()
        out[blocked] = -1
        return out

    def river_buckets(self, board: Sequence[int]) -> dict[int, np.ndarray]:
        """``{river card: (1326,) buckets}`` for every river card after the turn ``board`` (4 cards): the
        numbers of :meth:`buckets` on ``board`` plus that card, from one vectorised pass."""
        b = tuple(int(c) for c in board)
        if len(b) != 4:
            raise ConfigError("board", b, "must have 4 cards (a turn board)")
        runouts, strengths, _, _ = self._flop(b[:3])
        t = b[3]
        rows = np.flatnonzero((runouts[:, 0] == t) | (runouts[:, 1] == t))
        rivers = np.where(runouts[rows, 0] == t, runouts[rows, 1], runouts[rows, 0])
        buckets = np.asarray(self.abstraction.river_bucket_of(np.nan_to_num(strengths[rows])), dtype=np.int64)
        blocked = np.isin(HOLDINGS, b).any(axis=1)
        out = {}
        for i, r in enumerate(rivers.tolist()):
            row = buckets[i].copy()
            row[blocked | (HOLDINGS == r).any(axis=1)] = -1
            out[int(r)] = row
        return out


def under_size(probs: np.ndarray, fold: int, call: int, weight: float) -> np.ndarray:
    """The answer to a bet below the tree's smallest size read as that size: ``weight`` (the
    pseudo-harmonic weight of no bet, :attr:`Step.under`) of each holding's fold moved to the call."""
    out = np.array(probs, dtype=np.float64)
    moved = weight * out[fold]
    out[fold] -= moved
    out[call] += moved
    return out


def blueprint_matrix(bp: Blueprint, node: int, buckets: np.ndarray, under: float = 0.0) -> np.ndarray:
    """``(children, 1326)``: the blueprint's probabilities at ``node`` for every holding's bucket
    (uniform for blocked holdings). ``under`` > 0 (:attr:`Step.under` of the bet this node answers):
    the bet was below the smallest size, and :func:`under_size` mixes in the answer to no bet."""
    probs = _node_table(bp, node)[:, buckets]  # bucket -1 (blocked) reads the last, uniform, column
    if under > 0.0:
        labels = [label for label, _ in bp.children(node)]
        if "f" in labels and "c" in labels:
            probs = under_size(probs, labels.index("f"), labels.index("c"), under)
    return probs


def _node_table(bp: Blueprint, node: int) -> np.ndarray:
    """``(children, buckets + 1)``: the blueprint's probabilities at ``node`` for each bucket, then a
    uniform column (kept per blueprint: a node's table is read once per holding's bucket, often)."""
    cache: dict[int, np.ndarray] = bp.__dict__.setdefault("_node_tables", {})
    got = cache.get(node)
    if got is None:
        k = int(bp.num_children[node])
        n_buckets = bp.abstraction.num_buckets[int(bp.street[node])]
        start = int(bp.cell[node])
        q = bp._q[start : start + n_buckets * k].reshape(n_buckets, k)
        total = q.sum(axis=1, keepdims=True)
        table = np.where(total > 0, q / np.where(total > 0, total, 1.0), 1.0 / k)
        got = np.ascontiguousarray(np.vstack([table, np.full((1, k), 1.0 / k)]).T)
        if len(cache) >= 200_000:
            cache.clear()
        cache[node] = got
    return got

"""Solving and safely re-solving heads-up flop, turn and river subgames over full ranges (1,326 holdings).

:class:`Subgame` builds a subgame's public tree (:func:`~holdem_env.agents.cfr_search.tree.build_tree`),
its showdown strengths from the evaluator (:func:`~holdem_env.engine.ranges.values_on_boards`) and the
compiled solver (:class:`~holdem_env.agents.cfr_search._subgame.SubgameCore`), then runs discounted CFR
(DCFR, Brown and Sandholm 2019; CFR+ as an option). It answers the average strategy at any node for
all 1,326 holdings, counterfactual values, exact best-response values and exploitability.

:func:`resolve` is safe re-solving: the same subgame with Burch, Johanson and Bowling's (2014)
re-solving gadget above its root, where the opponent chooses per holding between its counterfactual
value under the given (blueprint) strategy and entering the subgame. Any equilibrium of the gadget game
gives the opponent no holding that does better against the re-solved strategy than against the
blueprint, so re-solving does not make the strategy more exploitable.

Values are in chips, counted from the start of the hand (a holding's payoff includes what it put in
before the subgame). A counterfactual value of holding ``h`` is the sum over the opponent's holdings
``o`` that share no card with ``h`` of the opponent's reach of ``o`` times ``h``'s payoff: it is not
divided by the opponent's range mass (:meth:`Subgame.game_value` is).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence

import numpy as np

from holdem_env.agents.cfr_search._subgame import SubgameCore
from holdem_env.agents.cfr_search.tree import DECISION, SHOWDOWN, SubgameError, SubgameSpec, Tree, build_tree
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, blocked_by, values_on_boards

__all__ = ["Subgame", "resolve", "opponent_values", "subgame_tree"]

SCHEMES = ("dcfr", "cfr+")


@functools.lru_cache(maxsize=64)
def _tree(
    spec: SubgameSpec,
    sizes: tuple[float | str, ...],
    max_raises: int,
    extra: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...],
    river_sizes: tuple[float | str, ...] | None,
    river_max_raises: int | None,
    turn_sizes: tuple[float | str, ...] | None = None,
    turn_max_raises: int | None = None,
) -> Tree:
    return build_tree(
        spec,
        sizes,
        max_raises,
        extra=dict(extra),
        river_sizes=river_sizes,
        river_max_raises=river_max_raises,
        turn_sizes=turn_sizes,
        turn_max_raises=turn_max_raises,
    )


def subgame_tree(
    spec: SubgameSpec,
    sizes: Sequence[float | str],
    max_raises: int,
    extra: Mapping[tuple[str, ...], Sequence[int]] | None = None,
    river_sizes: Sequence[float | str] | None = None,
    river_max_raises: int | None = None,
    turn_sizes: Sequence[float | str] | None = None,
    turn_max_raises: int | None = None,
) -> Tree:
    """:func:`build_tree`, built once for the same arguments (the last 64 kept; a tree is never changed
    after it is built, so solves of the same subgame share it)."""
    frozen = tuple(sorted((tuple(k), tuple(int(x) for x in v)) for k, v in (extra or {}).items()))
    return _tree(
        spec,
        tuple(sizes),
        int(max_raises),
        frozen,
        None if river_sizes is None else tuple(river_sizes),
        river_max_raises,
        None if turn_sizes is None else tuple(turn_sizes),
        turn_max_raises,
    )


@functools.lru_cache(maxsize=8)
def _showdown_strengths(board: tuple[int, ...]) -> tuple[np.ndarray, dict[tuple[int, ...], int]]:
    """Every five-card board a subgame on ``board`` can reach (the cards dealt, in card order): each
    holding's showdown strength there (``(boards, 1326)`` int64, 0 where the board blocks it), and the
    row of each set of dealt cards. Kept for the last few boards: the bot's solves of one street share
    them (a flop's 1,176 boards cost a good part of a second). Read-only."""
    rest = [c for c in range(52) if c not in board]
    boards = np.array([list(board) + list(more) for more in itertools.combinations(rest, 5 - len(board))], dtype=np.int64)
    strength = values_on_boards(boards).astype(np.int64)
    for b, full in enumerate(boards):
        strength[b, blocked_by(list(full))] = 0
    strength.flags.writeable = False
    return strength, {tuple(int(c) for c in full[len(board) :]): i for i, full in enumerate(boards.tolist())}


def _check_range(weights: np.ndarray, what: str) -> np.ndarray:
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (NUM_HOLDINGS,) or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise SubgameError(f"{what} is {NUM_HOLDINGS} finite weights >= 0 (one per holding), got shape {w.shape}")
    return w


class Subgame:
    """A heads-up subgame and its solver.

    ``ranges`` is ``(2, 1326)``: each player's reach of each holding at the subgame's root (holdings the
    board blocks are ignored). ``holdings`` restricts the holdings the solver keeps (indices into
    :data:`~holdem_env.engine.ranges.HOLDINGS`; default every one the board leaves): small games for
    tests. ``sizes`` and ``max_raises`` shape the betting (:func:`build_tree`); ``river_sizes`` and
    ``river_max_raises`` the river's betting inside a turn or flop subgame, ``turn_sizes`` and
    ``turn_max_raises`` the turn's inside a flop subgame (default: as the round before); ``extra``
    inserts exact bets (the opponent's actual bet).
    """

    def __init__(
        self,
        spec: SubgameSpec,
        ranges: np.ndarray,
        *,
        sizes: Sequence[float | str] = (0.5, 1.0, "allin"),
        max_raises: int = 2,
        river_sizes: Sequence[float | str] | None = None,
        river_max_raises: int | None = None,
        turn_sizes: Sequence[float | str] | None = None,
        turn_max_raises: int | None = None,
        extra: Mapping[tuple[str, ...], Sequence[int]] | None = None,
        holdings: Sequence[int] | np.ndarray | None = None,
    ) -> None:
        r = np.asarray(ranges, dtype=np.float64)
        if r.shape != (2, NUM_HOLDINGS) or not np.all(np.isfinite(r)) or np.any(r < 0):
            raise SubgameError(f"ranges is (2, {NUM_HOLDINGS}) finite weights >= 0, got shape {r.shape}")
        self.spec = spec
        self.tree: Tree = subgame_tree(
            spec,
            sizes,
            max_raises,
            extra=extra,
            river_sizes=river_sizes,
            river_max_raises=river_max_raises,
            turn_sizes=turn_sizes,
            turn_max_raises=turn_max_raises,
        )
        board = list(spec.board)
        if holdings is None:
            self.holdings = np.flatnonzero(~blocked_by(board))
        else:
            self.holdings = np.unique(np.asarray(holdings, dtype=np.int64))
            if self.holdings.size == 0 or self.holdings.min() < 0 or self.holdings.max() >= NUM_HOLDINGS:
                raise SubgameError(f"holdings are indices in 0..{NUM_HOLDINGS - 1}, at least one")
            if blocked_by(board)[self.holdings].any():
                raise SubgameError("holdings must share no card with the board")
        cards = HOLDINGS[self.holdings]
        strengths, row_of = _showdown_strengths(spec.board)
        t = self.tree
        node_board = np.array(
            [row_of[tuple(sorted(c for c in (t.turn[i], t.river[i]) if c >= 0))] if k == SHOWDOWN else 0 for i, k in enumerate(t.kind)],
            dtype=np.int64,
        )
        strength = strengths[:, self.holdings]
        arrays = self.tree.arrays()
        self.core = SubgameCore(
            arrays["kind"],
            arrays["player"],
            arrays["amount"],
            arrays["first_child"],
            arrays["n_children"],
            arrays["children"],
            arrays["dealt"],
            arrays["row"],
            self.tree.n_rows,
            cards,
            node_board,
            strength,
            r[:, self.holdings],
        )
        self.ranges = r
        self.iterations = 0
        self._avg = np.asarray(self.core.avg)  # the strategy sums, as an array (made once: strategy, set_strategy)
        self.finished = False

    def finish(self) -> None:
        """Let go of the solver's regrets (tens of megabytes in a turn subgame, whose memory the next
        solve then reuses); strategies, values and exploitability stay as they are, but :meth:`solve`
        refuses from now on."""
        self.core.drop_regrets()
        self.finished = True

    # --- solving -------------------------------------------------------------------------------
    def solve(
        self,
        iterations: int,
        scheme: str = "dcfr",
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 2.0,
        rivers: int = 48,
        rng: np.random.Generator | None = None,
        turns: int | None = None,
    ) -> None:
        """Run ``iterations`` more iterations (each updates player 0, then player 1). ``"dcfr"`` discounts
        positive regrets by t^alpha/(t^alpha+1), negative ones by t^beta/(t^beta+1) and the strategy sum by
        (t/(t+1))^gamma; ``"cfr+"`` floors regrets at 0 and weighs iteration t by t.

        Public chance sampling, with ``rng`` drawing the cards: in a turn subgame, ``rivers`` below 48 walks
        only that many river cards per iteration (each iteration costs about rivers / 48 as much, and its
        values are unbiased). In a flop subgame, ``turns`` (1..49, default every one) turn cards are walked
        per iteration, and ``rivers`` (2..49; 48 or more: every one) cards are drawn from the 49 left after
        the flop, of which each turn walks those that are not the turn card itself."""
        if self.finished:
            raise SubgameError("this subgame is finished (Subgame.finish let go of its regrets): it cannot be solved further")
        if scheme not in SCHEMES:
            raise SubgameError(f"scheme is one of {SCHEMES}, got {scheme!r}")
        if iterations < 0:
            raise SubgameError(f"iterations is >= 0, got {iterations!r}")
        deck = np.array([c for c in range(52) if c not in self.spec.board], dtype=np.int64)
        flop = len(self.spec.board) == 3
        if flop:
            turns = 49 if turns is None else turns
            if not 1 <= turns <= 49 or not 2 <= rivers <= 49 or ((turns < 49 or rivers < 48) and rng is None):
                raise SubgameError(
                    f"in a flop subgame turns is 1..49 and rivers 2..49, with an rng to draw them (turns below 49, "
                    f"rivers below 48), got turns={turns!r}, rivers={rivers!r}, rng={rng!r}"
                )
        elif turns is not None:
            raise SubgameError(f"turns samples a flop subgame's turn cards; this board has {len(self.spec.board)} cards")
        elif not 1 <= rivers <= 48 or (rivers < 48 and rng is None):
            raise SubgameError(f"rivers is 1..48, with an rng to draw them below 48, got {rivers!r}, rng={rng!r}")
        for _ in range(iterations):
            if flop and rng is not None and turns is not None and (turns < 49 or rivers < 48):
                drawn_turns = rng.choice(deck, turns, replace=False) if turns < 49 else deck
                self.core.set_deal(rng.choice(deck, rivers, replace=False) if rivers < 48 else deck, drawn_turns)
            elif rivers < 48 and len(self.spec.board) == 4 and rng is not None:
                self.core.set_deal(rng.choice(deck, rivers, replace=False))
            t = self.iterations  # the sums so far cover iterations 1..t
            if scheme == "cfr+":
                pos, neg, avg = 1.0, 0.0, (t / (t + 1) if t else 0.0)
            else:
                pos = t**alpha / (t**alpha + 1) if t else 0.0
                neg = t**beta / (t**beta + 1) if t else 0.0
                avg = (t / (t + 1)) ** gamma if t else 0.0
            for player in (0, 1):
                self.core.iterate(player, pos, neg, avg)
            self.iterations += 1
        self.core.set_deal(deck)

    # --- answers -------------------------------------------------------------------------------
    def _full(self, values: np.ndarray, fill: float = 0.0) -> np.ndarray:
        out = np.full(NUM_HOLDINGS, fill)
        out[self.holdings] = values
        return out

    def strategy(self, node: int | Sequence[str] = 0) -> np.ndarray:
        """The average strategy at a decision ``node`` (an id or a path of action labels): ``(actions,
        1326)`` probabilities in the order of ``tree.labels[node]``; uniform for holdings the solver
        does not keep or never reached."""
        n = node if isinstance(node, int) else self.tree.find(node)
        if self.tree.kind[n] != DECISION:
            raise SubgameError(f"node {n} is not a decision (its labels: {self.tree.labels[n]!r})")
        na = len(self.tree.children[n])
        sums = self._avg[self.tree.row[n] : self.tree.row[n] + na]
        total = sums.sum(axis=0)
        probs = np.where(total > 0, sums / np.where(total > 0, total, 1.0), 1.0 / na)
        out = np.full((na, NUM_HOLDINGS), 1.0 / na)
        out[:, self.holdings] = probs
        return out

    def set_strategy(self, node: int | Sequence[str], probs: np.ndarray) -> None:
        """Make the average strategy at ``node`` equal to ``probs`` ``(actions, 1326)`` (a given strategy
        to evaluate, such as a blueprint's)."""
        n = node if isinstance(node, int) else self.tree.find(node)
        na = len(self.tree.children[n])
        p = np.asarray(probs, dtype=np.float64)
        if self.tree.kind[n] != DECISION or p.shape != (na, NUM_HOLDINGS) or np.any(p < 0):
            raise SubgameError(f"a strategy at node {n} is ({na}, {NUM_HOLDINGS}) probabilities >= 0")
        self._avg[self.tree.row[n] : self.tree.row[n] + na] = p[:, self.holdings]

    def values(self, player: int, best_response: bool = False) -> np.ndarray:
        """Counterfactual values ``(1326,)`` of ``player``'s holdings at the root against the other's reach
        in ``ranges``: both players on their average strategies, or ``player`` best-responding."""
        if player not in (0, 1):
            raise SubgameError(f"player is 0 or 1, got {player!r}")
        return self._full(self.core.root_values(player, 1 if best_response else 2))

    def pair_mass(self) -> float:
        """Sum over pairs of holdings that share no card of the two players' reach products."""
        r0, r1 = self.ranges[0][self.holdings], self.ranges[1][self.holdings]
        cards = HOLDINGS[self.holdings]
        card_sum = np.zeros(52)
        np.add.at(card_sum, cards[:, 0], r1)
        np.add.at(card_sum, cards[:, 1], r1)
        compatible = r1.sum() - card_sum[cards[:, 0]] - card_sum[cards[:, 1]] + r1
        return float(r0 @ compatible)

    def game_value(self, player: int = 0, best_response: bool = False) -> float:
        """``player``'s expected payoff per deal of the two ranges (chips), as :meth:`values`."""
        mass = self.pair_mass()
        if mass <= 0:
            raise SubgameError("the two ranges have no pair of holdings that share no card")
        return float(self.ranges[player] @ self.values(player, best_response)) / mass

    def exploitability(self) -> float:
        """Half the sum of the two best responses' expected payoffs (chips per deal; 0 at an equilibrium)."""
        return 0.5 * (self.game_value(0, True) + self.game_value(1, True))


def opponent_values(subgame: Subgame, player: int) -> np.ndarray:
    """The counterfactual values of ``player``'s best response to the other player's average strategy in
    ``subgame`` (set, for a blueprint, with :meth:`Subgame.set_strategy`): what re-solving must not let
    ``player`` beat."""
    return subgame.values(player, best_response=True)


def resolve(
    spec: SubgameSpec,
    me: int,
    my_range: np.ndarray,
    their_values: np.ndarray,
    iterations: int,
    *,
    their_holdings: np.ndarray | None = None,
    scheme: str = "dcfr",
    rivers: int = 48,
    rng: np.random.Generator | None = None,
    turns: int | None = None,
    **tree_options: object,
) -> Subgame:
    """Safely re-solve a subgame for player ``me`` (0 or 1): ``my_range`` is ``me``'s reach at its root,
    ``their_values`` the opponent's counterfactual values there under the given strategy
    (:func:`opponent_values`), ``their_holdings`` a mask of the holdings the opponent may hold (default
    every one with a finite value). ``tree_options`` go to :class:`Subgame`. The answer's strategy for
    ``me`` is the re-solved one; its ``ranges`` hold ``my_range`` and, for the opponent, weight 1 on
    each holding it may hold (the gadget's chance weights), so its values and exploitability are for
    that uniform opponent range, not for the opponent's range in the game. ``rivers``, ``turns`` and
    ``rng``: the cards sampled per iteration in a turn or flop subgame (:meth:`Subgame.solve`)."""
    if me not in (0, 1):
        raise SubgameError(f"me is 0 or 1, got {me!r}")
    mine = _check_range(my_range, "my_range")
    theirs = np.asarray(their_values, dtype=np.float64)
    if theirs.shape != (NUM_HOLDINGS,):
        raise SubgameError(f"their_values is one value per holding ({NUM_HOLDINGS}), got shape {theirs.shape}")
    may = np.isfinite(theirs) if their_holdings is None else np.asarray(their_holdings, dtype=bool)
    ranges = np.zeros((2, NUM_HOLDINGS))
    ranges[me] = mine
    ranges[1 - me] = may.astype(np.float64)
    sub = Subgame(spec, ranges, **tree_options)  # type: ignore[arg-type]
    weight = may[sub.holdings].astype(np.float64)
    sub.core.set_gadget(1 - me, np.where(may, np.nan_to_num(theirs), 0.0)[sub.holdings], weight)
    sub.solve(iterations, scheme=scheme, rivers=rivers, rng=rng, turns=turns)
    return sub

"""The subgame solver against independent answers: a sequence-form linear program (scipy), brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents.cfr_search.resolve import Subgame
from holdem_env.agents.cfr_search.tree import CHANCE, DECISION, FOLD, SHOWDOWN, SubgameError, SubgameSpec, build_tree
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.evaluator import hand_strength
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, holding_index

linprog = pytest.importorskip("scipy.optimize").linprog

RIVER = parse_cards("Ks 9h 5d 2c 2s")
TURN = parse_cards("Ks 9h 5d 2c")
# Holdings that beat, tie and lose to each other on RIVER, several sharing cards (blockers).
HANDS = ["AhAd", "QhQd", "9c9d", "KhQc", "6h4h", "JdTd", "AcKd", "Ah7h", "8c8d"]


def _idx(names: list[str]) -> list[int]:
    return [holding_index(*parse_cards(x)) for x in names]


def _ranges(rows: list[list[int]], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    r = np.zeros((2, NUM_HOLDINGS))
    for p, hs in enumerate(rows):
        r[p, hs] = rng.uniform(0.2, 1.0, len(hs))
    return r


# ---------------------------------------------------------------------------------------- the tree
def test_tree_actions_contributions_and_inserted_bet() -> None:
    spec = SubgameSpec(board=RIVER, contrib=(300, 300), stacks=(500, 700), first=1, big_blind=100)
    t = build_tree(spec, sizes=(0.5, 1.0, "allin"), max_raises=2, extra={("k",): [450]})
    assert t.labels[0] == ("k", "b600", "b800")  # 300 + 0.5*600; 300 + 600 = 900 capped at 800 (all in)
    assert t.player[0] == 1
    after_check = t.find(["k"])
    assert t.labels[after_check] == ("k", "b450", "b600", "b800")  # the inserted 450 is there
    facing = t.find(["b600"])
    assert t.player[facing] == 0 and t.contrib[facing] == (300, 600)
    # raise sizes from the pot after a call (1200): 600 + 600 = 1200 > cap 800, 600 + 1200: all in
    assert t.labels[facing] == ("f", "c", "b800")
    assert t.kind[t.find(["b600", "f"])] == FOLD and t.player[t.find(["b600", "f"])] == 0
    assert t.kind[t.find(["b600", "c"])] == SHOWDOWN and t.contrib[t.find(["b600", "c"])] == (600, 600)
    assert t.labels[t.find(["b600", "b800"])] == ("f", "c")  # all in: no raise
    assert t.kind[t.find(["k", "k"])] == SHOWDOWN
    # a bet adds at least the big blind, a raise at least the last bet or raise
    t2 = build_tree(SubgameSpec(board=RIVER, contrib=(300, 300), stacks=(5000, 5000)), sizes=(0.01,), max_raises=2)
    assert t2.labels[0] == ("k", "b400")  # 0.01 pot is below the big blind: the minimum bet is 100
    assert t2.labels[t2.find(["b400"])] == ("f", "c", "b500")
    with pytest.raises(SubgameError, match="inserted bet"):
        build_tree(spec, extra={(): [2000]})
    with pytest.raises(SubgameError, match="no decision there"):
        build_tree(spec, extra={("b600", "q"): [700]})
    with pytest.raises(SubgameError, match="bet size"):
        build_tree(spec, sizes=(-1.0,))


def test_turn_tree_deals_every_river_card() -> None:
    spec = SubgameSpec(board=TURN, contrib=(100, 100), stacks=(300, 300))
    t = build_tree(spec, sizes=("allin",), max_raises=1, river_sizes=(1.0,), river_max_raises=1)
    chance = t.find(["k", "k"])
    assert t.kind[chance] == CHANCE and len(t.children[chance]) == 48
    river = t.find(["k", "k", "d51"])
    assert t.kind[river] == DECISION and t.labels[river] == ("k", "b300")
    allin = t.find(["b400", "c"])  # all in on the turn: the river is dealt, no more betting
    assert t.kind[allin] == CHANCE and all(t.kind[k] == SHOWDOWN for k in t.children[allin])


# ------------------------------------------------------------------ brute force over deals and rivers
def _payoff0(t, node: int, h0: tuple[int, int], h1: tuple[int, int]) -> float:
    """Player 0's payoff at a fold or a showdown (on the subgame's board and the cards dealt on the way)."""
    c = t.contrib[node]
    if t.kind[node] == FOLD:
        return -c[0] if t.player[node] == 0 else c[1]
    full = list(t.board_of(node))
    s0, s1 = hand_strength(list(h0) + full), hand_strength(list(h1) + full)
    return float(c[0] * np.sign(s0 - s1))


def _dealt(t, node: int, h0: tuple[int, int], h1: tuple[int, int]) -> list[int]:
    """A chance node's children whose card neither holding holds: 45 after a flop, 44 after a turn."""
    kids = [x for x, label in zip(t.children[node], t.labels[node], strict=True) if int(label[1:]) not in h0 + h1]
    assert len(kids) == (45 if len(t.board_of(node)) == 3 else 44)
    return kids


def _brute_value(sub: Subgame, strategies: dict[int, np.ndarray]) -> float:
    """Player 0's expected payoff per deal, every deal and card dealt (turn, river) enumerated, node by node."""
    t = sub.tree
    total = mass = 0.0

    def walk(node: int, i0: int, i1: int) -> float:
        k = t.kind[node]
        h0, h1 = tuple(HOLDINGS[i0]), tuple(HOLDINGS[i1])
        if k in (FOLD, SHOWDOWN):
            return _payoff0(t, node, h0, h1)
        if k == CHANCE:
            kids = _dealt(t, node, h0, h1)
            return sum(walk(x, i0, i1) for x in kids) / len(kids)
        mine = i0 if t.player[node] == 0 else i1
        return sum(strategies[node][a, mine] * walk(x, i0, i1) for a, x in enumerate(t.children[node]))

    for i0, i1 in itertools.product(sub.holdings, repeat=2):
        w = sub.ranges[0, i0] * sub.ranges[1, i1]
        if w == 0 or set(HOLDINGS[i0]) & set(HOLDINGS[i1]):
            continue
        total += w * walk(0, i0, i1)
        mass += w
    return total / mass


@pytest.mark.parametrize("board", [RIVER, TURN], ids=["river", "turn"])
def test_values_of_a_fixed_strategy_match_brute_force(board: tuple[int, ...]) -> None:
    hands = _idx(HANDS[:6]) if len(board) == 5 else _idx(["AhAd", "QhQd", "KhQc", "6h4h", "Ac9d"])
    sub = Subgame(
        SubgameSpec(board=board, contrib=(100, 100), stacks=(300, 300)),
        _ranges([hands, hands], seed=1),
        sizes=(0.5, "allin"),
        max_raises=1,
        river_sizes=(1.0,),
        river_max_raises=1,
        holdings=hands,
    )
    rng = np.random.default_rng(7)
    strategies = {}
    for node in range(len(sub.tree)):
        if sub.tree.kind[node] == DECISION:
            p = rng.dirichlet(np.ones(len(sub.tree.children[node])), NUM_HOLDINGS).T
            sub.set_strategy(node, p)
            strategies[node] = p
    want = _brute_value(sub, strategies)
    assert sub.game_value(0) == pytest.approx(want, rel=1e-9, abs=1e-9)
    assert sub.game_value(1) == pytest.approx(-want, rel=1e-9, abs=1e-9)


# ---------------------------------------------------------------------- sequence-form linear program
class SequenceForm:
    """The subgame's sequence form, built node by node from the tree and the evaluator's hand values
    (nothing of the solver's vectors): player 0's payoff matrix ``A`` (per deal, chance included),
    constraint matrices ``E`` (player 0) and ``F`` (player 1)."""

    def __init__(self, sub: Subgame) -> None:
        t = sub.tree
        self.sub = sub
        self.seq: list[dict[tuple[int, int, int], int]] = [{}, {}]  # (holding, node, action) -> id (0: empty)
        self.parent: list[dict[tuple[int, int], int]] = [{}, {}]  # (holding, node) -> the sequence before it
        for p in (0, 1):
            for h in sub.holdings:
                stack = [(0, 0)]
                while stack:
                    node, before = stack.pop()
                    kids = t.children[node]
                    if t.kind[node] == DECISION and t.player[node] == p:
                        self.parent[p][(h, node)] = before
                        for a, kid in enumerate(kids):
                            sid = self.seq[p].setdefault((h, node, a), len(self.seq[p]) + 1)
                            stack.append((kid, sid))
                    else:
                        stack.extend((kid, before) for kid in kids)
        n0, n1 = len(self.seq[0]) + 1, len(self.seq[1]) + 1
        self.A = np.zeros((n0, n1))
        r = sub.ranges
        mass = sub.pair_mass()
        for i0, i1 in itertools.product(sub.holdings, repeat=2):
            h0, h1 = tuple(HOLDINGS[i0]), tuple(HOLDINGS[i1])
            w = r[0, i0] * r[1, i1]
            if w == 0 or set(h0) & set(h1):
                continue
            stack2 = [(0, 0, 0, w / mass)]
            while stack2:
                node, s0, s1, prob = stack2.pop()
                k = t.kind[node]
                if k in (FOLD, SHOWDOWN):
                    self.A[s0, s1] += prob * _payoff0(t, node, h0, h1)
                elif k == CHANCE:
                    kids = _dealt(t, node, h0, h1)
                    stack2.extend((x, s0, s1, prob / len(kids)) for x in kids)
                else:
                    p, h = t.player[node], (i0 if t.player[node] == 0 else i1)
                    for a, kid in enumerate(t.children[node]):
                        sid = self.seq[p][(h, node, a)]
                        stack2.append((kid, sid if p == 0 else s0, sid if p == 1 else s1, prob))
        self.E = self._constraints(0, n0)
        self.F = self._constraints(1, n1)

    def _constraints(self, p: int, n: int) -> np.ndarray:
        rows = [np.eye(1, n, 0)[0]]
        for (h, node), before in self.parent[p].items():
            row = np.zeros(n)
            for a in range(len(self.sub.tree.children[node])):
                row[self.seq[p][(h, node, a)]] = 1.0
            row[before] -= 1.0
            rows.append(row)
        return np.array(rows)

    def value(self) -> float:
        """max over x of min over y of x'Ay: max f'q subject to F'q <= A'x, Ex = e, x >= 0."""
        n0, m1 = self.A.shape[0], self.F.shape[0]
        c = np.zeros(n0 + m1)
        c[n0] = -1.0
        a_ub = np.hstack([-self.A.T, self.F.T])
        e = np.eye(1, self.E.shape[0], 0)[0]
        a_eq = np.hstack([self.E, np.zeros((self.E.shape[0], m1))])
        bounds = [(0, None)] * n0 + [(None, None)] * m1
        res = linprog(c, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=e, bounds=bounds, method="highs")
        assert res.status == 0, res.message
        return -float(res.fun)

    def plan(self, p: int) -> np.ndarray:
        """Player ``p``'s realization plan of the solver's average strategy."""
        t = self.sub.tree
        y = np.zeros(len(self.seq[p]) + 1)
        y[0] = 1.0
        for node in range(len(t)):  # parents come before children in node order
            if t.kind[node] == DECISION and t.player[node] == p:
                probs = self.sub.strategy(node)
                for h in self.sub.holdings:
                    for a in range(len(t.children[node])):
                        y[self.seq[p][(h, node, a)]] = y[self.parent[p][(h, node)]] * probs[a, h]
        return y

    def best_response(self, p: int) -> float:
        """Player ``p``'s best-response payoff per deal to the other's plan, by a linear program."""
        other = self.plan(1 - p)
        gain = self.A @ other if p == 0 else -(self.A.T @ other)
        cons = self.E if p == 0 else self.F
        e = np.eye(1, cons.shape[0], 0)[0]
        res = linprog(-gain, A_eq=cons, b_eq=e, bounds=[(0, None)] * len(gain), method="highs")
        assert res.status == 0, res.message
        return -float(res.fun)


@pytest.mark.parametrize(
    "hands0, hands1, sizes, raises",
    [
        (HANDS[:5], HANDS[3:8], (1.0, "allin"), 1),
        (HANDS, HANDS, (0.5, 1.0, "allin"), 2),
    ],
    ids=["one-raise", "two-raises"],
)
def test_river_solution_reaches_the_linear_programs_value(hands0, hands1, sizes, raises) -> None:
    h0, h1 = _idx(hands0), _idx(hands1)
    sub = Subgame(
        SubgameSpec(board=RIVER, contrib=(200, 200), stacks=(600, 600), first=1),
        _ranges([h0, h1], seed=3),
        sizes=sizes,
        max_raises=raises,
        holdings=sorted(set(h0 + h1)),
    )
    sf = SequenceForm(sub)
    exact = sf.value()
    sub.solve(50)
    early = sub.exploitability()
    sub.solve(1950)
    # The solver's best responses are the linear program's best responses to its strategies (to the LP
    # solver's tolerance)...
    assert sub.game_value(0, best_response=True) == pytest.approx(sf.best_response(0), abs=1e-5)
    assert sub.game_value(1, best_response=True) == pytest.approx(sf.best_response(1), abs=1e-5)
    # ... they bracket the exact value, and their gap (exploitability) shrinks towards 0.
    assert sub.game_value(0, best_response=True) >= exact - 1e-7
    assert -sub.game_value(1, best_response=True) <= exact + 1e-7
    assert sub.exploitability() < min(early / 5, 0.02)  # chips per deal; the pot is 400
    assert sub.game_value(0) == pytest.approx(exact, abs=0.05)
    assert abs(exact) > 1.0  # the game is not trivially even


def test_turn_solution_reaches_the_linear_programs_value() -> None:
    hands = _idx(["AhAd", "QhQd", "KhQc", "6h4h", "Ac9d", "7h6h"])
    sub = Subgame(
        SubgameSpec(board=TURN, contrib=(100, 100), stacks=(300, 300)),
        _ranges([hands, hands], seed=5),
        sizes=(1.0,),
        max_raises=1,
        river_sizes=(1.0,),
        river_max_raises=1,
        holdings=hands,
    )
    sf = SequenceForm(sub)
    exact = sf.value()
    sub.solve(1000)
    assert sub.game_value(0, best_response=True) == pytest.approx(sf.best_response(0), abs=1e-5)
    assert sub.game_value(1, best_response=True) == pytest.approx(sf.best_response(1), abs=1e-5)
    assert sub.exploitability() < 0.05
    assert sub.game_value(0) == pytest.approx(exact, abs=0.05)


# -------------------------------------------- terminal values over all holdings, against the evaluator
@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True), st.integers(0, 2**32 - 1))
def test_showdown_and_fold_values_over_full_ranges(board: list[int], seed: int) -> None:
    """Every holding's value at a showdown and after a fold, against a random range of all holdings
    (blockers counted card by card), equals the sum over the opponent's holdings, each hand valued by
    :func:`hand_strength` (seven cards, one at a time)."""
    rng = np.random.default_rng(seed)
    ranges = rng.uniform(0.0, 1.0, (2, NUM_HOLDINGS)) * (rng.uniform(size=(2, NUM_HOLDINGS)) < 0.7)
    sub = Subgame(SubgameSpec(board=tuple(board), contrib=(150, 150), stacks=(50, 50)), ranges, sizes=("allin",))
    assert sub.tree.labels[0] == ("k", "b200")
    live = sub.holdings
    strength = np.array([hand_strength(list(HOLDINGS[i]) + board) for i in live])
    disjoint = ~np.any(HOLDINGS[live][:, None, :, None] == HOLDINGS[live][None, :, None, :], axis=(2, 3))
    r1 = ranges[1, live]
    showdown = 150.0 * ((np.sign(strength[:, None] - strength[None, :]) * disjoint) @ r1)
    fold_win = 150.0 * (disjoint @ r1)
    check = np.zeros((2, NUM_HOLDINGS))
    check[0] = 1.0
    sub.set_strategy(0, check)  # player 0 checks ...
    sub.set_strategy(sub.tree.find(["k"]), check)  # ... and so does player 1: a showdown for 300
    assert sub.values(0)[live] == pytest.approx(showdown, rel=1e-9, abs=1e-6)
    bet = check[::-1].copy()
    fold = np.zeros((2, NUM_HOLDINGS))
    fold[0] = 1.0
    sub.set_strategy(0, bet)  # player 0 bets all in, player 1 folds: player 0 wins player 1's 150
    sub.set_strategy(sub.tree.find(["b200"]), fold)
    assert sub.values(0)[live] == pytest.approx(fold_win, rel=1e-9, abs=1e-6)
    assert sub.values(1)[live] == pytest.approx(-150.0 * (disjoint @ ranges[0, live]), rel=1e-9, abs=1e-6)


def test_solving_is_deterministic() -> None:
    hands = _idx(HANDS)
    runs = []
    for _ in range(2):
        sub = Subgame(
            SubgameSpec(board=RIVER, contrib=(200, 200), stacks=(600, 600)), _ranges([hands, hands], 4), holdings=hands
        )
        sub.solve(30)
        runs.append(np.concatenate([sub.strategy(n) for n in range(len(sub.tree)) if sub.tree.kind[n] == DECISION]))
    assert np.array_equal(runs[0], runs[1])


def test_sampled_rivers_converge_and_repeat_for_a_seed() -> None:
    """Public chance sampling (12 of the 48 rivers per iteration) still drives the small turn game's
    exploitability down (at a Monte Carlo rate: 0.5 chips per deal after 1,500 iterations where every
    river reaches 0.002), and the same seed gives the same strategy."""
    hands = _idx(["AhAd", "QhQd", "KhQc", "6h4h", "Ac9d", "7h6h"])

    def solved(seed: int, iterations: int) -> Subgame:
        sub = Subgame(
            SubgameSpec(board=TURN, contrib=(100, 100), stacks=(300, 300)),
            _ranges([hands, hands], seed=5),
            sizes=(1.0,),
            max_raises=1,
            river_sizes=(1.0,),
            river_max_raises=1,
            holdings=hands,
        )
        sub.solve(iterations, rivers=12, rng=np.random.default_rng(seed))
        return sub

    early, late = solved(1, 20), solved(1, 1500)
    assert late.exploitability() < min(early.exploitability() / 10, 1.0)  # the pot is 200
    assert np.array_equal(solved(2, 50).strategy(0), solved(2, 50).strategy(0))
    assert not np.array_equal(solved(2, 50).strategy(0), solved(3, 50).strategy(0))
    with pytest.raises(SubgameError, match="rivers is 1..48"):
        late.solve(1, rivers=12)


def test_an_inserted_bet_is_in_the_tree_and_only_helps_its_bettor() -> None:
    """The opponent's actual bet (0.37 pot, off the size list) inserted at the root: the solver answers
    the strategy facing it for all 1,326 holdings, and player 0's exact value (the LP) with the extra
    option is at least its value without it."""
    hands = _idx(HANDS)
    spec = SubgameSpec(board=RIVER, contrib=(200, 200), stacks=(600, 600))
    ranges = _ranges([hands, hands], seed=6)
    plain = Subgame(spec, ranges, sizes=(1.0, "allin"), max_raises=1, holdings=hands)
    odd = Subgame(spec, ranges, sizes=(1.0, "allin"), max_raises=1, holdings=hands, extra={(): [348]})
    assert odd.tree.labels[0] == ("k", "b348", "b600", "b800")
    odd.solve(200)
    facing = odd.strategy(["b348"])
    assert odd.tree.labels[odd.tree.find(["b348"])] == ("f", "c")  # one raise per round: it was the bet
    assert facing.shape == (2, NUM_HOLDINGS) and np.allclose(facing.sum(axis=0), 1.0)
    assert SequenceForm(odd).value() >= SequenceForm(plain).value() - 1e-6

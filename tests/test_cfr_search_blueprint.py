"""cfr-search's blueprint: the no-limit betting abstraction, the hold'em deal pool, the blueprint file and the build command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env._build import build_info
from holdem_env.agents.cfr_search.abstraction import AbstractionConfig, CardAbstraction
from holdem_env.agents.cfr_search.blueprint import Blueprint, write_blueprint
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate
from holdem_env.training.cfr.game import GameError
from holdem_env.training.cfr_search.build import build_blueprint, main
from holdem_env.training.cfr_search.holdem import DealPool
from holdem_env.training.cfr_search.nolimit import NoLimitConfig, NoLimitRules, nolimit_tree
from holdem_env.training.cfr_search.solver import MCCFRSolver
from holdem_env.training.cfr_search.tree import FOLD_END, SHOWDOWN, BettingTree

COMPILED = "holdem_env.training.cfr_search._core" in build_info()["compiled"]
TINY = AbstractionConfig(flop_buckets=4, turn_buckets=4, river_buckets=4, bins=6, flops=1, turns_per_flop=1)


@pytest.fixture(scope="module")
def tree200() -> BettingTree:
    return nolimit_tree(NoLimitConfig(), (169, 4, 4, 4))


def _labels(tree: BettingTree, node: int) -> list[str]:
    return [tree.labels[c] for c in range(tree.first[node], tree.first[node] + tree.num_children[node])]


def test_preflop_sizes_are_pot_fractions_at_50_100(tree200: BettingTree) -> None:
    # the button faces 100 with 50 in: pot after calling 200; 0.5 pot = raise to 200 (also the min
    # raise), 1 pot to 300, 2 pots to 500, and all-in
    assert _labels(tree200, 0) == ["f", "c", "r200", "r300", "r500", "a"]
    assert tree200.actor[tree200.node_of("f")] == FOLD_END and tree200.value[tree200.node_of("f")] == -50
    # the big blind re-raises one pot (to 300 + 600) or goes all-in; the min raise would be 500
    assert _labels(tree200, tree200.node_of("r300")) == ["f", "c", "r900", "a"]
    assert tree200.value[tree200.node_of("r300-f")] == 100.0  # the big blind folds: the button wins its blind
    # a limp gives the big blind its option; check-check goes to the flop, big blind first
    flop = tree200.node_of("c-c")
    assert tree200.street[flop] == 1 and tree200.actor[flop] == 1
    # on the flop (pot 200) the first bet is 0.5, 1 or 2 pots: to 200, 300, 500 chips in
    assert _labels(tree200, flop) == ["c", "r200", "r300", "r500", "a"]
    assert tree200.history[tree200.first[flop]] == "c-c/c"


def test_all_in_called_is_a_showdown_of_the_whole_stack(tree200: BettingTree) -> None:
    node = tree200.node_of("a-c")
    assert tree200.actor[node] == SHOWDOWN and tree200.value[node] == 20_000
    assert tree200.value[tree200.node_of("a-f")] == 100.0  # the big blind folds its blind
    assert _labels(tree200, tree200.node_of("a")) == ["f", "c"]


def test_raises_stop_at_the_street_cap(tree200: BettingTree) -> None:
    node = tree200.node_of("r300-r900-r2700-r8100")  # four raises preflop: the cap
    assert _labels(tree200, node) == ["f", "c"]


def test_100bb_tree_is_smaller() -> None:
    small = nolimit_tree(NoLimitConfig(stack=10_000), (1, 1, 1, 1))
    assert small.num_nodes < nolimit_tree(NoLimitConfig(), (1, 1, 1, 1)).num_nodes
    assert small.value[small.node_of("a-c")] == 10_000


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10), max_size=30))
def test_random_paths_keep_the_rules(tree200: BettingTree, choices: list[int]) -> None:
    rules = NoLimitRules(NoLimitConfig())
    state = rules.root()
    while rules.actor(state) >= 0 and choices:
        moves = rules.actions(state)
        labels = [m[0] for m in moves]
        assert "c" in labels and len(set(labels)) == len(labels)
        assert ("f" in labels) == (state[1][0] != state[1][1])  # fold only facing a bet
        state = moves[choices.pop() % len(moves)][1]
        assert all(0 < c <= 20_000 for c in state[1])
    if rules.actor(state) == SHOWDOWN:
        assert state[1][0] == state[1][1]
    if rules.actor(state) < 0:
        assert abs(rules.terminal_value(state)) <= 20_000


def test_bad_game_settings_are_refused() -> None:
    with pytest.raises(GameError, match="need small blind <= big blind < stack"):
        NoLimitConfig(stack=100)
    with pytest.raises(GameError, match="sizes=.* is invalid"):
        NoLimitConfig(sizes=((0.5,),) * 3)
    with pytest.raises(GameError, match="max_raises=.* is invalid"):
        NoLimitConfig(max_raises=(0, 1, 1, 1))


@pytest.fixture(scope="module")
def pool() -> DealPool:
    return DealPool(
        CardAbstraction.uniform(AbstractionConfig(flop_buckets=6, turn_buckets=6, river_buckets=6, bins=8)),
        1,
        np.random.default_rng(2),
    )


def test_pool_deals_are_distinct_cards_with_the_bot_s_buckets_and_true_results(pool: DealPool) -> None:
    cards, buckets, results = pool.deal(np.random.default_rng(0), 12)
    ab = pool.abstraction
    for row in range(12):
        c = [int(x) for x in cards[row]]
        assert len(set(c)) == 9 and sorted(c[4:7]) == sorted(pool.flops[0].tolist())
        for p in (0, 1):
            hole = c[2 * p : 2 * p + 2]
            # the play-time lookup (compiled equity, one hand) agrees with the pool (every holding at once)
            assert [ab.bucket(hole, c[4 : 4 + n]) for n in (0, 3, 4, 5)] == buckets[row, 4 * p : 4 * p + 4].tolist()
        v0, v1 = evaluate(c[0:2] + c[4:9]), evaluate(c[2:4] + c[4:9])
        assert results[row] == (1 if v0 > v1 else -1 if v0 < v1 else 0)


@pytest.mark.skipif(
    not COMPILED, reason="the core is not compiled here (`make build`): 20,000 hold'em iterations need C speed"
)
def test_hold_em_mccfr_learns_to_fold_less_with_aces_than_with_seven_deuce(pool: DealPool) -> None:
    tree = nolimit_tree(NoLimitConfig(stack=2_000), pool.abstraction.num_buckets)
    solver = MCCFRSolver(tree, pool, rng=np.random.default_rng(0), averaging="linear", batch_size=5000)
    solver.run(20_000)
    avg = solver.average_policy()
    aces, seven_deuce = 12 * 13 + 12, 0 * 13 + 5  # AA; 72 offsuit is lo*13 + hi
    fold_aa = avg[tree.block(0, aces)][0]
    fold_72 = avg[tree.block(0, seven_deuce)][0]
    assert fold_aa < 0.05 and fold_72 > fold_aa + 0.2


def test_blueprint_file_round_trip(tmp_path, tree200: BettingTree) -> None:
    ab = CardAbstraction.uniform(AbstractionConfig(flop_buckets=4, turn_buckets=4, river_buckets=4, bins=6))
    rng = np.random.default_rng(0)
    raw = rng.random(tree200.num_cells)
    from holdem_env.training.cfr_search.solver import normalise_blocks

    probs = normalise_blocks(tree200, raw)
    path = tmp_path / "bp.npz"
    write_blueprint(path, actor=tree200.actor, street=tree200.street, first=tree200.first, num_children=tree200.num_children,
                    labels=tree200.labels, probabilities=probs, abstraction=ab, game={"stack": 20000}, info={"seed": 0})  # fmt: skip
    bp = Blueprint(path)
    assert bp.num_nodes == tree200.num_nodes and bp.game == {"stack": 20000}
    assert bp.children(0) == [(label, int(tree200.first[0]) + i) for i, label in enumerate(_labels(tree200, 0))]
    node = bp.node_of(["r300", "c", "r600"])
    assert node == tree200.node_of("r300-c/r600")
    for n, b in ((0, 168), (node, 3), (tree200.node_of("c-c/c-c/r200"), 2)):
        np.testing.assert_allclose(bp.probabilities(n, b), probs[tree200.block(n, b)], atol=2.5 / 255)
        assert bp.probabilities(n, b).sum() == pytest.approx(1.0)
    got = bp.action_probabilities(0, parse_cards("AsAh"), [])
    assert list(got) == _labels(tree200, 0) and got["c"] == pytest.approx(
        probs[tree200.block(0, 168)][1], abs=2.5 / 255
    )
    with pytest.raises(ConfigError, match="action='x' is invalid: is not in the blueprint at node 0"):
        bp.child(0, "x")
    with pytest.raises(ConfigError, match="must be a decision node"):
        bp.probabilities(bp.node_of(["f"]), 0)
    with pytest.raises(ConfigError, match="bucket=4 is invalid"):
        bp.probabilities(node, 4)
    with pytest.raises(ConfigError, match="board=.* is invalid: must have 3 cards"):
        bp.action_probabilities(node, parse_cards("AsAh"), [])
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"nope")
    with pytest.raises(ConfigError, match="blueprint=.* is invalid"):
        Blueprint(bad)


def test_build_is_reproducible_and_the_command_reports(tmp_path, capsys) -> None:
    kw = {
        "game": NoLimitConfig(stack=1_000),
        "abstraction": TINY,
        "iterations": 3_000,
        "pool_flops": 1,
        "seed": 5,
        "quiet": True,
    }
    a = build_blueprint(str(tmp_path / "a.npz"), **kw)  # type: ignore[arg-type]
    b = build_blueprint(str(tmp_path / "b.npz"), **kw)  # type: ignore[arg-type]
    assert a["cells"] == b["cells"] and a["iterations"] == 3_000
    pa, pb = np.load(tmp_path / "a.npz")["policy"], np.load(tmp_path / "b.npz")["policy"]
    assert np.array_equal(pa, pb)
    assert main(["build", "--out", str(tmp_path / "c.npz"), "--stack-bb", "0", "--quiet"]) == 2
    assert "stack=0 is invalid" in capsys.readouterr().err
    assert Blueprint(tmp_path / "a.npz").info["iterations"] == 3_000
    status = main(["build", "--out", str(tmp_path / "d.npz"), "--stack-bb", "10", "--iterations", "1000",
                   "--abstraction-flops", "1", "--pool-flops", "1", "--buckets", "3", "3", "3", "--bins", "5", "--quiet"])  # fmt: skip
    assert status == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["bytes"] == (tmp_path / "d.npz").stat().st_size and summary["iterations"] == 1000

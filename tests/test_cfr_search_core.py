"""The compiled MCCFR core of cfr-search: Leduc through the blueprint's code path, checked by exact best responses."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from holdem_env._build import build_info
from holdem_env.training.cfr.evaluation import TreeEvaluator
from holdem_env.training.cfr.game import GameError, compile_game
from holdem_env.training.cfr.leduc import LeducPoker
from holdem_env.training.cfr.mccfr import Averaging
from holdem_env.training.cfr_search import _core
from holdem_env.training.cfr_search.leduc import LeducRules, leduc_deals, leduc_policy, leduc_tree
from holdem_env.training.cfr_search.solver import MCCFRSolver, Pruning
from holdem_env.training.cfr_search.tree import FOLD_END, SHOWDOWN, BettingTree, build_tree

COMPILED = "holdem_env.training.cfr_search._core" in build_info()["compiled"]
LEDUC_VALUE = -0.0856  # player 0's equilibrium value (OpenSpiel; training/cfr/leduc.py)


@pytest.fixture(scope="module")
def leduc() -> tuple[BettingTree, TreeEvaluator, object]:
    game_tree = compile_game(LeducPoker())
    return leduc_tree(), TreeEvaluator(game_tree), game_tree


def _solve(tree: BettingTree, iterations: int, seed: int, **kw: object) -> MCCFRSolver:
    solver = MCCFRSolver(tree, leduc_deals, rng=np.random.default_rng(seed), batch_size=10_000, **kw)  # type: ignore[arg-type]
    solver.run(iterations)
    return solver


def test_leduc_betting_tree_has_leducs_information_sets(leduc) -> None:
    tree, _, game_tree = leduc
    # 6 round-1 nodes x 3 private ranks + 5 ways into round 2 x 6 nodes x 9 (private, public) pairs
    assert tree.num_infosets == game_tree.num_infosets == 288
    assert tree.node_of("crc/r") > tree.node_of("crc") > 0
    with pytest.raises(GameError, match="no node has history 'x'"):
        tree.node_of("x")


@pytest.mark.skipif(not COMPILED, reason="the core is not compiled here (`make build`): 1M iterations need C speed")
def test_linear_mccfr_reaches_a_low_exploitability_and_the_game_value_on_leduc(leduc) -> None:
    tree, ev, game_tree = leduc
    solver = _solve(tree, 1_000_000, seed=0, averaging="linear")
    policy = leduc_policy(tree, solver.average_policy(), game_tree)
    # measured 0.0128 (1M), 0.0074 (3M); the uniform policy is 2.37
    assert ev.exploitability(policy) < 0.018
    assert ev.expected_values(policy)[0] == pytest.approx(LEDUC_VALUE, abs=0.004)


@pytest.mark.parametrize(
    ("averaging", "pruning", "bound"),
    [
        ("linear", None, 0.03),  # measured 0.019-0.021 over seeds 0-3
        ("discounted", None, 0.045),  # DCFR (1.5, 0, 2): 0.029-0.033
        ("linear", Pruning(after=20_000, threshold=-2e5, floor=-2.5e5), 0.08),  # 0.055-0.062
    ],
    ids=["linear", "dcfr", "linear-pruned"],
)
def test_each_variant_converges_on_leduc(leduc, averaging: str, pruning: Pruning | None, bound: float) -> None:
    tree, ev, game_tree = leduc
    iterations = 300_000 if COMPILED else 20_000
    solver = _solve(tree, iterations, seed=1, averaging=averaging, pruning=pruning)
    policy = leduc_policy(tree, solver.average_policy(), game_tree)
    assert ev.exploitability(policy) < (bound if COMPILED else 0.25)
    if COMPILED:
        assert ev.expected_values(policy)[0] == pytest.approx(LEDUC_VALUE, abs=0.01)


def test_same_seed_same_tables_other_seed_other_tables(leduc) -> None:
    tree = leduc[0]
    a, b, c = (_solve(tree, 5_000, seed=s, averaging="discounted") for s in (7, 7, 8))
    assert np.array_equal(a.regret, b.regret) and np.array_equal(a.strategy_sum, b.strategy_sum)
    assert not np.array_equal(a.regret, c.regret)


@pytest.mark.skipif(not COMPILED, reason="nothing compiled: the source would be compared with itself")
def test_compiled_core_equals_its_python_source(leduc) -> None:
    source = Path(_core.__file__).with_name("_core.py")
    spec = importlib.util.spec_from_file_location("_core_source_twin", source)
    twin = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(twin)  # type: ignore[union-attr]
    tree = leduc[0]
    buckets, results = leduc_deals(np.random.default_rng(3), 300)
    tables = []
    for module in (_core, twin):
        regret, sums = np.zeros(tree.num_cells), np.zeros(tree.num_cells)
        v = module.run_iterations(
            tree.actor, tree.street, tree.first, tree.num_children, tree.cell, tree.value, regret, sums,
            buckets, results, 0, True, True, 50, 0.5, -5.0, -8.0, 12345, tree.max_depth,
        )  # fmt: skip
        tables.append((v, regret, sums))
    assert tables[0][0] == tables[1][0]
    assert np.array_equal(tables[0][1], tables[1][1]) and np.array_equal(tables[0][2], tables[1][2])
    assert tables[0][1].min() >= -8.0  # the floor held


class _OneChoice:
    """Player 0 picks fold (loses 1) or showdown (stake 2) once; player 1 never acts."""

    num_streets = 1
    separator = "-"

    def root(self) -> str:
        return ""

    def actor(self, state: str) -> int:
        return {"": 0, "f": FOLD_END, "s": SHOWDOWN}[state]

    def street(self, state: str) -> int:
        return 0

    def actions(self, state: str) -> list[tuple[str, str]]:
        return [("f", "f"), ("s", "s")]

    def terminal_value(self, state: str) -> float:
        return -1.0 if state == "f" else 2.0


def _one_choice(result: float, iterations: int, pruning: Pruning | None = None) -> MCCFRSolver:
    tree = build_tree(_OneChoice(), (1,))

    def deals(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((count, 2), dtype=np.int64), np.full(count, result)

    solver = MCCFRSolver(tree, deals, rng=np.random.default_rng(0), averaging="uniform", pruning=pruning)
    solver.run(iterations)
    return solver


def test_discounts_land_on_the_same_iterations_whatever_the_batch_size() -> None:
    # in the one-choice game nothing random reaches the tables, so only where the DCFR discounts
    # fall (every 10 iterations) could make batch sizes 1, 7 and 100 differ
    tree = build_tree(_OneChoice(), (1,))
    tables = []
    for batch in (1, 7, 100):
        solver = MCCFRSolver(
            tree,
            lambda rng, count: (np.zeros((count, 2), dtype=np.int64), np.full(count, -1.0)),
            rng=np.random.default_rng(batch),
            averaging=Averaging("discounted", discount_interval=10),
            batch_size=batch,
        )
        solver.run(95)
        tables.append((solver.regret.copy(), solver.strategy_sum.copy()))
        assert solver.iteration == 95
    for regret, sums in tables[1:]:
        np.testing.assert_allclose(regret, tables[0][0], rtol=1e-12)
        np.testing.assert_allclose(sums, tables[0][1], rtol=1e-12)
    # a discount did happen: 95 undiscounted iterations would leave the showdown's regret at -94.5
    assert tables[0][0][1] > -94.5


def test_terminal_kinds_pay_what_the_tree_says() -> None:
    # winning showdowns pay +2, folding -1: regret of showdown is +1.5, of fold -1.5 (policy 1/2, 1/2)
    win = _one_choice(+1.0, 1)
    assert win.regret.tolist() == [-1.5, 1.5]
    lose = _one_choice(-1.0, 1)  # showdown -2 vs fold -1
    assert lose.regret.tolist() == [0.5, -0.5]
    # then fold has all the positive regret: player 0's sums (added on player 1's traversal, after
    # player 0's own update) are all on fold; fold is worth exactly v, showdown 1 less each time
    fifty = _one_choice(-1.0, 50)
    assert fifty.average_policy().tolist() == [1.0, 0.0] == fifty.current_policy().tolist()
    assert fifty.regret.tolist() == [0.5, -49.5]


def test_pruning_skips_actions_below_the_threshold_on_leduc(leduc) -> None:
    tree = leduc[0]
    plain = _solve(tree, 2_000, seed=4, averaging="uniform")
    pruned = _solve(
        tree, 2_000, seed=4, averaging="uniform", pruning=Pruning(after=500, probability=1.0, threshold=-5, floor=-50)
    )
    assert pruned.regret.min() >= -50.0
    assert plain.regret.min() < -50.0
    assert not np.array_equal(plain.strategy_sum, pruned.strategy_sum)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"after": -1}, "pruning after=-1 is invalid"),
        ({"probability": 1.5}, "pruning probability=1.5 is invalid"),
        ({"threshold": 1.0}, "need floor <= threshold <= 0"),
        ({"threshold": -5.0, "floor": -1.0}, "need floor <= threshold <= 0"),
    ],
)
def test_bad_pruning_settings_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(GameError, match=message):
        Pruning(**kwargs)


def test_bad_solver_input_is_refused(leduc) -> None:
    tree = leduc[0]
    with pytest.raises(GameError, match="rng=0 is invalid"):
        MCCFRSolver(tree, leduc_deals, rng=0)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="batch_size=0 is invalid"):
        MCCFRSolver(tree, leduc_deals, rng=np.random.default_rng(0), batch_size=0)
    solver = MCCFRSolver(tree, leduc_deals, rng=np.random.default_rng(0))
    with pytest.raises(GameError, match="iterations=-3 is invalid"):
        solver.run(-3)
    assert solver.iteration == 0 and not solver.regret.any()
    with pytest.raises(GameError, match="num_buckets=.* is invalid"):
        build_tree(LeducRules(), (3,))

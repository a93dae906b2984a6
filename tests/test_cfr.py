"""The CFR core: known truths of Kuhn and Leduc poker, exact best responses, MCCFR, the CLI."""

from __future__ import annotations

import doctest
import itertools
import json
from collections.abc import Sequence

import numpy as np
import pytest

import holdem_env.training.cfr as cfr_pkg
from holdem_env.cli import main as holdem_main
from holdem_env.training.cfr import (
    KUHN_GAME_VALUE,
    Averaging,
    BatchedExternalSamplingMCCFR,
    CFRSolver,
    ExtensiveFormGame,
    ExternalSamplingMCCFR,
    GameError,
    KuhnPoker,
    LeducPoker,
    TreeEvaluator,
    compile_game,
    evaluation,
    game,
    inplace,
    kuhn,
    leduc,
    mccfr,
    regret_matching,
    tables,
)
from holdem_env.training.cfr import cfr as cfr_mod
from holdem_env.training.cfr.inplace import DealtInPlace
from holdem_env.training.cfr.tables import InfosetTable

KUHN_INFOSETS = {"J", "Q", "K", "Jp", "Qp", "Kp", "Jb", "Qb", "Kb", "Jpb", "Qpb", "Kpb"}
# Leduc hold'em's equilibrium value for the first player (OpenSpiel / literature: -0.0856).
LEDUC_GAME_VALUE = -0.085606


@pytest.fixture(scope="module")
def kuhn_tree() -> game.GameTree:
    return compile_game(KuhnPoker())


@pytest.fixture(scope="module")
def leduc_tree() -> game.GameTree:
    return compile_game(LeducPoker())


@pytest.fixture(scope="module")
def kuhn_cfr_plus(kuhn_tree: game.GameTree) -> CFRSolver:
    solver = CFRSolver(kuhn_tree, algorithm="cfr+")
    solver.run(1000)
    return solver


# --- the games --------------------------------------------------------------------------


def test_kuhn_tree_shape_and_infoset_names(kuhn_tree: game.GameTree) -> None:
    assert kuhn_tree.num_nodes == 58  # 1 + 3 + 6 deals, 6 x 8 betting histories
    assert set(kuhn_tree.infoset_keys) == KUHN_INFOSETS
    assert all(actions == (0, 1) for actions in kuhn_tree.infoset_actions)


def test_leduc_tree_matches_openspiel_size(leduc_tree: game.GameTree) -> None:
    # OpenSpiel's leduc_poker has 9,457 histories; suits merged, 288 information sets.
    assert leduc_tree.num_nodes == 9457
    assert leduc_tree.num_infosets == 288
    assert {"K:", "K:cr", "KQ:crc/", "KQ:crc/r", "JJ:rrc/rr"} <= set(leduc_tree.infoset_keys)


def _play(g: ExtensiveFormGame, cards: Sequence[int], letters: str) -> object:
    state = g.initial_state()
    for c in cards[:2]:
        state = g.apply(state, c)
    for ch in letters:
        if ch == "/":
            state = g.apply(state, cards[2])
        else:
            state = g.apply(state, g.action_names.index(ch))
    return state


def test_leduc_fold_loses_own_contribution() -> None:
    g = LeducPoker()
    s = _play(g, (0, 2), "rf")  # player 0 bets 2, player 1 folds: player 0 wins the ante
    assert g.is_terminal(s) and g.utility(s, 0) == 1.0 and g.utility(s, 1) == -1.0
    s = _play(g, (0, 2), "rrf")  # bet 2, raise to 5, player 0 folds its 3 chips
    assert g.utility(s, 0) == -3.0


def test_leduc_pair_beats_higher_card_and_bet_sizes() -> None:
    g = LeducPoker()
    # J (card 0) pairs the public J (card 1) against K (card 4); round 2 bets are 4.
    s = _play(g, (0, 4, 1), "rc/rrc")  # round 1: 1+2 = 3 each; round 2: +4+4 = 11 each
    assert g.is_terminal(s) and g.utility(s, 0) == 11.0
    s = _play(g, (0, 4, 2), "cc/cc")  # public Q: nobody pairs, K wins the antes
    assert g.utility(s, 0) == -1.0


def test_leduc_split_pot_on_equal_ranks() -> None:
    g = LeducPoker()
    s = _play(g, (4, 5, 0), "rc/cc")
    assert g.is_terminal(s) and g.utility(s, 0) == 0.0 == g.utility(s, 1)


def test_leduc_raise_cap_is_two_per_round() -> None:
    g = LeducPoker()
    s = _play(g, (0, 2), "rr")
    assert list(g.legal_actions(s)) == [leduc.FOLD, leduc.CALL]
    with pytest.raises(GameError, match="illegal"):
        g.apply(s, leduc.RAISE)
    s = _play(g, (0, 2), "")
    assert list(g.legal_actions(s)) == [leduc.CALL, leduc.RAISE]  # no fold when not facing a bet
    s = _play(g, (0, 2, 4), "rc/")
    assert g.current_player(s) == 0 and g.infoset_key(s) == "JK:rc/"


def test_dealing_a_dealt_card_is_rejected() -> None:
    g = KuhnPoker()
    s = g.apply(g.initial_state(), 2)
    with pytest.raises(GameError, match="cannot be dealt"):
        g.apply(s, 2)


# --- best response and exploitability -----------------------------------------------------


def test_uniform_policy_exploitability_kuhn_is_eleven_24ths(kuhn_tree: game.GameTree) -> None:
    """By hand, against a uniformly random opponent (ante 1, bet 1):

    Player 0 best response: J bets (-1/2; passing loses 1), Q bets (+1/2; passing 0),
    K either (+3/2) -> (−1/2 + 1/2 + 3/2)/3 = 1/2.
    Player 1: facing a bet J folds (−1), Q calls (0), K calls (+2); after a pass J bets
    (−1/2), Q bets (+1/2), K bets (+3/2) -> J −3/4, Q 1/4, K 7/4, mean 5/12.
    Exploitability = (1/2 + 5/12) / 2 = 11/24.
    """
    ev = TreeEvaluator(kuhn_tree)
    uniform = kuhn_tree.uniform_policy()
    assert ev.best_response(uniform, 0)[0] == pytest.approx(1 / 2, abs=1e-12)
    assert ev.best_response(uniform, 1)[0] == pytest.approx(5 / 12, abs=1e-12)
    assert ev.exploitability(uniform) == pytest.approx(11 / 24, abs=1e-12)
    assert ev.expected_values(uniform)[0] == pytest.approx(1 / 8, abs=1e-12)


def test_leduc_uniform_policy_numbers_match_openspiel(leduc_tree: game.GameTree) -> None:
    # OpenSpiel 2.0.2: exploitability(leduc_poker, UniformRandomPolicy) = 2.373611111111111,
    # policy_value = [-0.078125, 0.078125].
    ev = TreeEvaluator(leduc_tree)
    uniform = leduc_tree.uniform_policy()
    assert ev.exploitability(uniform) == pytest.approx(2.373611111111111, abs=1e-12)
    assert ev.expected_values(uniform) == pytest.approx([-0.078125, 0.078125], abs=1e-12)


def _pure_strategy_values(tree: game.GameTree, policy: np.ndarray, player: int) -> list[float]:
    ev = TreeEvaluator(tree)
    rows = np.flatnonzero(tree.infoset_player == player)
    values = []
    for choice in itertools.product(*(range(len(tree.infoset_actions[r])) for r in rows)):
        pure = policy.copy()
        pure[rows] = 0.0
        pure[rows, choice] = 1.0
        values.append(float(ev.expected_values(pure)[player]))
    return values


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_best_response_equals_best_pure_strategy_by_enumeration(kuhn_tree: game.GameTree, seed: int) -> None:
    rng = np.random.default_rng(seed)
    policy = rng.random(kuhn_tree.legal_mask.shape) * kuhn_tree.legal_mask
    policy /= policy.sum(axis=1, keepdims=True)
    ev = TreeEvaluator(kuhn_tree)
    for player in (0, 1):
        brute = max(_pure_strategy_values(kuhn_tree, policy, player))  # 2^6 pure strategies
        assert ev.best_response(policy, player)[0] == pytest.approx(brute, abs=1e-12)


def test_malformed_policy_is_rejected(kuhn_tree: game.GameTree) -> None:
    ev = TreeEvaluator(kuhn_tree)
    with pytest.raises(GameError, match="shape"):
        ev.exploitability(np.ones((3, 2)))
    bad = kuhn_tree.uniform_policy()
    bad[0] = [0.9, 0.9]
    with pytest.raises(GameError, match="sum to 1"):
        ev.exploitability(bad)
    with pytest.raises(GameError, match="no entry"):
        kuhn_tree.policy_from_dict({"J": [0.5, 0.5]})


# --- full-tree CFR ------------------------------------------------------------------------


def test_kuhn_cfr_plus_reaches_value_minus_one_eighteenth(kuhn_cfr_plus: CFRSolver) -> None:
    assert kuhn_cfr_plus.exploitability() < 1e-3
    assert kuhn_cfr_plus.game_value() == pytest.approx(KUHN_GAME_VALUE, abs=1e-3)


def test_kuhn_equilibrium_family(kuhn_cfr_plus: CFRSolver) -> None:
    """Kuhn's equilibria: P0 bets J with α ∈ [0, 1/3], K with 3α, never Q; calls Q with α + 1/3."""
    bet = {k: p[1] for k, p in kuhn_cfr_plus.tree.policy_to_dict(kuhn_cfr_plus.average_policy()).items()}
    alpha = bet["J"]
    assert -1e-9 <= alpha <= 1 / 3 + 0.01
    assert bet["K"] == pytest.approx(3 * alpha, abs=0.02)
    assert bet["Q"] == pytest.approx(0.0, abs=0.01)
    assert bet["Qpb"] == pytest.approx(alpha + 1 / 3, abs=0.02)
    assert bet["Jpb"] == pytest.approx(0.0, abs=0.01) and bet["Kpb"] == pytest.approx(1.0, abs=0.01)
    # Player 1's equilibrium strategy is unique.
    assert bet["Kb"] == pytest.approx(1.0, abs=0.01) and bet["Jb"] == pytest.approx(0.0, abs=0.01)
    assert bet["Qb"] == pytest.approx(1 / 3, abs=0.02) and bet["Jp"] == pytest.approx(1 / 3, abs=0.02)
    assert bet["Kp"] == pytest.approx(1.0, abs=0.01) and bet["Qp"] == pytest.approx(0.0, abs=0.01)


def test_kuhn_vanilla_cfr_converges(kuhn_tree: game.GameTree) -> None:
    solver = CFRSolver(kuhn_tree, algorithm="cfr")
    solver.run(2000)
    assert solver.exploitability() < 1e-3
    assert solver.game_value() == pytest.approx(KUHN_GAME_VALUE, abs=2e-3)


def test_leduc_cfr_plus_exploitability_falls_below_threshold(leduc_tree: game.GameTree) -> None:
    """Documented threshold: CFR+ on Leduc is below 5e-4 chips after 1,000 iterations (2.45e-4)."""
    solver = CFRSolver(leduc_tree, algorithm="cfr+")
    curve = []
    for target in (10, 100, 1000):
        solver.run(target - solver.iteration)
        curve.append(solver.exploitability())
    assert curve[0] > curve[1] > curve[2]
    assert curve[2] < 5e-4
    assert solver.game_value() == pytest.approx(LEDUC_GAME_VALUE, abs=2e-3)


def test_leduc_cfr_matches_openspiel_iterate_for_iterate(leduc_tree: game.GameTree) -> None:
    # OpenSpiel 2.0.2 (C++ CFRPlusSolver / CFRSolver, 100 iterations on leduc_poker):
    # exploitability 0.013415994970897835 and 0.09571635300459762.
    plus = CFRSolver(leduc_tree, algorithm="cfr+")
    plus.run(100)
    vanilla = CFRSolver(leduc_tree, algorithm="cfr")
    vanilla.run(100)
    assert plus.exploitability() == pytest.approx(0.013415994970897835, abs=1e-9)
    assert vanilla.exploitability() == pytest.approx(0.09571635300459762, abs=1e-9)


def test_regret_matching_uses_positive_regrets_only() -> None:
    mask = np.array([[True, True, True], [True, True, False]])
    out = regret_matching(np.array([[2.0, -5.0, 6.0], [-1.0, -1.0, 0.0]]), mask)
    assert out == pytest.approx(np.array([[0.25, 0.0, 0.75], [0.5, 0.5, 0.0]]))


def test_bad_solver_arguments_are_rejected(kuhn_tree: game.GameTree) -> None:
    with pytest.raises(GameError, match="choose one of cfr, cfr\\+"):
        CFRSolver(kuhn_tree, algorithm="dcfr")
    solver = CFRSolver(kuhn_tree)
    with pytest.raises(GameError, match="iterations"):
        solver.run(-1)
    with pytest.raises(GameError, match="iterations=True is invalid"):
        solver.run(True)  # a bool is not a count
    assert solver.iteration == 0
    with pytest.raises(GameError, match="discount_interval=True"):
        Averaging("discounted", discount_interval=True)
    with pytest.raises(GameError, match="averaging"):
        Averaging("exponential")
    with pytest.raises(GameError, match="Generator"):
        BatchedExternalSamplingMCCFR(kuhn_tree, rng=0)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="batch_size"):
        BatchedExternalSamplingMCCFR(kuhn_tree, rng=np.random.default_rng(0), batch_size=0)


class _InconsistentGame(KuhnPoker):
    """Kuhn where player 1 cannot bet after a pass when holding K: same key, other actions."""

    def legal_actions(self, state: kuhn.KuhnState) -> Sequence[int]:
        cards, history = state
        if history == "p" and cards[1] == 2 and cards[0] == 0:
            return (kuhn.PASS,)
        return super().legal_actions(state)


def test_compile_rejects_inconsistent_infosets() -> None:
    with pytest.raises(GameError, match="'Kp' has inconsistent"):
        compile_game(_InconsistentGame())


# --- MCCFR --------------------------------------------------------------------------------


@pytest.mark.parametrize("averaging", ["linear", "uniform", "discounted"])
def test_batched_mccfr_converges_on_kuhn(kuhn_tree: game.GameTree, averaging: str) -> None:
    solver = BatchedExternalSamplingMCCFR(kuhn_tree, rng=np.random.default_rng(0), averaging=averaging)
    solver.run(20_000)
    assert solver.iteration == 20_000
    assert solver.exploitability() < 0.02
    assert solver.game_value() == pytest.approx(KUHN_GAME_VALUE, abs=0.01)


@pytest.mark.parametrize("averaging", ["linear", "uniform", "linear-average", "discounted"])
def test_callback_mccfr_converges_on_kuhn(kuhn_tree: game.GameTree, averaging: str) -> None:
    solver = ExternalSamplingMCCFR(KuhnPoker(), rng=np.random.default_rng(0), averaging=averaging)
    solver.run(5000)
    assert set(solver.average_policy_dict()) == KUHN_INFOSETS
    policy = solver.average_policy_array(kuhn_tree)
    assert TreeEvaluator(kuhn_tree).exploitability(policy) < 0.03


def test_batched_mccfr_on_leduc_improves_with_iterations(leduc_tree: game.GameTree) -> None:
    solver = BatchedExternalSamplingMCCFR(leduc_tree, rng=np.random.default_rng(0))
    solver.run(2_000)
    early = solver.exploitability()
    solver.run(18_000)
    late = solver.exploitability()
    assert late < early and late < 0.2


def test_mccfr_is_deterministic_for_a_fixed_seed(kuhn_tree: game.GameTree) -> None:
    def batched(seed: int) -> np.ndarray:
        solver = BatchedExternalSamplingMCCFR(kuhn_tree, rng=np.random.default_rng(seed), batch_size=8)
        solver.run(500)
        return solver.average_policy()

    def callback(seed: int) -> dict[str, list[float]]:
        solver = ExternalSamplingMCCFR(KuhnPoker(), rng=np.random.default_rng(seed))
        solver.run(300)
        return solver.average_policy_dict()

    assert np.array_equal(batched(7), batched(7))
    assert not np.array_equal(batched(7), batched(8))
    assert callback(7) == callback(7)
    assert callback(7) != callback(8)


def test_discounting_shrinks_tables_at_each_interval() -> None:
    averaging = Averaging("discounted", discount_interval=10)
    regrets = np.array([[4.0, -4.0]])
    average = np.array([[1.0, 3.0]])
    averaging.discount(regrets, average, 5, 25)  # crosses k = 1 and k = 2
    pos = (1 / 2) * (2**1.5 / (2**1.5 + 1))
    assert regrets == pytest.approx(np.array([[4.0 * pos, -4.0 * 0.25]]))
    assert average == pytest.approx(np.array([[1.0, 3.0]]) * (1 / 2) ** 2 * (2 / 3) ** 2)


# --- CLI ----------------------------------------------------------------------------------


def test_cli_solve_kuhn_json_and_policy_file(tmp_path, capsys) -> None:
    out_file = tmp_path / "kuhn.json"
    status = holdem_main(["solve", "kuhn", "--iterations", "1000", "--json", "--quiet", "--policy-out", str(out_file)])
    assert status == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "kuhn" and result["algorithm"] == "cfr+" and result["iterations"] == 1000
    assert result["exploitability"] < 1e-3
    assert result["game_value"] == pytest.approx(-1 / 18, abs=1e-3)
    policy = json.loads(out_file.read_text())
    assert set(policy) == KUHN_INFOSETS
    assert all(len(p) == 2 and sum(p) == pytest.approx(1.0) for p in policy.values())
    assert policy["Kb"][1] == pytest.approx(1.0, abs=0.01)  # [p, b]: K always calls


def test_cli_solve_leduc_mccfr_text(capsys) -> None:
    status = holdem_main(["solve", "leduc", "--iterations", "2000", "--algorithm", "mccfr", "--seed", "3", "--quiet"])
    assert status == 0
    text = capsys.readouterr().out
    assert "algorithm: mccfr" in text and "infosets: 288" in text
    expl = float(text.split("exploitability: ")[1].split()[0])
    assert 0.0 < expl < 2.0


def test_cli_rejects_negative_iterations(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        holdem_main(["solve", "kuhn", "--iterations", "-5"])
    assert exc.value.code == 2
    assert "expected an integer >= 0" in capsys.readouterr().err


def test_cli_rejects_negative_seed(capsys) -> None:
    with pytest.raises(SystemExit) as exc:  # numpy would refuse it later with a bare traceback
        holdem_main(["solve", "kuhn", "--algorithm", "mccfr", "--seed", "-1"])
    assert exc.value.code == 2
    assert "-1 is negative: expected an integer >= 0" in capsys.readouterr().err


# --- docstring examples -------------------------------------------------------------------


@pytest.mark.parametrize("module", [cfr_pkg, cfr_mod, mccfr, evaluation, game, inplace, kuhn, leduc, tables])
def test_doctests(module) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0


def test_callback_mccfr_on_leduc_visits_every_infoset_and_improves(leduc_tree: game.GameTree) -> None:
    solver = ExternalSamplingMCCFR(LeducPoker(), rng=np.random.default_rng(1))
    ev = TreeEvaluator(leduc_tree)
    solver.run(300)
    early = ev.exploitability(solver.average_policy_array(leduc_tree))
    solver.run(2700)
    assert set(solver.average_policy_dict()) == set(leduc_tree.infoset_keys)
    late = ev.exploitability(solver.average_policy_array(leduc_tree))
    assert late < early and late < 0.5


def test_callback_mccfr_rejects_inconsistent_infosets() -> None:
    solver = ExternalSamplingMCCFR(_InconsistentGame(), rng=np.random.default_rng(0))
    either_order = r"'Kp' offers actions \(0,\) here but \(0, 1\) before|'Kp' offers actions \(0, 1\) here but \(0,\)"
    with pytest.raises(GameError, match=either_order):
        solver.run(200)


def test_policy_dict_round_trip(leduc_tree: game.GameTree) -> None:
    solver = CFRSolver(leduc_tree)
    solver.run(20)
    policy = solver.average_policy()
    table = leduc_tree.policy_to_dict(policy)
    assert len(table["K:"]) == 2 and len(table["K:cr"]) == 3 and len(table["K:rr"]) == 2
    assert np.array_equal(leduc_tree.policy_from_dict(table), policy)


class _ThreePlayerTargets(ExtensiveFormGame[tuple[int, ...]]):
    """Chance draws a bit b (sampled only); player p scores by choosing (p + b) % 2.

    Utility: own hit minus the mean hit, so a dominant action exists for everyone.
    ``chance_outcomes`` is deliberately unavailable, as for a full deck of cards.
    """

    name = "targets3"
    num_players = 3
    num_actions = 2
    action_names = ("0", "1")

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def is_terminal(self, state: tuple[int, ...]) -> bool:
        return len(state) == 4

    def current_player(self, state: tuple[int, ...]) -> int:
        return game.CHANCE if not state else len(state) - 1

    def chance_outcomes(self, state: tuple[int, ...]) -> Sequence[tuple[int, float]]:
        raise NotImplementedError("sample_chance only")

    def sample_chance(self, state: tuple[int, ...], rng: np.random.Generator) -> int:
        return int(rng.integers(2))

    def legal_actions(self, state: tuple[int, ...]) -> Sequence[int]:
        return (0, 1)

    def apply(self, state: tuple[int, ...], action: int) -> tuple[int, ...]:
        return state + (action,)

    def infoset_key(self, state: tuple[int, ...]) -> str:
        return f"P{len(state) - 1}:{state[0]}"

    def utility(self, state: tuple[int, ...], player: int) -> float:
        hits = [float(state[1 + p] == (p + state[0]) % 2) for p in range(3)]
        return hits[player] - sum(hits) / 3


def test_callback_mccfr_runs_three_players_with_sampled_chance_only() -> None:
    solver = ExternalSamplingMCCFR(_ThreePlayerTargets(), rng=np.random.default_rng(0))
    solver.run(300)
    policy = solver.average_policy_dict()
    assert set(policy) == {f"P{p}:{b}" for p in range(3) for b in range(2)}
    for p in range(3):
        for b in range(2):
            assert policy[f"P{p}:{b}"][(p + b) % 2] > 0.95
    with pytest.raises(GameError, match="2-player"):
        compile_game(_ThreePlayerTargets())  # the exact tools are two-player only


# --- what the cfr-lite trainer needs from the core -------------------------------------------


def test_linear_average_weights_only_the_average_strategy() -> None:
    averaging = Averaging("linear-average")
    assert (averaging.regret_weight(4), averaging.average_weight(4)) == (1.0, 4.0)
    assert np.array_equal(averaging.average_weight(np.array([1.0, 3.0])), [1.0, 3.0])
    assert np.array_equal(averaging.regret_weight(np.array([1.0, 3.0])), [1.0, 1.0])
    # Regrets alone drive the sampled trajectory, so with one seed "uniform" and "linear-average"
    # visit the same sets with the same regrets; only the strategy sums are weighted differently.
    uniform = ExternalSamplingMCCFR(LeducPoker(), rng=np.random.default_rng(3), averaging="uniform")
    linear = ExternalSamplingMCCFR(LeducPoker(), rng=np.random.default_rng(3), averaging="linear-average")
    uniform.run(1)
    linear.run(1)
    n = len(uniform.table)
    assert np.array_equal(uniform.table.strategy_sum[:n], linear.table.strategy_sum[:n])  # t = 1
    uniform.run(40)
    linear.run(40)
    n = len(uniform.table)
    assert uniform.table.keys == linear.table.keys
    assert np.array_equal(uniform.table.regret[:n], linear.table.regret[:n])
    assert np.array_equal(uniform.table.visits[:n], linear.table.visits[:n])
    assert not np.array_equal(uniform.table.strategy_sum[:n], linear.table.strategy_sum[:n])
    assert linear.table.strategy_sum[:n].sum() > uniform.table.strategy_sum[:n].sum()


def test_dealt_in_place_keeps_the_games_answers(kuhn_tree: game.GameTree) -> None:
    boxed = DealtInPlace(KuhnPoker())
    root = boxed.sample_root(np.random.default_rng(5), 1)
    assert boxed.current_player(root) == 0 and len(root[0][0]) == 2  # both cards dealt at the root
    copy = boxed.copy_state(root)
    assert boxed.advance(copy, kuhn.BET) is copy and copy[0][1] == "b" and root[0][1] == ""
    assert boxed.apply(root, kuhn.PASS)[0][1] == "p" and root[0][1] == ""
    assert boxed.utility(boxed.advance(copy, kuhn.BET), 0) == kuhn.KuhnPoker().utility((root[0][0], "bb"), 0)
    # the deal is drawn from the generator alone
    deals = {tuple(boxed.sample_root(np.random.default_rng(s), 1)[0][0]) for s in range(40)}
    assert len(deals) == 6
    with pytest.raises(GameError, match="expected an ExtensiveFormGame"):
        DealtInPlace(kuhn_tree)  # type: ignore[arg-type]


def test_iteration_root_and_in_place_states_are_what_the_solver_uses() -> None:
    class Counting(DealtInPlace):
        def __init__(self) -> None:
            super().__init__(KuhnPoker())
            self.roots: list[int] = []
            self.copies = 0

        def sample_root(self, rng: np.random.Generator, iteration: int) -> list:
            self.roots.append(iteration)
            return super().sample_root(rng, iteration)

        def copy_state(self, state: list) -> list:
            self.copies += 1
            return super().copy_state(state)

        def apply(self, state: list, action: int) -> list:
            raise AssertionError("the solver moves states by advance only")

    counting = Counting()
    solver = ExternalSamplingMCCFR(counting, averaging="linear-average")
    solver.run(3, np.random.default_rng(0))
    assert counting.roots == [1, 2, 3] and solver.iteration == 3
    # per iteration: one copy of the root per traverser plus one per action it tries
    assert counting.copies > 3 * 2
    with pytest.raises(GameError, match="rng=None is invalid"):
        solver.run(1)
    with pytest.raises(GameError, match="iterations=-1 is invalid"):
        solver.run(-1, np.random.default_rng(0))
    assert solver.iteration == 3


def test_infoset_table_rows_columns_and_errors() -> None:
    table = InfosetTable(5, capacity=1)
    assert table.row("a", (1, 2, 3)) == 0 and table.row("b", (0, 2, 4)) == 1  # grows past capacity
    assert table.columns(0) == slice(1, 4) and np.array_equal(table.columns(1), [0, 2, 4])
    assert table.row("a", (1, 2, 3)) == 0 and len(table) == 2
    assert table.legal[:2].tolist() == [[False, True, True, True, False], [True, False, True, False, True]]
    table.regret[1] = [9.0, 0.0, -1.0, 0.0, 3.0]
    assert table.current_policy(1).tolist() == [0.75, 0.0, 0.25]
    assert table.current_policy(0).tolist() == pytest.approx([1 / 3] * 3)
    with pytest.raises(GameError, match=r"offers actions \(0, 2\) here but \(0, 2, 4\) before"):
        table.row("b", (0, 2))
    with pytest.raises(GameError, match=r"offers actions \(5,\): expected one or more ids in 0..4"):
        table.row("c", (5,))
    with pytest.raises(GameError, match="num_actions=0 is invalid"):
        InfosetTable(0)
    assert len(table) == 2


def test_infoset_table_arrays_round_trip_and_increments() -> None:
    base = InfosetTable(3)
    base.row("x", (0, 1))
    base.regret[0, :2] = [1.0, -2.0]
    base.strategy_sum[0, :2] = [0.5, 0.5]
    base.visits[0] = 1
    back = InfosetTable.from_arrays(3, base.arrays())
    assert back.keys == ["x"] and back.actions(0) == (0, 1) and back.columns(0) == slice(0, 2)
    assert np.array_equal(back.regret[:1], base.regret[:1]) and back.visits[0] == 1
    since = base.snapshot()
    copy_a, copy_b = base.snapshot(), base.snapshot()
    copy_a.regret[0, 0] += 2.0
    copy_a.visits[0] += 3
    copy_b.regret[0, 1] += 5.0
    copy_b.row("y", (1, 2))
    copy_b.strategy_sum[1, 1:3] = [1.0, 2.0]
    base.add_increments(since, copy_a)
    base.add_increments(since, copy_b)
    assert base.keys == ["x", "y"] and base.actions(1) == (1, 2)
    assert base.regret[0, :2].tolist() == [3.0, 3.0] and base.visits[0] == 4
    assert base.strategy_sum[1].tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(GameError, match="must start with the rows of the common starting table"):
        stranger = InfosetTable(3)
        stranger.row("z", (0,))
        base.add_increments(since, stranger)
    with pytest.raises(GameError, match="table arrays lack visits"):
        InfosetTable.from_arrays(3, {k: v for k, v in base.arrays().items() if k != "visits"})

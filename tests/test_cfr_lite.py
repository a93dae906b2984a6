"""cfr-lite: action abstraction and translation, card buckets, training, policy file, agent."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from holdem_env.agents.cfr_lite.actions import CALL, FOLD, ActionAbstraction, pseudo_harmonic, translate_size
from holdem_env.agents.cfr_lite.buckets import (
    NUM_PREFLOP_CLASSES,
    CardAbstraction,
    hand_strengths,
    preflop_class,
    preflop_class_name,
)
from holdem_env.agents.cfr_lite.game import raises_this_street
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError


class _Legal:
    def __init__(self, fold: bool, check: bool, call: int, lo: int | None, hi: int | None) -> None:
        self.fold, self.check, self.call, self.min_raise_to, self.max_raise_to = fold, check, call, lo, hi


# -- action abstraction -------------------------------------------------------------------
def test_pseudo_harmonic_endpoints_and_monotone() -> None:
    assert pseudo_harmonic(0.5, 0.5, 1.0) == 1.0
    assert pseudo_harmonic(1.0, 0.5, 1.0) == 0.0
    xs = np.linspace(0.5, 1.0, 11)
    ps = [pseudo_harmonic(float(x), 0.5, 1.0) for x in xs]
    assert all(a > b for a, b in zip(ps, ps[1:], strict=False))
    # Ganzfried & Sandholm's formula at x = 0.75 between 0.5 and 1: (0.25 * 1.5) / (0.5 * 1.75)
    assert pseudo_harmonic(0.75, 0.5, 1.0) == pytest.approx(0.375 / 0.875)
    # a = 0 (a call) is allowed: a tiny bet is nearly always read as a call
    assert pseudo_harmonic(0.01, 0.0, 1.0) == pytest.approx(0.99 / 1.01)


def test_pseudo_harmonic_rejects_out_of_range_size() -> None:
    with pytest.raises(ConfigError, match=r"size=1.5 is invalid: must lie in \[A, B\]"):
        pseudo_harmonic(1.5, 0.5, 1.0)


@pytest.mark.parametrize("sizes", [(0.5, 1.0), (0.33, 0.75, 1.5, 4.0), (1.0,)])
def test_translation_maps_in_tree_sizes_to_themselves(sizes: tuple[float, ...]) -> None:
    rng = np.random.default_rng(0)
    for i, s in enumerate(sizes):
        for _ in range(20):
            assert translate_size(s, sizes, rng) == i
        assert translate_size(s, sizes, None) == i


def test_translation_clamps_and_randomises_between_sizes() -> None:
    sizes = (0.5, 1.0)
    assert translate_size(0.1, sizes) == 0 and translate_size(9.0, sizes) == 1
    rng = np.random.default_rng(1)
    draws = [translate_size(0.75, sizes, rng) for _ in range(4000)]
    share_low = draws.count(0) / len(draws)
    assert share_low == pytest.approx(pseudo_harmonic(0.75, 0.5, 1.0), abs=0.03)


def test_abstract_moves_are_legal_engine_amounts() -> None:
    ab = ActionAbstraction(pot_fractions=(0.5, 1.0))
    # Preflop SB to act heads-up, blinds 5/10, stacks 1000: pot 15, bet 10, owes 5.
    moves = ab.moves(_Legal(True, False, 5, 20, 1000), pot=15, current_bet=10, raises_this_street=0)
    assert [(m.index, m.kind, m.amount) for m in moves] == [
        (0, "fold", 0), (1, "call", 0), (2, "raise", 20), (3, "raise", 30), (4, "raise", 1000)
    ]
    # After the raise cap only fold/call/all-in remain.
    capped = ab.moves(_Legal(True, False, 5, 20, 1000), pot=15, current_bet=10, raises_this_street=2)
    assert [m.index for m in capped] == [FOLD, CALL, 4]
    # A pot raise beyond the stack becomes the all-in, not a duplicate.
    short = ab.moves(_Legal(True, False, 5, 20, 25), pot=15, current_bet=10, raises_this_street=0)
    assert [(m.index, m.amount) for m in short] == [(0, 0), (1, 0), (2, 20), (4, 25)]
    # No raise allowed: only fold/call.
    no_raise = ab.moves(_Legal(True, False, 50, None, None), pot=100, current_bet=60, raises_this_street=0)
    assert [m.index for m in no_raise] == [0, 1]


def test_translate_observed_raise_in_tree_and_between() -> None:
    ab = ActionAbstraction(pot_fractions=(0.5, 1.0))
    moves = ab.moves(_Legal(True, False, 5, 20, 1000), pot=15, current_bet=10, raises_this_street=0)
    for m in moves:
        if m.kind == "raise":
            assert ab.translate(m.amount, moves, pot=15, current_bet=10, to_call=5) == m.index
    # raise to 500: between the pot raise (30) and all-in (1000)
    got = {ab.translate(500, moves, pot=15, current_bet=10, to_call=5, rng=np.random.default_rng(s)) for s in range(50)}
    assert got == {3, 4}


def test_preflop_raise_cap_is_its_own_and_the_streets_after_keep_theirs() -> None:
    ab = ActionAbstraction(pot_fractions=(1.0,), max_raises_per_street=1, all_in_max_pot=3.0, preflop_max_raises=3)
    assert ab.max_raises(True) == 3 and ab.max_raises(False) == 1
    legal = _Legal(True, False, 25, 60, 1000)
    pre = ab.moves(legal, pot=50, current_bet=35, raises_this_street=2, preflop=True)
    post = ab.moves(legal, pot=50, current_bet=35, raises_this_street=2, preflop=False)
    assert [m.index for m in pre] == [FOLD, CALL, 2]  # the 3-bet is in the tree preflop
    assert [m.index for m in post] == [FOLD, CALL]  # one raise a street after the flop (all-in above 3 pots: none)
    assert ActionAbstraction(max_raises_per_street=2).max_raises(True) == 2  # None: the same cap preflop
    with pytest.raises(ConfigError, match=r"preflop_max_raises=9 is invalid: must be an integer in 0\.\.8"):
        ActionAbstraction(preflop_max_raises=9)
    with pytest.raises(ConfigError, match="preflop_max_raises"):
        ActionAbstraction(preflop_max_raises=True)  # type: ignore[arg-type]


def test_abstract_game_offers_re_raises_preflop_up_to_the_preflop_cap_only() -> None:
    from holdem_env.agents.cfr_lite.game import AbstractHoldem

    actions = ActionAbstraction(pot_fractions=(1.0,), max_raises_per_street=1, all_in_max_pot=None, preflop_max_raises=3)
    game = AbstractHoldem(TableConfig(num_players=6, buy_in=100_000), actions, CardAbstraction(20, (5, 5, 5), 0, 200, 0))
    node = game.new_hand(np.random.default_rng(0), button=0)
    offered_pot_raise = []
    while node.street == 0:
        moves = {m.index: m for m in game.moves(node)}
        offered_pot_raise.append(2 in moves)
        game.play(node, moves[2] if 2 in moves else moves[CALL])
    # Open, 3-bet and 4-bet are pot raises; then the other five seats call the 4-bet.
    assert offered_pot_raise == [True, True, True, False, False, False, False, False]
    assert node.history.split("/")[0] == "000ccccc"
    moves = {m.index: m for m in game.moves(node)}
    game.play(node, moves[2])  # the flop's bet
    assert 2 not in {m.index for m in game.moves(node)}  # no raise of it on the flop
    assert node.history.endswith("/0")


def _play_preflop(game, node, line: str) -> None:
    """Play the abstract action codes of ``line`` (``f``, ``c``, ``0``) preflop."""
    for code in line:
        moves = {m.index: m for m in game.moves(node)}
        game.play(node, moves[{"f": FOLD, "c": CALL, "0": 2}[code]])


def test_summarized_preflop_keys_share_postflop_lines_with_the_same_pot_and_aggressor() -> None:
    from holdem_env.agents.cfr_lite.game import AbstractHoldem

    def game(summarize: bool) -> AbstractHoldem:
        actions = ActionAbstraction(pot_fractions=(1.0,), max_raises_per_street=1, all_in_max_pot=3.0, summarize_preflop=summarize)
        return AbstractHoldem(TableConfig(num_players=6), actions, CardAbstraction(20, (5, 5, 5), 0, 200, 0))

    keys: dict[tuple[bool, str], tuple[str, str]] = {}
    for summarize in (False, True):
        g = game(summarize)
        for line in ("0ffffc", "f0fffc"):  # UTG or MP opens (to 35), everyone else folds, the BB calls
            node = g.new_hand(np.random.default_rng(0), button=0)
            _play_preflop(g, node, line)
            assert node.street == 1 and node.flop == (2, 75, 35)
            bb, opener = 2, 3 + line.index("0")
            assert g.key(node, bb) == g.key(node, bb, g.bucket(node, bb))
            keys[summarize, line] = (g.key(node, bb, 4), g.key(node, opener, 4))
    # The big blind's flop is one information set after either line; each opener has its own seat.
    assert keys[True, "0ffffc"] == ("2:4:2p75b35X/", "3:4:2p75b35A/")
    assert keys[True, "f0fffc"] == ("2:4:2p75b35X/", "4:4:2p75b35A/")
    assert keys[False, "0ffffc"] == ("2:4:0ffffc/", "3:4:0ffffc/")  # full recall keeps each line apart
    preflop = game(True).new_hand(np.random.default_rng(0), button=0)
    assert game(True).key(preflop, 3, 7) == "3:7:"  # preflop keys are never summarized


def test_action_abstraction_rejects_bad_fractions() -> None:
    with pytest.raises(ConfigError, match="pot_fractions"):
        ActionAbstraction(pot_fractions=(1.0, 0.5))
    with pytest.raises(ConfigError, match="max_raises_per_street"):
        ActionAbstraction(max_raises_per_street=-1)


# -- card abstraction ---------------------------------------------------------------------
def test_preflop_classes_are_169_and_lossless() -> None:
    classes: dict[int, set[tuple[int, int]]] = {}
    for a, b in itertools.combinations(range(52), 2):
        classes.setdefault(preflop_class((a, b)), set()).add((a, b))
    assert len(classes) == NUM_PREFLOP_CLASSES
    sizes = sorted(len(v) for v in classes.values())
    assert sizes.count(6) == 13 and sizes.count(4) == 78 and sizes.count(12) == 78
    assert preflop_class_name(preflop_class((51, 47))) == "AKs"
    assert preflop_class_name(preflop_class((51, 46))) == "AKo"
    assert preflop_class_name(preflop_class((50, 51))) == "AA"


def test_hand_strength_known_values() -> None:
    from holdem_env.engine.cards import parse_cards

    board = parse_cards("AsKsQsJs2d")
    nuts = hand_strengths([parse_cards("Ts3c")], board)[0]
    assert nuts == 1.0  # royal flush beats every other holding
    # Board plays (a straight flush on board... here: broadway on board, everyone ties) -> 0.5
    board2 = parse_cards("AhKdQcJsTh")
    assert hand_strengths([parse_cards("2c3d")], board2)[0] == pytest.approx(0.5, abs=0.02)


@pytest.fixture(scope="module")
def small_cards(tmp_path_factory: pytest.TempPathFactory) -> CardAbstraction:
    cache = str(tmp_path_factory.mktemp("cache"))
    return CardAbstraction(postflop_buckets=(5, 5, 5), sample_size=300, seed=3, cache_dir=cache)


def test_buckets_monotone_in_strength_and_deterministic(small_cards: CardAbstraction, tmp_path) -> None:
    for street in (1, 2, 3):
        xs = np.linspace(0.0, 1.0, 201)
        b = [small_cards.bucket_of_strength(street, float(x)) for x in xs]
        assert b == sorted(b) and b[0] == 0 and b[-1] == 4
    rng = np.random.default_rng(7)
    deals = [rng.choice(52, size=7, replace=False) for _ in range(30)]
    first = [small_cards.bucket(d[:2], d[2:5]) for d in deals]
    # A fresh object with the same settings reads the same thresholds from the disk cache.
    again = CardAbstraction(postflop_buckets=(5, 5, 5), sample_size=300, seed=3, cache_dir=small_cards.cache_dir)
    assert small_cards.cache_path().exists()
    assert [again.bucket(d[:2], d[2:5]) for d in deals] == first
    # and recomputing from scratch in another folder gives identical thresholds
    fresh = CardAbstraction(postflop_buckets=(5, 5, 5), sample_size=300, seed=3, cache_dir=str(tmp_path))
    for k, v in small_cards.thresholds().items():
        np.testing.assert_array_equal(fresh.thresholds()[k], v)


def test_buckets_order_real_hands(small_cards: CardAbstraction) -> None:
    from holdem_env.engine.cards import parse_cards

    board = parse_cards("Kh7d2c")
    strong = small_cards.bucket(parse_cards("KsKd"), board)
    weak = small_cards.bucket(parse_cards("4s3h"), board)
    assert strong == 4 and weak < strong
    # buckets_for_board agrees with bucket
    holes = [parse_cards("KsKd"), None, parse_cards("4s3h")]
    assert small_cards.buckets_for_board(holes, board) == [strong, -1, weak]


def test_coarse_preflop_buckets_rank_aces_top(small_cards: CardAbstraction, tmp_path) -> None:
    from holdem_env.engine.cards import parse_cards

    coarse = CardAbstraction(
        preflop_buckets=10, postflop_buckets=(5, 5, 5), sample_size=300, seed=3, cache_dir=small_cards.cache_dir
    )
    assert coarse.preflop_bucket(parse_cards("AsAh")) == 9
    assert coarse.preflop_bucket(parse_cards("7c2d")) <= 1


def test_card_abstraction_rejects_bad_settings() -> None:
    with pytest.raises(ConfigError, match="postflop_buckets"):
        CardAbstraction(postflop_buckets=(8, 8))
    with pytest.raises(ConfigError, match="preflop_buckets"):
        CardAbstraction(preflop_buckets=170)


# -- training, policy file, agent ------------------------------------------------------------
def test_raises_this_street_counts_only_current_street() -> None:
    assert raises_this_street("0a/") == 0
    assert raises_this_street("0c/c01") == 2
    assert raises_this_street("") == 0


def _hu_trainer(cards: CardAbstraction):
    """A heads-up trainer with one pot-sized raise per street (small and quick)."""
    from holdem_env.training.cfr_lite.trainer import CfrLiteTrainer

    actions = ActionAbstraction(pot_fractions=(1.0,), max_raises_per_street=1)
    return CfrLiteTrainer(TableConfig(num_players=2), actions, cards)


@pytest.fixture(scope="module")
def trained(small_cards: CardAbstraction):
    tr = _hu_trainer(small_cards)
    tr.train(60, np.random.default_rng(0))
    return tr


def test_training_is_deterministic_and_builds_valid_tables(trained, small_cards: CardAbstraction) -> None:
    tr2 = _hu_trainer(small_cards)
    tr2.train(60, np.random.default_rng(0))
    assert tr2.table.keys == trained.table.keys
    np.testing.assert_array_equal(tr2.table.regret[: len(tr2.table)], trained.table.regret[: len(trained.table)])
    avg = trained.average_strategy()
    assert np.allclose(avg.sum(axis=1), 1.0)
    assert not (avg[~trained.table.legal[: len(avg)]] > 0).any()  # no mass on actions never offered
    # the first decision heads-up is the button's: position 0 with an empty history
    assert any(k.startswith("0:") and k.endswith(":") for k in trained.table.keys)
    assert 0.0 < trained.strategy_entropy() < np.log(4)


# -- the traversal that builds the shipped policies, on games with known answers ------------
def _cfr_lite_solver(game):
    """The solver exactly as CfrLiteTrainer configures it, on ``game`` dealt at the root and played in place."""
    from holdem_env.training.cfr.inplace import DealtInPlace
    from holdem_env.training.cfr.mccfr import ExternalSamplingMCCFR
    from holdem_env.training.cfr_lite.trainer import AVERAGING

    return ExternalSamplingMCCFR(DealtInPlace(game), averaging=AVERAGING["linear"])


def test_trainer_runs_the_core_solver_with_the_configuration_checked_here(trained) -> None:
    from holdem_env.training.cfr.game import ExtensiveFormGame
    from holdem_env.training.cfr.kuhn import KuhnPoker
    from holdem_env.training.cfr.mccfr import Averaging, ExternalSamplingMCCFR
    from holdem_env.training.cfr_lite.sampled_game import SampledHoldem

    solver = trained.solver
    assert type(solver) is ExternalSamplingMCCFR and trained.table is solver.table
    assert solver.averaging == _cfr_lite_solver(KuhnPoker()).averaging == Averaging("linear-average")
    assert type(solver.game) is SampledHoldem and trained.iterations == solver.iteration == 60
    for hook in ("sample_root", "copy_state", "advance"):  # the deal and in-place moves the tests below exercise
        assert getattr(SampledHoldem, hook) is not getattr(ExtensiveFormGame, hook)


def test_cfr_lite_traversal_solves_kuhn() -> None:
    from holdem_env.training.cfr.evaluation import TreeEvaluator
    from holdem_env.training.cfr.game import compile_game
    from holdem_env.training.cfr.kuhn import KUHN_GAME_VALUE, KuhnPoker

    tree = compile_game(KuhnPoker())
    evaluator = TreeEvaluator(tree)
    solver = _cfr_lite_solver(KuhnPoker())
    rng = np.random.default_rng(0)
    solver.run(2_000, rng)
    early = evaluator.exploitability(solver.average_policy_array(tree))
    solver.run(8_000, rng)
    policy = solver.average_policy_array(tree)
    late = evaluator.exploitability(policy)
    # uniform play is exploitable by 0.458; Kuhn's equilibrium value for the first player is -1/18
    assert late < 0.012 and late < early / 2  # measured: 0.0072 after 10,000
    assert evaluator.expected_values(policy)[0] == pytest.approx(KUHN_GAME_VALUE, abs=0.002)


def test_cfr_lite_traversal_on_leduc_falls_under_the_bound() -> None:
    from holdem_env.training.cfr.evaluation import TreeEvaluator
    from holdem_env.training.cfr.game import compile_game
    from holdem_env.training.cfr.leduc import LeducPoker

    tree = compile_game(LeducPoker())
    evaluator = TreeEvaluator(tree)
    solver = _cfr_lite_solver(LeducPoker())  # the public card is a chance node inside the traversal
    rng = np.random.default_rng(0)
    solver.run(500, rng)
    early = evaluator.exploitability(solver.average_policy_array(tree))
    solver.run(2_500, rng)
    assert set(solver.average_policy_dict()) == set(tree.infoset_keys)
    late = evaluator.exploitability(solver.average_policy_array(tree))
    assert late < 0.4 and late < early * 0.5  # uniform play: 2.37 chips; measured 1.016 -> 0.313


def test_sampled_holdem_deals_at_the_root_and_moves_in_place(small_cards: CardAbstraction) -> None:
    from holdem_env.agents.cfr_lite.game import AbstractHoldem
    from holdem_env.training.cfr.game import GameError
    from holdem_env.training.cfr_lite.sampled_game import SampledHoldem

    game = SampledHoldem(AbstractHoldem(TableConfig(num_players=3), ActionAbstraction(), small_cards))
    assert game.num_players == 3 and game.num_actions == 5 and game.action_names == ("f", "c", "0", "1", "a")
    roots = [game.sample_root(np.random.default_rng(1), t) for t in (1, 2, 3)]
    assert [int(r.state.button) for r in roots] == [1, 2, 0]
    root = roots[0]
    actions = game.legal_actions(root)
    assert actions[:2] == (0, 1) and game.infoset_key(root).endswith(":")
    child = game.apply(root, 1)
    assert child.history == "c" and root.history == ""  # apply copies
    assert game.advance(root, 0) is root and root.history == "f"  # advance moves the state itself
    with pytest.raises(GameError, match=r"action 9 is not offered at history 'c': offered \[0, 1"):
        game.advance(child, 9)
    with pytest.raises(GameError, match="every iteration deals its own hand"):
        game.initial_state()
    while not game.is_terminal(child):
        child = game.advance(child, 1 if 1 in game.legal_actions(child) else 0)
    assert sum(game.utility(child, p) for p in range(3)) == pytest.approx(0.0)


def test_checkpoint_roundtrip_continues_identically(trained, tmp_path, small_cards: CardAbstraction) -> None:
    make = lambda: _hu_trainer(small_cards)  # noqa: E731
    a = make()
    a.train(10, np.random.default_rng(5))
    a.save_checkpoint(tmp_path / "ck.npz")
    b = make()
    b.load_checkpoint(tmp_path / "ck.npz")
    a.train(10, np.random.default_rng(6))
    b.train(10, np.random.default_rng(6))
    assert a.iterations == b.iterations == 20
    assert a.table.keys == b.table.keys
    np.testing.assert_array_equal(a.table.strategy_sum[: len(a.table)], b.table.strategy_sum[: len(b.table)])


def test_policy_file_roundtrip(trained, tmp_path) -> None:
    from holdem_env.agents.cfr_lite.policy import CfrLitePolicy

    pol = trained.policy()
    path = tmp_path / "p.npz"
    pol.save(path)
    back = CfrLitePolicy.load(path)
    assert back.keys == pol.keys
    np.testing.assert_allclose(back.probs, pol.probs, atol=1e-3)
    assert back.actions == pol.actions and back.table == pol.table
    capped = CfrLitePolicy(pol.table, ActionAbstraction(pot_fractions=(1.0,), max_raises_per_street=1, preflop_max_raises=3), pol.cards, pol.keys, pol.probs)
    capped.save(path)
    assert CfrLitePolicy.load(path).actions.preflop_max_raises == 3
    for k, v in pol.cards.thresholds().items():
        np.testing.assert_array_equal(back.cards.thresholds()[k], v)
    with pytest.raises(ConfigError, match="must be an existing cfr-lite .npz policy file"):
        CfrLitePolicy.load(tmp_path / "missing.npz")


@pytest.mark.parametrize("mode", ["exact", "discrete"])
def test_agent_plays_legal_actions_in_env(trained, tmp_path, mode: str) -> None:
    from holdem_env import nlhe_v1
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent
    from holdem_env.agents.random_agent import RandomAgent

    path = tmp_path / "p.npz"
    trained.policy().save(path)
    env = nlhe_v1.env(num_players=2, action_mode=mode, illegal_action="raise")
    agent, rnd = CfrLiteAgent(str(path), seed=1), RandomAgent(seed=2)
    for h in range(40):
        env.reset(seed=h)
        for name in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            act = (agent if name == "player_0" else rnd).act(obs, info)
            assert obs["action_mask"][act] == 1
            env.step(act)
    assert agent.lookups > 0  # the policy, not only the fallback rule, was played


def test_agent_finds_the_trained_summarized_postflop_keys(small_cards: CardAbstraction, tmp_path) -> None:
    from holdem_env import nlhe_v1
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent
    from holdem_env.agents.cfr_lite.policy import CfrLitePolicy
    from holdem_env.training.cfr_lite.trainer import CfrLiteTrainer

    actions = ActionAbstraction(pot_fractions=(1.0,), max_raises_per_street=1, all_in_max_pot=3.0, preflop_max_raises=2, summarize_preflop=True)
    trainer = CfrLiteTrainer(TableConfig(num_players=3), actions, small_cards)
    trainer.train(150, np.random.default_rng(0))
    full = trainer.policy()
    post = [i for i, k in enumerate(full.keys) if "/" in k]
    assert post and all(k.split(":")[2][1] == "p" for k in (full.keys[i] for i in post))
    path = tmp_path / "postflop_only.npz"  # without preflop keys, every lookup is a postflop one
    CfrLitePolicy(full.table, full.actions, full.cards, [full.keys[i] for i in post], full.probs[post]).save(path)
    assert CfrLitePolicy.load(path).actions.summarize_preflop
    env = nlhe_v1.env(num_players=3)
    agents = [CfrLiteAgent(str(path), seed=s, threshold=0.0, off_tree="rule") for s in range(3)]
    for h in range(60):
        env.reset(seed=h)
        for name in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            env.step(None if term or trunc else agents[int(name[-1])].act(obs, info))
    assert sum(a.lookups for a in agents) > 20


def test_agent_spec_registered() -> None:
    import holdem_env.agents.cfr_lite  # noqa: F401
    from holdem_env.agents.base import parse_spec

    assert parse_spec("cfr-lite").target == "holdem_env.agents.cfr_lite:CfrLiteAgent"


def test_parallel_training_is_deterministic_and_merges_every_copy(small_cards: CardAbstraction) -> None:
    from holdem_env.training.cfr_lite.trainer import merge_trainers, train_parallel

    make = lambda: _hu_trainer(small_cards)  # noqa: E731
    a, b = make(), make()
    train_parallel(a, 30, np.random.SeedSequence(4), 2, map, sync_every=10)
    train_parallel(b, 30, np.random.SeedSequence(4), 2, map, sync_every=10)
    assert a.iterations == 30 and a.table.keys == b.table.keys
    np.testing.assert_array_equal(a.table.regret[: len(a.table)], b.table.regret[: len(b.table)])
    # merging two copies adds both copies' increments to the base
    base = make()
    base.train(5, np.random.default_rng(1))
    import copy

    c1, c2 = copy.deepcopy(base), copy.deepcopy(base)
    c1.train(5, np.random.default_rng(2))
    c2.train(5, np.random.default_rng(3))
    n0 = len(base.table)
    expect = c1.table.visits[:n0] + c2.table.visits[:n0] - base.table.visits[:n0]
    merged = merge_trainers(copy.deepcopy(base), [c1, c2])
    assert merged.iterations == 15
    np.testing.assert_array_equal(merged.table.visits[:n0], expect)
    assert set(merged.table.keys) == set(c1.table.keys) | set(c2.table.keys)


def test_pruned_policy_and_threshold_agent(trained) -> None:
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent

    full = trained.policy()
    pruned = trained.policy(min_visits=3)
    assert 0 < len(pruned) < len(full)
    assert all(trained.table.visits[trained.table.index[k]] >= 3 for k in pruned.keys)
    with pytest.raises(ConfigError, match="threshold"):
        CfrLiteAgent(full, threshold=1.5)


def test_spacing_narrows_the_strong_buckets(small_cards: CardAbstraction) -> None:
    wide = CardAbstraction(
        postflop_buckets=(5, 5, 5), sample_size=300, seed=3, cache_dir=small_cards.cache_dir, spacing=2.0
    )
    for street in ("flop", "turn", "river"):
        eq, sp = small_cards.thresholds()[street], wide.thresholds()[street]
        assert len(sp) == 4 and np.all(np.diff(sp) >= 0)
        assert sp[-1] > eq[-1]  # the top bucket starts at a higher strength: it holds fewer hands
    assert wide.cache_path() != small_cards.cache_path()
    with pytest.raises(ConfigError, match="spacing"):
        CardAbstraction(spacing=0.0)


def test_build_command_is_reproducible(tmp_path, monkeypatch, small_cards: CardAbstraction) -> None:
    from holdem_env.agents.cfr_lite.policy import CfrLitePolicy
    from holdem_env.training.cfr_lite import build

    monkeypatch.setenv("HOLDEM_ENV_CACHE", str(small_cards.cache_dir))
    small = {
        "pot_fractions": (1.0,),
        "max_raises_per_street": 1,
        "preflop_buckets": 169,
        "postflop_buckets": (5, 5, 5),
        "spacing": 1.0,
        "iterations": 10,
        "min_visits": 1,
        "workers": 1,
        "chunk": 4,
    }
    monkeypatch.setitem(build.PRESETS, 2, small)
    monkeypatch.setattr(build, "_SAMPLE_SIZE", 300)
    a, b, c = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.npz"
    assert build.main(["--players", "2", "--out", str(a), "--iterations", "12"]) == 0  # the preset's workers and chunk
    info = build.build_policy(2, str(b), iterations=12, workers=1, chunk=4, log=False)
    assert info["iterations"] == 12
    pa, pb = CfrLitePolicy.load(a), CfrLitePolicy.load(b)
    assert pa.keys == pb.keys and np.array_equal(pa.probs, pb.probs)
    assert (pa.info["workers"], pa.info["chunk"]) == (1, 4)
    build.build_policy(2, str(c), iterations=12, workers=1, chunk=6, log=False)  # each chunk draws its own seed
    assert not np.array_equal(CfrLitePolicy.load(c).probs, pa.probs)


def test_bare_spec_plays_the_shipped_policy() -> None:
    from holdem_env.agents.base import make_agent
    from holdem_env.agents.cfr_lite.agent import SHIPPED_POLICY

    assert SHIPPED_POLICY.is_file(), "agents/data/cfr_lite_hu.npz is missing: build it (docs/league_readme_snippet.md)"
    assert SHIPPED_POLICY.stat().st_size < 5_000_000
    agent = make_agent("cfr-lite", rng=np.random.default_rng(0))
    policy = agent.policy_for(2)
    assert policy.table.num_players == 2 and len(policy) > 1000
    from holdem_env import nlhe_v1

    env = nlhe_v1.env(num_players=2)
    env.reset(seed=3)
    obs, _, _, _, info = env.last()
    act = agent.act(obs, info)
    assert obs["action_mask"][act] == 1 and agent.lookups == 1


def test_all_in_max_pot_removes_deep_shoves_only() -> None:
    ab = ActionAbstraction(pot_fractions=(0.5, 1.0), all_in_max_pot=3.0)
    # Preflop open: the shove is 98 pots -> not offered.
    moves = ab.moves(_Legal(True, False, 5, 20, 1000), pot=15, current_bet=10, raises_this_street=0)
    assert [m.index for m in moves] == [FOLD, CALL, 2, 3]
    # Short stack: the all-in is within 3 pots (or a pot raise reaches it) -> offered.
    short = ab.moves(_Legal(True, False, 50, 150, 200), pot=150, current_bet=100, raises_this_street=2)
    assert [m.index for m in short] == [FOLD, CALL, 4]
    reach = ab.moves(_Legal(True, False, 5, 20, 28), pot=15, current_bet=10, raises_this_street=0)
    assert [(m.index, m.amount) for m in reach] == [(0, 0), (1, 0), (2, 20), (4, 28)]
    # An opponent's shove is still translated to the largest offered raise.
    assert ab.translate(1000, moves, pot=15, current_bet=10, to_call=5) == 3
    with pytest.raises(ConfigError, match="all_in_max_pot"):
        ActionAbstraction(all_in_max_pot=0)


@pytest.mark.parametrize("raise_to, off_tree", [(30, False), (60, False), (1000, True)])
def test_overbet_takes_the_hand_off_the_tree(raise_to: int, off_tree: bool) -> None:
    from holdem_env import nlhe_v1
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent

    agent = CfrLiteAgent(seed=0)
    policy = agent.policy_for(2)
    env = nlhe_v1.env(num_players=2, action_mode="exact")
    env.reset(seed=5)
    env.step(nlhe_v1.exact_action_id(raise_to))  # the button (small blind) opens
    obs, _, _, _, info = env.last()
    _, node, flagged = agent._shadow(policy, info["view"])
    assert flagged is off_tree
    assert node.history == "1"  # read as the pot raise (the largest raise the tree offers here)
    act = agent.act(obs, info)
    assert obs["action_mask"][act] == 1
    if off_tree:
        assert agent.fallbacks == 1 and agent.lookups == 0


# -- preflop from the chart (issue 10, item 7) ----------------------------------------------
def _chart_policy(trained, info: dict):
    pol = trained.policy()
    pol.info.update(info)
    return pol


def _decisions(agent, opponent, hands: int, players: int = 2):
    """(observation, info) at ``agent``'s decisions (seat 0) against ``opponent`` elsewhere."""
    from holdem_env import nlhe_v1

    env = nlhe_v1.env(num_players=players)
    for h in range(hands):
        env.reset(seed=100 + h)
        agent.start_hand({})
        for name in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if name == "player_0":
                yield obs, info
                env.step(agent.act(obs, info))
            else:
                env.step(opponent.act(obs, info))


def test_chart_preflop_is_tags_and_the_policy_plays_after(trained) -> None:
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent
    from holdem_env.agents.tag import TagAgent

    agent = CfrLiteAgent(_chart_policy(trained, {"preflop": "chart"}), seed=1)
    assert agent.preflop_rule(agent.policy_for(2)) == "chart"
    tag, opponent = TagAgent(seed=0), TagAgent(seed=5, tightness=0.5)
    preflop = postflop = 0
    for obs, info in _decisions(agent, opponent, 60):
        if info["view"]["street"] == "preflop":
            before = agent.charted
            assert agent.act(obs, info) == tag.act(obs, info)  # tag's preflop rule is deterministic
            assert agent.charted == before + 1
            preflop += 1
        else:
            postflop += 1
    assert agent.charted >= preflop > 20 and postflop > 10
    assert agent.lookups > 0  # from the flop on the policy plays


def test_preflop_rule_policy_overrides_the_declaration_and_bad_values_fail(trained) -> None:
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent
    from holdem_env.agents.random_agent import RandomAgent

    declared = _chart_policy(trained, {"preflop": "chart"})
    agent = CfrLiteAgent(declared, seed=1, preflop="policy")
    for _ in _decisions(agent, RandomAgent(seed=2), 20):
        pass
    assert agent.charted == 0 and agent.lookups > 0
    plain = CfrLiteAgent(trained.policy(), seed=1)  # no declaration: the policy plays preflop
    assert plain.preflop_rule(plain.policy_for(2)) == "policy"
    assert CfrLiteAgent(trained.policy(), preflop="chart").preflop_rule(trained.policy()) == "chart"
    with pytest.raises(ConfigError, match="preflop"):
        CfrLiteAgent(declared, preflop="tag")
    with pytest.raises(ConfigError, match="preflop"):
        bad = _chart_policy(trained, {"preflop": "limp"})
        CfrLiteAgent(bad).preflop_rule(bad)


def test_chart_preflop_range_answers_are_tags_and_what_act_plays(trained) -> None:
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent
    from holdem_env.agents.tag import TagAgent
    from holdem_env.engine.cards import parse_cards
    from holdem_env.engine.ranges import HOLDINGS, blocked_by

    agent = CfrLiteAgent(_chart_policy(trained, {"preflop": "chart"}), seed=1)
    tag = TagAgent(seed=0)
    checked = 0
    for obs, info in _decisions(agent, TagAgent(seed=3), 24, players=2):
        view = info["view"]
        board = parse_cards(view["board"]) if view["board"] else ()
        hold = HOLDINGS[~blocked_by(board)]
        rows = agent.action_probabilities(obs, info, hold)
        assert np.allclose(rows.sum(axis=1), 1.0)
        if view["street"] == "preflop":
            np.testing.assert_array_equal(rows, tag.action_probabilities(obs, info, hold))
            own = parse_cards(view["hole_cards"])
            j = np.flatnonzero((hold[:, 0] == min(own)) & (hold[:, 1] == max(own)))[0]
            assert rows[j, agent.act(obs, info)] == 1.0
            checked += 1
    assert checked >= 12


def test_build_writes_the_presets_preflop_rule(tmp_path, monkeypatch, small_cards: CardAbstraction) -> None:
    from holdem_env.agents.cfr_lite.policy import CfrLitePolicy
    from holdem_env.training.cfr_lite import build

    monkeypatch.setenv("HOLDEM_ENV_CACHE", str(small_cards.cache_dir))
    monkeypatch.setattr(build, "_SAMPLE_SIZE", 300)
    small = {
        "pot_fractions": (1.0,),
        "max_raises_per_street": 1,
        "preflop_buckets": 20,
        "postflop_buckets": (5, 5, 5),
        "spacing": 1.0,
        "iterations": 4,
        "min_visits": 1,
    }
    monkeypatch.setitem(build.PRESETS, 6, {**small, "preflop": "chart"})
    monkeypatch.setitem(build.PRESETS, 2, small)
    build.build_policy(3, str(tmp_path / "c.npz"), workers=1, chunk=2, log=False, snapshot_every=2)
    build.build_policy(2, str(tmp_path / "p.npz"), workers=1, chunk=2, log=False)
    assert CfrLitePolicy.load(tmp_path / "c.npz").info["preflop"] == "chart"
    assert CfrLitePolicy.load(tmp_path / "c.it2.npz").info["preflop"] == "chart"
    assert "preflop" not in CfrLitePolicy.load(tmp_path / "p.npz").info


def test_shipped_policies_play_their_own_preflop_unless_asked_for_the_chart() -> None:
    # the shipped files declare nothing: bare cfr-lite plays the stored strategy preflop too;
    # cfr-lite(preflop="chart") is the opt-in (BENCHMARKS.md, cfr-lite: its 6-max results)
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent, shipped_policy_path
    from holdem_env.training.cfr_lite.build import PRESETS, preset_abstraction

    path = shipped_policy_path(6)
    assert path.is_file() and path.stat().st_size < 5_000_000
    agent = CfrLiteAgent(seed=0)
    six, two = agent.policy_for(6), agent.policy_for(2)
    assert "preflop" not in six.info and "preflop" not in two.info
    assert "preflop" not in PRESETS[6] and "preflop" not in PRESETS[2]
    assert six.info["iterations"] == PRESETS[6]["iterations"] and two.info["iterations"] == PRESETS[2]["iterations"]
    assert six.info["min_visits"] == PRESETS[6]["min_visits"] and six.info["chunk"] == PRESETS[6]["chunk"]
    # the shipped 6-max file is the preset's: 3-bets in the tree, postflop keys with the preflop summary
    assert six.actions == preset_abstraction(6)[0] and six.actions.max_raises(True) == 3 and six.actions.summarize_preflop
    assert two.actions == preset_abstraction(2)[0] and not two.actions.summarize_preflop
    assert agent.preflop_rule(six) == "policy" and agent.preflop_rule(two) == "policy"
    chart = CfrLiteAgent(seed=0, preflop="chart")
    assert chart.preflop_rule(six) == "chart" and chart.preflop_rule(two) == "chart"


@pytest.mark.parametrize("off_tree", ["rule", "tag"])
@pytest.mark.parametrize("raise_to, charted", [(25, True), (60, True), (1000, False)])
def test_chart_preflop_leaves_an_overbet_to_the_off_tree_rule(raise_to: int, charted: bool, off_tree: str) -> None:
    from holdem_env import nlhe_v1
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent
    from holdem_env.agents.tag import TagAgent
    from holdem_env.engine.ranges import HOLDINGS

    env = nlhe_v1.env(num_players=6, action_mode="exact")
    env.reset(seed=5)
    env.step(nlhe_v1.exact_action_id(raise_to))  # the first to act opens (1000: a 100-big-blind shove)
    obs, _, _, _, info = env.last()
    agent = CfrLiteAgent(seed=0, preflop="chart", off_tree=off_tree)
    act = agent.act(obs, info)
    assert obs["action_mask"][act] == 1
    assert (agent.charted, agent.fallbacks) == ((1, 0) if charted else (0, 1))
    rows = CfrLiteAgent(seed=0, preflop="chart", off_tree=off_tree).action_probabilities(obs, info, HOLDINGS[:200])
    tag = TagAgent(seed=0).action_probabilities(obs, info, HOLDINGS[:200])
    # the chart: tag's own answer; after the overbet the pot-odds rule's, whichever off_tree
    assert np.array_equal(rows, tag) is charted


@pytest.mark.parametrize("off_tree", ["tag", "rule"])
def test_a_reraise_beyond_the_tree_is_played_off_the_tree(off_tree: str) -> None:
    # Heads-up the tree has two raises a street: after open, 3-bet and 4-bet the big blind's
    # decision is off the tree. off_tree="tag" plays it (and answers its range) as tag does;
    # "rule" by the strength rule (call with the top half of hands, else fold).
    from holdem_env import nlhe_v1
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent
    from holdem_env.agents.tag import TagAgent
    from holdem_env.engine.ranges import HOLDINGS

    env = nlhe_v1.env(num_players=2, action_mode="exact")
    env.reset(seed=3)
    for to in (30, 90, 250):  # open, 3-bet, 4-bet
        env.step(nlhe_v1.exact_action_id(to))
    obs, _, _, _, info = env.last()
    agent = CfrLiteAgent(seed=0, off_tree=off_tree)
    act = agent.act(obs, info)
    assert (agent.lookups, agent.fallbacks) == (0, 1)
    tag = TagAgent(seed=0)
    rows = CfrLiteAgent(seed=0, off_tree=off_tree).action_probabilities(obs, info, HOLDINGS)
    tag_rows = tag.action_probabilities(obs, info, HOLDINGS)
    if off_tree == "tag":
        assert act == tag.act(obs, info)
        assert np.array_equal(rows, tag_rows)
    else:
        assert obs["action_mask"][act] == 1 and act in (0, 1)  # fold or call, never a raise
        assert not np.array_equal(rows, tag_rows) and set(np.flatnonzero(rows.sum(axis=0))) <= {0, 1}


def test_off_tree_option_is_checked() -> None:
    from holdem_env.agents.cfr_lite.agent import CfrLiteAgent

    with pytest.raises(ConfigError, match="off_tree='always' is invalid: must be one of 'tag', 'rule'"):
        CfrLiteAgent(off_tree="always")

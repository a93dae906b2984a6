"""Flop subgames: the solver's nested chance (49 turns, then 48 rivers) against brute force over every deal and run-out."""

from __future__ import annotations

import numpy as np
import pytest
from test_cfr_search_subgame import _brute_value
from test_cfr_search_subgame_core import COMPILED, source_core

from holdem_env.agents.cfr_search import resolve as resolve_module
from holdem_env.agents.cfr_search.resolve import Subgame, resolve
from holdem_env.agents.cfr_search.tree import CHANCE, DECISION, FOLD, SHOWDOWN, SubgameError, SubgameSpec, build_tree
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.ranges import NUM_HOLDINGS, holding_index

FLOP = parse_cards("Ks 9h 5d")
HANDS = ["AhAd", "KhQc", "6h4h", "9c8c", "Ac2c"]  # an overpair, top pair, a draw, second pair, ace high
#: a small flop game: an all-in or a check on the flop, a pot-sized bet on the turn and on the river
SMALL = {"sizes": ("allin",), "max_raises": 1, "turn_sizes": (1.0,), "turn_max_raises": 1, "river_sizes": (1.0,), "river_max_raises": 1}


def _idx(names: list[str]) -> list[int]:
    return [holding_index(*parse_cards(x)) for x in names]


def _small(seed: int = 1, **options: object) -> Subgame:
    hands = _idx(HANDS)
    rng = np.random.default_rng(seed)
    ranges = np.zeros((2, NUM_HOLDINGS))
    ranges[:, hands] = rng.uniform(0.2, 1.0, (2, len(hands)))
    spec = SubgameSpec(board=FLOP, contrib=(100, 100), stacks=(400, 400), first=1)
    return Subgame(spec, ranges, holdings=hands, **{**SMALL, **options})  # type: ignore[arg-type]


def test_a_flop_tree_deals_the_turn_then_the_river() -> None:
    spec = SubgameSpec(board=FLOP, contrib=(100, 100), stacks=(400, 400), first=1)
    t = build_tree(spec, **SMALL)  # type: ignore[arg-type]
    assert t.labels[0] == ("k", "b500") and t.player[0] == 1
    turn = t.find(["k", "k"])
    assert t.kind[turn] == CHANCE and len(t.children[turn]) == 49  # 52 less the flop
    after_turn = t.find(["k", "k", "d51"])
    assert t.kind[after_turn] == DECISION and t.labels[after_turn] == ("k", "b300")  # the turn's pot-sized bet
    assert t.turn[after_turn] == 51 and t.river[after_turn] == -1
    river = t.find(["k", "k", "d51", "k", "k"])
    assert t.kind[river] == CHANCE and len(t.children[river]) == 48
    assert "d51" not in t.labels[river] and not {f"d{c}" for c in FLOP} & set(t.labels[river])
    end = t.find(["k", "k", "d51", "b300", "c", "d0", "k", "k"])
    assert t.kind[end] == SHOWDOWN and t.board_of(end) == (*FLOP, 51, 0) and t.contrib[end] == (300, 300)
    # all in on the flop: the turn and the river are dealt with no more betting
    allin = t.find(["b500", "c"])
    assert t.kind[allin] == CHANCE
    for kid in t.children[allin]:
        assert t.kind[kid] == CHANCE and len(t.children[kid]) == 48
        assert all(t.kind[x] == SHOWDOWN and t.contrib[x] == (500, 500) for x in t.children[kid])
    assert t.kind[t.find(["k", "b500", "f"])] == FOLD
    with pytest.raises(SubgameError, match="flop subgame's turn"):
        build_tree(SubgameSpec(board=(*FLOP, 51), contrib=(100, 100), stacks=(400, 400)), turn_sizes=(1.0,))
    with pytest.raises(SubgameError, match="3, 4 or 5"):
        SubgameSpec(board=FLOP[:2], contrib=(100, 100), stacks=(400, 400))


def _random_strategies(sub: Subgame, seed: int) -> dict[int, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = {}
    for node in range(len(sub.tree)):
        if sub.tree.kind[node] == DECISION:
            p = rng.dirichlet(np.ones(len(sub.tree.children[node])), NUM_HOLDINGS).T
            sub.set_strategy(node, p)
            out[node] = p
    return out


#: the small game's flop, then the turn and the river checked down: no decision after the flop
CHECKED_DOWN = {"turn_sizes": (), "river_sizes": ()}


@pytest.mark.parametrize("later", [{}, CHECKED_DOWN], ids=["bets-later", "checked-down"])
def test_values_of_a_fixed_strategy_match_brute_force_over_every_turn_and_river(later: dict[str, object]) -> None:
    sub = _small(**later)
    if later:  # the flop's decisions only; every turn and river card leads to the next card or a showdown
        assert all(sub.tree.turn[n] < 0 for n in range(len(sub.tree)) if sub.tree.kind[n] == DECISION)
        after = sub.tree.find(["k", "k", "d51"])
        assert sub.tree.kind[after] == CHANCE and len(sub.tree.children[after]) == 48
    want = _brute_value(sub, _random_strategies(sub, 7))
    assert sub.game_value(0) == pytest.approx(want, rel=1e-9, abs=1e-9)
    assert sub.game_value(1) == pytest.approx(-want, rel=1e-9, abs=1e-9)


def _first_values(sub: Subgame, rivers: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """Player 0's root values in a CFR iteration from zero regrets (uniform strategies) walking only the
    given cards; the regrets are put back to zero after it."""
    core = sub.core
    core.set_deal(rivers, turns)
    core.iterate(0, 1.0, 1.0, 1.0)
    values = np.array(core.values[0])
    np.asarray(core.regret)[:] = 0.0
    np.asarray(core.matched)[:] = 0
    return values


def test_sampled_turns_and_rivers_are_unbiased() -> None:
    """Over every draw of one turn card, and over every draw of 48 of the 49 river cards, the sampled
    iteration's values average to the values with every card walked."""
    sub = _small()
    deck = np.array([c for c in range(52) if c not in FLOP])
    exact = _first_values(sub, deck, deck)
    one_turn = np.mean([_first_values(sub, deck, np.array([t])) for t in deck], axis=0)
    np.testing.assert_allclose(one_turn, exact, rtol=1e-9, atol=1e-9)
    most_rivers = np.mean([_first_values(sub, np.setdiff1d(deck, [x]), deck) for x in deck], axis=0)
    np.testing.assert_allclose(most_rivers, exact, rtol=1e-9, atol=1e-9)
    assert not np.allclose(_first_values(sub, deck, deck[:1]), exact)  # one draw alone is not the value


def test_solving_a_flop_subgame_converges_and_repeats_for_a_seed() -> None:
    full = _small()
    full.solve(2)
    early = full.exploitability()
    full.solve(40)
    assert full.exploitability() < 0.25 * early
    a, b, c = _small(), _small(), _small()
    for sub, seed in ((a, 3), (b, 3), (c, 4)):
        sub.solve(60, turns=12, rivers=12, rng=np.random.default_rng(seed))
    np.testing.assert_array_equal(np.asarray(a.core.avg), np.asarray(b.core.avg))
    assert not np.array_equal(np.asarray(a.core.avg), np.asarray(c.core.avg))
    assert a.exploitability() < 0.5 * early


@pytest.mark.skipif(not COMPILED, reason="the compiled core is not built here")
def test_the_source_and_the_compiled_core_agree_on_a_flop_subgame() -> None:
    compiled = _small()
    compiled.solve(2, turns=5, rivers=4, rng=np.random.default_rng(9))
    saved = resolve_module.SubgameCore
    resolve_module.SubgameCore = source_core()  # type: ignore[misc]
    try:
        source = _small()
        source.solve(2, turns=5, rivers=4, rng=np.random.default_rng(9))
    finally:
        resolve_module.SubgameCore = saved  # type: ignore[misc]
    np.testing.assert_array_equal(np.asarray(source.core.avg), np.asarray(compiled.core.avg))
    np.testing.assert_array_equal(np.asarray(source.core.regret), np.asarray(compiled.core.regret))


def test_safe_resolving_runs_on_a_flop_subgame() -> None:
    """The gadget over a flop root: the opponent's best response against the re-solved strategy gains no
    holding more than the values it was given (up to the solve's distance from equilibrium)."""
    blueprint = _small()
    _random_strategies(blueprint, 5)
    theirs = blueprint.values(0, best_response=True)
    values = np.full(NUM_HOLDINGS, np.nan)
    values[blueprint.holdings] = theirs[blueprint.holdings]
    sub = resolve(blueprint.spec, 1, blueprint.ranges[1], values, 60, holdings=blueprint.holdings, **SMALL)  # type: ignore[arg-type]
    gained = sub.values(0, best_response=True)[blueprint.holdings] - theirs[blueprint.holdings]
    assert gained.max() < 0.05 * 500 * blueprint.ranges[1].sum()  # a few percent of the largest pot


def test_bad_flop_sampling_is_refused() -> None:
    sub = _small()
    with pytest.raises(SubgameError, match="turns is 1..49 and rivers 2..49"):
        sub.solve(1, turns=0, rivers=4, rng=np.random.default_rng(0))
    with pytest.raises(SubgameError, match="turns is 1..49 and rivers 2..49"):
        sub.solve(1, turns=4, rivers=1, rng=np.random.default_rng(0))
    with pytest.raises(SubgameError, match="with an rng"):
        sub.solve(1, turns=4, rivers=4)
    with pytest.raises(SubgameError, match="with an rng"):
        sub.solve(1, turns=48)  # 48 of the 49 turns: a draw, so a generator
    turn = Subgame(SubgameSpec(board=(*FLOP, 51), contrib=(100, 100), stacks=(400, 400)), np.ones((2, NUM_HOLDINGS)), sizes=("allin",), max_raises=1)
    with pytest.raises(SubgameError, match="turns samples a flop subgame"):
        turn.solve(1, turns=4, rng=np.random.default_rng(0))
    assert sub.iterations == 0 and turn.iterations == 0

"""Equity: Monte Carlo against exact enumeration and known values, ranges, seeding, bad input."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from holdem_env.engine.cards import parse_cards
from holdem_env.engine.equity import equity, equity_vs_hands, exact_equity, range_combos
from holdem_env.engine.errors import CardError, ConfigError
from holdem_env.engine.evaluator import hand_strength


def _tolerance(p: float, samples: int) -> float:
    """Four Monte Carlo standard errors."""
    return 4 * math.sqrt(max(p * (1 - p), 0.01) / samples)


def test_aces_vs_kings_preflop_is_about_82_to_18() -> None:
    eq = equity_vs_hands(["AsAh", "KcKd"], samples=30_000, rng=np.random.default_rng(2))
    assert eq.sum() == pytest.approx(1.0)
    # Known value: AA vs KK (no shared suits) 81.9% / 18.1% (ties ~0.4%, split).
    assert eq[0] == pytest.approx(0.819, abs=_tolerance(0.819, 30_000))


def test_made_flush_vs_set_on_the_turn_exact_and_monte_carlo() -> None:
    # Hero's flush loses only when the river pairs the board (2, 9, 3: 3 each) or is the last 7.
    hands, board = ["AhKh", "7c7d"], "7h 2h 9h 3c"
    exact = exact_equity(hands, board)
    np.testing.assert_allclose(exact, [34 / 44, 10 / 44])
    mc = equity_vs_hands(hands, board, samples=20_000, rng=np.random.default_rng(3))
    assert mc[0] == pytest.approx(34 / 44, abs=_tolerance(34 / 44, 20_000))
    ranged = equity("AhKh", board, ranges=[["7c7d"]], samples=20_000, rng=np.random.default_rng(4))
    assert ranged == pytest.approx(34 / 44, abs=_tolerance(34 / 44, 20_000))


def test_exact_equity_matches_a_direct_enumeration_with_hand_strength() -> None:
    hands = [parse_cards("QsJs"), parse_cards("AdKc"), parse_cards("8h8c")]
    board = parse_cards("Ts 9d 2s")
    rest = [c for c in range(52) if c not in set(board) | {c for h in hands for c in h}]
    shares = np.zeros(3)
    runouts = list(itertools.combinations(rest, 2))
    for turn_river in runouts:
        full = list(board) + list(turn_river)
        values = [hand_strength(list(h) + full) for h in hands]
        best = max(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            shares[i] += 1 / len(winners)
    np.testing.assert_allclose(exact_equity(["QsJs", "AdKc", "8h8c"], "Ts9d2s"), shares / len(runouts))


def test_equity_vs_random_hands_agrees_with_exact_enumeration_over_opponent_hands() -> None:
    # On the river against one random hand the equity is an average over the 990 opponent hands.
    hero, board = parse_cards("AsQd"), parse_cards("Qh 7c 2d 9s Kc")
    rest = [c for c in range(52) if c not in set(hero) | set(board)]
    mine = hand_strength(list(hero) + list(board))
    total = 0.0
    pairs = list(itertools.combinations(rest, 2))
    for opp in pairs:
        theirs = hand_strength(list(opp) + list(board))
        total += 1.0 if mine > theirs else (0.5 if mine == theirs else 0.0)
    exact = total / len(pairs)
    mc = equity("AsQd", "Qh7c2d9sKc", samples=20_000, rng=np.random.default_rng(5))
    assert mc == pytest.approx(exact, abs=_tolerance(exact, 20_000))


def test_equity_is_reproducible_for_a_seed_and_varies_across_seeds() -> None:
    a = equity("Th9h", "8h7c2d", opponents=3, samples=2000, seed=9)
    b = equity("Th9h", "8h7c2d", opponents=3, samples=2000, rng=np.random.default_rng(9))
    c = equity("Th9h", "8h7c2d", opponents=3, samples=2000, seed=10)
    assert a == b
    assert a != c


def test_more_opponents_lower_the_equity_of_aces() -> None:
    one = equity("AsAh", opponents=1, samples=20_000, seed=1)
    five = equity("AsAh", opponents=5, samples=20_000, seed=1)
    assert one == pytest.approx(0.852, abs=0.012)  # known: AA vs a random hand 85.2%
    assert five == pytest.approx(0.49, abs=0.03)  # known: AA vs five random hands ~49%


def test_ranges_never_hold_known_cards_and_split_ties() -> None:
    # Hero holds two aces: the only aces left for the opponent are AcAd -> almost always a chop.
    eq = equity("AsAh", ranges=["AA"], samples=5000, seed=2)
    assert eq == pytest.approx(0.5, abs=0.03)
    # Two opponents on "KK" can never both be dealt the same king.
    eq2 = equity("AsAh", opponents=2, ranges=["KK", "KK"], samples=3000, seed=3)
    assert 0.9 < eq2 < 1.0


def test_range_combos_counts_and_mixed_entries() -> None:
    assert range_combos("AKs").shape == (4, 2)
    assert range_combos("AKo").shape == (12, 2)
    assert range_combos("QQ, AKs, AKs").shape == (10, 2)
    assert range_combos(["7c7d", ("As", "Ks")]).tolist() == [[20, 21], [47, 51]]
    with pytest.raises(CardError, match="range entry"):
        range_combos(["AsKsQs"])


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: equity("AsAs"), CardError, "duplicate card As"),
        (lambda: equity("As"), CardError, "exactly 2 cards"),
        (lambda: equity("AsKs", "2c3c"), CardError, "0, 3, 4 or 5 cards"),
        (lambda: equity("AsKs", opponents=0), ConfigError, "opponents=0"),
        (lambda: equity("AsKs", opponents=2, ranges=["AA"]), ConfigError, "one range"),
        (lambda: equity("AsKs", samples=0), ConfigError, "samples=0"),
        (lambda: equity("AsKs", "Ad Ac Ah", ranges=["AA"]), CardError, "no hand left"),
        (lambda: exact_equity(["AsKs"]), ConfigError, "2..10"),
        (lambda: equity("AsXx"), CardError, "hole cards: .AsXx. is not a list of cards"),
        (lambda: equity("AsKs", seed="x"), ConfigError, "seed='x' is invalid: must be a non-negative integer"),
        (lambda: equity_vs_hands(["AsKs", "2c2d"], seed=-1), ConfigError, "seed=-1 is invalid"),
        (lambda: equity("AsKs", ranges="QQ+"), ConfigError, r"ranges='QQ\+' is invalid: .* e.g. \['QQ\+'\]"),
    ],
)
def test_bad_input_raises_clear_errors(call, error, message) -> None:
    with pytest.raises(error, match=message):
        call()


def test_plus_ranges_expand_to_the_classes_above() -> None:
    assert range_combos("TT+").shape == (5 * 6, 2)
    assert range_combos("ATs+").shape == (4 * 4, 2)  # ATs AJs AQs AKs
    np.testing.assert_array_equal(range_combos("KQo+"), range_combos("KQo"))
    with pytest.raises(CardError, match="higher card first"):
        range_combos("TAs+")

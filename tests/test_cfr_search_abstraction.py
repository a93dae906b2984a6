"""cfr-search's card abstraction: EMD by hand, histograms, k-means, buckets on hand-computed cases, the file."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents.cfr_search import abstraction
from holdem_env.agents.cfr_search.abstraction import (
    AbstractionConfig,
    CardAbstraction,
    build_abstraction,
    emd,
    emd_to_centroids,
    flop_histogram,
    flop_strengths,
    histogram,
    histograms_from_strengths,
    kmeans_emd,
    river_equity,
    turn_histogram,
)
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import equity_against_random, holding_index

SMALL = AbstractionConfig(flop_buckets=6, turn_buckets=6, river_buckets=5, bins=8, flops=2, turns_per_flop=2)


@pytest.fixture(scope="module")
def built() -> CardAbstraction:
    return build_abstraction(SMALL, np.random.default_rng(0))


def test_emd_on_small_histograms_by_hand() -> None:
    # moving all mass two bins costs 2; half the mass one bin each way costs 1; equal costs 0
    assert emd(np.array([1.0, 0, 0]), np.array([0, 0, 1.0])) == 2.0
    assert emd(np.array([0.5, 0.5, 0]), np.array([0, 0.5, 0.5])) == 1.0
    assert emd(np.array([0.25, 0.5, 0.25]), np.array([0.25, 0.5, 0.25])) == 0.0
    # [0.5, 0, 0.5] vs [0, 1, 0]: a quarter... half moves one bin right, half one bin left: 1
    assert emd(np.array([0.5, 0, 0.5]), np.array([0, 1.0, 0])) == 1.0
    # Unlike L1 of the histograms, EMD sees how far mass moves
    near, far = np.array([0, 1.0, 0, 0]), np.array([0, 0, 0, 1.0])
    start = np.array([1.0, 0, 0, 0])
    assert emd(start, near) < emd(start, far)
    assert emd_to_centroids(np.array([start]), np.array([near, far])).tolist() == [[1.0, 3.0]]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=4, max_size=4), st.lists(st.floats(0, 1), min_size=4, max_size=4))
def test_emd_is_a_metric_on_normalised_histograms(a: list[float], b: list[float]) -> None:
    x = histogram(np.array(a), 4)
    y = histogram(np.array(b), 4)
    assert emd(x, y) == pytest.approx(emd(y, x))
    assert emd(x, y) >= 0 and emd(x, x) == 0
    assert emd(x, y) <= 3 + 1e-9  # at most all mass across all bins


def test_histogram_counts_equities_into_equal_bins() -> None:
    h = histogram(np.array([0.0, 0.1, 0.5, 0.99, 1.0, np.nan]), 4)
    assert h.tolist() == [0.4, 0.0, 0.2, 0.4]  # 1.0 goes to the top bin, NaN is ignored


def test_kmeans_finds_obvious_clusters() -> None:
    rng = np.random.default_rng(1)
    low = np.tile([1.0, 0, 0, 0], (20, 1))
    high = np.tile([0, 0, 0, 1.0], (20, 1))
    centroids = kmeans_emd(np.concatenate([low, high]), 2, rng)
    assert sorted(map(tuple, centroids.tolist())) == [(0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 0.0, 0.0)]


def test_play_time_histograms_equal_the_builders(built: CardAbstraction) -> None:
    flop = parse_cards("Ah Kd 7c")
    runouts, strengths = flop_strengths(flop)
    flop_hist, turn_hist = histograms_from_strengths(flop, runouts, strengths, 8)
    turn = parse_cards("2s")[0]
    for hole in ("AsAd", "QhJh", "8c9c", "2h3d"):
        h = parse_cards(hole)
        i = holding_index(*h)
        np.testing.assert_allclose(flop_histogram(h, flop, 8), flop_hist[i])
        np.testing.assert_allclose(turn_histogram(h, [*flop, turn], 8), turn_hist[turn, i])


def test_river_equity_is_the_exact_equity_against_random() -> None:
    board = parse_cards("Kd Qc 7h 3s 2d")
    exact = equity_against_random(board)
    for hole in ("KsKh", "AsJd", "4c5c"):
        h = parse_cards(hole)
        assert river_equity(h, board) == pytest.approx(exact[holding_index(*h)])
    assert river_equity(parse_cards("AsAh"), parse_cards("Ad Ac Kh Kc 2d")) == 1.0  # quad aces: unbeatable


def test_nut_hands_sit_in_the_top_bucket_and_air_at_the_bottom(built: CardAbstraction) -> None:
    top = [n - 1 for n in built.num_buckets]
    # the river: quads with no straight flush possible beat every holding
    assert built.bucket(parse_cards("AsAh"), parse_cards("Ad Ac Kh 7c 2d")) == top[3]
    # the turn: top set with the board unpaired and no flush/straight draw is near the nuts
    assert built.bucket(parse_cards("AsAh"), parse_cards("Ad Kc 7h 2s")) >= top[2] - 1
    assert built.bucket(parse_cards("AsAh"), parse_cards("Ad Kc 7h")) >= top[1] - 1
    # 2-3 offsuit on a high dry board: the weakest bucket on the river
    assert built.bucket(parse_cards("2c3d"), parse_cards("Ah Kd Qs 9c 7h")) == 0
    # preflop: lossless classes, AA the top pair class
    assert built.bucket(parse_cards("AsAh"), []) == 12 * 13 + 12


def test_buckets_rise_with_equity_on_the_river(built: CardAbstraction) -> None:
    board = parse_cards("Kd Qc 7h 3s 2d")
    exact = equity_against_random(board)
    order = np.argsort(np.nan_to_num(exact, nan=-1))[-600:]
    buckets = built.river_bucket_of(exact[order])
    assert np.all(np.diff(buckets) >= 0)


def test_build_is_deterministic_for_a_seed_and_round_trips(tmp_path, built: CardAbstraction) -> None:
    again = build_abstraction(SMALL, np.random.default_rng(0))
    assert np.array_equal(again.flop_centroids, built.flop_centroids)
    assert np.array_equal(again.river_edges, built.river_edges)
    path = tmp_path / "abstraction.npz"
    built.save(path)
    loaded = CardAbstraction.load(path)
    assert loaded.config == SMALL
    np.testing.assert_allclose(loaded.turn_centroids, built.turn_centroids, atol=1e-7)
    hole, board = parse_cards("QhJh"), parse_cards("Th 9h 2c 3d")
    assert loaded.bucket(hole, board) == built.bucket(hole, board)
    assert path.stat().st_size < 10_000


def test_bad_input_is_refused(tmp_path, built: CardAbstraction) -> None:
    with pytest.raises(ConfigError, match="cards=.* is invalid"):
        built.bucket(parse_cards("AsAh"), parse_cards("As Kd 7c"))  # a repeated card
    with pytest.raises(ConfigError, match="cards=.* is invalid"):
        built.bucket(parse_cards("AsAh"), parse_cards("Kd 7c"))  # two board cards
    with pytest.raises(ConfigError, match="flop_buckets=0 is invalid"):
        AbstractionConfig(flop_buckets=0)
    with pytest.raises(ConfigError, match="buckets=300 is invalid"):
        AbstractionConfig(river_buckets=300)
    bad = tmp_path / "x.npz"
    bad.write_bytes(b"not a file")
    with pytest.raises(ConfigError, match="abstraction=.* is invalid"):
        CardAbstraction.load(bad)


def test_doctests() -> None:
    result = doctest.testmod(abstraction)
    assert result.attempted >= 4 and result.failed == 0

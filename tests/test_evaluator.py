"""Tests for holdem_env.engine.evaluator: named edge cases, exhaustive golden counts, reference agreement."""

from __future__ import annotations

import doctest
import itertools

import numpy as np
import pytest

from holdem_env.engine import evaluator
from holdem_env.engine.cards import card_str, parse_cards
from holdem_env.engine.errors import CardError, HoldemError
from holdem_env.engine.evaluator import (
    CATEGORY_FIRST_VALUE,
    NUM_HAND_VALUES,
    HandCategory,
    HandValue,
    categories_of,
    category_of,
    evaluate,
    evaluate_batch,
    hand_strength,
)

C = HandCategory


def ev(text: str) -> HandValue:
    return evaluate(text)


def cat(text: str) -> HandCategory:
    return evaluate(text).category


# --------------------------------------------------------------------------- scale


def test_value_scale_ends_worst_high_card_is_1_and_royal_flush_is_7462() -> None:
    assert ev("7c5d4h3s2c").value == 1
    assert ev("AsKsQsJsTs").value == NUM_HAND_VALUES == 7462
    assert ev("AsKsQsJsTs").is_royal
    assert not ev("KsQsJsTs9s").is_royal
    assert ev("AsKsQsJsTs").category_name == "straight flush"
    assert str(ev("AsKsQsJsTs")) == "royal flush (7462)"


def test_category_boundaries_are_the_standard_ones() -> None:
    # first and last class of each category
    firsts = ["7c5d4h3s2c", "2c2d3h4s5c", "3c3d2h2s4c", "2c2d2h3s4c", "Ac2d3h4s5c",
              "7c5c4c3c2c", "2c2d2h3s3c", "2c2d2h2s3c", "Ac2c3c4c5c"]
    lasts = ["AcKdQhJs9c", "AcAdKhQsJc", "AcAdKhKsQc", "AcAdAhKsQc", "AcKdQhJsTc",
             "AcKcQcJc9c", "AcAdAhKsKc", "AcAdAhAsKc", "AcKcQcJcTc"]
    assert [ev(h).value for h in firsts] == list(CATEGORY_FIRST_VALUE)
    assert [ev(h).value + 1 for h in lasts] == [*CATEGORY_FIRST_VALUE[1:], 7463]
    assert [ev(h).category for h in firsts] == list(HandCategory)


# --------------------------------------------------------------------------- named edge cases


def test_wheel_is_the_lowest_straight() -> None:
    wheel = ev("5d4c3h2sAd")
    assert wheel.category == C.STRAIGHT
    assert wheel < ev("6d5c4h3s2d") < ev("AcKdQhJsTc")
    assert wheel > ev("AcAdAhKsQc")  # the best three of a kind
    assert wheel.value == CATEGORY_FIRST_VALUE[C.STRAIGHT]


def test_wheel_with_seven_cards_ace_plays_low() -> None:
    assert ev("Ad2c3h4s5dKcKh").category == C.STRAIGHT
    assert ev("Ad2c3h4s5d6c9h") == ev("2c3h4s5d6c")  # six-high beats the wheel


def test_steel_wheel_is_the_lowest_straight_flush() -> None:
    steel = ev("Ah2h3h4h5h")
    assert steel.category == C.STRAIGHT_FLUSH
    assert steel.value == CATEGORY_FIRST_VALUE[C.STRAIGHT_FLUSH]
    assert steel > ev("AsAdAhAcKd")  # beats the best quads
    assert steel < ev("2h3h4h5h6h")
    assert ev("Ah2h3h4h5h6h9c").value == ev("2h3h4h5h6h").value


def test_no_wrap_around_straight() -> None:
    assert cat("QcKdAh2s3c") == C.HIGH_CARD
    assert cat("KcAd2h3s4c") == C.HIGH_CARD
    assert cat("JsQsKsAs2s") == C.FLUSH
    assert cat("QcKdAh2s3c9d8h") == C.HIGH_CARD


def test_board_plays_both_players_split() -> None:
    board = "AsKdQhJcTs"
    assert ev(board + "2c3d") == ev(board + "4h5h") == ev(board)
    assert ev("9c9d8h7s6c" + "2c3d").value == ev("9c9d8h7s6c").value  # pair on board, hole cards dead


def test_kickers_decide_equal_pairs() -> None:
    assert ev("AcAdKh7s2c") > ev("AhAsQc7d2d")
    assert ev("AcAdKhQs3c") > ev("AhAsKcQd2d")
    assert ev("AcAdKhQs3c9d8h") == ev("AhAsKcQd3d9c8s")
    # the fifth card counts, the sixth and seventh do not
    assert ev("AcAdKhQsJc3d2h") == ev("AhAsKcQdJd4c2s")


def test_kickers_decide_high_card_down_to_the_last() -> None:
    assert ev("AcJd9h6s4c") > ev("AdJc9s6h3d")
    assert ev("AcJd9h6s4c3d2h") == ev("AdJc9s6h4d3c2s")


def test_three_pairs_play_as_two_pair_with_best_kicker() -> None:
    three_pairs = ev("KcKdQhQs5c5dAh")
    assert three_pairs.category == C.TWO_PAIR
    assert three_pairs == ev("KcKdQhQsAh")
    # the third pair can be the kicker
    assert ev("KcKdQhQsJcJd2h") == ev("KcKdQhQsJc")
    assert ev("KcKdQhQsJcJd2h") > ev("KcKdQhQsTc9d8h")


def test_two_trips_make_a_full_house() -> None:
    two_trips = ev("9c9d9hKsKcKd2h")
    assert two_trips.category == C.FULL_HOUSE
    assert two_trips == ev("KsKcKd9c9d")
    assert ev("2c2d2h3s3c3d4h") == ev("3s3c3d2c2d")


def test_trips_and_two_pairs_full_house_uses_best_pair() -> None:
    assert ev("5c5d5hKsKc2d2h") == ev("5c5d5hKsKc")


def test_quads_with_trips_use_best_kicker() -> None:
    assert ev("7c7d7h7sAcAdAh") == ev("7c7d7h7sAc")
    assert ev("7c7d7h7s2c2dKh") == ev("7c7d7h7sKh")


def test_flush_beats_straight() -> None:
    flush = ev("2h5h7h9hJhTcQd")  # also holds no straight; pure flush
    straight = ev("8c9dTh JsQc2d3h")
    assert flush.category == C.FLUSH and straight.category == C.STRAIGHT
    assert flush > straight
    # a hand with both a straight and a flush plays the flush
    both = ev("4h5h6h7c8d2hKh")
    assert both.category == C.FLUSH


def test_flush_uses_the_best_five_of_six_suited() -> None:
    assert ev("AhKh9h7h5h3h2c") == ev("AhKh9h7h5h")
    assert ev("AhKh9h7h5h3h2h") == ev("AhKh9h7h5h")


def test_straight_flush_beats_higher_plain_straight() -> None:
    hand = ev("5h6h7h8h9hTc")  # 9-high straight flush also makes a ten-high straight
    assert hand.category == C.STRAIGHT_FLUSH
    assert hand == ev("5h6h7h8h9h")


def test_split_ties_suits_never_break_ties() -> None:
    assert ev("AsKsQsJs9s") == ev("AhKhQhJh9h")
    assert ev("AcKdQhJs9c") == ev("AdKcQsJh9d")
    assert ev("AsAd8h8c3s") == ev("AhAc8s8d3c")
    assert hash(ev("AsKsQsJs9s")) == hash(ev("AhKhQhJh9h"))


def test_five_six_seven_cards_share_one_scale() -> None:
    assert ev("AcAdKhQsJc").value == ev("AcAdKhQsJc2d").value == ev("AcAdKhQsJc2d3h").value


# --------------------------------------------------------------------------- HandValue API


def test_hand_value_is_frozen_and_totally_ordered() -> None:
    a, b = HandValue(100), HandValue(200)
    assert a < b and b > a and a <= HandValue(100) and a != b
    assert sorted([b, a]) == [a, b]
    with pytest.raises(AttributeError):
        a.value = 5  # type: ignore[misc]


@pytest.mark.parametrize("bad", [0, 7463, -1, True, 1.5, "10"])
def test_hand_value_rejects_out_of_range(bad: object) -> None:
    with pytest.raises(HoldemError, match="1..7462"):
        HandValue(bad)  # type: ignore[arg-type]


def test_category_of_matches_boundaries_and_vector_form() -> None:
    values = np.arange(1, 7463)
    expected = np.searchsorted(np.array(CATEGORY_FIRST_VALUE), values, side="right") - 1
    assert [category_of(int(v)) for v in values[::97]] == [HandCategory(int(c)) for c in expected[::97]]
    assert (categories_of(values) == expected).all()
    assert category_of(7462) == C.STRAIGHT_FLUSH and category_of(1) == C.HIGH_CARD
    assert HandCategory.FOUR_OF_A_KIND.label == "four of a kind"
    with pytest.raises(HoldemError):
        category_of(0)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("AsKsQsJs", "5 to 7 cards, got 4"),
        ("AsKsQsJsTs9s8s7s", "5 to 7 cards, got 8"),
        ("AsAsQsJsTs", "As appears twice"),
        (["As", "Ks", "Qs", "Js", "1x"], "'1x' is not a card"),
        ([51, 50, 49, 48, 52], "card id 52 is out of range"),
        ([51, 50, 49, 48, -1], "out of range"),
        ("AsKsQsJsTz", "not a list of cards"),
        (51, "string or a sequence of cards, got int"),
        (None, "got NoneType"),
        ([51, 50, 49, 48, 47.0], "47.0 is not a card"),
    ],
)
def test_evaluate_rejects_bad_hands(cards: object, message: str) -> None:
    with pytest.raises(CardError, match=message):
        evaluate(cards)  # type: ignore[arg-type]


def test_evaluate_accepts_ids_strings_and_numpy() -> None:
    ids = parse_cards("AsKsQsJsTs")
    assert evaluate(ids) == evaluate("As Ks Qs Js Ts") == evaluate(list(map(card_str, ids)))
    assert evaluate(np.array(ids)) == evaluate(ids)


@pytest.mark.parametrize(
    ("batch", "message"),
    [
        (np.zeros((3, 4), dtype=np.int64), r"shape \(N, k\) with k in 5..7, got shape \(3, 4\)"),
        (np.zeros((3, 8), dtype=np.int64), "got shape"),
        (np.zeros(7, dtype=np.int64), "got shape"),
        (np.arange(7, dtype=np.float64)[None, :], "integer dtype"),
        (np.array([[0, 1, 2, 3, 52]]), "row 0 of the batch has card id 52"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, -4]]), "row 1 of the batch has card id -4"),
        (np.array([[0, 1, 2, 3, 4], [9, 1, 2, 9, 4]]), r"row 1 of the batch repeats a card: \[9, 1, 2, 9, 4\]"),
        ([[0, 1, 2, 3, 4]], "numpy array"),
    ],
)
def test_evaluate_batch_rejects_bad_batches(batch: object, message: str) -> None:
    before = np.array(batch, copy=True) if isinstance(batch, np.ndarray) else None
    with pytest.raises(CardError, match=message):
        evaluate_batch(batch)  # type: ignore[arg-type]
    if before is not None:
        assert np.array_equal(before, batch)  # input left unchanged


def test_evaluate_batch_without_validation_checks_shape_and_gives_same_values() -> None:
    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((3000, 52)), axis=1)[:, :7]
    assert np.array_equal(evaluate_batch(hands, validate=False), evaluate_batch(hands))
    with pytest.raises(CardError, match="got shape"):
        evaluate_batch(hands[:, :4], validate=False)
    with pytest.raises(CardError, match="integer dtype, got bool"):
        evaluate_batch(hands[:, :5] > 3, validate=False)


def test_evaluate_batch_spans_several_inner_chunks() -> None:
    rng = np.random.default_rng(11)
    n = 3 * evaluator._CHUNK_ROWS + 17
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :6].astype(np.int16)
    values = evaluate_batch(hands)
    sample = rng.integers(0, n, 300)
    assert values.shape == (n,)
    assert [hand_strength(h) for h in hands[sample].tolist()] == values[sample].tolist()
    hands[-1, 0] = hands[-1, 1]
    with pytest.raises(CardError, match=f"row {n - 1} of the batch repeats a card"):
        evaluate_batch(hands)


def test_evaluate_batch_empty_and_dtypes() -> None:
    assert evaluate_batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)
    row = parse_cards("AsKsQsJsTs2c3d")
    for dtype in (np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint64):
        out = evaluate_batch(np.array([row], dtype=dtype))
        assert out.dtype == np.int32 and out.tolist() == [7462]
    fortran = np.asfortranarray(np.array([row, row[::-1]]))
    assert evaluate_batch(fortran).tolist() == [7462, 7462]


# --------------------------------------------------------------------------- consistency


@pytest.mark.parametrize("k", [5, 6, 7])
def test_scalar_and_batch_agree_on_random_hands(k: int) -> None:
    rng = np.random.default_rng(1234 + k)
    hands = np.argsort(rng.random((20_000, 52)), axis=1)[:, :k]
    batch = evaluate_batch(hands)
    scalar = np.array([hand_strength(h) for h in hands.tolist()])
    assert (batch == scalar).all()
    assert [hand_strength(h) for h in hands[:200]] == scalar[:200].tolist()  # numpy rows too
    full = [evaluate(h).value for h in hands[:500].tolist()]
    assert full == scalar[:500].tolist()


def test_best_of_seven_is_max_over_five_card_subsets() -> None:
    rng = np.random.default_rng(7)
    hands = np.argsort(rng.random((300, 52)), axis=1)[:, :7]
    for h in hands.tolist():
        best = max(hand_strength(list(sub)) for sub in itertools.combinations(h, 5))
        assert hand_strength(h) == best
        assert max(hand_strength(list(sub)) for sub in itertools.combinations(h, 6)) == best


def test_agrees_with_eval7_on_order_of_100k_random_pairs() -> None:
    eval7 = pytest.importorskip("eval7")
    rng = np.random.default_rng(2024)
    n = 100_000
    # two disjoint 7-card hands per pair (as at a showdown: any 14 distinct cards)
    draws = np.argsort(rng.random((n, 52)), axis=1)[:, :14]
    a, b = draws[:, :7], draws[:, 7:]
    ours = np.sign(evaluate_batch(a).astype(np.int64) - evaluate_batch(b))
    deck = [eval7.Card(card_str(c)) for c in range(52)]
    ref_a = np.fromiter((eval7.evaluate([deck[c] for c in h]) for h in a.tolist()), dtype=np.int64, count=n)
    ref_b = np.fromiter((eval7.evaluate([deck[c] for c in h]) for h in b.tolist()), dtype=np.int64, count=n)
    ref = np.sign(ref_a - ref_b)
    assert (ours == ref).all(), f"{int((ours != ref).sum())} pairs ordered differently from eval7"
    assert (ours == 0).sum() > 0  # the sample does exercise ties


@pytest.mark.parametrize("k", [5, 6, 7])
def test_values_equal_phevaluator_classes_exactly(k: int) -> None:
    # phevaluator numbers the same 7,462 classes the other way round (1 = royal flush)
    # and uses the same card ids (rank * 4 + suit, suits c d h s).
    phevaluator = pytest.importorskip("phevaluator")
    rng = np.random.default_rng(77 + k)
    hands = np.argsort(rng.random((20_000, 52)), axis=1)[:, :k]
    ref = np.array([phevaluator.evaluate_cards(*map(card_str, h)) for h in hands.tolist()])
    assert np.array_equal(evaluate_batch(hands), NUM_HAND_VALUES + 1 - ref)


def test_flush_table_ignores_non_flush_rows_in_mixed_batch() -> None:
    hands = np.array([parse_cards("AhKh9h7h5h3c2c"), parse_cards("AhKd9h7h5h3c2c"), parse_cards("2c3c4c5c6c7c8c")])
    assert evaluate_batch(hands).tolist() == [
        ev("AhKh9h7h5h").value,
        ev("AhKd9h7h5h").value,
        ev("4c5c6c7c8c").value,
    ]


# --------------------------------------------------------------------------- exhaustive golden tests


def test_exhaustive_five_card_hands_give_7462_classes_with_standard_counts() -> None:
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    values = evaluate_batch(hands)
    assert len(hands) == 2_598_960
    assert len(np.unique(values)) == NUM_HAND_VALUES
    assert values.min() == 1 and values.max() == NUM_HAND_VALUES
    counts = np.bincount(categories_of(values), minlength=9).tolist()
    assert counts == [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]


@pytest.mark.slow
def test_exhaustive_seven_card_hands_give_standard_category_counts() -> None:
    per_value = np.zeros(NUM_HAND_VALUES + 1, dtype=np.int64)
    total = 0
    for block in evaluator.iter_seven_card_hands():
        per_value += np.bincount(evaluate_batch(block), minlength=NUM_HAND_VALUES + 1)
        total += len(block)
    assert total == 133_784_560
    assert per_value[0] == 0
    counts = np.add.reduceat(per_value[1:], np.array(CATEGORY_FIRST_VALUE) - 1).tolist()
    assert counts == [
        23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020,
        4_047_644, 3_473_184, 224_848, 41_584,
    ]
    # 7-card hands reach 4,824 of the classes (no 7-card hand is 7-6-5-4-2 or worse high card, etc.)
    assert int((per_value[1:] > 0).sum()) == 4_824


def test_doctests() -> None:
    result = doctest.testmod(evaluator, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0

"""Hand names at the play table (holdem_env/engine/handname.py): hand-computed cases and invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.engine.cards import card_str
from holdem_env.engine.errors import CardError
from holdem_env.engine.evaluator import HandCategory, evaluate
from holdem_env.engine.handname import describe_hand


@pytest.mark.parametrize(
    ("cards", "name", "five"),
    [
        ("AhKd9c4s2h7d6c", "ace high, kickers king, nine, seven, six", "Ah Kd 9c 7d 6c"),
        ("KcKd9h4s2cAh3d", "a pair of kings, kickers ace, nine, four", "Kd Kc Ah 9h 4s"),
        ("KsKd9c9h2s3dAc", "two pair, kings and nines, ace kicker", "Ks Kd 9h 9c Ac"),
        # three pairs: the best two and the best remaining card
        ("KhKd9h9c5s5d2c", "two pair, kings and nines, five kicker", "Kh Kd 9h 9c 5s"),
        ("7c7d7hAsKd2c3h", "three of a kind, sevens, kickers ace, king", "7h 7d 7c As Kd"),
        ("5d4c3h2sAdKcKh", "a five-high straight", "5d 4c 3h 2s Ad"),  # the wheel
        ("9h8c7d6s5h4d2c", "a nine-high straight", "9h 8c 7d 6s 5h"),
        ("AcKdQhJsTs", "an ace-high straight", "Ac Kd Qh Js Ts"),
        ("Qh9h7h4h2h3c3d", "a queen-high flush", "Qh 9h 7h 4h 2h"),
        ("Ah9h7h4h2h3h3d", "an ace-high flush", "Ah 9h 7h 4h 3h"),  # six hearts: the best five
        ("KhKcKd9s9h", "a full house, kings full of nines", "Kh Kd Kc 9s 9h"),
        ("9s9h9dKhKc2c3c", "a full house, nines full of kings", "9s 9h 9d Kh Kc"),
        # two sets: the higher three and a pair of the lower
        ("9s9h9dKhKcKs2c", "a full house, kings full of nines", "Ks Kh Kc 9s 9h"),
        ("JcJdJhJsAc2d3h", "four of a kind, jacks, ace kicker", "Js Jh Jd Jc Ac"),
        ("5s4s3s2sAsKcKd", "a five-high straight flush", "5s 4s 3s 2s As"),
        ("9d8d7d6d5d", "a nine-high straight flush", "9d 8d 7d 6d 5d"),
        ("AsKsQsJsTs2c3d", "a royal flush", "As Ks Qs Js Ts"),
    ],
)
def test_hand_names_computed_by_hand(cards: str, name: str, five: str) -> None:
    d = describe_hand(cards)
    assert d.name == name
    assert " ".join(d.card_strs) == five
    assert d.value == evaluate(cards)


def test_ties_have_the_same_name_and_kickers_break_them() -> None:
    board = "KsKd9c4h2s"
    a, b = describe_hand(board + "Ah3c"), describe_hand(board + "Ac3d")
    assert a.value == b.value and a.name == b.name == "a pair of kings, kickers ace, nine, four"
    c = describe_hand(board + "Qh3c")
    assert c.value < a.value and c.name == "a pair of kings, kickers queen, nine, four"
    # the board plays: both hands are the board's five cards
    board_plays = "AsKsQdJcTh"
    assert describe_hand(board_plays + "2c3d").name == describe_hand(board_plays + "4h5h").name == "an ace-high straight"


@pytest.mark.parametrize("bad", ["AsKs", "AsKsQsJsTs9s8s7s", "AsAsKsQsJs"])
def test_bad_hands_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(CardError, match="5 to 7 cards|same card twice"):
        describe_hand(bad)


_SEVEN = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


@settings(max_examples=300, deadline=None)
@given(_SEVEN, _SEVEN)
def test_the_name_tells_equal_hands_from_unequal_ones(x: list[int], y: list[int]) -> None:
    a, b = describe_hand(x), describe_hand(y)
    # the five cards named are a subset of the hand and worth the whole hand
    assert set(a.cards) <= set(x) and len(a.cards) == 5
    assert evaluate([card_str(c) for c in a.cards]) == a.value == evaluate(x)
    if a.value == b.value:
        assert a.name == b.name
    elif a.value.category is not HandCategory.FLUSH or b.value.category is not HandCategory.FLUSH:
        assert a.name != b.name  # only flushes are named by their top card alone

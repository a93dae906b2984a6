"""A poker hand in words, with its ranks and kickers, and the five cards that make it.

:func:`describe_hand` picks the best five of 5..7 cards with the evaluator
(:func:`holdem_env.engine.evaluator.hand_strength`) and names them as a player would
say it at showdown (docs/RULES.md, Showdown):

========================  ==============================================
category                  example
========================  ==============================================
high card                 ``ace high, kickers king, jack, nine, four``
pair                      ``a pair of kings, kickers ace, nine, four``
two pair                  ``two pair, kings and nines, ace kicker``
three of a kind           ``three of a kind, sevens, kickers ace, king``
straight                  ``a five-high straight`` (the wheel: 5-4-3-2-A)
flush                     ``a queen-high flush``
full house                ``a full house, kings full of nines``
four of a kind            ``four of a kind, jacks, ace kicker``
straight flush            ``a nine-high straight flush``, ``a royal flush``
========================  ==============================================

Only the five cards of the hand count (three pairs are two pair and the best kicker),
so two hands with the same name are equal, except flushes, which are named by their
top card only (the five cards are in :attr:`HandDescription.cards`).

>>> describe_hand("KsKd9c9h2s3dAc").name
'two pair, kings and nines, ace kicker'
>>> describe_hand("5d4c3h2sAdKcKh").name
'a five-high straight'
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from holdem_env.engine.cards import card_rank, card_str, parse_cards
from holdem_env.engine.errors import CardError
from holdem_env.engine.evaluator import HandCategory, HandValue, hand_strength

__all__ = ["HandDescription", "describe_hand", "rank_word", "rank_plural"]

_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
            "kings", "aces")
_ACE, _FIVE = 12, 3


def rank_word(rank: int) -> str:
    """``0`` (a deuce) -> ``"two"`` ... ``12`` -> ``"ace"``."""
    return _WORDS[rank]


def rank_plural(rank: int) -> str:
    """``0`` -> ``"twos"``, ``4`` -> ``"sixes"``, ``12`` -> ``"aces"``."""
    return _PLURALS[rank]


def _a(word: str) -> str:
    return ("an " if word[0] in "ae" else "a ") + word


def _kickers(ranks: list[int]) -> str:
    if not ranks:
        return ""
    if len(ranks) == 1:
        return f", {rank_word(ranks[0])} kicker"
    return ", kickers " + ", ".join(rank_word(r) for r in ranks)


@dataclass(frozen=True)
class HandDescription:
    """``value`` (the evaluator's), ``name`` in words, ``cards``: the five that make it, most telling first."""

    value: HandValue
    name: str
    cards: tuple[int, ...]

    @property
    def card_strs(self) -> tuple[str, ...]:
        """The five cards as strings, e.g. ``("Ks", "Kd", "9c", "9h", "Ac")``."""
        return tuple(card_str(c) for c in self.cards)


def _order(five: tuple[int, ...], straight: bool) -> tuple[int, ...]:
    """The five cards by importance: bigger groups first, higher ranks first; a wheel's ace last."""
    counts = Counter(card_rank(c) for c in five)
    ordered = sorted(five, key=lambda c: (counts[card_rank(c)], card_rank(c), c), reverse=True)
    if straight and {card_rank(c) for c in five} == {_ACE, 0, 1, 2, _FIVE}:
        ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)


def _name(category: HandCategory, value: HandValue, ordered: tuple[int, ...]) -> str:
    ranks = [card_rank(c) for c in ordered]
    top = rank_word(ranks[0])
    if category is HandCategory.STRAIGHT_FLUSH:
        return "a royal flush" if value.is_royal else _a(f"{top}-high straight flush")
    if category is HandCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {rank_plural(ranks[0])}{_kickers(ranks[4:])}"
    if category is HandCategory.FULL_HOUSE:
        return f"a full house, {rank_plural(ranks[0])} full of {rank_plural(ranks[3])}"
    if category is HandCategory.FLUSH:
        return _a(f"{top}-high flush")
    if category is HandCategory.STRAIGHT:
        return _a(f"{top}-high straight")
    if category is HandCategory.THREE_OF_A_KIND:
        return f"three of a kind, {rank_plural(ranks[0])}{_kickers(ranks[3:])}"
    if category is HandCategory.TWO_PAIR:
        return f"two pair, {rank_plural(ranks[0])} and {rank_plural(ranks[2])}{_kickers(ranks[4:])}"
    if category is HandCategory.PAIR:
        return f"a pair of {rank_plural(ranks[0])}{_kickers(ranks[2:])}"
    return f"{top} high{_kickers(ranks[1:])}"


def describe_hand(cards: str | Iterable[str | int]) -> HandDescription:
    """The best five-card hand of 5..7 ``cards`` (strings or ids), named with its ranks and kickers.

    Raises :class:`~holdem_env.engine.errors.CardError` for a wrong count, a duplicate
    or an unknown card, naming it.

    >>> d = describe_hand(["Kh", "Kc", "9d", "9s", "9h", "2c", "3c"])
    >>> d.name, d.card_strs
    ('a full house, nines full of kings', ('9s', '9h', '9d', 'Kh', 'Kc'))
    >>> describe_hand("AsKs")
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.CardError: a hand must have 5 to 7 cards, got 2
    """
    ids = parse_cards(cards)
    if not 5 <= len(ids) <= 7:
        raise CardError(f"a hand must have 5 to 7 cards, got {len(ids)}")
    if len(set(ids)) != len(ids):
        raise CardError(f"a hand may not hold the same card twice: {' '.join(card_str(c) for c in ids)}")
    best, best_value = ids[:5], -1
    for five in itertools.combinations(ids, 5):
        v = hand_strength(list(five))
        if v > best_value:
            best, best_value = five, v
    value = HandValue(best_value)
    category = value.category
    ordered = _order(best, category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH))
    return HandDescription(value=value, name=_name(category, value, ordered), cards=ordered)

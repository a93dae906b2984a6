"""Cards, card ids and decks.

A card is an ``int`` in ``0..51``: ``card_id = rank * 4 + suit`` where
``rank`` is ``0..12`` for ``2 3 4 5 6 7 8 9 T J Q K A`` and ``suit`` is ``0..3``
for ``c d h s`` (clubs, diamonds, hearts, spades). So ``"2c" -> 0``, ``"2d" -> 1``,
``"Ah" -> 50`` and ``"As" -> 51``. Higher id never means a stronger card except
through the rank (``card_id // 4``).

>>> card_id("As")
51
>>> card_str(0)
'2c'
>>> parse_cards("AsKd Qh")
(51, 45, 42)
>>> card_id("1x")
Traceback (most recent call last):
...
holdem_env.engine.errors.CardError: '1x' is not a card: expected a rank from 23456789TJQKA followed by a suit from cdhs, e.g. 'As'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from holdem_env.engine.errors import CardError
from holdem_env.engine.validate import is_int

__all__ = [
    "RANKS",
    "SUITS",
    "DECK_SIZE",
    "card_id",
    "card_str",
    "card_rank",
    "card_suit",
    "parse_cards",
    "format_cards",
    "new_deck",
    "shuffled_deck",
    "validate_deck",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52

_CARD_IDS: dict[str, int] = {r + s: i * 4 + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
_CARD_STRS: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_TOKEN = re.compile(r"[2-9TJQKAtjqka][cdhsCDHS]")


def card_id(card: str | int) -> int:
    """Return the integer id of a card given as a string like ``"As"`` (or an id, checked)."""
    if is_int(card):
        c = int(card)
        if 0 <= c < DECK_SIZE:
            return c
        raise CardError(f"card id {c} is out of range: ids are 0..51")
    if isinstance(card, str):
        cid = _CARD_IDS.get(card)
        if cid is None:
            cid = _CARD_IDS.get(card[:1].upper() + card[1:].lower())
        if cid is not None:
            return cid
    raise CardError(
        f"{card!r} is not a card: expected a rank from {RANKS} followed by a suit from {SUITS}, e.g. 'As'"
    )


def card_str(card: int) -> str:
    """Return the two-character string of a card id (``51 -> "As"``)."""
    if is_int(card) and 0 <= int(card) < DECK_SIZE:
        return _CARD_STRS[int(card)]
    raise CardError(f"card id {card!r} is out of range: ids are 0..51")


def card_rank(card: int) -> int:
    """Rank index ``0..12`` (2..A) of a card id."""
    return card >> 2


def card_suit(card: int) -> int:
    """Suit index ``0..3`` (c, d, h, s) of a card id."""
    return card & 3


def parse_cards(text: str | Iterable[str | int]) -> tuple[int, ...]:
    """Parse ``"AsKd"``, ``"As Kd"``, ``["As", "Kd"]`` or ids into a tuple of card ids."""
    if isinstance(text, str):
        compact = "".join(text.split())
        if len(compact) % 2 or _TOKEN.sub("", compact):
            raise CardError(
                f"{text!r} is not a list of cards: expected pairs like 'AsKd' "
                f"(ranks {RANKS}, suits {SUITS})"
            )
        return tuple(card_id(compact[i : i + 2]) for i in range(0, len(compact), 2))
    return tuple(card_id(c) for c in text)


def format_cards(cards: Iterable[int]) -> str:
    """Join card ids as a compact string (``(51, 45) -> "AsKd"``)."""
    return "".join(card_str(c) for c in cards)


def new_deck() -> tuple[int, ...]:
    """The 52 card ids in order ``2c 2d 2h 2s 3c ... As``."""
    return tuple(range(DECK_SIZE))


def shuffled_deck(rng: np.random.Generator) -> tuple[int, ...]:
    """A uniformly shuffled deck order drawn from the injected generator."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return tuple(int(c) for c in rng.permutation(DECK_SIZE))


def validate_deck(deck: Sequence[str | int]) -> tuple[int, ...]:
    """Check that ``deck`` is a full 52-card order with no repeats and return it as ids."""
    try:
        ids = parse_cards(deck)
    except CardError as exc:
        raise CardError(f"deck order is invalid: {exc}") from None
    if len(ids) != DECK_SIZE or len(set(ids)) != DECK_SIZE:
        seen: set[int] = set()
        dup = next((c for c in ids if c in seen or seen.add(c)), None)  # type: ignore[func-returns-value]
        detail = f"card {card_str(dup)} appears twice" if dup is not None else f"it has {len(ids)} cards"
        raise CardError(f"deck order must hold each of the 52 cards exactly once; {detail}")
    return ids

"""Poker hand evaluation: the best five-card hand out of 5, 6 or 7 cards.

Every hand maps to one of the 7,462 standard equivalence classes of five-card poker
hands, numbered so that a stronger hand has a larger value: ``1`` is 7-5-4-3-2 high
card (no flush) and ``7462`` is the royal flush. Suits never break ties; ace plays
high or low (5-4-3-2-A is the lowest straight) and straights never wrap around.

========================  ===========  =========
category                  values       classes
========================  ===========  =========
``HIGH_CARD``             1–1277       1,277
``PAIR``                  1278–4137    2,860
``TWO_PAIR``              4138–4995    858
``THREE_OF_A_KIND``       4996–5853    858
``STRAIGHT``              5854–5863    10
``FLUSH``                 5864–7140    1,277
``FULL_HOUSE``            7141–7296    156
``FOUR_OF_A_KIND``        7297–7452    156
``STRAIGHT_FLUSH``        7453–7462    10
========================  ===========  =========

The royal flush is the ace-high straight flush: its category is ``STRAIGHT_FLUSH``
(``category_name`` says ``"straight flush"``) and :attr:`HandValue.is_royal` is true.

Three entry points share the same tables and the same scale:

* :func:`evaluate` — validated, for strings or ids, returns a :class:`HandValue`;
* :func:`hand_strength` — the fast scalar path (ids, no validation), returns ``int``;
* :func:`evaluate_batch` — vectorised over an ``(N, k)`` array of ids, ``k`` in 5..7.

How it works: each card has a 64-bit key, the sum of a rank key (the 13 rank keys are
chosen so that sums of up to seven of them, at most four per rank, are all distinct)
and a 4-bit counter for its suit. Summing the keys of a hand gives the rank multiset,
which indexes a table of the best non-flush value, and the four suit counts, which say
whether there is a flush; only flush hands then look up the 13-bit rank mask of the
flush suit in an 8,192-entry table. The tables are built at import (about 0.1 s of CPU,
no cache file); the dense 13-16 MB arrays of the batch path are built on its first call
for each hand size.

>>> evaluate("AsKsQsJsTs2c3d")
HandValue(value=7462)
>>> evaluate(["5d", "4c", "3h", "2s", "Ad"]).category_name
'straight'
>>> hand_strength([51, 47, 43, 39, 35]) == 7462
True
>>> evaluate("AsKsQsJs")
Traceback (most recent call last):
...
holdem_env.engine.errors.CardError: a hand must have 5 to 7 cards, got 4
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from holdem_env.engine.cards import DECK_SIZE, card_str, parse_cards
from holdem_env.engine.errors import CardError, HoldemError
from holdem_env.engine.validate import is_int

__all__ = [
    "NUM_HAND_VALUES",
    "HandCategory",
    "HandValue",
    "evaluate",
    "hand_strength",
    "evaluate_batch",
    "category_of",
    "categories_of",
    "CATEGORY_FIRST_VALUE",
    "iter_seven_card_hands",
]

NUM_HAND_VALUES = 7462
"""Number of distinct five-card hand classes; values run from 1 to this number."""


class HandCategory(IntEnum):
    """The nine hand categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """Human-readable name, e.g. ``"full house"``."""
        return self.name.lower().replace("_", " ")


CATEGORY_FIRST_VALUE: tuple[int, ...] = (1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453)
"""The smallest value of each :class:`HandCategory`, indexed by category."""

_MIN_CARDS = 5
_MAX_CARDS = 7

# Rank keys (2..A) whose sums over multisets of at most 7 ranks, each rank at most 4
# times, are distinct for a fixed number of cards; verified when the tables are built.
_RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
_SUIT_SHIFT = 32
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
# Four 4-bit suit counters: adding 3 to each sets its top bit exactly when it is >= 5.
_FLUSH_ADD = 0x3333 << _SUIT_SHIFT
_FLUSH_TEST = 0x8888 << _SUIT_SHIFT


# --------------------------------------------------------------------------- tables


def _five_card_order() -> tuple[dict[tuple[int, ...], int], dict[int, int]]:
    """Number the 7,462 five-card classes; return (non-flush by sorted ranks, flush by mask)."""
    entries: list[tuple[tuple[int, tuple[int, ...]], bool, Any]] = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        counts = {r: ranks.count(r) for r in set(ranks)}
        if max(counts.values()) > 4:
            continue
        ordered = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
        shape = tuple(sorted(counts.values(), reverse=True))
        if shape == (1, 1, 1, 1, 1):
            high = _straight_high(ordered)
            mask = sum(1 << r for r in ordered)
            if high is not None:
                entries.append(((HandCategory.STRAIGHT, (high,)), False, ranks))
                entries.append(((HandCategory.STRAIGHT_FLUSH, (high,)), True, mask))
            else:
                entries.append(((HandCategory.HIGH_CARD, ordered), False, ranks))
                entries.append(((HandCategory.FLUSH, ordered), True, mask))
            continue
        category = {
            (4, 1): HandCategory.FOUR_OF_A_KIND,
            (3, 2): HandCategory.FULL_HOUSE,
            (3, 1, 1): HandCategory.THREE_OF_A_KIND,
            (2, 2, 1): HandCategory.TWO_PAIR,
            (2, 1, 1, 1): HandCategory.PAIR,
        }[shape]
        entries.append(((category, ordered), False, ranks))
    entries.sort(key=lambda e: e[0])
    plain: dict[tuple[int, ...], int] = {}
    flush: dict[int, int] = {}
    for value, (_, is_flush, what) in enumerate(entries, start=1):
        (flush if is_flush else plain)[what] = value
    assert len(entries) == NUM_HAND_VALUES
    return plain, flush


def _straight_high(distinct_desc: tuple[int, ...]) -> int | None:
    """High rank of a straight made by five distinct ranks (descending), or None."""
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if distinct_desc == (12, 3, 2, 1, 0):  # the wheel: 5-4-3-2-A, five high
        return 3
    return None


def _rank_multisets(size: int) -> np.ndarray:
    """All multisets of ``size`` ranks with each rank at most 4 times, as sorted rows."""
    rows = np.array(list(itertools.combinations_with_replacement(range(13), size)), dtype=np.int64)
    # A rank appearing 5 times in a sorted row means row[i] == row[i + 4].
    return rows[~(rows[:, 4:] == rows[:, :-4]).any(axis=1)]


def _build_tables() -> tuple[dict[int, tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Non-flush values by card count as (sorted rank-key sums, values), and the flush table."""
    keys = np.array(_RANK_KEYS, dtype=np.int64)
    plain5, flush5 = _five_card_order()

    sums5 = keys[np.array(list(plain5), dtype=np.int64)].sum(axis=1)
    values5 = np.fromiter(plain5.values(), dtype=np.int16, count=len(plain5))
    order = np.argsort(sums5)
    sparse = {5: (sums5[order], values5[order])}
    for size in (6, 7):
        rows = _rank_multisets(size)
        sums = keys[rows].sum(axis=1)
        order = np.argsort(sums)
        rows, sums = rows[order], sums[order]
        assert (np.diff(sums) > 0).all(), "rank keys are not a perfect hash"
        smaller_sums, smaller_values = sparse[size - 1]
        best = np.zeros(len(rows), dtype=np.int16)
        for col in range(size):  # drop one card, keep the best of what is left
            sub = sums - keys[rows[:, col]]
            at = np.searchsorted(smaller_sums, sub)
            assert (smaller_sums[at] == sub).all()
            best = np.maximum(best, smaller_values[at])
        sparse[size] = (sums, best)

    flush = np.zeros(1 << 13, dtype=np.int16)
    flush[np.fromiter(flush5.keys(), dtype=np.int64)] = np.fromiter(flush5.values(), dtype=np.int16)
    masks = np.arange(1 << 13)
    popcount = np.zeros(1 << 13, dtype=np.int64)
    for bit in range(13):
        popcount += (masks >> bit) & 1
    for count in (6, 7):
        wide = masks[popcount == count]
        for bit in range(13):
            has = (wide >> bit) & 1 == 1
            sub = wide[has]
            flush[sub] = np.maximum(flush[sub], flush[sub ^ (1 << bit)])
    return sparse, flush


_SPARSE_TABLES, _FLUSH_TABLE = _build_tables()
_FLUSH_TABLE.flags.writeable = False
_DENSE_TABLES: dict[int, np.ndarray] = {}


def _dense_table(size: int) -> np.ndarray:
    """Non-flush values of ``size``-card hands indexed by rank-key sum (built on first use)."""
    table = _DENSE_TABLES.get(size)
    if table is None:
        # 13-16 MB each, so only built for the hand sizes a process actually batches.
        sums, values = _SPARSE_TABLES[size]
        table = np.zeros(int(sums[-1]) + 1, dtype=np.int16)
        table[sums] = values
        table.flags.writeable = False
        _DENSE_TABLES[size] = table
    return table


_CARD_KEYS = np.array(
    [_RANK_KEYS[c >> 2] + (1 << (_SUIT_SHIFT + 4 * (c & 3))) for c in range(DECK_SIZE)], dtype=np.int64
)
_CARD_KEYS.flags.writeable = False
_CARD_KEY_LIST: tuple[int, ...] = tuple(int(k) for k in _CARD_KEYS)
# Scalar path: dicts from rank-key sum to value (a few MB, next to 13-16 MB per dense table).
_PLAIN_DICTS: dict[int, dict[int, int]] = {
    size: dict(zip(sums.tolist(), values.tolist(), strict=True)) for size, (sums, values) in _SPARSE_TABLES.items()
}
_FLUSH_LIST: list[int] = _FLUSH_TABLE.tolist()
_RANK_BIT: tuple[int, ...] = tuple(1 << (c >> 2) for c in range(DECK_SIZE))
# Suit of a flush from the four counters after adding 3: the one nibble whose top bit is set.
_FLUSH_SUIT = {0x8 << (_SUIT_SHIFT + 4 * s): s for s in range(4)}


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, order=True)
class HandValue:
    """The strength of a poker hand: stronger hands compare greater.

    >>> HandValue(7462).category_name, HandValue(7462).is_royal
    ('straight flush', True)
    >>> HandValue(1) < HandValue(1278)
    True
    >>> HandValue(0)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.HoldemError: hand value 0 is out of range: values are 1..7462
    """

    value: int
    """Equivalence class, 1 (7-5-4-3-2 high) .. 7462 (royal flush)."""

    def __post_init__(self) -> None:
        v = self.value
        if not is_int(v) or not 1 <= v <= NUM_HAND_VALUES:
            raise HoldemError(f"hand value {v!r} is out of range: values are 1..{NUM_HAND_VALUES}")
        object.__setattr__(self, "value", int(v))

    @property
    def category(self) -> HandCategory:
        """The hand's :class:`HandCategory`."""
        return HandCategory(bisect.bisect_right(CATEGORY_FIRST_VALUE, self.value) - 1)

    @property
    def category_name(self) -> str:
        """The category in words, e.g. ``"two pair"`` (royal flush: ``"straight flush"``)."""
        return self.category.label

    @property
    def is_royal(self) -> bool:
        """True for the ace-high straight flush."""
        return self.value == NUM_HAND_VALUES

    def __str__(self) -> str:
        return f"{'royal flush' if self.is_royal else self.category_name} ({self.value})"


def category_of(value: int) -> HandCategory:
    """The category of a hand value in ``1..7462``.

    >>> category_of(7141)
    <HandCategory.FULL_HOUSE: 6>
    >>> category_of(7463)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.HoldemError: hand value 7463 is out of range: values are 1..7462
    """
    return HandValue(value).category


def categories_of(values: np.ndarray) -> np.ndarray:
    """Vectorised :func:`category_of`: an int8 array of categories (values not checked).

    >>> categories_of(np.array([1, 5863, 7462])).tolist()
    [0, 4, 8]
    """
    bounds = np.asarray(CATEGORY_FIRST_VALUE)
    return (np.searchsorted(bounds, np.asarray(values), side="right") - 1).astype(np.int8)


# --------------------------------------------------------------------------- evaluation


def hand_strength(ids: Sequence[int]) -> int:
    """Value (1..7462) of the best five-card hand in 5–7 card ids; no validation.

    The fast path the engine calls at showdown; equals ``evaluate(ids).value``.

    >>> hand_strength([48, 49, 50, 51, 0])  # four aces, deuce kicker
    7441
    """
    key = 0
    for c in ids:
        key += _CARD_KEY_LIST[c]
    flush = (key + _FLUSH_ADD) & _FLUSH_TEST
    if flush:
        suit = _FLUSH_SUIT[flush]
        mask = 0
        for c in ids:
            if c & 3 == suit:
                mask |= _RANK_BIT[c]
        return _FLUSH_LIST[mask]
    return _PLAIN_DICTS[len(ids)][key & _RANK_MASK]


def evaluate(cards: str | Iterable[str | int]) -> HandValue:
    """Evaluate 5–7 distinct cards (ids, strings, or one string like ``"AsKd..."``).

    Raises :class:`~holdem_env.engine.errors.CardError` for a bad card, a repeated card or a
    card count outside 5..7.

    >>> evaluate("Ah Kh 5c 4d 3s 2c 9h").category_name
    'straight'
    >>> evaluate("AsAsKdQh2c")
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.CardError: card As appears twice in the hand
    """
    try:
        ids = parse_cards(cards)
    except TypeError:
        raise CardError(f"a hand must be a string or a sequence of cards, got {type(cards).__name__}") from None
    if not _MIN_CARDS <= len(ids) <= _MAX_CARDS:
        raise CardError(f"a hand must have {_MIN_CARDS} to {_MAX_CARDS} cards, got {len(ids)}")
    if len(set(ids)) != len(ids):
        seen: set[int] = set()
        dup = next(c for c in ids if c in seen or seen.add(c))  # type: ignore[func-returns-value]
        raise CardError(f"card {card_str(dup)} appears twice in the hand")
    return HandValue(hand_strength(ids))


_CHUNK_ROWS = 1 << 16  # rows per inner step: temporaries stay in the L2 cache (measured best)


def evaluate_batch(ids: np.ndarray, *, validate: bool = True) -> np.ndarray:
    """Values (int32, 1..7462) of each row of an ``(N, k)`` integer array of card ids, k in 5..7.

    The array must be 2-D with an integer dtype and 5..7 columns; with ``validate`` (the
    default) its ids must also be in 0..51 with no card twice in a row. A
    :class:`~holdem_env.engine.errors.CardError` names the first problem; nothing is modified.
    ``validate=False`` skips the id checks for trusted input (10-20% faster; bad ids then
    give meaningless values, not an exception).

    >>> evaluate_batch(np.array([[51, 47, 43, 39, 35, 0, 1], [0, 1, 2, 3, 4, 5, 6]])).tolist()
    [7462, 7297]
    >>> evaluate_batch(np.array([[0, 0, 1, 2, 3]]))
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.CardError: row 0 of the batch repeats a card: [0, 0, 1, 2, 3]
    """
    _check_batch_shape(ids)
    if validate:
        _check_range(ids)  # repeats are checked chunk by chunk below
    n, k = ids.shape
    plain = _dense_table(k)
    out = np.empty(n, dtype=np.int32)
    rows_per_step = min(n, _CHUNK_ROWS)
    key = np.empty(rows_per_step, dtype=np.int64)
    tmp = np.empty(rows_per_step, dtype=np.int64)
    value16 = np.empty(rows_per_step, dtype=np.int16)
    for start in range(0, n, _CHUNK_ROWS):
        # (k, m) C-ordered: one contiguous row per card slot. Ids are 0..51 (validated or
        # trusted), so uint8 is lossless and the cheapest index type for the gathers.
        cols = ids[start : start + _CHUNK_ROWS].T.astype(np.uint8, order="C")
        m = cols.shape[1]
        if validate:
            _check_distinct(cols, start)
        key_m, tmp_m, value_m = key[:m], tmp[:m], value16[:m]
        # Ids are in range here (validated, or trusted), so "clip" only skips the bounds check.
        np.take(_CARD_KEYS, cols[0], out=key_m, mode="clip")
        for j in range(1, k):
            np.take(_CARD_KEYS, cols[j], out=tmp_m, mode="clip")
            key_m += tmp_m
        np.bitwise_and(key_m, _RANK_MASK, out=tmp_m)
        np.take(plain, tmp_m, out=value_m, mode="clip")
        res = out[start : start + m]
        res[:] = value_m
        np.add(key_m, _FLUSH_ADD, out=tmp_m)
        tmp_m &= _FLUSH_TEST
        rows = np.flatnonzero(tmp_m)
        if rows.size:
            bits = tmp_m[rows] >> (_SUIT_SHIFT + 3)  # one of 0x1, 0x10, 0x100, 0x1000
            suit = (bits > 0x1).astype(np.intp) + (bits > 0x10) + (bits > 0x100)
            fcols = cols[:, rows].astype(np.intp)
            mask = np.where((fcols & 3) == suit, 1 << (fcols >> 2), 0).sum(axis=0)
            res[rows] = _FLUSH_TABLE[mask]
    return out


def _check_batch_shape(ids: Any) -> None:
    """Raise CardError unless ``ids`` is a 2-D integer array with 5..7 columns."""
    if not isinstance(ids, np.ndarray):
        raise CardError(f"a batch must be a numpy array of card ids, got {type(ids).__name__}")
    if ids.ndim != 2 or not _MIN_CARDS <= ids.shape[1] <= _MAX_CARDS:
        raise CardError(f"a batch must have shape (N, k) with k in 5..7, got shape {ids.shape}")
    if not np.issubdtype(ids.dtype, np.integer):
        raise CardError(f"a batch must have an integer dtype, got {ids.dtype}")


def _check_range(ids: np.ndarray) -> None:
    """Raise CardError naming the first row with an id outside 0..51."""
    if ids.size == 0:
        return
    low, high = int(ids.min()), int(ids.max())
    if low < 0 or high >= DECK_SIZE:
        bad = low if low < 0 else high
        row = int(np.flatnonzero((ids == bad).any(axis=1))[0])
        raise CardError(f"row {row} of the batch has card id {bad}: ids are 0..{DECK_SIZE - 1}")


def _check_distinct(cols: np.ndarray, first_row: int) -> None:
    """Raise CardError if a row (a column of ``cols``, the transposed chunk) repeats a card."""
    dup = cols[0] == cols[1]
    for i, j in itertools.combinations(range(len(cols)), 2):
        dup |= cols[i] == cols[j]
    if dup.any():
        row = int(np.flatnonzero(dup)[0])
        raise CardError(f"row {first_row + row} of the batch repeats a card: {cols[:, row].tolist()}")


def iter_seven_card_hands() -> Iterator[np.ndarray]:
    """Every one of the C(52, 7) = 133,784,560 seven-card hands, once, in ``(n, 7)`` uint8 blocks.

    Blocks fix the two lowest cards ``a < b`` and append every 5-card combination above
    ``b`` (at most C(50, 5) = 2,118,760 rows), so memory stays small; feed them to
    :func:`evaluate_batch` for exhaustive statistics.

    >>> first = next(iter_seven_card_hands())
    >>> first.shape, first[0].tolist(), first[-1].tolist()
    ((2118760, 7), [0, 1, 2, 3, 4, 5, 6], [0, 1, 47, 48, 49, 50, 51])
    """
    five = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    # Five-card combinations are in lexicographic order: those whose lowest card is above b form a suffix.
    first_above = np.searchsorted(five[:, 0], np.arange(53), side="left")
    for a in range(52):
        for b in range(a + 1, 52):
            tail = five[first_above[b + 1] :]
            if len(tail):
                block = np.empty((len(tail), 7), dtype=np.uint8)
                block[:, 0], block[:, 1], block[:, 2:] = a, b, tail
                yield block

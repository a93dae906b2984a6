"""Ranges over the 1,326 two-card holdings and exact showdown equity of a hand against a range.

A *range* is a weight per holding, a float array of length :data:`NUM_HOLDINGS` indexed
like :data:`HOLDINGS` (every pair ``(a, b)`` of card ids with ``a < b``, in lexicographic
order). :func:`equity_against_each` enumerates every run-out of the remaining board once
and gives a hand's exact equity against *each* opponent holding; the equity against any
range on that board is then a weighted mean (:func:`equity_against_range`), so one
enumeration serves every range an algorithm asks about. Ties count half.

>>> HOLDINGS.shape, holding_index(0, 1), holding_index(51, 50)
((1326, 2), 0, 1325)
>>> e = equity_against_each("AsAh", "Kd Qc 7h 3s 2d")
>>> float(e[holding_index(*parse_cards("QsJs"))]), float(e[holding_index(*parse_cards("7s7c"))])
(1.0, 0.0)
>>> bool(np.isnan(e[holding_index(*parse_cards("AsKh"))]))  # shares the As: impossible
True
>>> equity_against_each("AsAs", "")
Traceback (most recent call last):
...
holdem_env.engine.errors.CardError: the hand and board repeat a card: As As
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence

import numpy as np

from holdem_env.engine.cards import card_str, parse_cards
from holdem_env.engine.errors import CardError, ConfigError
from holdem_env.engine.evaluator import evaluate_batch

__all__ = [
    "NUM_HOLDINGS",
    "HOLDINGS",
    "holding_index",
    "blocked_by",
    "uniform_range",
    "normalise_range",
    "equity_against_each",
    "equity_against_range",
    "check_holdings",
    "holding_indices",
    "card_incidence",
    "strength_against_random",
]

CardsLike = str | Iterable[str | int]

NUM_HOLDINGS = 1326
#: Every two-card holding ``(a, b)``, ``a < b``, lexicographic; row ``i`` is holding ``i``.
HOLDINGS: np.ndarray = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int64)
HOLDINGS.setflags(write=False)
_INDEX = np.full((52, 52), -1, dtype=np.int64)
_INDEX[HOLDINGS[:, 0], HOLDINGS[:, 1]] = np.arange(NUM_HOLDINGS)
_INDEX[HOLDINGS[:, 1], HOLDINGS[:, 0]] = np.arange(NUM_HOLDINGS)
# _INCIDENCE[c, i] = 1 when holding i contains card c.
_INCIDENCE = np.zeros((52, NUM_HOLDINGS), dtype=np.float32)
_INCIDENCE[HOLDINGS[:, 0], np.arange(NUM_HOLDINGS)] = 1.0
_INCIDENCE[HOLDINGS[:, 1], np.arange(NUM_HOLDINGS)] = 1.0
# _CARD_HOLDINGS[c]: the 51 holdings that contain card c.
_CARD_HOLDINGS = np.array([np.flatnonzero(_INCIDENCE[c]) for c in range(52)], dtype=np.int64)


def holding_index(a: int, b: int) -> int:
    """Index in :data:`HOLDINGS` of the holding of card ids ``a`` and ``b`` (either order).

    >>> holding_index(3, 3)
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.CardError: a holding is two different card ids in 0..51, got (3, 3)
    """
    if not (0 <= int(a) < 52 and 0 <= int(b) < 52) or int(a) == int(b):
        raise CardError(f"a holding is two different card ids in 0..51, got ({a}, {b})")
    return int(_INDEX[int(a), int(b)])


def _cards(value: CardsLike, what: str) -> tuple[int, ...]:
    cards = parse_cards(value) if not isinstance(value, tuple) else tuple(int(c) for c in value)
    if any(not 0 <= c < 52 for c in cards):
        raise CardError(f"the {what} has a card id outside 0..51: {cards}")
    return cards


def holding_indices(holdings: np.ndarray) -> np.ndarray:
    """Indices in :data:`HOLDINGS` of the rows of an ``(n, 2)`` array of card-id pairs."""
    hold = check_holdings(holdings)
    return _INDEX[hold[:, 0], hold[:, 1]]


def card_incidence() -> np.ndarray:
    """A read-only ``(52, 1326)`` float32 matrix: 1 where holding ``j`` contains card ``i``.

    ``onehot_cards @ card_incidence()`` counts, for each holding, the cards it shares
    with a set of cards (a clash test for many card sets at once).
    """
    view = _INCIDENCE.view()
    view.setflags(write=False)
    return view


def blocked_by(cards: CardsLike) -> np.ndarray:
    """Boolean mask of the holdings that contain any of ``cards`` (ids or a string)."""
    ids = _cards(cards, "cards")
    if not ids:
        return np.zeros(NUM_HOLDINGS, dtype=bool)
    return _INCIDENCE[list(ids)].sum(axis=0) > 0


def uniform_range(dead: CardsLike = ()) -> np.ndarray:
    """Equal weight on every holding that avoids the ``dead`` cards, summing to 1.

    >>> r = uniform_range("AsKd")
    >>> int(np.count_nonzero(r)), round(float(r.sum()), 12)
    (1225, 1.0)
    """
    weights = (~blocked_by(dead)).astype(np.float64)
    return weights / weights.sum()


def normalise_range(weights: np.ndarray) -> np.ndarray:
    """``weights`` divided by their sum; raises :class:`ConfigError` unless they are a
    non-negative float vector of length 1,326 with a positive sum."""
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (NUM_HOLDINGS,) or not np.all(np.isfinite(w)) or (w < 0).any() or w.sum() <= 0:
        raise ConfigError("range", f"array of shape {w.shape}", "must be 1,326 finite weights >= 0 with a positive sum")
    return w / w.sum()


def equity_against_each(hole: CardsLike, board: CardsLike) -> np.ndarray:
    """Exact equity of ``hole`` against each of the 1,326 holdings, over every run-out of
    ``board`` (0, 3, 4 or 5 cards); NaN for holdings that share a card with hole or board.

    Every run-out is enumerated (from the flop, 1,081; preflop, 1.7 million -- slow, a
    few minutes). An opponent holding and a run-out are equally likely whenever they do
    not share a card, which is what the per-holding mean computes.
    """
    h = _cards(hole, "hand")
    b = _cards(board, "board")
    if len(h) != 2:
        raise CardError(f"a hand has exactly 2 cards, got {len(h)}")
    if len(b) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, got {len(b)}")
    if len(set(h + b)) != len(h) + len(b):
        raise CardError(f"the hand and board repeat a card: {' '.join(card_str(c) for c in h + b)}")
    known = h + b
    rest = np.array([c for c in range(52) if c not in known], dtype=np.int64)
    opp = np.flatnonzero(~blocked_by(known))  # opponent holdings possible at all
    k = 5 - len(b)
    runouts = np.zeros((1, 0), dtype=np.int64)  # the river: one (empty) run-out
    if k:
        runouts = np.array(list(itertools.combinations(rest.tolist(), k)), dtype=np.int64)
    num = np.zeros(len(opp))
    den = np.zeros(len(opp))
    step = max(1, 2_000_000 // max(1, len(opp)))  # run-outs per batch: bounded memory
    board_arr = np.asarray(b, dtype=np.int64)
    for start in range(0, len(runouts), step):
        chunk = runouts[start : start + step]
        m = len(chunk)
        full = np.concatenate([np.broadcast_to(board_arr, (m, len(b))), chunk], axis=1)  # (m, 5)
        hero_cards = np.concatenate([np.broadcast_to(h, (m, 2)), full], axis=1).astype(np.uint8)
        hero = evaluate_batch(hero_cards, validate=False)
        if k:
            onehot = np.zeros((m, 52), dtype=np.float32)
            np.put_along_axis(onehot, chunk, 1.0, axis=1)
            valid = (onehot @ _INCIDENCE[:, opp]) == 0
        else:
            valid = np.ones((m, len(opp)), dtype=bool)
        cards = np.empty((m, len(opp), 7), dtype=np.uint8)
        cards[:, :, :2] = HOLDINGS[opp][None, :, :]
        cards[~valid, :2] = h  # a clash would be a meaningless row; the hero's cards never clash
        cards[:, :, 2:] = full[:, None, :]
        villain = evaluate_batch(cards.reshape(-1, 7), validate=False).reshape(m, len(opp))
        share = (hero[:, None] > villain) + 0.5 * (hero[:, None] == villain)
        num += (share * valid).sum(axis=0)
        den += valid.sum(axis=0)
    out = np.full(NUM_HOLDINGS, np.nan)
    out[opp] = num / den
    return out


def strength_against_random(board: CardsLike) -> np.ndarray:
    """Each holding's share of the opponent holdings it beats on ``board`` as it stands
    (3, 4 or 5 cards; no run-out), ties counting half, opponents that share a card with it
    excluded; NaN for holdings that share a card with the board.

    >>> s = strength_against_random("2c 2d 9h Js Qs")
    >>> float(s[holding_index(*parse_cards("2h2s"))]), bool(np.isnan(s[holding_index(*parse_cards("2c3c"))]))
    (1.0, True)
    """
    b = _cards(board, "board")
    if len(b) not in (3, 4, 5) or len(set(b)) != len(b):
        raise CardError(f"a board to rank hands on has 3, 4 or 5 different cards, got {len(b)}")
    return _strengths(tuple(sorted(b))).copy()


@functools.lru_cache(maxsize=16)
def _strengths(b: tuple[int, ...]) -> np.ndarray:
    """:func:`strength_against_random` of a sorted, checked board (cached: a street asks often)."""
    ids = np.flatnonzero(~blocked_by(b))
    cards = np.concatenate([HOLDINGS[ids], np.broadcast_to(np.asarray(b, dtype=np.int64), (len(ids), len(b)))], axis=1)
    values = evaluate_batch(cards.astype(np.uint8), validate=False).astype(np.int64)
    # Count, for each holding h = (c1, c2), the holdings below / equal to it that share no
    # card with it: all of them, minus those holding c1, minus those holding c2, plus h
    # itself (it holds both) -- each count one binary search in sorted values.
    order = np.sort(values)
    less = np.searchsorted(order, values, side="left")
    equal = np.searchsorted(order, values, side="right") - less
    clashing = np.ones(len(ids), dtype=np.int64)  # h itself, added back
    pos_of = np.full(NUM_HOLDINGS, -1, dtype=np.int64)
    pos_of[ids] = np.arange(len(ids))
    for card in range(52):
        members = pos_of[_CARD_HOLDINGS[card]]
        members = members[members >= 0]
        if not len(members):
            continue
        mine = np.sort(values[members])
        lo = np.searchsorted(mine, values[members], side="left")
        hi = np.searchsorted(mine, values[members], side="right")
        less[members] -= lo
        equal[members] -= hi - lo
        clashing[members] -= len(members)
    equal += 1
    disjoint = len(ids) + clashing  # n - |holding c1| - |holding c2| + 1
    out = np.full(NUM_HOLDINGS, np.nan)
    out[ids] = (less + 0.5 * equal) / disjoint
    return out


def equity_against_range(equities: np.ndarray, weights: np.ndarray) -> float:
    """Equity against a range from :func:`equity_against_each`'s answer: the weighted mean
    over holdings possible on the board (impossible ones, NaN there, get no weight).

    >>> e = equity_against_each("AsAh", "Kd Qc 7h 3s 2d")
    >>> w = np.zeros(NUM_HOLDINGS); w[holding_index(*parse_cards("QsJs"))] = w[holding_index(*parse_cards("7s7c"))] = 1
    >>> equity_against_range(e, w)
    0.5
    """
    possible = ~np.isnan(equities)
    w = np.where(possible, np.asarray(weights, dtype=np.float64), 0.0)
    total = w.sum()
    if total <= 0:
        raise ConfigError("range", "no weight on a possible holding", "must give weight to a holding the cards allow")
    return float(np.dot(np.where(possible, equities, 0.0), w) / total)


def check_holdings(holdings: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
    """``holdings`` as an ``(n, 2)`` int64 array; raises :class:`CardError` unless every row
    is two different card ids in 0..51."""
    arr = np.asarray(holdings, dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2 or ((arr < 0) | (arr > 51)).any() or (arr[:, 0] == arr[:, 1]).any():
        raise CardError("holdings must be an (n, 2) array of two different card ids in 0..51 per row")
    return arr

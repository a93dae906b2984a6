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

from holdem_env.engine import evaluator as _ev
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
    "holdings_equity_against_random",
    "strengths_on_boards",
    "values_on_boards",
    "equity_against_random",
    "flop_runouts",
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
            dealt = np.zeros((m, 52), dtype=bool)
            np.put_along_axis(dealt, chunk, True, axis=1)
            valid = ~(dealt[:, HOLDINGS[opp, 0]] | dealt[:, HOLDINGS[opp, 1]])
        else:
            valid = np.ones((m, len(opp)), dtype=bool)
        villain = values_on_boards(full)[:, opp]  # a clashing (invalid) entry is garbage, weighted 0
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


#: Where each holding sits among its two cards' member lists: holding ``h = (c1, c2)`` is
#: entry ``_MEMBER_POS[h, k]`` of the flattened ``(52, 51)`` :data:`_CARD_HOLDINGS`, k = 0, 1.
_MEMBER_POS = np.zeros((NUM_HOLDINGS, 2), dtype=np.int64)
for _c in range(52):
    for _j, _h in enumerate(_CARD_HOLDINGS[_c]):
        _MEMBER_POS[_h, 0 if HOLDINGS[_h, 0] == _c else 1] = _c * 51 + _j
_MAX_VALUE = 7462  # evaluator values are 1..7462
_BOARDS_PER_STEP = 64  # bounds the working arrays (boards x 1,326 x 7 cards) to a few MB


def strengths_on_boards(boards: np.ndarray) -> np.ndarray:
    """:func:`strength_against_random` of many complete boards at once: ``(B, 5)`` card ids
    in, ``(B, 1326)`` out (NaN for holdings that share a card with that row's board).

    Vectorised over the boards: every holding is ranked once per board, ties and wins are
    counted with a histogram of the values, and the opponent holdings that share a card
    with the holding are taken out card by card (inclusion-exclusion). The caller checks
    the boards (five different ids in 0..51 per row).

    >>> b = np.array([parse_cards("2c 2d 9h Js Qs"), parse_cards("Ah Kh Qh 3c 4d")])
    >>> s = strengths_on_boards(b)
    >>> bool(np.allclose(s[0], strength_against_random("2c 2d 9h Js Qs"), equal_nan=True))
    True
    """
    boards = np.asarray(boards, dtype=np.int64).reshape(-1, 5)
    out = np.full((len(boards), NUM_HOLDINGS), np.nan)
    for start in range(0, len(boards), _BOARDS_PER_STEP):
        chunk = boards[start : start + _BOARDS_PER_STEP]
        out[start : start + len(chunk)] = _strength_block(chunk)
    return out


# Each holding's evaluator key (its two cards' keys added) and rank bits per suit.
_HOLDING_KEYS = _ev._CARD_KEYS[HOLDINGS[:, 0]] + _ev._CARD_KEYS[HOLDINGS[:, 1]]
_HOLDING_SUIT_BITS = np.zeros((NUM_HOLDINGS, 4), dtype=np.int64)
for _k in (0, 1):
    np.bitwise_or.at(_HOLDING_SUIT_BITS, (np.arange(NUM_HOLDINGS), HOLDINGS[:, _k] & 3), 1 << (HOLDINGS[:, _k] >> 2))


# Non-flush values depend on ranks only: each holding's pair of ranks (91 of them, r1 <= r2)
# and that pair's rank-key sum. A board's 91 lookups in the large dense table are then spread
# to the 1,326 holdings from a small row that stays in the cache.
_RANK_PAIRS = np.array([(a, b) for a in range(13) for b in range(a, 13)], dtype=np.int64)
_RANK_PAIR_KEYS = np.array(_ev._RANK_KEYS, dtype=np.int64)[_RANK_PAIRS].sum(axis=1)
_PAIR_INDEX = np.full((13, 13), -1, dtype=np.int64)
_PAIR_INDEX[_RANK_PAIRS[:, 0], _RANK_PAIRS[:, 1]] = np.arange(len(_RANK_PAIRS))
_HOLDING_RANK_PAIR = _PAIR_INDEX[HOLDINGS[:, 0] >> 2, HOLDINGS[:, 1] >> 2]  # a < b, so rank a <= rank b


def _rank_pair_values(board_keys: np.ndarray) -> np.ndarray:
    """Non-flush value ``(n, 91)`` of each pair of ranks (:data:`_RANK_PAIRS`) added to each
    five-card board, given the boards' evaluator keys."""
    return np.take(_ev._dense_table(7), (board_keys & _ev._RANK_MASK)[:, None] + _RANK_PAIR_KEYS[None, :], mode="clip")


def values_on_boards(boards: np.ndarray) -> np.ndarray:
    """Evaluator values ``(n, 1326)`` int32 of every holding with each five-card board of
    ``boards`` ``(n, 5)`` (garbage for holdings that share a card with the board; the caller
    masks them; the boards are not checked).

    :func:`~holdem_env.engine.evaluator.evaluate_batch`'s method with the board's part of
    the key added once per board instead of five times per hand, the non-flush table read
    once per board and pair of ranks, and the flush test only on boards with three or more
    cards of a suit (tests compare the values with the evaluator's).
    """
    boards = np.asarray(boards, dtype=np.int64).reshape(-1, 5)
    n = len(boards)
    board_keys = _ev._CARD_KEYS[boards].sum(axis=1)
    values = _rank_pair_values(board_keys).astype(np.int32)[:, _HOLDING_RANK_PAIR]
    suits = np.zeros((n, 4), dtype=np.int64)
    np.add.at(suits, (np.repeat(np.arange(n), 5), (boards & 3).ravel()), 1)
    maybe = np.flatnonzero(suits.max(axis=1) >= 3)  # a holding adds at most two cards of a suit
    if maybe.size:
        flush = (board_keys[maybe, None] + _HOLDING_KEYS[None, :] + _ev._FLUSH_ADD) & _ev._FLUSH_TEST
        sub, cols = np.nonzero(flush)
        if sub.size:
            rows = maybe[sub]
            bits = flush[sub, cols] >> (_ev._SUIT_SHIFT + 3)  # one of 0x1, 0x10, 0x100, 0x1000
            suit = (bits > 0x1).astype(np.intp) + (bits > 0x10) + (bits > 0x100)
            board_bits = np.zeros((n, 4), dtype=np.int64)
            for k in range(5):
                np.bitwise_or.at(board_bits, (np.arange(n), boards[:, k] & 3), 1 << (boards[:, k] >> 2))
            mask = board_bits[rows, suit] | _HOLDING_SUIT_BITS[cols, suit]
            values[rows, cols] = _ev._FLUSH_TABLE[mask]
    return values


def _valued_boards(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For ``(n, 5)`` boards: which cards each holds ``(n, 52)``, which holdings each blocks
    ``(n, 1326)``, and every holding's value there, 0 where blocked (below every real value:
    never beaten, never tied)."""
    on_board = np.zeros((len(boards), 52), dtype=bool)
    np.put_along_axis(on_board, boards, True, axis=1)
    blocked = on_board[:, HOLDINGS[:, 0]] | on_board[:, HOLDINGS[:, 1]]
    values = values_on_boards(boards).astype(np.int32)
    values[blocked] = 0
    return on_board, blocked, values


def _strength_block(boards: np.ndarray) -> np.ndarray:
    n = len(boards)
    _, blocked, values = _valued_boards(boards)
    rows = np.arange(n, dtype=np.int32)[:, None]
    hist = np.bincount((values + rows * (_MAX_VALUE + 1)).ravel(), minlength=n * (_MAX_VALUE + 1))
    hist = hist.reshape(n, _MAX_VALUE + 1).astype(np.int32)
    hist[:, 0] = 0
    below = np.cumsum(hist, axis=1) - hist  # valid holdings strictly below each value
    less = below[rows, values]
    equal = hist[rows, values]
    # The same counts among the 51 holdings of each card, for holding h's two cards: each
    # (board, card) list sorted once; in sorted order an entry's "below" count is where its
    # run of equal values starts and its "equal" count the run's length.
    members = values[:, _CARD_HOLDINGS].reshape(-1, 51)  # (n * 52, 51)
    order = np.argsort(members, axis=1)
    ranked = np.take_along_axis(members, order, axis=1)
    step = ranked[:, 1:] != ranked[:, :-1]
    edge = np.ones((len(ranked), 1), dtype=bool)
    slots = np.broadcast_to(np.arange(51), ranked.shape)
    run_start = np.maximum.accumulate(np.where(np.concatenate([edge, step], axis=1), slots, 0), axis=1)
    run_end = np.minimum.accumulate(np.where(np.concatenate([step, edge], axis=1), slots, 50)[:, ::-1], axis=1)
    # Back to the members' own order: one flat scatter (cheaper than put_along_axis).
    flat = (order + np.arange(0, order.size, 51)[:, None]).ravel()
    lo_flat = np.empty(order.size, dtype=run_start.dtype)
    count_flat = np.empty(order.size, dtype=run_start.dtype)
    lo_flat[flat] = run_start.ravel()
    count_flat[flat] = (run_end[:, ::-1] + 1 - run_start).ravel()
    lo = lo_flat.reshape(order.shape)
    count = count_flat.reshape(order.shape)
    dead = (members == 0).sum(axis=1, keepdims=True)  # blocked members sort first: not below a real value
    less_c = (lo - dead).reshape(n, -1)
    equal_c = count.reshape(n, -1)
    count_c = (51 - dead).reshape(n, 52)
    p0, p1 = _MEMBER_POS[:, 0], _MEMBER_POS[:, 1]
    wins = less - less_c[:, p0] - less_c[:, p1]
    ties = equal - equal_c[:, p0] - equal_c[:, p1] + 1  # h itself was taken out twice
    valid = (values > 0).sum(axis=1, keepdims=True)
    disjoint = valid - count_c[:, HOLDINGS[:, 0]] - count_c[:, HOLDINGS[:, 1]] + 1
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (wins + 0.5 * ties) / disjoint
    out[blocked] = np.nan
    return out


#: Every pair of indices into 49 cards, in ``itertools.combinations`` order.
_PAIRS_OF_49 = np.array(list(itertools.combinations(range(49), 2)), dtype=np.int64)


def flop_runouts(flop: CardsLike) -> np.ndarray:
    """Every turn-and-river pair of ``flop`` (three cards): a ``(1176, 2)`` array (pairs of the 49
    cards off the flop, in order); 1,081 of them avoid a given holding's cards."""
    b = _cards(flop, "flop")
    if len(b) != 3 or len(set(b)) != 3:
        raise CardError(f"a flop is three different cards, got {len(b)}")
    rest = np.array([c for c in range(52) if c not in b], dtype=np.int64)
    return rest[_PAIRS_OF_49]


def equity_against_random(board: CardsLike, runouts: np.ndarray | None = None) -> np.ndarray:
    """Each holding's showdown equity against one uniformly random opponent holding, ties
    half: a ``(1326,)`` array, NaN for holdings that share a card with ``board``.

    ``board`` of 5 cards: exact (:func:`strength_against_random`); 4 cards: exact, the mean
    over the rivers that do not use the holding's cards; 3 cards: the same mean over
    ``runouts`` (an ``(m, 2)`` array of turn-and-river pairs, e.g. a sample of
    :func:`flop_runouts`; default all of them: exact). Every valid (run-out, opponent) pair
    leaves the same number of opponent holdings, so the plain mean over a holding's run-outs
    is its exact equity.

    >>> e = equity_against_random("Kd Qc 7h 3s")
    >>> float(e[holding_index(*parse_cards("KsKh"))]) > 0.9, bool(np.isnan(e[holding_index(*parse_cards("KdKs"))]))
    (True, True)
    """
    b = _equity_board(board)
    if len(b) == 5:
        return strength_against_random(b)
    tails = _tails(b, runouts)
    full = _full_boards(b, tails)
    strengths = strengths_on_boards(full)  # NaN where the run-out uses one of the holding's cards
    used = ~np.isnan(strengths)
    counts = used.sum(axis=0)
    total = np.where(used, strengths, 0.0).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(counts > 0, total / np.maximum(counts, 1), np.nan)
    out[blocked_by(b)] = np.nan
    return out


def _equity_board(board: CardsLike) -> tuple[int, ...]:
    """``board`` checked for the equity-against-random functions: 3, 4 or 5 different cards."""
    b = _cards(board, "board")
    if len(b) not in (3, 4, 5) or len(set(b)) != len(b):
        raise CardError(f"a board for equity against a random holding has 3, 4 or 5 different cards, got {len(b)}")
    return b


def _tails(b: tuple[int, ...], runouts: np.ndarray | None) -> np.ndarray:
    """The cards that complete a 4-card board (every river) or a flop (``runouts``, default all)."""
    if len(b) == 4:
        return np.array([[c] for c in range(52) if c not in b], dtype=np.int64)
    tails = flop_runouts(b) if runouts is None else np.asarray(runouts, dtype=np.int64)
    on_flop = np.zeros(52, dtype=bool)
    on_flop[list(b)] = True
    if tails.ndim != 2 or tails.shape[1] != 2 or len(tails) == 0 or tails.min() < 0 or tails.max() > 51 or on_flop[tails].any():
        raise CardError("flop run-outs must be a non-empty (m, 2) array of cards off the flop")
    return tails


def _full_boards(b: tuple[int, ...], tails: np.ndarray) -> np.ndarray:
    return np.concatenate([np.broadcast_to(np.asarray(b, dtype=np.int64), (len(tails), len(b))), tails], axis=1)


# The holdings that can make a flush of suit s on a board with three (both cards of s) or
# four (at least one card of s) cards of it; with five, every holding.
_BOTH_OF_SUIT = [np.flatnonzero(((HOLDINGS[:, 0] & 3) == s) & ((HOLDINGS[:, 1] & 3) == s)) for s in range(4)]
_ONE_OF_SUIT = [np.flatnonzero(((HOLDINGS[:, 0] & 3) == s) | ((HOLDINGS[:, 1] & 3) == s)) for s in range(4)]
_EVERY_HOLDING = np.arange(NUM_HOLDINGS)
# Unseen holdings of a pair of ranks from the unseen cards of each (0-4): a * b for two
# ranks, a * (a - 1) / 2 for a pocket pair (its entries offset by 25).
_PAIR_COUNTS = np.array([a * b for a in range(5) for b in range(5)] + [a * (a - 1) // 2 for a in range(5) for _ in range(5)])
_PAIR_OFFSET = np.where(_RANK_PAIRS[:, 0] == _RANK_PAIRS[:, 1], 25, 0)
_HOLDING_BITMASK = (np.int64(1) << HOLDINGS[:, 0]) | (np.int64(1) << HOLDINGS[:, 1])


def _one_holding_counts(full: np.ndarray, c1: int, c2: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Against every holding that misses the five-card boards ``full`` ``(m, 5)`` and the
    holding ``(c1, c2)`` (which misses them too): how many it beats, ties and there are,
    per board -- exact integers.

    Without a flush a holding's value depends on its pair of ranks alone, so the 91 rank
    pairs' values are compared with the holding's and weighted by how many unseen holdings
    each pair has (``4 - seen`` cards of each rank). On a board with three or more cards of
    a suit, the holdings that make that flush (which beats every hand without one: seven
    cards cannot hold both) are then compared by their flush value instead.
    """
    m = len(full)
    rows = np.arange(m)
    pair_values = _rank_pair_values(_ev._CARD_KEYS[full].sum(axis=1)).astype(np.int64)
    seen = np.concatenate([full, np.broadcast_to(np.array([c1, c2]), (m, 2))], axis=1)
    left = 4 - np.bincount((rows[:, None] * 13 + (seen >> 2)).ravel(), minlength=13 * m).reshape(m, 13)
    count = _PAIR_COUNTS[left[:, _RANK_PAIRS[:, 0]] * 5 + left[:, _RANK_PAIRS[:, 1]] + _PAIR_OFFSET]
    suits = np.bincount((rows[:, None] * 4 + (full & 3)).ravel(), minlength=4 * m).reshape(m, 4)
    most, suit = suits.max(axis=1), suits.argmax(axis=1)
    flushy = np.flatnonzero(most >= 3)
    # The suit's ranks on each board (distinct cards: the sum is the bitwise or).
    board_bits = (((full & 3) == suit[:, None]) << (full >> 2)).sum(axis=1)
    mine = pair_values[:, _PAIR_INDEX[min(c1 >> 2, c2 >> 2), max(c1 >> 2, c2 >> 2)]].copy()
    own = _HOLDING_SUIT_BITS[_INDEX[c1, c2]][suit]
    flushed = most + ((c1 & 3) == suit) + ((c2 & 3) == suit) >= 5
    mine[flushed] = _ev._FLUSH_TABLE[board_bits[flushed] | own[flushed]]
    wins = (count * (pair_values < mine[:, None])).sum(axis=1)
    ties = (count * (pair_values == mine[:, None])).sum(axis=1)
    valid = count.sum(axis=1)
    if flushy.size:
        known = (np.int64(1) << seen[flushy]).sum(axis=1)
        for key in sorted(set((suit[flushy] * 8 + most[flushy]).tolist())):
            st, k = divmod(key, 8)
            group = (suit[flushy] == st) & (most[flushy] == k)
            at = flushy[group]
            cols = _BOTH_OF_SUIT[st] if k == 3 else _ONE_OF_SUIT[st] if k == 4 else _EVERY_HOLDING
            ok = (known[group, None] & _HOLDING_BITMASK[None, cols]) == 0
            true = _ev._FLUSH_TABLE[board_bits[at, None] | _HOLDING_SUIT_BITS[cols, st][None, :]]
            plain = pair_values[at][:, _HOLDING_RANK_PAIR[cols]]
            me = mine[at, None]
            wins[at] += (ok & (true < me)).sum(axis=1) - (ok & (plain < me)).sum(axis=1)
            ties[at] += (ok & (true == me)).sum(axis=1) - (ok & (plain == me)).sum(axis=1)
    return wins, ties, valid


def holdings_equity_against_random(
    board: CardsLike, holdings: np.ndarray, runouts: np.ndarray | None = None
) -> np.ndarray:
    """:func:`equity_against_random` for a few holdings only: ``(n,)``, equal bit for bit to
    ``equity_against_random(board, runouts)[holding_indices(holdings)]``.

    A decision needs one holding's number, not the table of all 1,326: on each run-out the
    holding is compared with the others by counting (:func:`_one_holding_counts`: by pairs
    of ranks where no flush is possible) instead of ranking every holding. The per-run-out
    shares are the table's integers in the same division, and they are summed in run-out
    order, as the table sums them.

    >>> from holdem_env.engine.cards import parse_cards
    >>> h = np.array([parse_cards("AsKs"), parse_cards("2c7d")])
    >>> bool(np.array_equal(holdings_equity_against_random("Kd Qc 7h 3s", h),
    ...                     equity_against_random("Kd Qc 7h 3s")[holding_indices(h)]))
    True
    """
    b = _equity_board(board)
    hold = check_holdings(holdings)
    full = np.asarray(b, dtype=np.int64)[None, :] if len(b) == 5 else _full_boards(b, _tails(b, runouts))
    out = np.full(len(hold), np.nan)
    for i, (c1, c2) in enumerate(hold.tolist()):
        if c1 in b or c2 in b:
            continue
        used = ~((full == c1) | (full == c2)).any(axis=1)  # run-outs that leave the holding's cards alone
        if not used.any():
            continue
        wins, ties, valid = _one_holding_counts(full[used], c1, c2)
        shares = (wins + 0.5 * ties) / valid
        if len(b) == 5:
            out[i] = shares[0]
            continue
        every = np.zeros(len(full))
        every[used] = shares
        out[i] = np.cumsum(every)[-1] / used.sum()  # run-out order, as the table's column sum
    return out

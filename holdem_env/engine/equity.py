"""Hand equity: vectorised Monte Carlo and exact enumeration, built on ``evaluate_batch``.

Equity is a player's expected share of the pot at showdown when the remaining cards are
dealt at random: wins count 1, an ``k``-way tie counts ``1/k``.

- :func:`equity` — a hand against ``opponents`` unknown hands (uniformly random, or drawn
  from given ranges), with a partial board; Monte Carlo, seeded.
- :func:`equity_vs_hands` — every player's equity when all hole cards are known; Monte Carlo.
- :func:`exact_equity` — the same by enumerating every run-out (small cases only).

Cards are ids (``rank * 4 + suit``) or strings (``"As"``); a range is a collection of
starting-hand classes (``"AKs"``, ``"QQ"``, ``"T9o"``), ``+`` ranges (``"TT+"``, ``"ATs+"``)
or explicit two-card hands, every combination equally likely. Only numpy and the standard library are used.

>>> import numpy as np
>>> round(equity("AsAh", opponents=1, samples=20000, rng=np.random.default_rng(1)), 2)
0.85
>>> exact_equity(["AsKs", "2c2d"], board="Qs Js 3h 4d").round(3).tolist()
[0.409, 0.591]
>>> equity("AsAs")
Traceback (most recent call last):
...
holdem_env.engine.errors.CardError: duplicate card As among the hole cards, board and dead cards
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np

from holdem_env.engine.cards import RANKS, card_str, parse_cards
from holdem_env.engine.errors import CardError, ConfigError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.state import _check_seed
from holdem_env.engine.validate import check_int

__all__ = ["equity", "equity_vs_hands", "exact_equity", "range_combos", "MAX_EXACT_RUNOUTS"]

CardsLike = str | Iterable[str | int]
RangeLike = str | Iterable[str | Sequence[str | int]]

#: Largest number of board run-outs :func:`exact_equity` enumerates (all 5 cards from 48 = 1,712,304).
MAX_EXACT_RUNOUTS = 2_000_000


def _cards(value: CardsLike, what: str) -> tuple[int, ...]:
    try:
        return parse_cards(value) if value is not None else ()
    except CardError as exc:
        raise CardError(f"{what}: {exc}") from None


def _check_distinct(cards: Sequence[int]) -> None:
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"duplicate card {card_str(c)} among the hole cards, board and dead cards")
        seen.add(c)


def _check_board(board: tuple[int, ...]) -> None:
    if len(board) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")


def _generator(rng: np.random.Generator | None, seed: int | None) -> np.random.Generator:
    if rng is not None:
        if not isinstance(rng, np.random.Generator):
            raise ConfigError("rng", rng, "must be a numpy.random.Generator")
        return rng
    _check_seed(seed)
    return np.random.default_rng(seed)


def _check_samples(samples: int) -> None:
    check_int("samples", samples, 1, allowed="must be a positive integer")


def range_combos(hand_range: RangeLike) -> np.ndarray:
    """The two-card combinations of a range as an ``(M, 2)`` int array (duplicates removed).

    Entries: classes (``"AKs"``, ``"QQ"``, ``"T9o"``), ``+`` ranges (``"TT+"`` = TT..AA,
    ``"ATs+"`` = ATs..AKs) or explicit hands (``"AsKd"``, ``("As", "Kd")``).

    >>> range_combos(["AKs"]).shape, range_combos("QQ, AKo").shape, range_combos("QQ+, ATs+").shape
    ((4, 2), (18, 2), (34, 2))
    """
    items: list = [t.strip() for t in hand_range.split(",")] if isinstance(hand_range, str) else list(hand_range)
    combos: set[tuple[int, int]] = set()
    for item in items:
        if isinstance(item, str) and item.endswith("+") and _is_class(item[:-1]):
            for cls in _plus_classes(item[:-1]):
                combos.update(_class_combos(cls))
            continue
        if isinstance(item, str) and _is_class(item):
            combos.update(_class_combos(item))
            continue
        cards = _cards(item, f"range entry {item!r}")
        if len(cards) != 2 or cards[0] == cards[1]:
            raise CardError(f"range entry {item!r} is not a class like 'AKs' or two distinct cards")
        combos.add((min(cards), max(cards)))
    if not combos:
        raise CardError("a range must hold at least one hand")
    return np.array(sorted(combos), dtype=np.int64)


def _is_class(item: str) -> bool:
    return len(item) in (2, 3) and item[0] in RANKS and item[1] in RANKS and (len(item) == 2 or item[2] in "so")


def _plus_classes(cls: str) -> list[str]:
    """``"TT+"`` -> TT..AA; ``"ATs+"`` -> AT..AK suited (the kicker climbs to one below the top card)."""
    hi, lo = RANKS.index(cls[0]), RANKS.index(cls[1])
    if len(cls) == 2:
        return [RANKS[r] * 2 for r in range(hi, 13)]
    if lo >= hi:
        raise CardError(f"{cls + '+'!r} is not a range: write the higher card first, e.g. 'ATs+'")
    return [cls[0] + RANKS[k] + cls[2] for k in range(lo, hi)]


def _class_combos(cls: str) -> list[tuple[int, int]]:
    hi, lo = RANKS.index(cls[0]), RANKS.index(cls[1])
    if len(cls) == 2:
        if hi != lo:
            raise CardError(f"{cls!r} is not a starting-hand class: two equal ranks make a pair, e.g. 'QQ'")
        return [(hi * 4 + a, hi * 4 + b) for a, b in itertools.combinations(range(4), 2)]
    if hi == lo:
        raise CardError(f"{cls!r} is not a starting-hand class: a pair takes no 's'/'o'")
    if cls[2] == "s":
        return [tuple(sorted((hi * 4 + s, lo * 4 + s))) for s in range(4)]  # type: ignore[misc]
    return [tuple(sorted((hi * 4 + a, lo * 4 + b))) for a in range(4) for b in range(4) if a != b]  # type: ignore[misc]


def _showdown_shares(values: np.ndarray) -> np.ndarray:
    """``values`` (S, P) hand values -> (P,) summed pot shares (ties split)."""
    best = values.max(axis=1, keepdims=True)
    winners = values == best
    share = winners / winners.sum(axis=1, keepdims=True)
    return share.sum(axis=0)


def _hero_share(values: np.ndarray) -> float:
    """``values`` (S, P) with the hero in column 0 -> the hero's summed pot share (ties split)."""
    hero = values[:, 0]
    best = values[:, 1:].max(axis=1)
    wins = int(np.count_nonzero(hero > best))
    tied = hero == best
    if not tied.any():
        return float(wins)
    rows = values[tied]
    n_best = (rows == rows[:, :1]).sum(axis=1)  # the hero and every opponent tied with it
    return wins + float((1.0 / n_best).sum())


def _values(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """``holes`` (S, P, 2), ``boards`` (S, 5) -> (S, P) hand values via one evaluate_batch call."""
    s, p, _ = holes.shape
    seven = np.empty((s, p, 7), dtype=np.int64)
    seven[:, :, :2] = holes
    seven[:, :, 2:] = boards[:, None, :]
    # Rows are built here from distinct cards: skip the batch validation.
    return np.asarray(evaluate_batch(seven.reshape(s * p, 7), validate=False)).reshape(s, p)


def equity(
    hole: CardsLike,
    board: CardsLike = (),
    *,
    opponents: int = 1,
    ranges: Sequence[RangeLike | None] | None = None,
    dead: CardsLike = (),
    samples: int = 10_000,
    rng: np.random.Generator | None = None,
    seed: int | None = None,
) -> float:
    """Monte Carlo equity of ``hole`` against ``opponents`` unknown hands.

    ``ranges`` (one entry per opponent, ``None`` = any two cards) restricts what each
    opponent holds; combinations that clash with known cards or with each other are
    never drawn. ``dead`` cards are out of the deck. Standard error is at most
    ``0.5 / sqrt(samples)``. Randomness comes from ``rng`` (or ``seed``).
    """
    hero = _cards(hole, "hole cards")
    if len(hero) != 2:
        raise CardError(f"hole cards must be exactly 2 cards, got {len(hero)}")
    board_ids = _cards(board, "board")
    _check_board(board_ids)
    dead_ids = _cards(dead, "dead cards")
    known = hero + board_ids + dead_ids
    _check_distinct(known)
    opponents = check_int("opponents", opponents, 1, 9)
    if isinstance(ranges, str):
        raise ConfigError("ranges", ranges, f"must be a list of one range (or None) per opponent, e.g. [{ranges!r}]")
    if ranges is not None and len(ranges) != opponents:
        raise ConfigError("ranges", f"{len(ranges)} ranges", f"must give one range (or None) per opponent ({opponents})")
    _check_samples(samples)
    gen = _generator(rng, seed)
    missing = 5 - len(board_ids)
    if 52 - len(known) < 2 * opponents + missing:
        raise CardError("not enough cards left in the deck for that many opponents")

    known_arr = np.array(known, dtype=np.int64)
    ranged: list[tuple[int, np.ndarray]] = []
    for i, r in enumerate(ranges or [None] * opponents):
        if r is None:
            continue
        combos = range_combos(r)
        ok = ~np.isin(combos, known_arr).any(axis=1)
        if not ok.any():
            raise CardError(f"range of opponent {i} has no hand left after removing the known cards")
        ranged.append((i, combos[ok]))

    holes = np.empty((samples, opponents + 1, 2), dtype=np.int64)
    holes[:, 0] = hero
    if ranged:
        used = np.zeros((samples, 52), dtype=bool)
        used[:, known_arr] = True
        _draw_ranged(gen, holes, used, ranged)
    random_seats = [i for i in range(opponents) if i not in {j for j, _ in ranged}]
    k = 2 * len(random_seats) + missing
    boards = np.empty((samples, 5), dtype=np.int64)
    boards[:, : len(board_ids)] = board_ids
    if k:
        if ranged:
            keys = gen.random((samples, 52))
            keys[used] = 2.0
            picks = np.argpartition(keys, k - 1, axis=1)[:, :k]
        else:
            picks = _draw_distinct(gen, np.setdiff1d(np.arange(52), known_arr), samples, k)
        for n, i in enumerate(random_seats):
            holes[:, i + 1] = picks[:, 2 * n : 2 * n + 2]
        boards[:, len(board_ids) :] = picks[:, 2 * len(random_seats) : k]
    return _hero_share(_values(holes, boards)) / samples


def _draw_distinct(gen: np.random.Generator, rest: np.ndarray, samples: int, k: int) -> np.ndarray:
    """``(samples, k)`` cards from ``rest``, distinct within each row, uniformly (ordered).

    Independent uniform draws with the rows that repeat a card drawn again (rejection
    sampling keeps the result uniform); when repeats would be too frequent, a random-key
    partition is used instead.
    """
    r = len(rest)
    accept = math.prod((r - i) / r for i in range(k))
    if accept < 0.2:
        keys = gen.random((samples, r))
        return rest[np.argpartition(keys, k - 1, axis=1)[:, :k]]
    idx = gen.integers(0, r, size=(samples, k))
    if k == 1:
        return rest[idx]
    one = np.uint64(1)
    todo = np.arange(samples)
    block = idx
    while todo.size:
        # Distinct indices <=> the OR of their bits has k bits set (r <= 52 < 64).
        shifted = np.left_shift(one, block.astype(np.uint64))
        bits = shifted[:, 0].copy()
        for j in range(1, k):
            bits |= shifted[:, j]
        todo = todo[np.bitwise_count(bits) != k]
        block = gen.integers(0, r, size=(todo.size, k))
        idx[todo] = block
    return rest[idx]


def _draw_ranged(
    gen: np.random.Generator, holes: np.ndarray, used: np.ndarray, ranged: list[tuple[int, np.ndarray]]
) -> None:
    """Fill ``holes[:, i + 1]`` from each opponent's range, redrawing rows where ranges clash."""
    samples = holes.shape[0]
    todo = np.arange(samples)
    for _ in range(1000):
        if todo.size == 0:
            return
        n = todo.size
        block = np.zeros((n, 52), dtype=bool)
        clash = np.zeros(n, dtype=bool)
        drawn = []
        for i, combos in ranged:
            pick = combos[gen.integers(0, len(combos), size=n)]
            rows = np.arange(n)
            clash |= block[rows, pick[:, 0]] | block[rows, pick[:, 1]]
            block[rows, pick[:, 0]] = True
            block[rows, pick[:, 1]] = True
            drawn.append((i, pick))
        ok = ~clash
        rows_ok = todo[ok]
        for i, pick in drawn:
            holes[rows_ok, i + 1] = pick[ok]
        used[rows_ok] |= block[ok]
        todo = todo[clash]
    raise CardError("the opponents' ranges almost never fit together without sharing a card")


def _known_hands(hands: Sequence[CardsLike], board: CardsLike) -> tuple[np.ndarray, tuple[int, ...]]:
    if isinstance(hands, str) or len(hands) < 2 or len(hands) > 10:
        raise ConfigError("hands", hands, "must be a list of 2..10 two-card hands")
    ids = [_cards(h, f"hand {i}") for i, h in enumerate(hands)]
    for i, h in enumerate(ids):
        if len(h) != 2:
            raise CardError(f"hand {i} must be exactly 2 cards, got {len(h)}")
    board_ids = _cards(board, "board")
    _check_board(board_ids)
    _check_distinct([c for h in ids for c in h] + list(board_ids))
    return np.array(ids, dtype=np.int64), board_ids


def equity_vs_hands(
    hands: Sequence[CardsLike],
    board: CardsLike = (),
    *,
    samples: int = 10_000,
    rng: np.random.Generator | None = None,
    seed: int | None = None,
) -> np.ndarray:
    """Monte Carlo equity of every hand in ``hands`` (all hole cards known) on ``board``."""
    hole_arr, board_ids = _known_hands(hands, board)
    _check_samples(samples)
    gen = _generator(rng, seed)
    missing = 5 - len(board_ids)
    boards = np.empty((samples, 5), dtype=np.int64)
    boards[:, : len(board_ids)] = board_ids
    if missing:
        rest = np.setdiff1d(np.arange(52), np.concatenate([hole_arr.ravel(), np.array(board_ids, dtype=np.int64)]))
        boards[:, len(board_ids) :] = _draw_distinct(gen, rest, samples, missing)
    holes = np.broadcast_to(hole_arr, (samples,) + hole_arr.shape)
    return _showdown_shares(_values(np.ascontiguousarray(holes), boards)) / samples


def exact_equity(hands: Sequence[CardsLike], board: CardsLike = ()) -> np.ndarray:
    """Every hand's exact equity, enumerating all run-outs of the board (at most
    :data:`MAX_EXACT_RUNOUTS`; a preflop heads-up spot is 1,712,304 run-outs)."""
    hole_arr, board_ids = _known_hands(hands, board)
    missing = 5 - len(board_ids)
    rest = np.setdiff1d(np.arange(52), np.concatenate([hole_arr.ravel(), np.array(board_ids, dtype=np.int64)]))
    count = math.comb(len(rest), missing)
    if count > MAX_EXACT_RUNOUTS:
        raise ConfigError("board", board, f"leaves {count} run-outs; exact enumeration allows at most {MAX_EXACT_RUNOUTS}")
    totals = np.zeros(len(hole_arr))
    runouts = np.array(list(itertools.combinations(rest.tolist(), missing)), dtype=np.int64).reshape(count, missing)
    chunk = 200_000
    for start in range(0, count, chunk):
        part = runouts[start : start + chunk]
        boards = np.empty((len(part), 5), dtype=np.int64)
        boards[:, : len(board_ids)] = board_ids
        boards[:, len(board_ids) :] = part
        holes = np.ascontiguousarray(np.broadcast_to(hole_arr, (len(part),) + hole_arr.shape))
        totals += _showdown_shares(_values(holes, boards))
    return totals / count

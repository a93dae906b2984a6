"""The fast range tables give the same bits as the straightforward code they replaced.

``agents.features.equity_table`` (the ppo policy's equity feature for all 1,326 holdings)
and ``engine.ranges.equity_against_random`` (tag's heads-up table) were rewritten for speed;
the shipped ``ppo_hu.pt`` was trained on the first and tag's play is pinned on the second,
so the new code must not change a single output bit. The previous implementations are kept
here, verbatim in method, as references, and compared on random boards of every size and on
boards built to have flushes, straight flushes and paired boards.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents import features
from holdem_env.engine import evaluator as _ev
from holdem_env.engine import ranges
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.ranges import (
    HOLDINGS,
    NUM_HOLDINGS,
    blocked_by,
    card_incidence,
    equity_against_each,
    equity_against_random,
    flop_runouts,
    strength_against_random,
    values_on_boards,
)


def _reference_key_values(cards: np.ndarray) -> np.ndarray:
    key = np.take(_ev._CARD_KEYS, cards).sum(axis=-1)
    values = np.take(_ev._dense_table(7), key & _ev._RANK_MASK, mode="clip").astype(np.int32)
    flush = ((key + _ev._FLUSH_ADD) & _ev._FLUSH_TEST) != 0
    if flush.any():
        values[flush] = evaluate_batch(cards[flush].astype(np.uint8), validate=False)
    return values


def _reference_equity_table(board: tuple[int, ...]) -> np.ndarray:
    """The equity table as first written: every (holding, permutation) dealt and valued."""
    m = len(board)
    n = features.EQUITY_SAMPLES
    need = 2 + (5 - m)
    ids = np.flatnonzero(~blocked_by(board))
    hold = HOLDINGS[ids]
    on_board = np.zeros(52, dtype=bool)
    on_board[list(board)] = True
    off = ~on_board[features._PERMS]
    first = np.cumsum(off, axis=1) <= need + 2
    window = features._PERMS[off & first].reshape(n, need + 2)
    take = (window[None, :, :] != hold[:, None, None, 0]) & (window[None, :, :] != hold[:, None, None, 1])
    take &= np.cumsum(take, axis=2) <= need
    drawn = np.broadcast_to(window[None], take.shape)[take].reshape(len(ids), n, need)
    board_arr = np.broadcast_to(np.asarray(board, dtype=np.int64), (len(ids), n, m))
    runout = np.concatenate([board_arr, drawn[:, :, 2:]], axis=2)
    mine = _reference_key_values(np.concatenate([np.broadcast_to(hold[:, None, :], (len(ids), n, 2)), runout], axis=2))
    theirs = _reference_key_values(np.concatenate([drawn[:, :, :2], runout], axis=2))
    share = np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))
    out = np.full(NUM_HOLDINGS, np.nan, dtype=np.float32)
    out[ids] = share.mean(axis=1).astype(np.float32)
    return out


def _reference_values_on_boards(boards: np.ndarray) -> np.ndarray:
    """``values_on_boards`` as first written: every holding's full key looked up in the dense table."""
    n = len(boards)
    key = _ev._CARD_KEYS[boards].sum(axis=1)[:, None] + ranges._HOLDING_KEYS[None, :]
    values = np.take(_ev._dense_table(7), key & _ev._RANK_MASK, mode="clip").astype(np.int64)
    flush = (key + _ev._FLUSH_ADD) & _ev._FLUSH_TEST
    rows, cols = np.nonzero(flush)
    if rows.size:
        bits = flush[rows, cols] >> (_ev._SUIT_SHIFT + 3)
        suit = (bits > 0x1).astype(np.intp) + (bits > 0x10) + (bits > 0x100)
        board_bits = np.zeros((n, 4), dtype=np.int64)
        for k in range(boards.shape[1]):
            np.bitwise_or.at(board_bits, (np.arange(n), boards[:, k] & 3), 1 << (boards[:, k] >> 2))
        values[rows, cols] = _ev._FLUSH_TABLE[board_bits[rows, suit] | ranges._HOLDING_SUIT_BITS[cols, suit]]
    return values


def _boards() -> list[tuple[int, ...]]:
    rng = np.random.default_rng(20261201)
    out = [tuple(sorted(int(c) for c in rng.permutation(52)[:m])) for m in (0, 3, 4, 5) for _ in range(3)]
    for text in ("Ah Kh Qh", "2h 7h Th Js", "Ah Kh Qh Jh 2c", "3d 4d 5d 6d 7d", "2c 2d 2h 3s", "9s 9h 9c 9d Ks"):
        out.append(tuple(sorted(parse_cards(text))))
    return out


@pytest.mark.parametrize("board", _boards(), ids=lambda b: f"{len(b)}cards-{'-'.join(map(str, b))}")
def test_equity_table_is_bit_identical_to_the_reference(board: tuple[int, ...]) -> None:
    fast = features._equity_table(board)
    ref = _reference_equity_table(board)
    assert fast.dtype == ref.dtype == np.float32
    assert np.array_equal(fast, ref, equal_nan=True)
    assert np.isnan(fast).sum() == blocked_by(board).sum()


def test_values_on_boards_equal_the_evaluator_hand_by_hand() -> None:
    rng = np.random.default_rng(3)
    boards = np.array([rng.permutation(52)[:5] for _ in range(6)], dtype=np.int64)
    boards[0] = parse_cards("Ah Kh Qh 3h 2c")  # four to a flush: many flush holdings
    boards[1] = parse_cards("5s 6s 7s 8s 9s")  # a straight flush on board
    values = values_on_boards(boards)
    ok_all = ~np.array([blocked_by(b.tolist()) for b in boards])
    assert np.array_equal(values[ok_all], _reference_values_on_boards(boards)[ok_all])
    for row, board in zip(values, boards, strict=True):
        ok = np.flatnonzero(~blocked_by(board.tolist()))
        cards = np.concatenate([HOLDINGS[ok], np.broadcast_to(board, (len(ok), 5))], axis=1).astype(np.uint8)
        assert np.array_equal(row[ok], evaluate_batch(cards, validate=False))


def _reference_equity_against_each(hole: tuple[int, ...], board: tuple[int, ...]) -> np.ndarray:
    """LBR's exact equity against each holding as first written: every (run-out, holding) row evaluated."""
    known = hole + board
    rest = [c for c in range(52) if c not in known]
    opp = np.flatnonzero(~blocked_by(known))
    k = 5 - len(board)
    combos = list(itertools.combinations(rest, k))
    runouts = np.array(combos, dtype=np.int64).reshape(len(combos), k)
    full = np.concatenate([np.broadcast_to(np.asarray(board, dtype=np.int64), (len(runouts), len(board))), runouts], 1)
    hero = evaluate_batch(np.concatenate([np.broadcast_to(hole, (len(full), 2)), full], 1), validate=False)
    onehot = np.zeros((len(full), 52), dtype=np.float32)
    np.put_along_axis(onehot, runouts, 1.0, axis=1)
    valid = (onehot @ card_incidence()[:, opp]) == 0
    cards = np.empty((len(full), len(opp), 7), dtype=np.uint8)
    cards[:, :, :2] = HOLDINGS[opp][None, :, :]
    cards[~valid, :2] = hole
    cards[:, :, 2:] = full[:, None, :]
    villain = evaluate_batch(cards.reshape(-1, 7), validate=False).reshape(len(full), len(opp))
    share = (hero[:, None] > villain) + 0.5 * (hero[:, None] == villain)
    out = np.full(NUM_HOLDINGS, np.nan)
    out[opp] = (share * valid).sum(axis=0) / valid.sum(axis=0)
    return out


@pytest.mark.parametrize(
    "text", ["As Ah Kd Qc 7h", "2c 7d 9h Th Jh 3h", "Qh Jh Kh Th 2d 9c 4h", "5c 5d 5h 5s 6c 6d 6h"]
)
def test_equity_against_each_is_bit_identical_to_the_reference(text: str) -> None:
    cards = parse_cards(text)
    hole, board = tuple(cards[:2]), tuple(cards[2:])
    assert np.array_equal(equity_against_each(hole, board), _reference_equity_against_each(hole, board), equal_nan=True)


@pytest.mark.parametrize("text", ["Kd Qc 7h", "Ah Kh Qh", "2c 2d 2h 9s", "5h 6h 7h 8h"])
def test_tag_heads_up_table_is_bit_identical_to_board_by_board_strengths(text: str) -> None:
    """tag's table (``equity_against_random``, vectorised over run-outs with ``values_on_boards``)
    against the straightforward mean of ``strength_against_random`` (``evaluate_batch``) board by board."""
    board = parse_cards(text)
    rng = np.random.default_rng(len(board))
    tails = flop_runouts(board)[np.sort(rng.choice(1176, 64, replace=False))] if len(board) == 3 else None
    if tails is None:
        tails = np.array([[c] for c in range(52) if c not in board], dtype=np.int64)
    strengths = np.array([strength_against_random(list(board) + [int(c) for c in t]) for t in tails])
    used = ~np.isnan(strengths)
    counts = used.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ref = np.where(counts > 0, np.where(used, strengths, 0.0).sum(axis=0) / np.maximum(counts, 1), np.nan)
    ref[blocked_by(board)] = np.nan
    fast = equity_against_random(board, tails if len(board) == 3 else None)
    assert np.array_equal(fast, ref, equal_nan=True)


@pytest.mark.parametrize(
    "text,runouts", [("Kd Qc 7h", 64), ("Ah Kh Qh", 3), ("2c 2d 2h", 1176), ("2c 2d 2h 9s", 0), ("5h 6h 7h 8h 9h", 0)]
)
def test_few_holdings_equity_is_the_tables_row_bit_for_bit(text: str, runouts: int) -> None:
    """tag decides with ``holdings_equity_against_random`` (one holding, no table); range queries
    read the table. Both must give the same bits for every holding, including the holdings whose
    cards meet every sampled run-out (NaN in both) and those that share a card with the board."""
    board = parse_cards(text)
    tails = None
    if len(board) == 3:
        rng = np.random.default_rng(runouts)
        tails = flop_runouts(board)[np.sort(rng.choice(1176, runouts, replace=False))]
    table = equity_against_random(board, tails)
    few = ranges.holdings_equity_against_random(board, HOLDINGS, tails)
    assert np.array_equal(few, table, equal_nan=True)
    assert np.isnan(few).sum() >= blocked_by(board).sum()
    with pytest.raises(ranges.CardError, match="3, 4 or 5 different cards"):
        ranges.holdings_equity_against_random("Kd Kd 7h", HOLDINGS[:1])


@settings(max_examples=60, deadline=None)
@given(
    cards=st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True),
    suited=st.booleans(),
    runouts=st.integers(1, 40),
)
def test_few_holdings_equity_counts_by_rank_pairs_exactly(cards: list[int], suited: bool, runouts: int) -> None:
    """The one-holding path counts the opponents by pairs of ranks and corrects for flushes;
    whatever the board (suited boards drawn often: flushes of 3, 4 and 5 board cards), the
    numbers are the table's row bit for bit."""
    if suited:  # move the board's cards to one suit where the card is free
        moved = []
        for c in cards:
            c2 = (c & ~3) | 2
            moved.append(c2 if c2 not in cards and c2 not in moved else c)
        cards = moved if len(set(moved)) == len(moved) else cards
    hole, board = np.array([cards[:2]]), cards[2:]
    tails = None
    if len(board) == 3:
        rng = np.random.default_rng(runouts)
        tails = flop_runouts(board)[np.sort(rng.choice(1176, runouts, replace=False))]
    want = equity_against_random(board, tails)[ranges.holding_indices(hole)]
    got = ranges.holdings_equity_against_random(board, hole, tails)
    assert np.array_equal(got, want, equal_nan=True)


def test_tag_decides_without_building_tables_and_plays_as_with_them() -> None:
    """The same seeded match, once as is (each decision values its own holding only) and once with
    every decision's equity read from the every-holding table that range queries build: the same
    results and play statistics, and no table built in the first."""
    from holdem_env.agents import tag as tag_module
    from holdem_env.training.arena import ArenaConfig, run_match

    built: list[int] = []
    real_some = tag_module.TagAgent._some_equities
    real_rows = tag_module.TagAgent._row_equities

    def counting(self: tag_module.TagAgent, row: Any, hold: np.ndarray, board: tuple[int, ...]) -> np.ndarray:
        built.append(len(hold))
        return real_some(self, row, hold, board)

    def via_table(self: tag_module.TagAgent, views: Any, rows: np.ndarray, out: np.ndarray) -> None:
        if views.rows != 1:
            real_rows(self, views, rows, out)
            return
        table = np.full(ranges.NUM_HOLDINGS, np.nan)
        every = tag_module.repeat_row(views, ranges.HOLDINGS)
        open_ = np.flatnonzero(~ranges.blocked_by(views.board[0, : views.board_len[0]].tolist()))
        real_rows(self, every, open_, table)
        out[rows] = table[ranges.holding_index(int(views.hole[0, 0]), int(views.hole[0, 1]))]

    config = ArenaConfig(agents=("tag", "tag(tightness=0.6, aggression=1.5)"), hands=120, seed=5)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tag_module.TagAgent, "_some_equities", counting)
        fast = run_match(config)
        assert built == []
        mp.setattr(tag_module.TagAgent, "_row_equities", via_table)
        slow = run_match(config)
    assert fast.rows == slow.rows

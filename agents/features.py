"""Engineered features of a seat's observation, for any learner: hand strength, pot odds, SPR, position.

Everything here is computed from the flat ``nlhe_v1`` observation vector alone (the seat's
own hole cards, the board, the money and the seat blocks; see :mod:`holdem_env.env._obs`),
so a learner that uses these features still sees only what its own seat receives. Rows of
a batch are independent: the same observation gives the same features in any batch.

=====  ====================  =================================================================
index  name                  meaning
=====  ====================  =================================================================
0      ``equity``            Monte Carlo share of the pot at showdown against the live
                             opponents holding uniformly random hands (the evaluator of
                             :mod:`holdem_env.engine.evaluator`; ties split)
1      ``pot_odds``          amount to call / (pot + amount to call); 0 when nothing to call
2      ``spr``               own stack / pot, capped at :data:`SPR_CAP` and divided by it
3      ``position``          acting order after the flop among all seats: 0 = first to act,
                             1 = the button (last)
4      ``live_opponents``    opponents dealt in and not folded / (seats - 1)
5      ``to_call_stack``     amount to call / own stack, capped at 1 (share of the stack at risk)
=====  ====================  =================================================================

The Monte Carlo draws are *common random numbers*: sample ``k`` deals the unseen cards in the
order of a fixed random permutation of the deck (seeded once, :data:`EQUITY_SAMPLES` rows), so the equity is a
deterministic function of the cards -- no generator to inject, identical on every machine,
and the same cards always give the same value. Its standard error is about
``0.5 / sqrt(EQUITY_SAMPLES)`` (0.03).

:func:`observation_scale` rescales the raw observation for a network (money in units of a
starting stack, action counts in units of four), and :func:`encode_batch` returns the
network input: the scaled observation followed by the features.

>>> import numpy as np
>>> from holdem_env import nlhe_v1
>>> env = nlhe_v1.raw_env(num_players=2)
>>> from holdem_env.engine.cards import card_str
>>> first = ["2c", "As", "7d", "Ah"]  # one card at a time from the big blind: the button (seat 0) gets AsAh
>>> deck = first + [card_str(c) for c in range(52) if card_str(c) not in first]
>>> env.reset(seed=3, options={"deck": deck, "button": 0})
>>> obs = env.observe(env.agent_selection)["observation"]
>>> f = features_batch(obs[None, :])
>>> round(float(f[0, FEATURE_NAMES.index("equity")]), 1), round(float(f[0, FEATURE_NAMES.index("pot_odds")]), 3)
(0.8, 0.25)
>>> features_batch(np.zeros((1, 7), dtype=np.float32))
Traceback (most recent call last):
...
holdem_env.engine.errors.HoldemError: an observation row has 7 entries: expected 114 + 22 * seats (seats 2..10)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from holdem_env.engine.errors import HoldemError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, blocked_by, values_on_boards
from holdem_env.env import _obs

from . import _features

__all__ = [
    "FEATURE_NAMES",
    "NUM_FEATURES",
    "EQUITY_SAMPLES",
    "SPR_CAP",
    "seats_of",
    "live_opponents",
    "equity_batch",
    "equity_table",
    "features_batch",
    "observation_scale",
    "encode_batch",
    "features_row",
    "encode_row",
]

FEATURE_NAMES: tuple[str, ...] = ("equity", "pot_odds", "spr", "position", "live_opponents", "to_call_stack")
NUM_FEATURES = len(FEATURE_NAMES)
#: Monte Carlo samples per equity estimate.
EQUITY_SAMPLES = 256
#: Stack-to-pot ratios above this are all alike to the feature.
SPR_CAP = 20.0

_PER_SEAT = len(_obs.SEAT_FEATURES) + _obs.STREETS * len(_obs.HISTORY_FEATURES)
# The common random numbers: one fixed permutation of the deck per sample (a constant, not a generator).
_PERMS = np.argsort(np.random.default_rng(20261201).random((EQUITY_SAMPLES, 52)), axis=1).astype(np.intp)
_PREFLOP_CACHE: dict[tuple[int, int, int], float] = {}
# Postflop equities by (hole cards, board, opponents): a decision's street is usually seen
# again in the same hand. Bounded; emptied when full (the values are pure functions of the key).
_POSTFLOP_CACHE: dict[tuple[int, int, bytes, int], float] = {}
_POSTFLOP_CACHE_SIZE = 100_000
_OFFSETS: dict[int, dict[str, tuple[int, int]]] = {}
#: Whether the equity runs compiled (:mod:`holdem_env.agents._features`, the same values bit for bit);
#: otherwise the numpy code below, which stays the reference. Tests switch it off to compare the two.
COMPILED_EQUITY = _features.COMPILED and EQUITY_SAMPLES == _features.SAMPLES
# The compiled path's preflop values by (low card * 52 + high card, opponents); NaN: not computed yet.
_PREFLOP_TABLE = np.full((52 * 52, 10), np.nan, dtype=np.float32)


def seats_of(obs_len: int) -> int:
    """The seat axis of an observation of ``obs_len`` entries (inverse of ``obs_size``).

    >>> seats_of(158), seats_of(246)
    (2, 6)
    """
    seats, rest = divmod(obs_len - _obs.OFF_SEATS, _PER_SEAT)
    if rest or not 2 <= seats <= 10:
        raise HoldemError(
            f"an observation row has {obs_len} entries: expected {_obs.OFF_SEATS} + {_PER_SEAT} * seats (seats 2..10)"
        )
    return seats


def _equity_group(holes: np.ndarray, boards: np.ndarray, opponents: int) -> np.ndarray:
    """Equity of each row of ``holes`` ``(R, 2)`` with ``boards`` ``(R, m)`` against ``opponents`` random hands."""
    r, m = boards.shape
    n = EQUITY_SAMPLES
    known = np.zeros((r, 52), dtype=bool)
    rows = np.arange(r)[:, None]
    known[rows, holes] = True
    known[rows, boards] = True
    need = 2 * opponents + (5 - m)
    # Sample k deals the first ``need`` unseen cards of permutation k: at most 7 cards are
    # known, so they lie within the first need + 7 entries.
    cols = _PERMS[:, : need + 7]
    take = ~known[:, cols]  # (r, n, need + 7)
    take &= np.cumsum(take, axis=2) <= need
    drawn = np.broadcast_to(cols, take.shape)[take].reshape(r, n, need)
    runout = np.concatenate([np.broadcast_to(boards[:, None, :], (r, n, m)), drawn[:, :, 2 * opponents :]], axis=2)
    mine_cards = np.concatenate([np.broadcast_to(holes[:, None, :], (r, n, 2)), runout], axis=2)
    mine = evaluate_batch(mine_cards.reshape(r * n, 7), validate=False)
    best = np.zeros(r * n, dtype=np.int32)
    ties = np.zeros(r * n, dtype=np.int32)
    for k in range(opponents):
        cards = np.concatenate([drawn[:, :, 2 * k : 2 * k + 2], runout], axis=2).reshape(r * n, 7)
        theirs = evaluate_batch(cards, validate=False)
        better = theirs > best
        ties = np.where(better, 0, ties) + (theirs == np.where(better, theirs, best))
        best = np.maximum(best, theirs)
    share = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (1 + ties), 0.0))
    return share.reshape(r, n).mean(axis=1).astype(np.float32)


def equity_batch(holes: np.ndarray, boards: list[np.ndarray], opponents: np.ndarray) -> np.ndarray:
    """Showdown equity per row (see the module docstring); float32 of shape ``(B,)``.

    ``holes``: ``(B, 2)`` card ids; ``boards``: ``B`` arrays of 0, 3, 4 or 5 card ids;
    ``opponents``: ``(B,)`` live opponents (a row with none gets equity 1). Rows are
    evaluated in groups of equal board size and opponent count (one evaluator call each);
    computed values are cached by cards and opponent count (preflop all of them, postflop
    the most recent ones), which changes no value: each is a pure function of its key.

    >>> import numpy as np
    >>> e = equity_batch(np.array([[51, 50], [0, 5]]), [np.array([], dtype=int)] * 2, np.array([1, 1]))
    >>> bool(e[0] > 0.8 > 0.35 > e[1])
    True
    """
    holes = np.sort(np.asarray(holes, dtype=np.intp).reshape(-1, 2), axis=1)
    opp = np.asarray(opponents, dtype=np.int64)
    if COMPILED_EQUITY and len(boards) == len(holes) == opp.size:
        lengths = np.array([b.size for b in boards], dtype=np.int64)
        board_rows = np.zeros((len(boards), 5), dtype=np.int64)
        if lengths.size and lengths.max(initial=0) <= 5:
            for i, board in enumerate(boards):
                board_rows[i, : board.size] = np.asarray(board).ravel()
            fast = _equity_compiled(holes, board_rows, lengths, opp)
            if fast is not None:
                return fast
    out = np.ones(len(holes), dtype=np.float32)
    groups: dict[tuple[int, int], list[int]] = {}
    keys: dict[int, tuple[int, int, bytes, int]] = {}
    for i, board in enumerate(boards):
        o = int(opp[i])
        if o <= 0:
            continue
        if board.size == 0:
            value = _PREFLOP_CACHE.get((int(holes[i, 0]), int(holes[i, 1]), o))
        else:
            key = keys[i] = (int(holes[i, 0]), int(holes[i, 1]), np.sort(np.asarray(board, dtype=np.int8)).tobytes(), o)
            value = _POSTFLOP_CACHE.get(key)
        if value is not None:
            out[i] = value
            continue
        groups.setdefault((board.size, o), []).append(i)
    for (m, o), idx in groups.items():
        board_rows = np.array([boards[i] for i in idx], dtype=np.intp).reshape(len(idx), m)
        values = _equity_group(holes[idx], board_rows, o)
        out[idx] = values
        for i, v in zip(idx, values, strict=True):
            if m == 0:
                _PREFLOP_CACHE[(int(holes[i, 0]), int(holes[i, 1]), o)] = float(v)
            else:
                if len(_POSTFLOP_CACHE) >= _POSTFLOP_CACHE_SIZE:
                    _POSTFLOP_CACHE.clear()
                _POSTFLOP_CACHE[keys[i]] = float(v)
    return out


def _equity_compiled(holes: np.ndarray, boards: np.ndarray, lengths: np.ndarray, opponents: np.ndarray) -> np.ndarray | None:
    """:func:`equity_batch` in one compiled call (rows: ``holes`` ``(R, 2)``, the first ``lengths[i]`` of
    ``boards[i]`` ``(R, 5)``, ``opponents`` ``(R,)``), or None for input it does not take (card ids
    outside 0..51, a board size other than 0/3/4/5, more than 9 opponents): the numpy path decides those.
    Only the first ``lengths[i]`` entries of ``boards[i]`` are read, but every entry must be a card id."""
    opp = np.ascontiguousarray(opponents, dtype=np.int64).reshape(-1)
    holes = np.ascontiguousarray(holes, dtype=np.int64)
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    r = opp.size
    if holes.shape != (r, 2) or boards.shape != (r, 5) or lengths.shape != (r,):
        return None
    if r and (
        opp.max() > 9
        or not np.isin(lengths, (0, 3, 4, 5)).all()
        or holes.min() < 0
        or holes.max() > 51
        or boards.min() < 0
        or boards.max() > 51
    ):
        return None
    out = np.empty(r, dtype=np.float32)
    _features.equity_rows(holes, boards, lengths, opp, _PERMS, _PREFLOP_TABLE, out)
    return out


def live_opponents(observations: np.ndarray) -> np.ndarray:
    """Opponents dealt in and not folded, per row of ``(B, obs_len)`` (int64 ``(B,)``)."""
    obs = np.asarray(observations, dtype=np.float32)
    seats = seats_of(obs.shape[1])
    off = _obs.obs_offsets(seats)
    dealt = obs[:, off["dealt_in"][0] : off["dealt_in"][1]]
    folded = obs[:, off["folded"][0] : off["folded"][1]]
    return np.clip((dealt[:, 1:] * (1.0 - folded[:, 1:])).sum(axis=1), 0, seats - 1).astype(np.int64)


_TABLES: dict[tuple[int, ...], np.ndarray] = {}
_TABLES_KEPT = 16


def equity_table(board: np.ndarray) -> np.ndarray:
    """The ``equity`` feature of every holding against one opponent on ``board`` (0, 3, 4 or
    5 card ids): float32 ``(1326,)`` indexed like :data:`holdem_env.engine.ranges.HOLDINGS`,
    NaN for holdings that share a card with the board. Entry ``i`` equals
    ``equity_batch(HOLDINGS[i:i+1], [board], [1])`` bit for bit (a test checks it).

    Built for range queries, which ask for every holding on one board: the deals of the
    common random numbers differ between holdings only where a permutation's deal meets the
    holding's own cards. For all other holdings (about 80%) the opponent's hand and the
    run-out are the same, so the opponent is valued once per permutation and the holdings on
    its five-card board at once (:func:`holdem_env.engine.ranges.values_on_boards`); only the
    rest get an evaluator row each. The last few boards' tables are kept.

    >>> import numpy as np
    >>> t = equity_table(np.array([], dtype=int))
    >>> e = equity_batch(HOLDINGS[[5, 1000]], [np.array([], dtype=int)] * 2, np.array([1, 1]))
    >>> bool(t[5] == e[0] and t[1000] == e[1])
    True
    """
    b = tuple(sorted(int(c) for c in np.asarray(board).ravel()))
    if len(b) not in (0, 3, 4, 5) or len(set(b)) != len(b) or any(not 0 <= c < 52 for c in b):
        raise HoldemError(f"a board is 0, 3, 4 or 5 different card ids in 0..51, got {list(b)}")
    table = _TABLES.get(b)
    if table is None:
        table = _equity_table(b)
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[b] = table
    return table


def _values(cards: np.ndarray) -> np.ndarray:
    """Evaluator values (int32) of 7-card rows ``(N, 7)`` of trusted card ids."""
    return evaluate_batch(cards.astype(np.uint8), validate=False)


def _equity_table(board: tuple[int, ...]) -> np.ndarray:
    m = len(board)
    n = EQUITY_SAMPLES
    need = 2 + (5 - m)
    ids = np.flatnonzero(~blocked_by(board))
    hold = HOLDINGS[ids]
    board_arr = np.asarray(board, dtype=np.int64)
    # Each permutation without the board's cards; a holding's deal is the first ``need`` of
    # those that are not its own cards: they lie within the first need + 2.
    on_board = np.zeros(52, dtype=bool)
    on_board[board_arr] = True
    off = ~on_board[_PERMS]
    first = np.cumsum(off, axis=1) <= need + 2
    window = _PERMS[off & first].reshape(n, need + 2)  # (n, need + 2)
    # A holding that meets none of the window's first ``need`` cards is dealt exactly those:
    # the opponent's hand and the run-out are then the same for every such holding, so the
    # opponent is valued once per permutation and the holding on one five-card board (the
    # board's key added once, :func:`holdem_env.engine.ranges.values_on_boards`).
    common = window[:, :need]
    full = np.concatenate([np.broadcast_to(board_arr, (n, m)), common[:, 2:]], axis=1)
    theirs = _values(np.concatenate([common[:, :2], full], axis=1))[:, None]  # (n, 1)
    mine = values_on_boards(full)[:, ids]  # (n, holdings)
    # Twice the pot share of each deal: 2 win, 1 tie, 0 loss (the mean of the shares is exact).
    doubled = 2 * (mine > theirs).view(np.int8) + (mine == theirs).view(np.int8)
    dealt = np.zeros((n, 52), dtype=bool)
    np.put_along_axis(dealt, common, True, axis=1)
    rows, cols = np.nonzero(dealt[:, hold[:, 0]] | dealt[:, hold[:, 1]])
    if rows.size:
        # The others are dealt the first ``need`` window cards that are not their own: one row
        # each, in one-byte card ids, laid out as the evaluator's seven columns.
        w = window.astype(np.uint8)[rows]
        h = hold.astype(np.uint8)[cols]
        take = (w != h[:, 0:1]) & (w != h[:, 1:2])
        take &= np.cumsum(take, axis=1, dtype=np.int8) <= need
        drawn = w[take].reshape(len(rows), need)
        cards = np.empty((len(rows), 7), dtype=np.uint8)
        cards[:, :m] = board_arr
        cards[:, m:5] = drawn[:, 2:]
        cards[:, 5:] = h
        mine_r = evaluate_batch(cards, validate=False)
        cards[:, 5:] = drawn[:, :2]
        theirs_r = evaluate_batch(cards, validate=False)
        doubled[rows, cols] = 2 * (mine_r > theirs_r).view(np.int8) + (mine_r == theirs_r).view(np.int8)
    out = np.full(NUM_HOLDINGS, np.nan, dtype=np.float32)
    out[ids] = (doubled.sum(axis=0, dtype=np.int64) / (2.0 * n)).astype(np.float32)
    return out


def features_batch(observations: np.ndarray, equity: np.ndarray | None = None) -> np.ndarray:
    """The features (:data:`FEATURE_NAMES`) of each row of ``(B, obs_len)``; float32 ``(B, NUM_FEATURES)``.

    A row whose seat has no hole cards (not dealt in, or a padded observation) gets equity 0.
    ``equity``: the rows' equity feature if the caller already has it (``(B,)``, e.g. from
    :func:`equity_table`); it is used as given.
    """
    obs = np.asarray(observations, dtype=np.float32)
    if obs.ndim != 2:
        raise HoldemError(f"observations must be a 2-D batch (rows, entries), got shape {obs.shape}")
    seats = seats_of(obs.shape[1])
    off = _offsets(seats)
    b = obs.shape[0]
    out = np.zeros((b, NUM_FEATURES), dtype=np.float32)
    if b == 0:
        return out
    sc = obs[:, off["scalars"][0] : off["scalars"][1]]
    pot, to_call, stack = sc[:, 0], sc[:, 1], sc[:, 4]
    live = live_opponents(obs)
    hole_hot = obs[:, off["hole"][0] : off["hole"][1]] > 0.5
    board_hot = obs[:, off["board"][0] : off["board"][1]] > 0.5
    has_hole = hole_hot.sum(axis=1) == 2
    idx = np.flatnonzero(has_hole)
    if equity is not None:
        given = np.asarray(equity, dtype=np.float32).reshape(-1)
        if given.shape != (b,):
            raise HoldemError(f"equity must give one value per observation row ({b}), got shape {given.shape}")
        out[:, 0] = given
    elif idx.size:
        holes = np.nonzero(hole_hot[idx])[1].reshape(-1, 2)  # each row's two cards, ascending
        rows_board = board_hot[idx]
        fast = None
        if COMPILED_EQUITY:
            lengths = rows_board.sum(axis=1)
            # each row's board cards first, ascending (a stable sort of "not on the board")
            board_cols = np.argsort(~rows_board, axis=1, kind="stable")[:, :5]
            fast = _equity_compiled(holes, board_cols, lengths, live[idx])
        if fast is not None:
            out[idx, 0] = fast
        else:
            cols = np.nonzero(rows_board)[1]
            ends = np.cumsum(rows_board.sum(axis=1)).tolist()
            boards = [cols[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]  # each row's board, ascending
            out[idx, 0] = equity_batch(holes, boards, live[idx])
    denom = pot + to_call
    out[:, 1] = np.where(to_call > 0, to_call / np.maximum(denom, 1e-9), 0.0)
    out[:, 2] = np.minimum(np.where(pot > 0, stack / np.maximum(pot, 1e-9), SPR_CAP), SPR_CAP) / SPR_CAP
    button = obs[:, off["button"][0] : off["button"][1]]
    rel_button = np.argmax(button, axis=1)
    distance = (seats - rel_button) % seats  # seats from the button to the observer, clockwise
    out[:, 3] = ((distance - 1) % seats) / (seats - 1)
    out[:, 4] = live / (seats - 1)
    at_risk = np.minimum(to_call / np.maximum(stack, 1e-9), 1.0)
    out[:, 5] = np.where(stack > 0, at_risk, np.where(to_call > 0, 1.0, 0.0))
    return out


def _offsets(seats: int) -> dict[str, tuple[int, int]]:
    off = _OFFSETS.get(seats)
    if off is None:
        off = _OFFSETS[seats] = _obs.obs_offsets(seats)
    return off


_F32_TINY = np.float32(1e-9)
_F32_SPR_CAP = np.float32(SPR_CAP)
_F32_ONE = np.float32(1.0)


def features_row(observation: np.ndarray) -> np.ndarray:
    """The features of one observation row ``(obs_len,)``: float32 ``(NUM_FEATURES,)``.

    Equal, bit for bit, to ``features_batch(observation[None, :])[0]`` (the same float32
    operations on scalars), without the batch machinery: the per-decision path of an agent
    that acts for one seat at a time.

    >>> features_row(np.zeros((2, 158), dtype=np.float32))
    Traceback (most recent call last):
    ...
    holdem_env.engine.errors.HoldemError: features_row takes one observation row, got shape (2, 158)
    """
    obs = np.asarray(observation, dtype=np.float32)
    if obs.ndim != 1:
        raise HoldemError(f"features_row takes one observation row, got shape {obs.shape}")
    seats = seats_of(obs.shape[0])
    off = _offsets(seats)
    out = np.zeros(NUM_FEATURES, dtype=np.float32)
    s0 = off["scalars"][0]
    pot, to_call, stack = obs[s0], obs[s0 + 1], obs[s0 + 4]
    d0, f0 = off["dealt_in"][0], off["folded"][0]
    dealt = obs[d0 + 1 : d0 + seats]
    folded = obs[f0 + 1 : f0 + seats]
    live = int(min(max(float((dealt * (_F32_ONE - folded)).sum()), 0.0), float(seats - 1)))
    hole = np.flatnonzero(obs[off["hole"][0] : off["hole"][1]] > 0.5)
    if hole.size == 2:
        board = np.flatnonzero(obs[off["board"][0] : off["board"][1]] > 0.5)
        out[0] = equity_batch(hole[None, :], [board], np.array([live]))[0]
    if to_call > 0:
        out[1] = to_call / np.maximum(pot + to_call, _F32_TINY)
    spr = stack / np.maximum(pot, _F32_TINY) if pot > 0 else _F32_SPR_CAP
    out[2] = np.minimum(spr, _F32_SPR_CAP) / _F32_SPR_CAP
    rel_button = int(np.argmax(obs[off["button"][0] : off["button"][1]]))
    distance = (seats - rel_button) % seats
    out[3] = ((distance - 1) % seats) / (seats - 1)
    out[4] = live / (seats - 1)
    if stack > 0:
        out[5] = np.minimum(to_call / np.maximum(stack, _F32_TINY), _F32_ONE)
    elif to_call > 0:
        out[5] = 1.0
    return out


def observation_scale(seats: int, stack_bb: float = 100.0) -> np.ndarray:
    """Per-entry multipliers that bring an observation to unit scale for a network.

    Money entries (the scalars, stacks, street bets and history amounts, all in big blinds)
    are divided by ``stack_bb`` (the starting stack in big blinds); history action counts by 4;
    one-hot and 0/1 entries are kept.

    >>> s = observation_scale(2, 100.0)
    >>> float(s[0]), round(float(s[_obs.OFF_SCALARS]), 6)
    (1.0, 0.01)
    """
    if not (isinstance(stack_bb, (int, float)) and stack_bb > 0):
        raise HoldemError(f"stack_bb must be a positive number of big blinds, got {stack_bb!r}")
    n = _obs.obs_size(seats)
    scale = np.ones(n, dtype=np.float32)
    off = _obs.obs_offsets(seats)
    for name in ("scalars", "stacks", "street_bets"):
        a, b = off[name]
        scale[a:b] = 1.0 / stack_bb
    hist = scale[off["history"][0] : off["history"][1]].reshape(_obs.STREETS, seats, len(_obs.HISTORY_FEATURES))
    hist[:, :, :3] = 0.25
    hist[:, :, 3] = 1.0 / stack_bb
    return scale


def encode_batch(
    observations: np.ndarray, scale: np.ndarray, with_features: bool = True, equity: np.ndarray | None = None
) -> np.ndarray:
    """The network input: ``observations * scale``, then (``with_features``) :func:`features_batch`
    (``equity``: passed on to it)."""
    return _encode(
        observations, scale, with_features, 2, lambda obs: features_batch(obs, equity),
        "observations of shape {shape} do not match the scale's {n} entries per row",
    )


def encode_row(observation: np.ndarray, scale: np.ndarray, with_features: bool = True) -> np.ndarray:
    """:func:`encode_batch` of one observation row ``(obs_len,)``; equal to ``encode_batch(row[None])[0]``."""
    return _encode(
        observation, scale, with_features, 1, features_row,
        "an observation of shape {shape} does not match the scale's {n} entries",
    )


def _encode(
    observation: np.ndarray,
    scale: np.ndarray,
    with_features: bool,
    ndim: int,
    features: Callable[[np.ndarray], np.ndarray],
    mismatch: str,
) -> np.ndarray:
    """``observation * scale`` (``ndim`` axes, the last one the scale's), then ``features(obs)`` along it."""
    obs = np.asarray(observation, dtype=np.float32)
    if obs.ndim != ndim or obs.shape[-1] != scale.shape[0]:
        raise HoldemError(mismatch.format(shape=obs.shape, n=scale.shape[0]))
    scaled = obs * scale
    if not with_features:
        return scaled
    return np.concatenate([scaled, features(obs)], axis=-1)

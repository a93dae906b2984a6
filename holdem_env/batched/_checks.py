"""The batched core's plain-Python side, kept out of the compiled module: argument checks (clear errors,
nothing changed) and the legal sets in words and as masks."""

from __future__ import annotations

from typing import Any

import numpy as np

from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import ConfigError, IllegalActionError

__all__ = ["first_buttons", "engine_deck", "zeros", "member_arrays", "unpack_history", "positive_int", "starting_stacks", "table_seeds", "fill_rows", "widen_history", "action_ids", "describe_legal",
           "legal_mask"]


def positive_int(name: str, value: object, lo: int, hi: int | None = None) -> int:
    """``value`` as an int in ``lo..hi`` (``hi`` None: no upper bound), else a ConfigError naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo or (hi is not None and value > hi):
        allowed = f"an integer >= {lo}" if hi is None else f"an integer in {lo}..{hi}"
        raise ConfigError(name, value, f"must be {allowed}")
    return int(value)


def starting_stacks(stacks: object, buy_in: int, nt: int, n: int, forced: int) -> np.ndarray:
    """Every table's starting stacks ``(nt, n)`` from ``stacks`` (``(n,)`` or ``(nt, n)``) or ``buy_in``;
    each must exceed ``forced`` (the ante plus the big blind), so every hand has a first decision."""
    if stacks is None:
        start = np.full((nt, n), int(buy_in), dtype=np.int64)
    else:
        given = np.asarray(stacks)
        if given.dtype.kind not in "iu" or given.shape not in ((n,), (nt, n)) or (given < 1).any():
            raise ConfigError("stacks", stacks, f"must be integers >= 1, shaped ({n},) or ({nt}, {n})")
        start = np.ascontiguousarray(np.broadcast_to(given, (nt, n)), dtype=np.int64).copy()
    if (start <= forced).any():
        raise ConfigError("stacks" if stacks is not None else "buy_in", stacks if stacks is not None else buy_in,
                          f"every starting stack must exceed the ante plus the big blind ({forced})")
    return start


def table_seeds(seeds: object, nt: int) -> list[int]:
    """``nt`` non-negative integer seeds, one per table."""
    try:
        out = list(seeds)  # type: ignore[call-overload]
    except TypeError:
        out = []
    if len(out) != nt or not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) and x >= 0 for x in out):
        raise ConfigError("table_seeds", seeds, f"must be {nt} non-negative integers (one per table)")
    return [int(x) for x in out]


def fill_rows(bt: Any, rows: object, out: object) -> np.ndarray:
    """The table indices ``rows`` (``None``: all) as a contiguous int64 array, after checking them and
    that ``out`` is a BatchViews with room for them at these tables."""
    nt = bt.num_tables
    if rows is None:
        r = bt._all_rows
    else:
        given = np.asarray(rows)
        if given.ndim != 1 or (given.size and given.dtype.kind not in "iu"):
            raise ConfigError("rows", rows, f"must be a 1-D sequence of table indices in 0..{nt - 1}")
        r = np.ascontiguousarray(given, dtype=np.int64)
        if r.size and (int(r.min()) < 0 or int(r.max()) >= nt):
            raise ConfigError("rows", rows, f"must be table indices in 0..{nt - 1}")
    k = len(r)
    if (not isinstance(out, BatchViews) or out.num_players != bt.num_players or out.rows < k
            or (out.small_blind, out.big_blind) != (bt.small_blind, bt.big_blind)):
        raise ConfigError("out", type(out).__name__, f"must be a BatchViews of >= {k} rows for {bt.num_players} "
                          f"seats, blinds {bt.small_blind}/{bt.big_blind} (BatchViews.empty)")
    return r


def widen_history(out: BatchViews, room: int) -> None:
    """Give ``out`` history arrays of ``room`` columns (zeros: the next fill writes every row it uses)."""
    for name in ("hist_seat", "hist_street", "hist_kind", "hist_to"):
        setattr(out, name, np.zeros((out.rows, room), dtype=np.int64))
    out.hist_len[:] = 0


def action_ids(bt: Any, actions: object) -> np.ndarray:
    """``actions`` (one exact id per table, or -1: that table does not move) as a contiguous int64 array,
    each legal at its table."""
    a = np.asarray(actions)
    if a.shape != (bt.num_tables,) or a.dtype.kind not in "iu":
        raise IllegalActionError(
            f"actions must be {bt.num_tables} integer action ids (one per table), got shape {a.shape} dtype {a.dtype}"
        )
    acts = np.ascontiguousarray(a, dtype=np.int64)
    moving = acts != -1  # -1: the table does not move this step
    rows = bt._all_rows if moving.all() else np.ascontiguousarray(bt._all_rows[moving])
    i = bt._first_illegal_rows(rows, np.ascontiguousarray(acts[rows]))
    if i >= 0:
        t = int(rows[i])
        raise IllegalActionError(f"table {t}: action {int(acts[t])} is not legal ({describe_legal(bt, t)})")
    return acts


def describe_legal(bt: Any, t: int) -> str:
    """Table ``t``'s legal exact ids in words."""
    parts = ["0 fold"] if bt.legal_fold[t] else []
    call = int(bt.legal_call[t])
    parts.append(f"1 call {call}" if call else "1 check")
    lo, hi = int(bt.min_raise_to[t]), int(bt.max_raise_to[t])
    if lo:
        parts.append(f"{lo + 1}..{hi + 1} raise to {lo}..{hi}")
    return ", ".join(parts)


def legal_mask(bt: Any, width: int) -> np.ndarray:
    """The exact-id legal mask of every table, ``(num_tables, width)`` int8 (raise ids past ``width`` cut)."""
    ids = np.arange(width)
    lo, hi = bt.min_raise_to[:, None], bt.max_raise_to[:, None]
    mask = ((ids >= lo + 1) & (ids <= hi + 1) & (lo > 0)).astype(np.int8)
    mask[:, 0] = bt.legal_fold
    mask[:, 1] = 1
    return mask


def member_arrays(nt: int) -> tuple[np.ndarray, ...]:
    """The per-table arrays of members drawn per hand: fresh, member, deal_at, final_member (-1), last_payoff,
    last_decided (int64)."""
    z = [np.zeros(nt, dtype=np.int64) for _ in range(6)]
    z[3][:] = -1
    return tuple(z)


def unpack_history(packed: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Packed history entries (``seat | street << 4 | kind << 8 | to << 12``) as ``(seat, street, kind, to)``."""
    return [(x & 15, (x >> 4) & 15, (x >> 8) & 15, x >> 12) for x in packed.tolist()]


def first_buttons(seeds: list[int] | None, nt: int, n: int, deck_rng: np.random.Generator) -> tuple[list[Any], np.ndarray]:
    """``(per-table generators, first buttons)``: with ``seeds`` each table draws its first button (and later
    shuffles each deck) exactly as ``Table(config, seed=s)`` does; without, the buttons come from ``deck_rng``."""
    if seeds is None:
        return [], deck_rng.integers(n, size=nt).astype(np.int64)
    rngs = [np.random.default_rng(int(x)) for x in seeds]
    return rngs, np.array([int(g.integers(n)) for g in rngs], dtype=np.int64)


def engine_deck(rng: np.random.Generator) -> list[int]:
    """A deck shuffled as ``HandState`` shuffles it."""
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def zeros(*shape: int, dtype: type = np.int64) -> np.ndarray:
    """``np.zeros(shape, dtype)``."""
    return np.zeros(shape, dtype=dtype)

"""External opponents of the batched core: bots with ``decide(views, uniforms)`` playing some seats.

:class:`~holdem_env.batched._tables.BatchedTables` takes ``opponents={seat or "others": bot}``; inside
each step, after the learner's actions, :func:`play` repeats rounds until the learner is to act at every
table: gather the tables whose seat to act is an opponent's, group them by bot, write their views into
that bot's preallocated :class:`~holdem_env.batched.views.BatchViews` (:meth:`BatchedTables.fill_views`),
call ``bot.decide(views, uniforms)`` once per bot (``uniforms``: shape ``(rows,
bot.uniforms_per_decision)`` in [0, 1), from the tables' seeded opponent generator; the attribute
defaults to 1), check every returned id, and apply them all in C. An illegal id stops the round before
any of its actions is applied, with an error naming the bot, the table, the seat and the legal set.

Determinism: the uniforms come from the core's one opponent generator, round by round in bot order and
table order, so a seed gives the same play for the same tables and bots (it is not independent of the
number of tables, as the per-table vector env is).

Members drawn per hand: ``opponents=Members(bots, deal, uniforms)`` seats one *member* (a bot) in every
seat but the learner's at each table, drawn at each new hand: the core deals the hand, and before
anyone acts there :func:`play` asks ``deal(table)`` for the learner's seat (used with
``random_learner_seat``) and the member (an index into ``bots``); each round calls every member's
``decide`` once for the tables it sits at. ``uniforms(tables, seats, k)``, when given, writes each
row's ``k`` draws (else the core's generator does, as above). Each finished hand's learner payoff and
member go to ``hand_log`` (``(member, payoff in chips, whether the learner acted)``, in the order the
hands were settled), which the owner empties.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import ConfigError, IllegalActionError

__all__ = ["parse_opponents", "install", "play", "head", "bot_name", "Members"]


@dataclass
class Members:
    """Opponent members drawn per hand (see the module docstring): ``bots`` (member ``i``'s bot, with
    ``decide(views, uniforms)``), ``deal(table) -> (learner seat, member)`` and the optional
    ``uniforms(tables, seats, k) -> (R, k) array``. ``names``: how reports name the members."""

    bots: Sequence[Any]
    deal: Callable[[int], tuple[int, int]] | None = None
    uniforms: Callable[[np.ndarray, np.ndarray, int], np.ndarray] | None = None
    names: Sequence[str] = field(default_factory=list)

_ROW_FIELDS = frozenset(f.name for f in fields(BatchViews) if f.name not in ("num_players", "small_blind", "big_blind"))


def bot_name(bot: object) -> str:
    """How errors name a bot: its ``name`` attribute if it has one, else its class."""
    name = getattr(bot, "name", None)
    return f"{type(bot).__name__} {name!r}" if isinstance(name, str) else type(bot).__name__


def parse_opponents(
    opponents: object, num_players: int, learner_seat: int, random_seat: bool
) -> tuple[list[Any], np.ndarray, list[int]]:
    """``(bots, seat_bot, uniforms_per)``: the distinct bots in first-seen order, each seat's bot index
    (``-1``: none) and each bot's uniforms per decision. ``None`` gives no bots."""
    seat_bot = np.full(num_players, -1, dtype=np.int64)
    if opponents is None:
        return [], seat_bot, []
    allowed = f'must be a mapping {{seat (0..{num_players - 1}) or "others": bot with decide(views, uniforms)}}'
    if not isinstance(opponents, Mapping) or not opponents:
        raise ConfigError("opponents", opponents, allowed)
    bots: list[Any] = []
    per: list[int] = []

    def index(bot: object) -> int:
        for i, b in enumerate(bots):
            if b is bot:
                return i
        per.append(_uniforms_per_decision(bot, allowed))
        bots.append(bot)
        return len(bots) - 1

    others = None
    for key, bot in opponents.items():
        if key == "others":
            others = index(bot)
            continue
        if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key < num_players:
            raise ConfigError("opponents", key, allowed)
        if not random_seat and key == learner_seat:
            raise ConfigError("opponents", key, f"seat {key} is the learner's (learner_seat); give the other seats")
        seat_bot[int(key)] = index(bot)
    if others is not None:
        seat_bot[seat_bot < 0] = others
    if not random_seat:
        seat_bot[learner_seat] = -1
    missing = [s for s in range(num_players) if seat_bot[s] < 0 and (random_seat or s != learner_seat)]
    if missing:
        why = "with random_learner_seat every seat" if random_seat else "every seat but the learner's"
        raise ConfigError("opponents", sorted(opponents, key=str), f"{why} needs a bot (seats {missing} have none; "
                          'use "others" for the rest)')
    return bots, seat_bot, per


def install(bt: Any, opponents: object, first: bool) -> None:
    """Seat ``opponents`` (``None``: none) at ``bt``: its bots, each seat's bot, each bot's uniforms per
    decision and views to fill. After construction (``first`` false) only tables built with opponents
    take new ones, and only a whole new mapping (checked before anything changes)."""
    if first and opponents is not None and bt.random_opponents:
        raise ConfigError("opponents", opponents, "cannot be given with random_opponents=True (one or the other)")
    if not first and (not bt._external or opponents is None or bt._lazy or isinstance(opponents, Members)):
        raise ConfigError("opponents", opponents, "can be replaced only at tables built with opponents=..., by a new mapping")
    if isinstance(opponents, Members):
        bots, seat_bot, per = _parse_members(opponents, bt.num_players)
        bt._lazy = True
        bt._members = opponents
    else:
        bots, seat_bot, per = parse_opponents(opponents, bt.num_players, bt.learner_seat, bt.random_seat)
    bt._external = opponents is not None
    bt.opponents, bt._seat_bot_arr, bt._uniforms_per = bots, seat_bot, per
    # per bot: the views it is handed and its first-k-rows heads (kept while the arrays stay the same)
    bt._bot_views = [(BatchViews.empty(bt.num_tables, bt.num_players, bt.small_blind, bt.big_blind), {}) for _ in bots]
    bt._bind_seat_bots()


def _uniforms_per_decision(bot: object, allowed: str) -> int:
    """A batched bot's uniforms per decision, once it is checked to have ``decide`` (else ConfigError)."""
    if not callable(getattr(bot, "decide", None)):
        raise ConfigError("opponents", bot, allowed)
    u = getattr(bot, "uniforms_per_decision", 1)
    if isinstance(u, bool) or not isinstance(u, (int, np.integer)) or u < 0:
        raise ConfigError(f"{bot_name(bot)}.uniforms_per_decision", u, "must be an integer >= 0")
    return int(u)


def _parse_members(members: Members, n: int) -> tuple[list[Any], np.ndarray, list[int]]:
    """``parse_opponents``' answer for Members (every seat's bot index is the table's member's)."""
    allowed = "must be a non-empty list of bots with decide(views, uniforms), and deal(table) -> (seat, member)"
    if not members.bots or not callable(members.deal):
        raise ConfigError("opponents", members, allowed)
    bots, per = [], []
    for bot in members.bots:
        per.append(_uniforms_per_decision(bot, allowed))
        bots.append(bot)
    return bots, np.zeros(n, dtype=np.int64), per


def _resolve_fresh(bt: Any) -> None:
    """Seat the learner and the member at every table dealt a new hand since the last call (Members),
    logging the hand each one finished."""
    fresh = np.flatnonzero(bt.fresh)
    if not fresh.size:
        return
    deal, n, m = bt._members.deal, bt.num_players, len(bt.opponents)
    log = bt.hand_log
    for t in fresh.tolist():
        if bt.hands_played[t]:  # the hand this table just finished (none before its first)
            log.append((int(bt.member[t]), int(bt.last_payoff[t]), bool(bt.last_decided[t])))
        seat, member = deal(t)
        if isinstance(member, bool) or not isinstance(member, (int, np.integer)) or not 0 <= member < m:
            raise ConfigError("member", member, f"deal({t}) must give a member index in 0..{m - 1}")
        if bt.random_seat:
            if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
                raise ConfigError("seat", seat, f"deal({t}) must give the learner's seat in 0..{n - 1}")
            bt.learner[t] = seat
        bt.member[t] = member
        if bt.record:  # the deal's trace entry names the learner's seat just drawn
            i = int(bt.deal_at[t])
            b, deck, _ = bt.trace[i][2]
            bt.trace[i] = (t, -1, (b, deck, int(bt.learner[t])))
    bt.fresh[fresh] = 0


def head(views: BatchViews, k: int) -> BatchViews:
    """The first ``k`` rows of ``views`` (arrays sharing its memory)."""
    if k == views.rows:
        return views
    new = object.__new__(BatchViews)  # what dataclasses.replace makes, without its per-field overhead
    new.__dict__.update({name: v[:k] if name in _ROW_FIELDS else v for name, v in views.__dict__.items()})
    return new


def play(bt: Any) -> None:
    """Play the external bots' seats at every table until the learner is to act everywhere."""
    rows_all, bots_all = bt._pend_rows, bt._pend_bots
    rows_all[:] = bt._all_rows
    k = bt.num_tables
    rng = bt._opp_rng
    lazy = bt._lazy
    row_uniforms = bt._members.uniforms if lazy else None
    nbots = len(bt.opponents)
    while True:
        if lazy:
            _resolve_fresh(bt)
        k = bt._collect(rows_all, k, bots_all)  # only tables that were waiting can still be waiting
        if k == 0:
            return
        pending, owners = rows_all[:k], bots_all[:k]
        round_: list[tuple[np.ndarray, np.ndarray]] = []
        if nbots == 1:
            groups: list[tuple[int, np.ndarray]] = [(0, pending)]  # (rows_all is not written before the next round)
        else:  # each bot's rows in table order: a stable sort by bot, cut at the bots' counts
            order = pending[np.argsort(owners, kind="stable")]
            ends = np.cumsum(np.bincount(owners, minlength=nbots)).tolist()
            groups = [(b, order[a:e]) for b, (a, e) in enumerate(zip([0, *ends[:-1]], ends, strict=True)) if e > a]
        for b, rows in groups:
            bot = bt.opponents[b]
            views, heads = bt._bot_views[b]
            bt._fill_checked(rows, views)
            top = heads.get(len(rows))
            if top is None or top.hist_seat.base is not views.hist_seat:  # (history arrays widened since)
                top = heads[len(rows)] = head(views, len(rows))
            if row_uniforms is None:  # our own draws and views: a rule bot's decide without its argument checks
                uniforms = rng.random((len(rows), bt._uniforms_per[b]))
                trusted = getattr(bot, "_decide_trusted", None)
                got = bot.decide(top, uniforms) if trusted is None else trusted(top, uniforms)
            else:  # the members' own uniforms: the bot's decide checks them
                uniforms = np.asarray(row_uniforms(rows, bt.actor[rows], bt._uniforms_per[b]), dtype=np.float64)
                got = bot.decide(top, uniforms)
            acts = np.asarray(got)
            if acts.shape != rows.shape or (acts.size and acts.dtype.kind not in "iu"):
                raise IllegalActionError(
                    f"opponent {bot_name(bot)}: decide returned shape {acts.shape} dtype {acts.dtype}; "
                    f"it must return {len(rows)} integer action ids (one per row)"
                )
            acts = np.ascontiguousarray(acts, dtype=np.int64)
            bad = bt._first_illegal_rows(rows, acts)
            if bad >= 0:
                t = int(rows[bad])
                raise IllegalActionError(
                    f"opponent {bot_name(bot)} at table {t} (seat {int(bt.actor[t])}) chose action {int(acts[bad])}, "
                    f"which is not legal ({bt.describe_legal(t)}); none of this round's actions were applied"
                )
            round_.append((rows, acts))
        for rows, acts in round_:
            bt._apply_rows(rows, acts)

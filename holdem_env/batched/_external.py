"""External opponents of the batched core: bots with ``decide(views, uniforms)`` playing some seats.

:class:`~holdem_env.batched._tables.BatchedTables` takes ``opponents={seat or "others": bot}``; inside
each step, after the learner's actions, :func:`play` repeats rounds until the learner is to act at every
table: gather the tables whose seat to act is an opponent's, group them by bot, write their views into
that bot's preallocated :class:`~holdem_env.batched.views.BatchViews` (:meth:`BatchedTables.fill_views`),
call ``bot.decide(views, uniforms)`` once per bot (``uniforms``: shape ``(rows,
bot.uniforms_per_decision)`` in [0, 1), from the tables' seeded opponent generator; the attribute
defaults to 1), check every returned id, and apply them all in C. An illegal id stops the round before
any of its actions is applied, with an error naming the bot, the table, the seat and the legal set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

import numpy as np

from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import ConfigError, IllegalActionError

__all__ = ["parse_opponents", "play", "head", "bot_name"]

_ROW_FIELDS = tuple(f.name for f in fields(BatchViews) if f.name not in ("num_players", "small_blind", "big_blind"))


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
        if not callable(getattr(bot, "decide", None)):
            raise ConfigError("opponents", bot, allowed)
        u = getattr(bot, "uniforms_per_decision", 1)
        if isinstance(u, bool) or not isinstance(u, (int, np.integer)) or u < 0:
            raise ConfigError(f"{bot_name(bot)}.uniforms_per_decision", u, "must be an integer >= 0")
        bots.append(bot)
        per.append(int(u))
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


def head(views: BatchViews, k: int) -> BatchViews:
    """The first ``k`` rows of ``views`` (arrays sharing its memory)."""
    if k == views.rows:
        return views
    return replace(views, **{name: getattr(views, name)[:k] for name in _ROW_FIELDS})


def play(bt: Any) -> None:
    """Play the external bots' seats at every table until the learner is to act everywhere."""
    rows_all, bots_all = bt._pend_rows, bt._pend_bots
    rng = bt._opp_rng
    while True:
        k = bt._collect(rows_all, bots_all)
        if k == 0:
            return
        pending, owners = rows_all[:k], bots_all[:k]
        round_: list[tuple[np.ndarray, np.ndarray]] = []
        for b, bot in enumerate(bt.opponents):
            rows = np.ascontiguousarray(pending[owners == b]) if len(bt.opponents) > 1 else pending.copy()
            if not len(rows):
                continue
            views = bt._bot_views[b]
            bt.fill_views(rows, views)
            uniforms = rng.random((len(rows), bt._uniforms_per[b]))
            got = bot.decide(head(views, len(rows)), uniforms)
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

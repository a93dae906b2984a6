"""``tag``: a tight-aggressive rule-based player for 2–10 seats, both action modes, every structure.

Preflop it plays the 169 starting-hand classes (:mod:`holdem_env.agents.preflop`) by position:
an opening range that widens as fewer players are left to act, 3-bet and calling ranges
against one raise, 4-bet/call ranges against a 3-bet and a premium-only range beyond.
Postflop it computes its equity against the opponents still in the hand -- heads-up exactly
against a uniformly random holding (on the flop over ``flop_runouts`` turn-and-river pairs
drawn by a generator seeded by the board and ``equity_seed``), multiway by Monte Carlo over
``samples`` deals drawn the same way (seeded by the board and the holding) -- so the equity is
a deterministic function of the cards. It compares it with the pot odds,
value-bets and raises strong hands, continuation-bets as the preflop raiser, and folds
weak hands facing bets. Bet sizes are fractions of the pot, mapped to the closest legal
action id. Its only randomness is one uniform draw per decision (``uniforms_per_decision`` = 1:
``rng.random(1)``; preflop play ignores it), so it answers range queries
(:mod:`holdem_env.agents.ranges`) exactly: the probability of each action for every holding,
which is the distribution ``act`` draws from.

Many tables at once: :meth:`TagAgent.decide` takes one seat's view at ``R`` tables
(:class:`~holdem_env.batched.views.BatchViews`) and ``R`` rows of uniform draws and returns
the exact action ids. ``act`` is ``decide`` on one row and range queries are ``decide`` on one
row per holding (all call :func:`holdem_env.agents._rules.tag_rows`, compiled), so they agree
decision for decision.

Behaviour changes (batched tag, issue 25): ``act`` draws its uniform at every decision, preflop
too (before, preflop drew none), so a seeded tag's later draws differ from earlier versions';
the heads-up flop's run-outs and the multiway deals come from the splitmix64 stream of
:mod:`holdem_env.agents._rules` instead of numpy generators (other samples of the same size,
equally valid), and multiway deals are drawn per holding from the cards it leaves instead of
shared deals that skip a holding's cards. Turn and river heads-up equities are unchanged (exact).

It reads only its own seat's observation and ``info`` (``legal`` and ``view``): never the
engine, never other players' cards. ``tightness`` > 1 plays fewer hands (ranges shrink
by that factor, equity margins grow); ``aggression`` > 1 bets and raises more often.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from holdem_env.batched.views import BatchViews
from holdem_env.engine.equity import equity
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import HOLDINGS, blocked_by, holding_indices
from holdem_env.engine.validate import check_bool, check_int, check_number, check_seed
from holdem_env.env.nlhe_v1 import discrete_raise_amounts

from . import _rules
from .base import agent_rng, check_bet_sizes, legal_of
from .preflop import class_percentile, hand_class, open_fraction, top_range

__all__ = ["TagAgent", "nearest_raise_id", "raise_options"]

_FOLD, _CHECK_CALL = 0, 1
_DEFAULT_BET_SIZES = (0.33, 0.5, 0.75, 1.0, 1.5, 2.0)
#: Postflop guesses at what an opponent holds after raising / only calling preflop.
_RAISER_RANGE = top_range(0.30)
_CALLER_RANGE = top_range(0.55)


def raise_options(
    observation: Mapping[str, Any], info: Mapping[str, Any], bet_sizes: Sequence[float] = _DEFAULT_BET_SIZES
) -> list[tuple[int, int]]:
    """The legal bet/raise action ids with their raise-to amounts, ``[(id, chips), ...]``.

    Exact mode (id = raise-to + 1) is recognised by the mask length: the discrete mode has
    ``4 + len(bet_sizes)`` ids (fold, check/call, min-raise, the fractions, all-in); pass
    the env's ``bet_sizes`` if it was not built with the default ones.
    """
    mask = np.asarray(observation["action_mask"])
    legal = legal_of(info)
    lo, hi = legal["min_raise_to"], legal["max_raise_to"]
    if lo is None or not mask[2:].any():
        return []
    if len(mask) != 4 + len(bet_sizes):
        ids = np.flatnonzero(mask[2:]) + 2
        return [(int(a), int(a) - 1) for a in ids]
    view = info["view"]
    seat = view["seat"]
    amounts = discrete_raise_amounts(
        SimpleNamespace(min_raise_to=lo, max_raise_to=hi, call=legal["call"]),  # type: ignore[arg-type]
        pot=view["pot"],
        current_bet=view["current_bet"],
        all_in_to=view["street_bets"][seat] + view["stacks"][seat],
        bet_sizes=bet_sizes,
    )
    return [(i + 2, amt) for i, amt in enumerate(amounts) if amt is not None and mask[i + 2]]


#: Turn-and-river pairs of a flop: the 49 cards off it, two at a time (1,081 avoid a given holding).
_ALL_FLOP_RUNOUTS = 1176
#: Boards whose every-holding equity tables are kept (range queries ask again and again).
_TABLES_KEPT = 8
#: The opening fraction by players behind (index 1..9), heads-up at index 10 (:func:`open_fraction`).
_OPENS = np.array([0.0] + [open_fraction(b) for b in range(1, 10)] + [open_fraction(1, heads_up=True)])
_NO_RAISE_LEGAL = {"fold": True, "check": True, "call": 0, "min_raise_to": 0, "max_raise_to": 0}

#: Largest ``tightness`` / ``aggression``: beyond it every hand is folded (or raised) anyway.
_MAX_FACTOR = 100.0


def _check_positive(name: str, value: Any) -> float:
    return float(check_number(name, value, 0, _MAX_FACTOR, lo_open=True, allowed=f"must be a positive number at most {_MAX_FACTOR:g}"))


def closest_raise(
    observation: Mapping[str, Any], info: Mapping[str, Any], target: float, bet_sizes: Sequence[float]
) -> int | None:
    """The legal raise id whose raise-to is closest to ``target`` chips (the smaller on a tie;
    None when no raise is legal)."""
    options = raise_options(observation, info, bet_sizes)
    if not options:
        return None
    return min(options, key=lambda o: (abs(o[1] - target), o[1]))[0]


def nearest_raise_id(
    target: int, mask: np.ndarray, view: Mapping[str, Any], legal: Mapping[str, Any], action_mode: str,
    bet_sizes: Sequence[float],
) -> int:
    """The action id of the legal raise nearest a raise-to of ``target`` chips, clamped to the legal
    range: in the exact mode its own id; in the discrete mode the size nearest in ratio (log distance);
    check/call (else fold) when no raise is legal. ``action_mode``: ``"exact"``, ``"discrete"`` or
    ``"auto"`` (recognised from the mask)."""
    passive = 1 if mask[1] else 0
    lo, hi = legal.get("min_raise_to"), legal.get("max_raise_to")
    if lo is None or hi is None:
        return passive
    target = min(max(int(target), int(lo)), int(hi))
    mode = action_mode
    if mode == "auto":
        mode = "exact" if _looks_exact(mask, int(lo), int(hi)) else "discrete"
    if mode == "exact":
        return target + 1
    seat = int(view["seat"])
    amounts = discrete_raise_amounts(
        SimpleNamespace(call=int(legal.get("call", 0)), min_raise_to=int(lo), max_raise_to=int(hi)),  # type: ignore[arg-type]
        pot=int(view["pot"]),
        current_bet=int(view["current_bet"]),
        all_in_to=int(view["street_bets"][seat]) + int(view["stacks"][seat]),
        bet_sizes=bet_sizes,
    )
    best, gap = passive, None
    for i, a in enumerate(amounts):
        aid = i + 2
        if a is None or aid >= len(mask) or not mask[aid]:
            continue
        g = abs(np.log(a) - np.log(target))
        if gap is None or g < gap:
            best, gap = aid, g
    return best


def _looks_exact(mask: np.ndarray, lo: int, hi: int) -> bool:
    """Exact mode: the mask allows exactly ids ``lo+1 .. hi+1`` among the raise ids."""
    if len(mask) <= hi + 1:
        return False
    raise_ids = np.flatnonzero(mask[2:]) + 2
    return len(raise_ids) == hi - lo + 1 and raise_ids[0] == lo + 1 and raise_ids[-1] == hi + 1


def _keep(cache: dict[Any, np.ndarray], key: Any, value: np.ndarray, limit: int) -> None:
    """Store ``value`` under ``key``, dropping the oldest entry when ``cache`` holds ``limit``."""
    if len(cache) >= limit:
        cache.pop(next(iter(cache)))
    cache[key] = value


_PCT: list[np.ndarray] = []


def percentiles() -> np.ndarray:
    """``(52, 52)``: the preflop class percentile of each pair of hole cards (1.0 on the diagonal)."""
    if not _PCT:
        table = np.ones((52, 52))
        for a, b in HOLDINGS.tolist():
            table[a, b] = table[b, a] = class_percentile(hand_class((a, b)))
        _PCT.append(table)
    return _PCT[0]


def check_uniforms(views: BatchViews, uniforms: Any, per_decision: int) -> np.ndarray:
    """``uniforms`` as a float64 ``(R, per_decision)`` array of numbers in [0, 1), else a ConfigError."""
    if not isinstance(views, BatchViews):
        raise ConfigError("views", type(views).__name__, "must be a holdem_env.batched.views.BatchViews")
    u = np.asarray(uniforms, dtype=np.float64)
    if u.shape != (views.rows, per_decision) or not ((u >= 0.0) & (u < 1.0)).all():
        raise ConfigError("uniforms", f"shape {u.shape}", f"must be a ({views.rows}, {per_decision}) array of numbers in [0, 1)")
    return np.ascontiguousarray(u)


#: Row indices 0..k-1 for :func:`row_opponents` (a slice of one array, grown when more rows come).
_ROW_INDEX: list[np.ndarray] = [np.arange(64, dtype=np.int64)]


def row_opponents(views: BatchViews) -> np.ndarray:
    """Each row's opponents still in the hand (dealt in, not folded, not the seat), 1..9."""
    alive = views.dealt_in != 0
    if alive.shape[1] == 2:  # two seats: at most one other, so 1 after the clamp at every row
        return np.ones(alive.shape[0], dtype=np.int64)
    alive &= views.folded == 0
    index = _ROW_INDEX[0]
    if len(index) < views.rows:
        index = _ROW_INDEX[0] = np.arange(2 * views.rows, dtype=np.int64)
    count = np.add.reduce(alive, axis=1, dtype=np.int64)
    count -= alive[index[: views.rows], views.seat]  # the seat itself, where it is alive
    np.maximum(count, 1, out=count)
    if alive.shape[1] > 10:  # (more than nine others: only in views built by hand)
        np.minimum(count, 9, out=count)
    return count


def to_mode(observation: Mapping[str, Any], info: Mapping[str, Any], action: int, target: float, bet_sizes: Sequence[float]) -> int:
    """An exact-mode decision in the observation's action mode: a bet or raise aimed at ``target``
    chips becomes the closest legal discrete id there (:func:`raise_options` tells the modes apart)."""
    if action < 2 or len(np.asarray(observation["action_mask"])) != 4 + len(bet_sizes):
        return int(action)
    rid = closest_raise(observation, info, target, bet_sizes)
    return _CHECK_CALL if rid is None else rid


def one_row(info: Mapping[str, Any]) -> BatchViews:
    """The seat's view and legal set in ``info`` as a one-row :class:`BatchViews`."""
    return BatchViews.from_seat_views([info["view"]], [legal_of(info)])


def repeat_row(row: BatchViews, holdings: np.ndarray) -> BatchViews:
    """Row 0 of ``row`` once per holding, each with that holding as its hole cards (range queries)."""
    zeros = np.zeros(len(holdings), dtype=np.int64)
    out = copy.copy(row)
    for name, value in vars(row).items():
        if isinstance(value, np.ndarray):
            setattr(out, name, value[zeros])
    out.hole = np.array(holdings, dtype=np.int64).reshape(-1, 2)
    return out


def rule_equities(views: BatchViews, rows: np.ndarray, flop_runouts: int, samples: int, seed: int, out: np.ndarray,
                  opponents: np.ndarray | None = None) -> None:
    """``out[rows]``: the rows' postflop equities (:func:`holdem_env.agents._rules.row_equities`);
    ``opponents``: :func:`row_opponents` of ``views`` when the caller has it."""
    _rules.row_equities(
        np.ascontiguousarray(views.board, dtype=np.int64), np.ascontiguousarray(views.board_len, dtype=np.int64),
        np.ascontiguousarray(views.hole, dtype=np.int64), row_opponents(views) if opponents is None else opponents,
        np.ascontiguousarray(rows, dtype=np.int64), flop_runouts, samples, seed % (1 << 63), out,
    )


#: Equities :class:`TagAgent` keeps (a street's later decisions at a table ask again); emptied when full.
_MEMO_KEPT = 20_000


def weigh_pieces(observation: Mapping[str, Any], info: Mapping[str, Any], out: np.ndarray, ids: np.ndarray,
                 targets: np.ndarray, weight: float, bet_sizes: Sequence[float]) -> None:
    """Add ``weight`` to each row's chosen action (exact decisions mapped to the observation's mode)."""
    keys = [(int(a), float(t) if t == t else -1.0) for a, t in zip(ids.tolist(), targets.tolist(), strict=True)]
    mapped = {k: to_mode(observation, info, k[0], k[1], bet_sizes) for k in set(keys)}
    np.add.at(out, (np.arange(len(keys)), np.array([mapped[k] for k in keys], dtype=np.int64)), weight)


class RowRuleAgent:
    """What the rule bots whose decisions are per-row kernels share (tag and the styles): ``act`` is
    :meth:`decide` at one table with ``uniforms_per_decision`` draws from ``rng``. A subclass sets
    ``rng`` and ``bet_sizes`` and gives ``_rows(views, u) -> (exact ids, raise targets)``."""

    #: Uniform draws per decision (``act`` draws them from ``rng``; ``decide`` is handed them).
    uniforms_per_decision = 1
    rng: np.random.Generator
    bet_sizes: tuple[float, ...]

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on (the arena reseeds before every hand)."""
        self.rng = rng

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """Choose an action id for the seat on turn: :meth:`decide` at this one table, with
        ``uniforms_per_decision`` draws from ``rng``."""
        u = np.asarray(self.rng.random(self.uniforms_per_decision), dtype=np.float64).reshape(1, -1)
        ids, targets = self._rows(one_row(info), u)
        return to_mode(observation, info, int(ids[0]), float(targets[0]), self.bet_sizes)

    def decide(self, views: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        """The exact action id (0 fold, 1 check/call, ``k + 1`` bet/raise to ``k``) at each row of
        ``views``, given each row's ``uniforms_per_decision`` uniform draws in [0, 1): what
        :meth:`act` plays at that table with those draws."""
        return self._rows(views, check_uniforms(views, uniforms, self.uniforms_per_decision))[0]

    def _decide_trusted(self, views: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        """:meth:`decide` without its argument checks, for the batched core only: ``views`` are its own
        filled arrays and ``uniforms`` the float64 C-order ``(rows, uniforms_per_decision)`` draws in [0, 1)
        it made itself (``rng.random``). A subclass with its own ``decide`` gets that one (checks included)."""
        if type(self).decide is not RowRuleAgent.decide:
            return self.decide(views, uniforms)
        return self._rows(views, uniforms)[0]

    def _rows(self, views: BatchViews, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError


class TagAgent(RowRuleAgent):
    """Tight-aggressive rule-based agent (``tag``).

    Parameters: ``tightness`` (default 1.0; larger = tighter), ``aggression`` (default
    1.0; larger = more bets/raises), ``samples`` (Monte Carlo deals per postflop
    decision with two or more opponents, default 300), ``flop_runouts`` (heads-up flop:
    turn-and-river pairs the equity averages over, default 64; 1176 or more: all of them,
    exact -- turn and river are always exact), ``bet_sizes`` (the env's discrete pot fractions, if not the
    default), ``read_ranges`` (default False; True: postflop equity against ranges read
    from each opponent's preflop actions -- raisers hold the top 30%, callers the top 55%,
    others any two cards -- instead of random hands; measured slower and more passive),
    ``equity_seed`` (default 0; seeds the postflop equity samples together with the board),
    ``rng`` (a ``numpy.random.Generator``; the arena reseeds it every hand).
    """

    def __init__(
        self,
        tightness: float = 1.0,
        aggression: float = 1.0,
        samples: int = 300,
        bet_sizes: Sequence[float] = _DEFAULT_BET_SIZES,
        read_ranges: bool = False,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        equity_seed: int = 0,
        flop_runouts: int = 64,
    ) -> None:
        self.tightness = _check_positive("tightness", tightness)
        self.aggression = _check_positive("aggression", aggression)
        self.samples = check_int("samples", samples, 10)
        self.bet_sizes = check_bet_sizes(bet_sizes)
        self.read_ranges = check_bool("read_ranges", read_ranges)
        self.equity_seed = check_seed("equity_seed", equity_seed, none_ok=False)
        runouts = check_int("flop_runouts", flop_runouts, 1, allowed="must be an integer >= 1 (1176 or more: every run-out)")
        self.flop_runouts = min(runouts, _ALL_FLOP_RUNOUTS)
        self.rng = agent_rng(rng, seed)
        self._params = np.array([self.tightness, self.aggression])
        self._equity_cache: dict[tuple[Any, ...], np.ndarray] = {}
        self._memo: dict[tuple[int, ...], float] = {}
        self._memo_setting: tuple[int, int, int] | None = None

    def _rows(self, views: BatchViews, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(exact ids, raise targets) of every row (:func:`holdem_env.agents._rules.tag_rows`)."""
        pct = percentiles()[views.hole[:, 0], views.hole[:, 1]]
        eq = np.full(views.rows, np.nan)
        post = (views.street > 0).nonzero()[0]
        if post.size:
            self._row_equities(views, post, eq)
        return self._kernel(views, pct, eq, u[:, 0])

    def _kernel(self, views: BatchViews, pct: np.ndarray, eq: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ids = np.empty(views.rows, dtype=np.int64)
        targets = np.empty(views.rows)
        _rules.tag_rows(views, self._params, _OPENS, np.ascontiguousarray(pct), eq, np.ascontiguousarray(u), ids, targets)
        return ids, targets

    def _row_equities(self, views: BatchViews, rows: np.ndarray, out: np.ndarray) -> None:
        """``out[rows]``: the postflop equity of each row's own holding."""
        if not self.read_ranges:
            self._memo_equities(views, rows, out)
            return
        opponents = row_opponents(views)
        plain = []
        for i in rows.tolist():
            ranges = self._ranges(views, i)
            if ranges is None:
                plain.append(i)
                continue
            board = tuple(int(c) for c in views.board[i, : views.board_len[i]])
            hole = tuple(int(c) for c in views.hole[i])
            rng = np.random.default_rng([self.equity_seed, *sorted(board), *sorted(hole)])
            out[i] = equity(hole, board, opponents=int(opponents[i]), ranges=ranges, samples=self.samples, rng=rng)
        if plain:
            rule_equities(views, np.array(plain, dtype=np.int64), self.flop_runouts, self.samples, self.equity_seed, out)

    def _memo_equities(self, views: BatchViews, rows: np.ndarray, out: np.ndarray) -> None:
        """``out[rows]``: :func:`rule_equities`, each computed once per board, holding and opponent count
        (it is a function of them and of ``flop_runouts``, ``samples`` and ``equity_seed``) and then kept."""
        opponents = row_opponents(views)
        setting = (self.flop_runouts, self.samples, self.equity_seed)
        if self._memo_setting != setting or len(self._memo) >= _MEMO_KEPT:
            self._memo, self._memo_setting = {}, setting
        memo = self._memo
        keys = np.concatenate((views.board, views.hole, views.board_len[:, None], opponents[:, None]), axis=1)
        missing: list[tuple[int, tuple[int, ...]]] = []
        for i, key in zip(rows.tolist(), map(tuple, keys[rows].tolist()), strict=True):
            e = memo.get(key)
            if e is None:
                missing.append((i, key))
            else:
                out[i] = e
        if missing:
            todo = np.array([i for i, _ in missing], dtype=np.int64)
            rule_equities(views, todo, self.flop_runouts, self.samples, self.equity_seed, out, opponents)
            for i, key in missing:
                memo[key] = float(out[i])

    @staticmethod
    def _ranges(views: BatchViews, i: int) -> list[frozenset[str] | None] | None:
        """Row ``i``'s opponents' preflop ranges read from their own actions (None = any two
        cards), or None when none is read."""
        raised: set[int] = set()
        called: set[int] = set()
        for k in range(int(views.hist_len[i])):
            if views.hist_street[i, k] != 0:
                break
            if views.hist_kind[i, k] in (3, 4):
                raised.add(int(views.hist_seat[i, k]))
            elif views.hist_kind[i, k] == 2:
                called.add(int(views.hist_seat[i, k]))
        seat = int(views.seat[i])
        others = [s for s in range(views.num_players) if views.dealt_in[i, s] and s != seat and not views.folded[i, s]]
        out = [_RAISER_RANGE if s in raised else (_CALLER_RANGE if s in called else None) for s in others[:9]]
        return out if any(r is not None for r in out) else None

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        """Range query (:mod:`holdem_env.agents.ranges`): for each row of ``holdings`` the
        probability of every action id, computed by the same code as :meth:`act` (preflop
        play is a function of the hand; postflop, of the hand's equity and one uniform draw,
        whose intervals are weighed exactly)."""
        hold = np.asarray(holdings, dtype=np.int64).reshape(-1, 2)
        out = np.zeros((len(hold), len(np.asarray(observation["action_mask"]))))
        if not len(hold):
            return out
        rows = repeat_row(one_row(info), hold)
        pct = percentiles()[hold[:, 0], hold[:, 1]]
        if info["view"]["street"] == "preflop":
            pieces = [(0.0, 1.0)]
            eqs = np.full(len(hold), np.nan)
        else:
            cuts = sorted({0.0, 1.0, *(min(1.0, f * self.aggression) for f in (0.8, 0.85, 0.7, 0.3))})
            pieces = [(lo, hi) for lo, hi in zip(cuts, cuts[1:], strict=False) if hi > lo]
            eqs = self._equities(hold, info["view"])
        for lo, hi in pieces:
            ids, targets = self._kernel(rows, pct, eqs, np.full(len(hold), 0.5 * (lo + hi)))
            weigh_pieces(observation, info, out, ids, targets, hi - lo, self.bet_sizes)
        return out

    def _equities(self, holdings: np.ndarray, view: Mapping[str, Any]) -> np.ndarray:
        """Postflop equity of each holding against the opponents still in the hand (NaN where the
        board blocks it): the numbers :meth:`act` uses. Every holding's is kept for the last few
        boards when more than a few are asked for (range queries ask again and again)."""
        hold = np.asarray(holdings, dtype=np.int64).reshape(-1, 2)
        row = one_row({"view": view, "legal": _NO_RAISE_LEGAL})
        board = tuple(sorted(int(c) for c in row.board[0, : row.board_len[0]]))
        if self.read_ranges:  # read ranges depend on the history: no table
            return self._some_equities(row, hold, board)
        key = (board, int(row_opponents(row)[0]))
        table = self._equity_cache.get(key)
        if table is None and len(hold) <= 16:
            return self._some_equities(row, hold, board)
        if table is None:
            table = self._some_equities(row, HOLDINGS, board)
            _keep(self._equity_cache, key, table, _TABLES_KEPT)
        return table[holding_indices(hold)]

    def _some_equities(self, row: BatchViews, hold: np.ndarray, board: tuple[int, ...]) -> np.ndarray:
        open_ = ~blocked_by(board)[holding_indices(hold)] if len(hold) else np.zeros(0, dtype=bool)
        out = np.full(len(hold), np.nan)
        if open_.any():
            self._row_equities(repeat_row(row, hold), np.flatnonzero(open_), out)
        return out

"""``tag``: a tight-aggressive rule-based player for 2–10 seats, both action modes, every structure.

Preflop it plays the 169 starting-hand classes (:mod:`holdem_env.agents.preflop`) by position:
an opening range that widens as fewer players are left to act, 3-bet and calling ranges
against one raise, 4-bet/call ranges against a 3-bet and a premium-only range beyond.
Postflop it computes its equity against the opponents still in the hand -- heads-up exactly
against a uniformly random holding (on the flop over ``flop_runouts`` turn-and-river pairs
sampled by a generator seeded by the board and ``equity_seed``), multiway by Monte Carlo over
``samples`` deals drawn the same way -- so the equity is a deterministic function of the
cards, one table of all 1,326 holdings per board. A heads-up decision computes only its own
holding's row of that table (the same bits, about a seventeenth of the cost); range queries
build the whole table. It compares it with the pot odds,
value-bets and raises strong hands, continuation-bets as the preflop raiser, and folds
weak hands facing bets. Bet sizes are fractions of the pot, mapped to the closest legal
action id. Its only other randomness is one uniform draw per postflop decision, so it
answers range queries (:mod:`holdem_env.agents.ranges`) exactly: the probability of each
action for every holding, which is the distribution ``act`` draws from.

It reads only its own seat's observation and ``info`` (``legal`` and ``view``): never the
engine, never other players' cards. ``tightness`` > 1 plays fewer hands (ranges shrink
by that factor, equity margins grow); ``aggression`` > 1 bets and raises more often.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from holdem_env.engine.cards import parse_cards
from holdem_env.engine.equity import equity
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.ranges import (
    HOLDINGS,
    NUM_HOLDINGS,
    blocked_by,
    card_incidence,
    equity_against_random,
    flop_runouts,
    holding_indices,
    holdings_equity_against_random,
)
from holdem_env.engine.validate import check_bool, check_int, check_number, check_seed
from holdem_env.env.nlhe_v1 import discrete_raise_amounts

from .base import agent_rng, check_bet_sizes, legal_of
from .preflop import class_percentile, hand_class, open_fraction, top_range

__all__ = ["TagAgent", "raise_options"]

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
#: Boards whose heads-up equity tables are kept (a hand's flop, turn and river, twice over).
_TABLES_KEPT = 8
#: Single-holding equities and flop run-out samples kept (pure functions of the key).
_FEW_KEPT = 256

#: Largest ``tightness`` / ``aggression``: beyond it every hand is folded (or raised) anyway.
_MAX_FACTOR = 100.0


def _check_positive(name: str, value: Any) -> float:
    return float(check_number(name, value, 0, _MAX_FACTOR, lo_open=True, allowed=f"must be a positive number at most {_MAX_FACTOR:g}"))


def passive_action(legal: Mapping[str, Any], mask: np.ndarray) -> int:
    """Check if free, otherwise fold (call if folding is not offered)."""
    if legal["check"] or not mask[_FOLD]:
        return _CHECK_CALL
    return _FOLD


def closest_raise(
    observation: Mapping[str, Any], info: Mapping[str, Any], target: float, bet_sizes: Sequence[float]
) -> int | None:
    """The legal raise id whose raise-to is closest to ``target`` chips (the smaller on a tie;
    None when no raise is legal)."""
    options = raise_options(observation, info, bet_sizes)
    if not options:
        return None
    return min(options, key=lambda o: (abs(o[1] - target), o[1]))[0]


def _keep(cache: dict[Any, np.ndarray], key: Any, value: np.ndarray, limit: int) -> None:
    """Store ``value`` under ``key``, dropping the oldest entry when ``cache`` holds ``limit``."""
    if len(cache) >= limit:
        cache.pop(next(iter(cache)))
    cache[key] = value


def _even_if_unestimated(equities: np.ndarray, open_: np.ndarray) -> np.ndarray:
    """A holding the board leaves open (``open_``) whose cards meet every sampled run-out has no
    estimate (NaN): call it even."""
    return np.where(np.isnan(equities) & open_, 0.5, equities)


class TagAgent:
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
        self._equity_cache: dict[tuple[Any, ...], np.ndarray] = {}
        # One holding's heads-up equity by (board, holding): a street's second decision asks again.
        self._few_cache: dict[tuple[tuple[int, ...], bytes], np.ndarray] = {}
        self._runouts_cache: dict[tuple[int, ...], np.ndarray] = {}

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` from now on (the arena reseeds before every hand)."""
        self.rng = rng

    # ------------------------------------------------------------------ decisions
    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> int:
        """Choose an action id for the seat on turn."""
        view = info["view"]
        legal = legal_of(info)
        hole = parse_cards(view["hole_cards"])
        if view["street"] == "preflop":
            return self._preflop(observation, info, view, legal, class_percentile(hand_class(hole)))
        spot = self._postflop_spot(observation, info, view, legal)
        eq = float(self._equities(np.array([hole], dtype=np.int64), view)[0])
        return self._postflop_choice(spot, eq, float(self.rng.random()))

    def action_probabilities(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], holdings: np.ndarray
    ) -> np.ndarray:
        """Range query (:mod:`holdem_env.agents.ranges`): for each row of ``holdings`` the
        probability of every action id, computed by the same code as :meth:`act` (preflop
        play is a function of the hand; postflop, of the hand's equity and one uniform draw,
        whose intervals are weighed exactly)."""
        view = info["view"]
        legal = legal_of(info)
        hold = np.asarray(holdings, dtype=np.int64).reshape(-1, 2)
        out = np.zeros((len(hold), len(np.asarray(observation["action_mask"]))))
        if view["street"] == "preflop":
            by_class: dict[str, int] = {}
            classes = _holding_classes()[holding_indices(hold)]
            for i, cls in enumerate(classes.tolist()):
                if cls not in by_class:
                    by_class[cls] = self._preflop(observation, info, view, legal, class_percentile(cls))
                out[i, by_class[cls]] = 1.0
            return out
        spot = self._postflop_spot(observation, info, view, legal)
        cuts = sorted({0.0, 1.0, *(min(1.0, f * self.aggression) for f in (0.8, 0.85, 0.7, 0.3))})
        pieces = [(lo, hi) for lo, hi in zip(cuts, cuts[1:], strict=False) if hi > lo]
        eqs = self._equities(hold, view)
        rows = np.arange(len(hold))
        for lo, hi in pieces:
            np.add.at(out, (rows, self._postflop_choices(spot, eqs, 0.5 * (lo + hi))), hi - lo)
        return out

    def _passive(self, legal: Mapping[str, Any], mask: np.ndarray) -> int:
        return passive_action(legal, mask)

    def _raise_to(self, observation: Mapping[str, Any], info: Mapping[str, Any], target: float) -> int | None:
        return closest_raise(observation, info, target, self.bet_sizes)

    def _preflop(
        self,
        observation: Mapping[str, Any],
        info: Mapping[str, Any],
        view: Mapping[str, Any],
        legal: Mapping[str, Any],
        pct: float,
    ) -> int:
        """The preflop action of a hand whose class is at percentile ``pct`` (0 = aces)."""
        mask = np.asarray(observation["action_mask"])
        seat, button, n = view["seat"], view["button"], len(view["dealt_in"])
        dealt = [s for s in range(n) if view["dealt_in"][s]]
        heads_up = len(dealt) == 2
        if heads_up:
            order = [button] + [s for s in dealt if s != button]
        else:
            clockwise = [s for s in ((button + k) % n for k in range(1, n + 1)) if view["dealt_in"][s]]
            order = clockwise[2:] + clockwise[:2]
        behind = max(1, len(order) - 1 - order.index(seat))
        big_blind = view["big_blind"]
        history = [h for h in view["history"] if h[1] == "preflop"]
        raises = sum(1 for h in history if h[2] in ("bet", "raise"))
        callers = sum(1 for h in history if h[2] == "call")
        t, a = self.tightness, self.aggression
        current = view["current_bet"]
        stack_total = view["street_bets"][seat] + view["stacks"][seat]
        is_big_blind = seat == order[-1]

        if raises == 0:
            frac = open_fraction(min(behind, 9), heads_up=heads_up) / t
            if callers:
                frac *= 0.6
            if pct <= frac:
                target = big_blind * (2.5 + (0.5 if seat == order[-2] and not heads_up else 0.0) + callers)
                rid = self._raise_to(observation, info, target)
                if rid is not None:
                    return rid
                return _CHECK_CALL
            return self._passive(legal, mask)

        to_call = legal["call"]
        # Cheap calls (small raises, fixed-limit, big pots) widen the calling ranges.
        price = to_call / (view["pot"] + to_call) if to_call else 0.0
        cheap = 1.0 + 5.0 * max(0.0, 0.3 - price)
        if raises == 1:
            three_bet = (0.09 if heads_up else 0.035) * a / t
            call = ((0.30 if heads_up else 0.09) / t + (0.06 if is_big_blind else 0.0)) * cheap
            if to_call > 0.25 * stack_total:
                call *= 0.4
            if pct <= three_bet:
                rid = self._raise_to(observation, info, current * (3.0 if behind > 1 else 3.5) + big_blind * callers)
                return rid if rid is not None else _CHECK_CALL
            if pct <= call:
                return _CHECK_CALL
            return self._passive(legal, mask)

        if raises == 2:
            if pct <= 0.025 / t:
                target = current * 2.3
                if target > 0.4 * stack_total:
                    target = stack_total
                rid = self._raise_to(observation, info, target)
                return rid if rid is not None else _CHECK_CALL
            if pct <= 0.06 * cheap / t and to_call <= 0.35 * stack_total:
                return _CHECK_CALL
            return self._passive(legal, mask)

        if pct <= 0.015 / t:
            rid = self._raise_to(observation, info, stack_total)
            return rid if rid is not None else _CHECK_CALL
        if pct <= 0.025 / t:
            return _CHECK_CALL
        return self._passive(legal, mask)

    @staticmethod
    def _ranges(view: Mapping[str, Any], others: list[int]) -> list[frozenset[str] | None] | None:
        """Each opponent's preflop range read from its own actions (None = any two cards)."""
        raised: set[int] = set()
        called: set[int] = set()
        for seat, street, kind, _ in view["history"]:
            if street != "preflop":
                break
            if kind in ("bet", "raise"):
                raised.add(seat)
            elif kind == "call":
                called.add(seat)
        out: list[frozenset[str] | None] = []
        for s in others[:9]:
            out.append(_RAISER_RANGE if s in raised else (_CALLER_RANGE if s in called else None))
        return out if any(r is not None for r in out) else None

    def _equities(self, holdings: np.ndarray, view: Mapping[str, Any]) -> np.ndarray:
        """Postflop equity of each holding against the opponents still in the hand.

        Heads-up: :meth:`_heads_up_table`. With more opponents: Monte Carlo over ``samples`` deals (the rest of the board and the opponents' cards)
        drawn once from a generator seeded by ``equity_seed`` and the board, shared by every
        holding; a deal that uses one of the holding's cards is skipped for it. With
        ``read_ranges`` the opponents' cards come from their read ranges instead
        (:func:`holdem_env.engine.equity.equity`, seeded by the board and the holding).
        """
        seat = view["seat"]
        board = parse_cards(view["board"]) if view["board"] else ()
        others = [s for s, d in enumerate(view["dealt_in"]) if d and s != seat and not view["folded"][s]]
        opponents = max(1, min(len(others), 9))
        ranges = self._ranges(view, others) if self.read_ranges and others else None
        if ranges is not None:
            return np.array(
                [
                    equity(
                        tuple(int(c) for c in h),
                        board,
                        opponents=opponents,
                        ranges=ranges,
                        samples=self.samples,
                        rng=np.random.default_rng([self.equity_seed, *sorted(board), *sorted(int(c) for c in h)]),
                    )
                    for h in holdings
                ]
            )
        if opponents == 1:
            hu_board = tuple(sorted(board))
            table = self._equity_cache.get(self._heads_up_key(hu_board))
            if table is None and len(holdings) <= 16:  # a decision: only its own hand, the table's numbers
                return self._heads_up_few(hu_board, holdings)
            return self._heads_up_table(hu_board)[holding_indices(holdings)]
        key = (self.equity_seed, self.samples, opponents, tuple(sorted(board)))
        if len(holdings) <= 16:  # a decision: only its own hand (the same numbers as the full table)
            cached = self._equity_cache.get(key)
            if cached is None:
                rng = np.random.default_rng([self.equity_seed, *sorted(board)])
                return _sampled_equities(holdings, board, opponents, self.samples, rng)
            return cached[holding_indices(holdings)]
        cached = self._equity_cache.get(key)
        if cached is None:
            rng = np.random.default_rng([self.equity_seed, *sorted(board)])
            cached = np.full(NUM_HOLDINGS, np.nan)
            possible = np.flatnonzero(~blocked_by(board))
            cached[possible] = _sampled_equities(HOLDINGS[possible], board, opponents, self.samples, rng)
            _keep(self._equity_cache, key, cached, _TABLES_KEPT)
        return cached[holding_indices(holdings)]

    def _heads_up_table(self, board: tuple[int, ...]) -> np.ndarray:
        """Every holding's equity against one uniformly random holding on ``board`` (sorted):
        exact on the turn and river (:func:`holdem_env.engine.ranges.equity_against_random`),
        on the flop over ``flop_runouts`` run-outs drawn without replacement from a generator
        seeded by ``equity_seed`` and the board, the same run-outs for every holding. Kept for
        the last few boards: a hand's range queries ask again and again."""
        key = self._heads_up_key(board)
        table = self._equity_cache.get(key)
        if table is None:
            table = equity_against_random(board, self._heads_up_runouts(board))
            table = _even_if_unestimated(table, ~blocked_by(board))
            _keep(self._equity_cache, key, table, _TABLES_KEPT)
        return table

    def _heads_up_key(self, board: tuple[int, ...]) -> tuple[Any, ...]:
        return ("heads-up", self.equity_seed, self.flop_runouts, board)

    def _heads_up_runouts(self, board: tuple[int, ...]) -> np.ndarray | None:
        """The flop's sampled run-outs (None: every one, and on the turn and river)."""
        if len(board) != 3 or self.flop_runouts >= _ALL_FLOP_RUNOUTS:
            return None
        runouts = self._runouts_cache.get(board)
        if runouts is None:
            rng = np.random.default_rng([self.equity_seed, *board])
            runouts = flop_runouts(board)[np.sort(rng.choice(_ALL_FLOP_RUNOUTS, self.flop_runouts, replace=False))]
            _keep(self._runouts_cache, board, runouts, _FEW_KEPT)
        return runouts

    def _heads_up_few(self, board: tuple[int, ...], holdings: np.ndarray) -> np.ndarray:
        """:meth:`_heads_up_table`'s rows for a few holdings, without building the table
        (:func:`holdem_env.engine.ranges.holdings_equity_against_random`: the same numbers)."""
        hold = np.asarray(holdings, dtype=np.int64).reshape(-1, 2)
        key = (board, hold.tobytes())
        eqs = self._few_cache.get(key)
        if eqs is None:
            eqs = holdings_equity_against_random(board, hold, self._heads_up_runouts(board))
            eqs = _even_if_unestimated(eqs, ~blocked_by(board)[holding_indices(hold)])
            _keep(self._few_cache, key, eqs, _FEW_KEPT)
        return eqs.copy()

    def _postflop_spot(
        self, observation: Mapping[str, Any], info: Mapping[str, Any], view: Mapping[str, Any], legal: Mapping[str, Any]
    ) -> SimpleNamespace:
        """Everything public a postflop decision uses (the same for every holding)."""
        mask = np.asarray(observation["action_mask"])
        seat = view["seat"]
        others = [s for s, d in enumerate(view["dealt_in"]) if d and s != seat and not view["folded"][s]]
        opponents = max(1, min(len(others), 9))
        pot, to_call, current = view["pot"], legal["call"], view["current_bet"]
        preflop_raiser = [h[0] for h in view["history"] if h[1] == "preflop" and h[2] in ("bet", "raise")]
        return SimpleNamespace(
            passive=self._passive(legal, mask),
            opponents=opponents,
            pot=pot,
            to_call=to_call,
            current=current,
            street=view["street"],
            street_no={"flop": 1, "turn": 2, "river": 3}.get(view["street"], 1),
            value={1: 0.64, 2: 0.52}.get(opponents, 0.43) + 0.04 * (self.tightness - 1.0),
            was_aggressor=bool(preflop_raiser) and preflop_raiser[-1] == seat,
            raise_big=self._raise_to(observation, info, current + 0.8 * (pot + to_call)),
            raise_value=self._raise_to(observation, info, current + 0.7 * pot),
            raise_half=self._raise_to(observation, info, 0.5 * pot),
        )

    def _postflop_choice(self, spot: SimpleNamespace, eq: float, u: float) -> int:
        """The postflop action for equity ``eq`` and the uniform draw ``u``."""
        return int(self._postflop_choices(spot, np.array([eq]), u)[0])

    def _postflop_choices(self, spot: SimpleNamespace, eqs: np.ndarray, u: float) -> np.ndarray:
        """The postflop action for each equity in ``eqs``, given the uniform draw ``u``."""
        t, a = self.tightness, self.aggression
        value, street = spot.value, spot.street_no
        eq = np.asarray(eqs, dtype=np.float64)
        if spot.to_call > 0:
            pot_odds = spot.to_call / (spot.pot + spot.to_call)
            # A bettor's hand is stronger than a random one, the more so for larger bets and
            # later streets: discount the equity accordingly.
            eq = eq * (1.0 - (0.15 + 0.08 * street) * min(1.0, spot.to_call / max(spot.pot - spot.to_call, 1)))
            out = np.where(eq >= pot_odds + (0.04 + 0.03 * street) * t, _CHECK_CALL, int(spot.passive))
            if u < min(1.0, 0.8 * a) and spot.raise_big is not None:
                out = np.where(eq >= value + 0.12, int(spot.raise_big), out)
            return out

        first_bet_of_street = spot.current == 0
        value_bet = (eq >= value) & (u < min(1.0, 0.85 * a))
        # Otherwise: a continuation bet, or a stab heads-up when nobody has bet (a medium
        # hand or a draw takes the pot often).
        c_bet = (
            spot.street == "flop"
            and spot.was_aggressor
            and first_bet_of_street
            and spot.opponents <= 2
            and u < min(1.0, 0.7 * a)
        )
        stab = (first_bet_of_street and spot.opponents == 1 and u < min(1.0, 0.3 * a)) & (eq >= 0.35)
        half = _CHECK_CALL if spot.raise_half is None else int(spot.raise_half)
        out = np.full(len(eq), _CHECK_CALL)
        out[~value_bet & (c_bet | stab)] = half
        if spot.raise_value is not None:
            out[value_bet] = int(spot.raise_value)
        return out


@functools.lru_cache(maxsize=1)
def _holding_classes() -> np.ndarray:
    """The starting-hand class of each of the 1,326 holdings (``"AKs"``, ``"72o"``, ...)."""
    return np.array([hand_class((int(a), int(b))) for a, b in HOLDINGS])


def _sampled_equities(
    holdings: np.ndarray, board: Sequence[int], opponents: int, samples: int, rng: np.random.Generator
) -> np.ndarray:
    """Each holding's pot share against ``opponents`` random hands over ``samples`` deals
    drawn from ``rng`` (the same deals for every holding; deals using a holding's card are
    skipped for it; ties share the pot)."""
    board_arr = np.asarray(board, dtype=np.int64)
    rest = np.setdiff1d(np.arange(52), board_arr)
    k = 5 - len(board_arr)
    deals = rng.permuted(np.tile(rest, (samples, 1)), axis=1)[:, : k + 2 * opponents]
    full = np.concatenate([np.broadcast_to(board_arr, (samples, len(board_arr))), deals[:, :k]], axis=1)
    opp_best = np.full(samples, -1, dtype=np.int64)
    opp_values = []
    for j in range(opponents):
        cards = np.concatenate([deals[:, k + 2 * j : k + 2 * j + 2], full], axis=1)
        opp_values.append(evaluate_batch(cards.astype(np.uint8), validate=False).astype(np.int64))
        opp_best = np.maximum(opp_best, opp_values[-1])
    ties_at_best = np.sum([v == opp_best for v in opp_values], axis=0)
    hold = np.asarray(holdings, dtype=np.int64)
    incidence = card_incidence()[:, holding_indices(hold)]
    dealt = np.zeros((samples, 52), dtype=np.float32)
    np.put_along_axis(dealt, deals, 1.0, axis=1)
    clash = (dealt @ incidence) > 0  # (samples, n): the deal uses one of the holding's cards
    # Deals share few distinct boards after the flop: value each holding once per board.
    boards, which = np.unique(np.sort(full, axis=1), axis=0, return_inverse=True)
    which = which.ravel()
    on_board = np.zeros((len(boards), 52), dtype=np.float32)
    np.put_along_axis(on_board, boards, 1.0, axis=1)
    board_clash = (on_board @ incidence) > 0
    spare = np.argsort(on_board, axis=1, kind="stable")[:, :2]  # two cards off each board
    cards = np.empty((len(boards), len(hold), 7), dtype=np.uint8)
    cards[:, :, :2] = hold.astype(np.uint8)[None, :, :]
    rows, cols = np.nonzero(board_clash)
    cards[rows, cols, :2] = spare[rows].astype(np.uint8)  # a stand-in: those holdings skip these deals anyway
    cards[:, :, 2:] = boards.astype(np.uint8)[:, None, :]
    hero = evaluate_batch(cards.reshape(-1, 7), validate=False).reshape(len(boards), len(hold))[which]
    valid = ~clash
    wins = np.count_nonzero((hero > opp_best[:, None]) & valid, axis=0)
    tied = ((hero == opp_best[:, None]) & valid).astype(np.float64)
    share = wins + (1.0 / (1 + ties_at_best)) @ tied  # a tie with t opponents wins 1/(t+1)
    counts = np.count_nonzero(valid, axis=0)
    return np.where(counts > 0, share / np.maximum(counts, 1), 0.5)

"""AIVAT's private estimate (both hands known after the hand): the value ``V``, one deal's card facts, the chance terms and the action terms' values.

The value estimate
    With both players' cards known after the hand, the value of a state to a seat with
    showdown equity ``e`` (exact, every run-out enumerated; preflop, where that is 1.7
    million run-outs, an unbiased estimate from 20,000 run-outs drawn from a generator
    independent of the deck), ``P`` chips in the pot, ``m`` of them its own, ``R`` chips still behind for the
    shorter stack and ``q`` the smaller of the two hands' strengths against a random hand
    on the board (:func:`holdem_env.engine.ranges.strength_against_random`) is
    (:func:`state_value`)::

        V = e * P - m  +  POT_GROWTH * (e - 1/2) * P  +  STACK_SHARE * (e - 1/2) * R * q ** STRENGTH_POWER

    the pot share as it stands; the pot's expected growth, won in proportion to the equity
    lead; and the part of the stacks behind that two strong hands put in (two hands that
    both beat most random hands tend to get the money in; ``q ** 4`` is near 0 unless both
    are strong). Preflop ``q`` is 0. A fold is worth exactly ``-m`` to the folder.
    At the players' decisions (the action terms) a lighter estimate is used: the pot
    share and a quarter of the pot's growth, ``e * P - m + ACTION_POT_GROWTH * (e - 1/2) *
    P``, no stack term (it narrows the interval more there). The constants were chosen on
    measurements (``benchmarks/BENCHMARKS.md``, "AIVAT: measured results"); any fixed choice
    keeps the estimate unbiased.

Chance terms (:func:`chance_corrections`)
    At the deal and when the flop, turn and river are dealt, ``V(after) - E[V(after)]`` over
    the cards that could have come, money and stacks as they stood: the deal's mean equity
    is 1/2 (so with duplicate deals the deal terms of the two seat orders cancel), the
    flop's mean equity is the preflop equity, the turn's and river's means are exact (every
    card enumerated), and the strength part's mean over flops is estimated from
    ``flop_samples`` flops drawn from an injected generator independent of the deal (an
    unbiased estimate keeps the correction's mean zero).

Action terms (:func:`action_corrections`)
    At each decision of a player that answers range queries
    (:mod:`holdem_env.agents.ranges`), with ``pi`` its action probabilities for the holding
    it holds -- the distribution its ``act`` drew from -- the acting seat's correction is
    ``V(a_taken) - sum_a pi(a) V(a)``, ``V(a)`` the decisions' value estimate after action
    ``a`` (a call or raise adds its chips to ``P`` and ``m``; the other seat's answer is
    not anticipated). The other seat's correction is the negative. To get ``pi``
    the hand is replayed through the env with the agents seeded as the arena seeded them;
    the replay must reproduce the recorded hand exactly (:class:`ConfigError` otherwise).

"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np

from holdem_env.engine.equity import equity_vs_hands, exact_equity
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS
from holdem_env.engine.record import ActionEvent, DealEvent, UncalledBetReturned

#: Expected growth of the pot, as a share of it, won in proportion to the equity lead.
POT_GROWTH = 0.5
#: The pot's growth in the value estimate of the action terms (which has no stack term).
ACTION_POT_GROWTH = 0.25
#: Weight of the stacks behind that two strong hands are expected to put in.
STACK_SHARE = 1.0
#: Power of the smaller strength against a random hand in that term.
STRENGTH_POWER = 4

_FLOP_SAMPLES = 128
_PREFLOP_SAMPLES = 20_000
_HOLDINGS = np.asarray(HOLDINGS, dtype=np.int64)


def state_value(
    equity: Any,
    strength: Any,
    pot: float,
    put_in: float,
    behind: float,
    *,
    growth: float = POT_GROWTH,
    stack_share: float = STACK_SHARE,
) -> Any:
    """:math:`V` of the module docstring for a seat with showdown ``equity`` (a float or an
    array of them), ``strength`` the smaller of the two hands' strengths against a random
    hand (0 preflop), ``pot`` chips in the middle, ``put_in`` of them the seat's, ``behind``
    the shorter stack's chips not yet in; ``growth`` and ``stack_share`` the two weights
    (the action terms use ``ACTION_POT_GROWTH`` and 0). Zero-sum: the other seat's value
    is the negative.

    >>> state_value(0.75, 0.0, 100.0, 50.0, 900.0)  # 75 - 50 + 0.5 * 0.25 * 100
    37.5
    """
    lead = np.asarray(equity, dtype=np.float64) - 0.5
    out = (
        np.asarray(equity, dtype=np.float64) * pot
        - put_in
        + growth * lead * pot
        + stack_share * lead * behind * np.asarray(strength, dtype=np.float64) ** STRENGTH_POWER
    )
    return float(out) if out.ndim == 0 else out


def _holding_values(boards: np.ndarray) -> np.ndarray:
    """``(n, 1326)``: every holding's evaluator value with each of ``boards`` (``(n, k)`` card
    ids, k = 3..5) as they stand, no run-out; garbage for holdings that share a card with the
    board (valued with the first two cards off it instead; the callers give them no weight)."""
    n, k = boards.shape
    board_dead = np.zeros((n, 52), dtype=bool)
    np.put_along_axis(board_dead, boards, True, axis=1)
    clash = board_dead[:, _HOLDINGS[:, 0]] | board_dead[:, _HOLDINGS[:, 1]]
    spare = np.argsort(board_dead, axis=1, kind="stable")[:, :2]  # two cards off each board
    cards = np.concatenate(
        [
            np.where(clash[:, :, None], spare[:, None, :], _HOLDINGS[None]),
            np.broadcast_to(boards[:, None, :], (n, NUM_HOLDINGS, k)),
        ],
        axis=2,
    )
    return evaluate_batch(cards.reshape(-1, 2 + k).astype(np.uint8), validate=False).reshape(n, NUM_HOLDINGS)


def _strengths(holes: list[tuple[int, ...]], boards: np.ndarray) -> np.ndarray:
    """``(n, 2)``: each hand's share of the opponent holdings it beats on each of ``boards``
    (``(n, k)`` card ids, k = 3..5, no run-out), ties half, holdings sharing a card with the
    hand or the board excluded -- :func:`~holdem_env.engine.ranges.strength_against_random`
    for two hands on many boards at once."""
    boards = np.asarray(boards, dtype=np.int64)
    n = len(boards)
    values = _holding_values(boards)
    out = np.zeros((n, 2))
    for i, hole in enumerate(holes):
        hand = np.concatenate([np.broadcast_to(np.asarray(hole, dtype=np.int64), (n, 2)), boards], axis=1)
        mine = evaluate_batch(hand.astype(np.uint8), validate=False)[:, None]
        dead = np.zeros((n, 52), dtype=bool)
        np.put_along_axis(dead, hand, True, axis=1)
        ok = ~(dead[:, _HOLDINGS[:, 0]] | dead[:, _HOLDINGS[:, 1]])
        out[:, i] = (((values < mine) + 0.5 * (values == mine)) * ok).sum(axis=1) / ok.sum(axis=1)
    return out


def _shares(holes: list[tuple[int, ...]], boards: np.ndarray) -> np.ndarray:
    """The first hand's showdown share (1, 1/2 or 0) on each of ``boards`` (``(n, 5)`` card ids)."""
    n = len(boards)
    a, b = (
        evaluate_batch(
            np.concatenate([np.broadcast_to(np.asarray(h, dtype=np.int64), (n, 2)), boards], axis=1).astype(np.uint8),
            validate=False,
        )
        for h in holes
    )
    return (a > b) + 0.5 * (a == b)


def _next_cards(dead: set[int], board: tuple[int, ...]) -> np.ndarray:
    """``(m, len(board) + 1)``: ``board`` followed by each card that is neither dead nor on it."""
    rest = np.array([c for c in range(52) if c not in dead and c not in board], dtype=np.int64)
    return np.concatenate([np.broadcast_to(np.asarray(board, dtype=np.int64), (len(rest), len(board))), rest[:, None]], axis=1)


def _equities_after(holes: list[tuple[int, ...]], boards: np.ndarray) -> np.ndarray:
    """The first hand's exact equity on each of ``boards`` (``(n, 3)`` flops or ``(n, 4)``
    turns), every run-out enumerated, all boards in one batch."""
    boards = np.asarray(boards, dtype=np.int64)
    n, k = boards.shape
    dead = np.zeros((n, 52), dtype=bool)
    np.put_along_axis(dead, boards, True, axis=1)
    dead[:, [*holes[0], *holes[1]]] = True
    rest = np.argsort(dead, axis=1, kind="stable")[:, : 52 - 4 - k]  # each board's unseen cards, in order
    pairs = np.array(list(itertools.combinations(range(rest.shape[1]), 5 - k)), dtype=np.int64)
    tails = rest[:, pairs]  # (n, runouts, 5 - k)
    full = np.concatenate([np.broadcast_to(boards[:, None, :], (n, len(pairs), k)), tails], axis=2)
    return _shares(holes, full.reshape(-1, 5)).reshape(n, len(pairs)).mean(axis=1)


class DealOdds:
    """The card facts of one heads-up deal that the value estimate needs, computed when first
    asked and kept: the first hand's equity and the smaller strength against a random hand
    on each board, and their means over the cards that could come next.

    ``holes``: the two hands (seat order of the records that use it); ``rng``: the generator
    of the preflop equity estimate and the sampled flops, which must be independent of the
    deck (for example a child of the group's seed that the deal did not use);
    ``flop_samples``, ``preflop_samples``: their sizes.
    """

    def __init__(
        self,
        holes: Any,
        rng: np.random.Generator,
        *,
        flop_samples: int = _FLOP_SAMPLES,
        preflop_samples: int = _PREFLOP_SAMPLES,
    ) -> None:
        pair = [tuple(int(c) for c in h) for h in holes]
        if len(pair) != 2 or any(len(h) != 2 for h in pair) or len(set(pair[0]) | set(pair[1])) != 4:
            raise ConfigError("holes", holes, "must be two hands of two different cards each")
        if not isinstance(rng, np.random.Generator):
            raise ConfigError("rng", rng, "must be a numpy.random.Generator (independent of the deck)")
        for name, value in (("flop_samples", flop_samples), ("preflop_samples", preflop_samples)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(name, value, "must be an integer >= 1")
        self.holes = pair
        self._rng = rng
        self._flop_samples = flop_samples
        self._preflop_samples = preflop_samples
        self._equity: dict[tuple[int, ...], float] = {}
        self._strength: dict[tuple[int, ...], float] = {}
        self._next: dict[tuple[int, ...], tuple[float, float]] = {}

    def equity(self, board: Any) -> float:
        """The first hand's equity on ``board``: exact after the flop; preflop a Monte Carlo
        estimate (``preflop_samples`` run-outs, the same every time it is asked)."""
        key = tuple(int(c) for c in board)
        if key not in self._equity:
            if key:
                self._equity[key] = float(exact_equity(self.holes, list(key))[0])
            else:
                self._equity[key] = float(equity_vs_hands(self.holes, (), samples=self._preflop_samples, rng=self._rng)[0])
        return self._equity[key]

    def strength(self, board: Any) -> float:
        """The smaller of the two hands' strengths against a random hand on ``board`` (0 preflop)."""
        key = tuple(int(c) for c in board)
        if not key:
            return 0.0
        if key not in self._strength:
            self._strength[key] = float(_strengths(self.holes, np.array([key])).min())
        return self._strength[key]

    def next_card_means(self, board: Any) -> tuple[float, float]:
        """Over the cards dealt next after ``board`` (none: the flop; 3 cards: the turn; 4: the
        river): the mean of the first hand's equity and of ``(equity - 1/2) * strength **
        STRENGTH_POWER`` on the board they make. Exact for the turn and river; for the flop
        the equity's mean is the preflop equity and the other mean is estimated from
        ``flop_samples`` flops drawn from the generator."""
        key = tuple(int(c) for c in board)
        if key in self._next:
            return self._next[key]
        dead = set(self.holes[0]) | set(self.holes[1])
        if len(key) == 0:
            rest = np.array([c for c in range(52) if c not in dead], dtype=np.int64)
            boards = np.array([np.sort(self._rng.choice(rest, 3, replace=False)) for _ in range(self._flop_samples)])
            equities = _equities_after(self.holes, boards)
            mean_equity = self.equity(())
        elif len(key) in (3, 4):
            boards = _next_cards(dead, key)
            equities = _equities_after(self.holes, boards) if len(key) == 3 else _shares(self.holes, boards)
            mean_equity = float(equities.mean())
        else:
            raise ConfigError("board", key, "must have 0, 3 or 4 cards: the cards before a deal")
        weights = _strengths(self.holes, boards).min(axis=1) ** STRENGTH_POWER
        self._next[key] = (mean_equity, float(((equities - 0.5) * weights).mean()))
        return self._next[key]


def _heads_up_seats(record: Any) -> list[int]:
    seats = [s for s, d in enumerate(record.dealt_in) if d]
    if len(seats) != 2:
        raise ConfigError("players", len(seats), "luck adjustment is for heads-up hands: exactly 2 dealt in")
    return seats


def _first_hand_sign(record: Any, odds: DealOdds, seats: list[int]) -> float:
    """+1 if ``odds``'s first hand is ``seats[0]``'s, -1 if it is ``seats[1]``'s."""
    holes = [tuple(record.hole_cards[s]) for s in seats]
    if holes == odds.holes:
        return 1.0
    if holes[::-1] == odds.holes:
        return -1.0
    raise ConfigError("odds", odds.holes, "must be the DealOdds of this hand's hole cards")


def _posted(record: Any) -> np.ndarray:
    """The chips each seat put in before anyone acted (blinds and antes)."""
    return np.array(record.blinds, dtype=np.int64) + np.array(record.antes, dtype=np.int64)


def _chips_in(record: Any) -> Iterator[tuple[Any, np.ndarray]]:
    """Each event of ``record`` with the chips each seat had put in after it (one array, updated
    in place: copy it to keep it)."""
    contributed = _posted(record)
    for event in record.events:
        if isinstance(event, ActionEvent):
            contributed[event.seat] += event.amount
        elif isinstance(event, UncalledBetReturned):
            contributed[event.seat] -= event.amount
        yield event, contributed


def _deals(record: Any) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], np.ndarray]]:
    """Each board deal of ``record`` in order: ``(board before it, its cards, the chips each seat
    had put in when they came)``."""
    board: tuple[int, ...] = ()
    for event, contributed in _chips_in(record):
        if isinstance(event, DealEvent):
            cards = tuple(int(c) for c in event.cards)
            yield board, cards, contributed.copy()
            board = board + cards


def chance_corrections(record: Any, odds: DealOdds) -> np.ndarray:
    """Per-seat chip corrections (summing to zero) for the luck of the cards in a finished
    heads-up hand: the deal, the flop, the turn and the river (those dealt).

    ``payoffs - chance_corrections(record, odds)`` is the luck-adjusted result; ``odds``:
    the :class:`DealOdds` of the hand's hole cards. Raises :class:`ConfigError` for other
    than two players.
    """
    seats = _heads_up_seats(record)
    sign = _first_hand_sign(record, odds, seats)
    stacks = np.array(record.starting_stacks, dtype=np.int64)

    def term(
        contributed: np.ndarray, equity: float, lead_weighted: float, mean_equity: float, mean_lead_weighted: float
    ) -> float:
        # V(after) - E[V(after)] for the first hand, money as it stands: linear in the two means.
        pot = float(contributed[seats].sum())
        behind = float(min(stacks[s] - contributed[s] for s in seats))
        return (1.0 + POT_GROWTH) * pot * (equity - mean_equity) + STACK_SHARE * behind * (
            lead_weighted - mean_lead_weighted
        )

    # the deal: every hand's mean equity is 1/2
    first = term(_posted(record), odds.equity(()), 0.0, 0.5, 0.0)
    for before, cards, contributed in _deals(record):
        mean_equity, mean_weighted = odds.next_card_means(before)
        board = before + cards
        equity = odds.equity(board)
        weighted = (equity - 0.5) * odds.strength(board) ** STRENGTH_POWER
        first += term(contributed, equity, weighted, mean_equity, mean_weighted)
    out = np.zeros(len(record.dealt_in))
    out[seats[0]] = sign * first
    out[seats[1]] = -sign * first
    return out


def action_values(env: Any, seat: int, equity: float, starting_stacks: Any) -> np.ndarray:
    """``V(a)`` of every action id at ``seat``'s decision on ``env`` (a raw ``nlhe_v1`` env,
    heads-up, the seat on turn) for a seat whose showdown equity is ``equity``: the action
    terms' estimate ``equity * pot' - put_in' + ACTION_POT_GROWTH * (equity - 1/2) * pot'``
    after the action (:func:`state_value` without its stack term); ``-put_in`` after a fold;
    0 for masked ids. A call adds the amount to call, a bet or raise to ``r`` adds ``r``
    minus the seat's chips already in on this street (the other seat's answer is not
    anticipated).
    """
    name = env.possible_agents[seat]
    mask = np.asarray(env.observe(name)["action_mask"])
    view = env.infos[name]["view"]
    legal = env.infos[name]["legal"]
    put_in = np.asarray(starting_stacks, dtype=np.int64) - np.asarray(view["stacks"], dtype=np.int64)
    pot, mine = float(put_in.sum()), float(put_in[seat])
    out = np.zeros(len(mask))
    for a in np.flatnonzero(mask):
        if a == 0:
            out[a] = -mine
            continue
        if a == 1:
            add = float(legal["call"])
        else:
            add = float(env.action_amount(int(a))) - float(view["street_bets"][seat])
        out[a] = state_value(equity, 0.0, pot + add, mine + add, 0.0, growth=ACTION_POT_GROWTH, stack_share=0.0)
    return out

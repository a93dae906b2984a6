"""AIVAT for Local Best Response's hands: LBR's own range and check-down values as control variates, for a narrower interval on the same expected LBR value.

LBR (:mod:`holdem_env.training.lbr`) already knows, at every point of a hand, the exact
posterior of the agent's holding given what LBR has seen -- its *range*: uniform over the
holdings its own cards and the board allow, times the agent's answered probability of every
action it took -- and it already computes its showdown equity ``wp`` against that range.
With them, the hand's result ``u`` (LBR's chips) is re-scored, from LBR's own information
only, as::

    u_hat = u_close  -  sum of the agent's action terms  -  sum of the chance terms

* ``V(s) = wp(s) * P(s) - m(s)``, LBR's check-down value of a state ``s``: ``P`` the chips in
  the pot, ``m`` LBR's own, ``wp`` the exact equity against the range over every run-out
  (:func:`holdem_env.engine.ranges.equity_against_each`). It is defined from the flop on
  (preflop, an exact table takes minutes), so the terms start at the first decision on the
  flop (``start_street``: ``"flop"`` or, cheaper, ``"turn"``).
* At a decision of the agent: ``V(a_taken) - sum_a P(a) V(a)``, ``P(a) = sum_h r(h) pi(a|h)``
  the probability of action ``a`` given LBR's information (``r`` the range, ``pi`` the agent's
  range answers: the distribution its ``act`` draws from); ``V(fold)`` is exactly the chips
  the agent had put in, and after a check, call or raise ``V(a)`` uses the range times
  ``pi(a|.)`` and the pot after ``a`` (LBR's answer not anticipated). This is LBR's own
  estimate of a bet (``fp * pot + (1 - fp) * ...``) turned into a control variate.
* When a card comes while the betting is still open: ``P * (wp_after - wp_before)``; the
  equity is a martingale over the next card given the range (card removal included), so this
  has mean zero.
* ``u_close``: a hand that ended in a fold keeps ``u``. A showdown's result is replaced by
  its expectation given LBR's information when the betting closed, ``wp_close * P - m`` (the
  holding distributed as the range, every run-out of the board at that moment enumerated;
  a pre-flop all-in uses the final board).

Each term has mean zero given LBR's information before its event, whatever the estimate,
and ``u_close`` is ``E[u | LBR's information at the close]``, so ``E[u_hat] = E[u]``: the same
LBR value, unbiased, with the luck of the cards and of the agent's randomised actions removed
as far as ``V`` tracks them. LBR's own decisions are deterministic and need no term.

Papers: N. Burch, M. Schmid, M. Moravcik, D. Morrill, M. Bowling, "AIVAT: A New Variance
Reduction Technique for Agent Evaluation in Imperfect Information Games", AAAI 2018; V. Lisy,
M. Bowling, "Equilibrium Approximation Quality of Current No-Limit Poker Bots", 2017 (LBR).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import blocked_by, equity_against_range

__all__ = ["START_STREETS", "LbrLuck"]

#: Streets from which the terms may start (``V`` needs an exact equity table: flop or later).
START_STREETS = ("flop", "turn")
_BOARD_LEN = {"flop": 3, "turn": 4}


class LbrLuck:
    """One hand's AIVAT terms for LBR, fed by :class:`~holdem_env.training.lbr.LocalBestResponse`.

    ``table(board)``: LBR's equity against each of the 1,326 holdings on ``board`` (a tuple of
    card ids; NaN where blocked). Call :meth:`start` at the hand's start, :meth:`observe` at
    every decision (either seat) with the range as LBR holds it, :meth:`agent_action` with the
    agent's answers before its action is applied, :meth:`lbr_action` after LBR's choice, and
    :meth:`adjusted` at the end.
    """

    def __init__(self, table: Callable[[tuple[int, ...]], np.ndarray], start_street: str = "flop") -> None:
        if start_street not in START_STREETS:
            raise ConfigError("aivat_from", start_street, f"must be one of {', '.join(START_STREETS)}")
        self.table = table
        self.min_board = _BOARD_LEN[start_street]
        self.start((), 0)

    def start(self, board: tuple[int, ...], buy_in: int) -> None:
        """A new hand (``buy_in``: each seat's chips at its start)."""
        self.buy_in = int(buy_in)
        self.terms: list[float] = []  # every term, in order (chance and action)
        self.board: tuple[int, ...] = tuple(board)
        self.wp: float | None = None  # equity against the range on ``board`` (None: not defined yet)
        self.pot = 0
        self.mine = 0  # LBR's chips in the pot
        self.theirs = 0

    # -- the hand as it goes -----------------------------------------------------------------
    def _equity(self, board: tuple[int, ...], weights: np.ndarray) -> float:
        w = np.where(blocked_by(board), 0.0, weights) if board else weights
        return equity_against_range(self.table(board), w)

    def observe(self, board: tuple[int, ...], weights: np.ndarray, pot: int, mine: int, theirs: int) -> None:
        """A decision is about to be made with ``board`` and the range ``weights`` (1,326, after
        the board's blocked holdings are dropped); ``pot``, ``mine`` and ``theirs`` as they stand.
        A card dealt since the last action gives its chance term here."""
        board = tuple(board)
        self.pot, self.mine, self.theirs = int(pot), int(mine), int(theirs)
        if board == self.board:
            return
        self.board = board
        if len(board) < self.min_board:
            return
        wp = self._equity(board, weights)
        if self.wp is not None:
            self.terms.append(self.pot * (wp - self.wp))  # E[wp after the card] = wp before it
        self.wp = wp

    def agent_action(
        self, weights: np.ndarray, live: np.ndarray, probs: np.ndarray, action: int, adds: Mapping[int, int], fold: int = 0
    ) -> None:
        """The agent takes ``action``: ``weights`` the range before it (1,326), ``live`` the
        indices of the holdings still in it, ``probs`` the agent's answers ``(len(live),
        actions)``, ``adds`` the chips each legal non-fold action puts in (``fold``: the fold id)."""
        if len(self.board) >= self.min_board and self.wp is not None:
            table = self.table(self.board)[live]
            r = weights[live]
            mass = r @ probs  # P(a) times sum(r)
            total = float(r.sum())
            value_taken, expected = 0.0, 0.0
            for a, chips in [(fold, None), *adds.items()]:
                p = float(mass[a]) / total
                if chips is None:
                    v = float(self.theirs)  # the agent folds: LBR wins what it had put in
                    wp_a = self.wp
                else:
                    ra = r * probs[:, a]
                    s = float(ra.sum())
                    wp_a = float(ra @ table / s) if s > 0 else self.wp
                    v = wp_a * (self.pot + chips) - self.mine
                expected += p * v
                if a == action:
                    value_taken = v
                    wp_taken = wp_a
            self.terms.append(value_taken - expected)
            self.wp = wp_taken
        if action != fold:
            chips = int(adds[action])
            self.pot += chips
            self.theirs += chips

    def lbr_action(self, action: int, chips: int, fold: int = 0) -> None:
        """LBR takes ``action``, putting in ``chips`` (deterministic: no term)."""
        if action != fold:
            self.pot += int(chips)
            self.mine += int(chips)

    def adjusted(self, result: float, showdown: bool, weights: np.ndarray, final_board: tuple[int, ...]) -> float:
        """The hand's re-scored result: ``u_close`` minus every term (see the module docstring).

        ``weights``: the range at the end (1,326); ``final_board``: the board as dealt."""
        close = float(result)
        if showdown:
            if len(self.board) >= self.min_board and self.wp is not None:
                wp = self.wp  # on the board when the betting closed, every run-out enumerated
            else:  # closed before the terms started (a pre-flop all-in): the final board
                wp = self._equity(tuple(final_board), weights)
            close = wp * self.pot - self.mine
        return close - float(sum(self.terms))

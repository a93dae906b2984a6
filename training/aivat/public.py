"""AIVAT's estimates on the players' ranges: the range showdown value and the public terms, computed from the public history only.

Range showdown term (:func:`range_showdown_value`, AIVAT's imaginary observations of the
private cards)
    Each agent's actions depend only on its own holding and the public state, and the deal is
    uniform, so given the public history (board and actions) of a hand that reaches a
    showdown, the pair of holdings is distributed as ``w(hA, hB) = reach_A(hA) reach_B(hB)``
    over pairs sharing no card with each other or the board, ``reach_X(h)`` the product
    over X's decisions of the probability X's range answer gives the action it took with
    ``h``. The expectation of the showdown result under ``w``, ``u_bar = c * sum w sign(vA -
    vB) / sum w`` (``c`` the chips each put in, ``v`` the seven-card values), is then
    ``E[u | public history]`` exactly, so ``E[u_bar] = E[u]``: unbiased. Hands that end in
    a fold keep ``u``. The reaches come from the same replay as the action terms, with
    every holding queried at each decision.

    The chance terms use the real hands, so they track ``u``, not ``u_bar``: with ``u_bar``
    in place of ``u`` they add variance back. The private estimate mixes the two (a fixed mix
    of unbiased estimates is unbiased): ``SHOWDOWN_WEIGHT * (u_bar - action terms) + (1 -
    SHOWDOWN_WEIGHT) * (u - chance terms - action terms)`` with the weight 1/2.

Public terms (:func:`public_chance_term`, :func:`public_flop_term`, :func:`public_action_term`)
    ``u_bar`` is ``E[u | public history]`` (``u`` itself for a fold, which is public), so
    what is left of its variance comes from the public history: the board and the actions.
    Its own control variates are computed on the two ranges, never the hands: with the pair
    weights ``w(hA, hB) = reach_A(hA) reach_B(hB)`` over holdings sharing no card (with each
    other or the board) as they stand, a public value ``V_pub`` -- ``e * P - m + growth * (e
    - 1/2) * P`` with ``e`` the first range's showdown share against the other's with the
    hands as they stand on the board (:func:`range_equity`, no run-out; computed from sorted
    cumulative sums with card removal, :func:`range_shares`) -- and

    * at the turn and the river, ``V_pub(after card) - sum_c P(c) V_pub(after c)``, ``P(c)``
      the card's exact probability given the public history (:func:`next_card_probabilities`:
      the deck is uniform given the holdings, so ``P(c) = (1 - P(c in hA) - P(c in hB)) /
      cards left``, the two from the pair weights' marginals, :func:`joint_marginals`);
    * at the flop, the same with the mean over the flops estimated from 32 flops drawn from
      their public distribution (a pair of holdings from ``w``, then three of the other 48
      cards) with a generator independent of the deck: an unbiased estimate of the mean;
    * at each decision, ``V_pub(a_taken) - sum_a P(a) V_pub(a)`` with ``P(a) = sum_h m(h)
      pi(a | h) / sum_h m(h)``, ``m`` the acting seat's marginal under ``w``: the exact
      probability of the action given the public history (both seats' policies are known
      through their range answers); ``V_pub(a)`` uses the acting range after ``a`` (``reach
      * pi(a | .)``) and the pot and chips in after ``a``; after a fold ``-m`` (postflop).
      Preflop ``V_pub(a) = PREFLOP_LEAD_WEIGHT * lead * P`` (0 after a fold), ``lead`` the
      acting range's mean preflop strength (the share of holdings whose starting-hand class
      ranks below, :func:`holdem_env.agents.preflop.class_percentile`) minus the other's.

    Each has mean zero given the public history before its event, whatever ``V_pub`` is
    (any fixed function of the public state), so ``u_bar - public terms`` is unbiased. The
    adjusted result is ``PUBLIC_WEIGHT * (u_bar - public chance terms - public action
    terms) + (1 - PUBLIC_WEIGHT) * private estimate``: a fixed mix, unbiased. The constants
    were chosen on training seeds and frozen before held-out seeds were measured
    (``benchmarks/BENCHMARKS.md``, "AIVAT: measured results").
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from holdem_env.agents.preflop import class_percentile, hand_class
from holdem_env.engine.actions import ActionKind
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.evaluator import evaluate_batch
from holdem_env.engine.ranges import HOLDINGS, NUM_HOLDINGS, blocked_by, card_incidence, values_on_boards
from holdem_env.engine.record import ActionEvent

from .private import _HOLDINGS, _chips_in, _heads_up_seats, _holding_values, _posted

#: The pot's growth in the public value estimate at the cards (flop, turn, river).
PUBLIC_CHANCE_GROWTH = 0.0
#: The pot's growth in the public value estimate at the decisions.
PUBLIC_ACTION_GROWTH = 0.25
#: Preflop public value estimate: this weight times the strength lead of the acting seat's
#: range (mean of :data:`_PREFLOP_STRENGTH`) times the pot.
PREFLOP_LEAD_WEIGHT = 2.0

_PUBLIC_FLOP_SAMPLES = 32
#: Each holding's preflop strength: the share of the 1,326 holdings ranked below its class
#: (:func:`holdem_env.agents.preflop.class_percentile`; 1 for the best, 0 for the worst).
_PREFLOP_STRENGTH = np.array([1.0 - class_percentile(hand_class(tuple(h))) for h in HOLDINGS.tolist()])
_PREFLOP_STRENGTH.setflags(write=False)


def public_action_term(
    env: Any,
    seat: int,
    board: Any,
    mine: np.ndarray,
    theirs: np.ndarray,
    answers: np.ndarray,
    action: int,
    starting_stacks: Any,
) -> float:
    """The public action term of ``seat``'s decision on ``env`` (a raw heads-up
    ``nlhe_v1`` env, the seat on turn; ``board`` its cards as ids): ``V_pub(a_taken) -
    sum_a P(a) V_pub(a)``. ``mine``/``theirs``: the two seats' reaches before the decision;
    ``answers``: ``(1326, actions)``, the seat's range answer for every holding (rows of
    holdings on the board ignored); ``P(a) = sum_h m(h) answers[h, a] / sum_h m(h)``, ``m``
    the seat's marginal under the pair weights (:func:`joint_marginals`): the exact
    probability of the action given the public history; ``V_pub(a)`` the
    :func:`public_value` (growth ``PUBLIC_ACTION_GROWTH``) with the seat's range after
    ``a`` (``mine * answers[:, a]``), the pot and chips in after ``a`` as in
    :func:`action_values`, ``-put_in`` after a fold; preflop ``PREFLOP_LEAD_WEIGHT * lead *
    pot after a`` (0 after a fold), ``lead`` the mean preflop strength of the seat's range
    after ``a`` (marginal times answers) minus the other seat's marginal's. Mean zero given
    the public history before the decision, whatever ``V_pub``."""
    cards = tuple(int(c) for c in board)
    live = ~blocked_by(cards)
    w_mine = np.asarray(mine, dtype=np.float64) * live
    w_theirs = np.asarray(theirs, dtype=np.float64) * live
    marginal, their_marginal = joint_marginals(w_mine, w_theirs)
    total = float(marginal.sum())
    name = env.possible_agents[seat]
    acts = np.flatnonzero(np.asarray(env.observe(name)["action_mask"]))
    if total <= 0.0 or len(acts) < 2:
        return 0.0
    chance_of = (marginal @ answers[:, acts]) / total
    if np.count_nonzero(chance_of > 1e-12) < 2:
        return 0.0
    view = env.infos[name]["view"]
    legal = env.infos[name]["legal"]
    put_in = np.asarray(starting_stacks, dtype=np.int64) - np.asarray(view["stacks"], dtype=np.int64)
    pot, before = float(put_in.sum()), float(put_in[seat])
    values = board_values(cards) if cards else None
    theirs_strength = float(their_marginal @ _PREFLOP_STRENGTH) / float(their_marginal.sum())
    worth = np.zeros(len(acts))
    for i, a in enumerate(acts):
        if chance_of[i] <= 0.0 or (a == 0 and values is None):
            continue
        if a == 0:
            worth[i] = -before
            continue
        add = float(legal["call"]) if a == 1 else float(env.action_amount(int(a))) - float(view["street_bets"][seat])
        if values is None:  # preflop: the strength lead of the seat's range after ``a``
            after = marginal * answers[:, a]
            lead = float(after @ _PREFLOP_STRENGTH) / float(after.sum()) - theirs_strength
            worth[i] = PREFLOP_LEAD_WEIGHT * lead * (pot + add)
            continue
        share, pairs = range_shares(values, w_mine * answers[:, a], w_theirs)
        equity = share / pairs if pairs > 0 else 0.5
        worth[i] = public_value(equity, pot + add, before + add, growth=PUBLIC_ACTION_GROWTH)
    taken = int(np.flatnonzero(acts == action)[0])
    return float(worth[taken] - chance_of @ worth)


@functools.lru_cache(maxsize=1)
def _disjoint() -> np.ndarray:
    """``(1326, 1326)`` bool: the two holdings share no card."""
    incidence = np.zeros((NUM_HOLDINGS, 52), dtype=np.float32)
    incidence[np.arange(NUM_HOLDINGS)[:, None], _HOLDINGS] = 1.0
    out = (incidence @ incidence.T) == 0
    out.setflags(write=False)
    return out


def showdown_stake(record: Any) -> int | None:
    """The chips each player put in a heads-up ``record`` that ended at a showdown on a
    five-card board (equal once the uncalled bet is returned), checked against the payoffs
    (the winner wins the stake, a tie splits it); ``None`` for a hand that ended in a fold,
    or whose payoffs are not that (odd chips, rake), which then keeps its realised result."""
    seats = _heads_up_seats(record)
    if len(record.board) != 5 or any(isinstance(e, ActionEvent) and e.kind == ActionKind.FOLD for e in record.events):
        return None
    contributed = _posted(record)
    for _event, chips in _chips_in(record):
        contributed = chips  # the same array: the chips after the last event
    stake = int(contributed[seats[0]])
    if int(contributed[seats[1]]) != stake:
        return None
    values = evaluate_batch(
        np.array([[*record.hole_cards[s], *record.board] for s in seats], dtype=np.uint8), validate=False
    )
    won = int(np.sign(int(values[0]) - int(values[1])))
    if (record.payoffs[seats[0]], record.payoffs[seats[1]]) != (won * stake, -won * stake):
        return None
    return stake


def range_showdown_value(board: Any, reach_first: Any, reach_second: Any, stake: float) -> float:
    """The first player's expected showdown result on the five-card ``board`` when its
    holding is drawn in proportion to ``reach_first`` and the other's to ``reach_second``
    (each ``(1326,)`` non-negative weights over :data:`HOLDINGS`), the pair conditioned to
    share no card with each other or the board: ``stake * sum w1(h1) w2(h2) sign(v(h1) -
    v(h2)) / sum w1(h1) w2(h2)`` over disjoint pairs, ``v`` the seven-card value.

    Raises :class:`ConfigError` unless the board is five different cards and some disjoint
    pair has weight.
    """
    cards = tuple(int(c) for c in board)
    if len(cards) != 5 or len(set(cards)) != 5 or any(not 0 <= c < 52 for c in cards):
        raise ConfigError("board", cards, "must be five different card ids in 0..51")
    weights = []
    for name, w in (("reach_first", reach_first), ("reach_second", reach_second)):
        arr = np.asarray(w, dtype=np.float64)
        if arr.shape != (NUM_HOLDINGS,) or not np.all(np.isfinite(arr)) or (arr < 0).any():
            raise ConfigError(name, arr.shape, f"must be {NUM_HOLDINGS} finite non-negative weights")
        weights.append(arr)
    live = np.flatnonzero(~blocked_by(cards) & ((weights[0] > 0) | (weights[1] > 0)))
    w1, w2 = weights[0][live], weights[1][live]
    values = values_on_boards(np.array([cards]))[0].astype(np.int64)[live]
    apart = _disjoint()[np.ix_(live, live)]
    total = float(w1 @ apart @ w2)
    if total <= 0.0:
        raise ConfigError("reach", 0.0, "must give weight to some pair of holdings that share no card")
    signs = np.sign(values[:, None] - values[None, :]) * apart
    return float(stake) * float(w1 @ signs @ w2) / total


_INCIDENCE = card_incidence().astype(np.float64)  # (52, 1326): 1 where holding j holds card i


def board_values(board: Any) -> np.ndarray:
    """``(1326,)`` int64: each holding's evaluator value with the 3- to 5-card ``board`` (its
    made hand on the board as it stands, no run-out); garbage for holdings that share a card
    with the board (the callers give them no weight)."""
    cards = tuple(int(c) for c in board)
    if len(cards) not in (3, 4, 5) or len(set(cards)) != len(cards) or any(not 0 <= c < 52 for c in cards):
        raise ConfigError("board", cards, "must be 3 to 5 different card ids in 0..51")
    if len(cards) == 5:
        return values_on_boards(np.array([cards]))[0].astype(np.int64)
    return _holding_values(np.array([cards], dtype=np.int64))[0].astype(np.int64)


def range_shares(values: np.ndarray, first: np.ndarray, second: np.ndarray) -> tuple[float, float]:
    """``(sum w1(h1) w2(h2) share(h1, h2), sum w1(h1) w2(h2))`` over the pairs of holdings
    that share no card, ``share`` 1, 1/2 or 0 as ``values[h1]`` is above, equal to or below
    ``values[h2]``: the first range's showdown share against the second, summed, and the
    pairs' total weight. Holdings that share a card with the board must have weight 0.

    Without forming the 1,326 x 1,326 pairs: with the holdings sorted by value, the second
    range's weight below (and up to) each value is a cumulative sum, and the pairs that
    share a card with ``h1 = (a, b)`` are taken out with the same sums over the holdings
    holding ``a`` and those holding ``b`` (``h1`` itself, in both, ties itself and is added
    back once), O(52 x 1,326) work.
    """
    w1 = np.asarray(first, dtype=np.float64)
    w2 = np.asarray(second, dtype=np.float64)
    v = np.asarray(values, dtype=np.int64)
    order = np.argsort(v, kind="stable")
    ordered = v[order]
    w2_sorted = w2[order]
    cum = np.concatenate([[0.0], np.cumsum(w2_sorted)])
    by_card = np.zeros((52, NUM_HOLDINGS + 1))
    np.cumsum(_INCIDENCE[:, order] * w2_sorted[None, :], axis=1, out=by_card[:, 1:])
    below = np.searchsorted(ordered, v, "left")
    upto = np.searchsorted(ordered, v, "right")
    a, b = _HOLDINGS[:, 0], _HOLDINGS[:, 1]
    less = cum[below] - by_card[a, below] - by_card[b, below]
    not_more = cum[upto] - by_card[a, upto] - by_card[b, upto] + w2
    card_total = _INCIDENCE @ w2
    apart = cum[-1] - card_total[a] - card_total[b] + w2
    return float(w1 @ (less + 0.5 * (not_more - less))), float(w1 @ apart)


def range_equity(board: Any, first: Any, second: Any) -> float | None:
    """The first range's showdown share against the second with the hands as they stand on
    ``board`` (3 to 5 cards, no run-out; on the river the exact showdown), pairs weighted
    ``first(h1) second(h2)``, sharing no card with each other or the board; ``None`` when
    no such pair has weight."""
    cards = tuple(int(c) for c in board)
    live = ~blocked_by(cards)
    share, total = range_shares(board_values(cards), np.asarray(first) * live, np.asarray(second) * live)
    return share / total if total > 0 else None


def _range_equity_or_even(board: tuple[int, ...], first: np.ndarray, second: np.ndarray) -> float:
    """:func:`range_equity`, or 1/2 where no pair has weight (the public terms' convention)."""
    equity = range_equity(board, first, second)
    return 0.5 if equity is None else equity


def joint_marginals(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two holdings' marginal weights (unnormalised) under ``w(h1, h2) = first(h1)
    second(h2)`` over pairs sharing no card: ``first(h1) * sum of second over the holdings
    apart from h1``, and the same the other way."""
    a, b = _HOLDINGS[:, 0], _HOLDINGS[:, 1]

    def apart(w: np.ndarray) -> np.ndarray:
        card_total = _INCIDENCE @ w
        return float(w.sum()) - card_total[a] - card_total[b] + w

    return first * apart(second), second * apart(first)


def next_card_probabilities(board: Any, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cards that can come next after ``board`` (those not on it) and the probability
    of each given the public history: the two holdings are drawn from ``w(h1, h2) = first(h1)
    second(h2)`` (pairs sharing no card with each other or ``board``; the weights of holdings
    on the board must be 0), the next card uniformly from the rest of the deck, so
    ``P(c) = (1 - P(c in h1) - P(c in h2)) / (cards left)``."""
    cards = tuple(int(c) for c in board)
    m1, m2 = joint_marginals(first, second)
    total = float(m1.sum())
    if total <= 0.0:
        raise ConfigError("reach", 0.0, "must give weight to some pair of holdings that share no card")
    held = (_INCIDENCE @ m1 + _INCIDENCE @ m2) / total
    rest = np.array([c for c in range(52) if c not in cards], dtype=np.int64)
    return rest, np.clip(1.0 - held[rest], 0.0, None) / (len(rest) - 4)


def public_value(equity: float, pot: float, put_in: float, *, growth: float) -> float:
    """The public value estimate of a seat: ``equity * pot - put_in + growth * (equity -
    1/2) * pot``, ``equity`` the seat's range's share against the other's on the board
    (:func:`range_equity`)."""
    return equity * pot - put_in + growth * (equity - 0.5) * pot


def public_chance_term(board: Any, card: int, first: np.ndarray, second: np.ndarray, pot: float) -> float:
    """The first seat's public chance term for ``card`` dealt after ``board`` (3 or 4
    cards): ``V_pub(after card) - sum_c P(c) V_pub(after c)`` with ``V_pub`` the
    :func:`public_value` (growth ``PUBLIC_CHANCE_GROWTH``) at the range equity on the new
    board, ``P`` :func:`next_card_probabilities` (the card's exact distribution given the
    public history), ``first``/``second`` the two seats' reaches when the card came and
    ``pot`` the chips in the middle then. The chips put in are the same for every card, so
    they cancel. Mean zero given the public history before the card."""
    cards = tuple(int(c) for c in board)
    live = ~blocked_by(cards)
    w1, w2 = np.asarray(first, dtype=np.float64) * live, np.asarray(second, dtype=np.float64) * live
    rest, probs = next_card_probabilities(cards, w1, w2)
    equities = np.zeros(len(rest))
    for i, c in enumerate(rest):
        if probs[i] > 0.0:
            equities[i] = _range_equity_or_even((*cards, int(c)), w1, w2)
    taken = int(np.flatnonzero(rest == int(card))[0])
    mean = float(probs @ equities) / float(probs.sum())
    return (1.0 + PUBLIC_CHANCE_GROWTH) * float(pot) * (equities[taken] - mean)


def public_flop_term(
    flop: Any, first: np.ndarray, second: np.ndarray, pot: float, rng: np.random.Generator, *, samples: int = _PUBLIC_FLOP_SAMPLES
) -> float:
    """The first seat's public chance term for the ``flop``: ``V_pub(after flop) - mean of
    V_pub(after f)`` over ``samples`` flops ``f`` drawn from their distribution given the
    public history -- a pair of holdings from ``w(h1, h2) = first(h1) second(h2)`` (sharing
    no card), then three cards from the other 48 -- with ``rng``, a generator independent
    of the deck. The sampled mean is an unbiased estimate of ``E[V_pub(after f)]``, so the
    term has mean zero given the public history before the flop. ``V_pub`` as in
    :func:`public_chance_term`, the range equity of the hands as they stand on the flop."""
    cards = tuple(int(c) for c in flop)
    w1, w2 = np.asarray(first, dtype=np.float64), np.asarray(second, dtype=np.float64)
    m1, _ = joint_marginals(w1, w2)
    total = float(m1.sum())
    if total <= 0.0:
        raise ConfigError("reach", 0.0, "must give weight to some pair of holdings that share no card")

    drawn = []
    for h1 in rng.choice(NUM_HOLDINGS, size=samples, p=m1 / total):
        apart = w2 * _disjoint()[int(h1)]
        h2 = int(rng.choice(NUM_HOLDINGS, p=apart / apart.sum()))
        rest = np.setdiff1d(np.arange(52), [*_HOLDINGS[h1], *_HOLDINGS[h2]])
        drawn.append(_range_equity_or_even(tuple(int(c) for c in rng.choice(rest, 3, replace=False)), w1, w2))
    return (1.0 + PUBLIC_CHANCE_GROWTH) * float(pot) * (_range_equity_or_even(cards, w1, w2) - float(np.mean(drawn)))

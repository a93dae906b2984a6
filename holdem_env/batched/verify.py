"""The differential check of :class:`BatchedTables` against the engine's ``HandState``, hand by hand.

Every table's hand is replayed on a ``HandState`` given the same deck, button and stacks; at every
decision the seat to act, the pot and the legal set (fold, call amount, min and max raise-to) must be
equal, and so must the seat's view that ``fill_views`` writes (cards, board, stacks, street bets, flags,
action history, against the engine's state and events); the same action is applied to both, and each
finished hand's payoffs must be equal chip for chip.
Used by ``tests/test_batched_core.py`` and ``benchmarks/bench_batched.py --verify``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from holdem_env.batched._tables import BatchedTables
from holdem_env.batched.views import BatchViews
from holdem_env.engine.config import TableConfig
from holdem_env.engine.record import ActionEvent
from holdem_env.engine.state import HandState

__all__ = ["MismatchError", "DiffStats", "play_differential", "replay_opponents"]


class MismatchError(AssertionError):
    """The batched core and ``HandState`` disagreed (the message says where and how)."""


@dataclass
class DiffStats:
    """What a differential run covered."""

    hands: int = 0
    decisions: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # the decisions by the action drawn: fold, check/call, raise
    showdowns: int = 0
    side_pots: int = 0  # hands with more than one pot
    split_pots: int = 0  # hands with a pot of several winners
    runouts: int = 0  # showdowns with a seat all-in
    payoff_digest: int = 0  # a hash of every payoff in order: two runs agree iff (almost surely) their payoffs do


def _state(bt: BatchedTables, cfg: TableConfig, t: int) -> HandState:
    return HandState(cfg, button=int(bt.button[t]), stacks=bt.starting[t].tolist(), deck=bt.deck[t].tolist())


def _legal_of(bt: BatchedTables, t: int) -> tuple[int, bool, int, int | None, int | None]:
    lo, hi = int(bt.min_raise_to[t]), int(bt.max_raise_to[t])
    return (int(bt.actor[t]), bool(bt.legal_fold[t]), int(bt.legal_call[t]), lo or None, hi if lo else None)


def _engine_legal(hs: HandState) -> tuple[int, bool, int, int | None, int | None]:
    la = hs.legal_actions()
    return (int(hs.actor), bool(la.fold), int(la.call), la.min_raise_to, la.max_raise_to)  # type: ignore[arg-type]


def _apply(hs: HandState, a: int) -> None:
    if a == 0:
        hs.fold()
    elif a == 1:
        if hs.legal_actions().call:
            hs.call()
        else:
            hs.check()
    else:
        hs.raise_to(a - 1)


def _draw(rng: np.random.Generator, fold: bool, lo: int, hi: int, shove: bool = True) -> int:
    """A varied legal action: fold, check/call, min raise, all-in or a uniform raise size (``shove``
    false: no all-in, raises up to three times the minimum, so most hands reach showdown with chips behind)."""
    r = rng.random()
    if fold and r < 0.2:
        return 0
    if not lo or r < 0.55:
        return 1
    if r < 0.7:
        return lo + 1
    if not shove:
        return int(rng.integers(lo, min(hi, 3 * lo) + 1)) + 1
    if r < 0.85:
        return hi + 1
    return int(rng.integers(lo, hi + 1)) + 1


def _account(stats: DiffStats, hs: HandState) -> None:
    stats.hands += 1
    pots = hs.pots
    stats.side_pots += len(pots) > 1
    stats.split_pots += any(len(p.winners) > 1 for p in pots)
    stats.showdowns += bool(hs.shown)
    stats.runouts += bool(hs.shown) and any(hs.is_all_in)
    for v in hs.payoffs or ():
        stats.payoff_digest = (stats.payoff_digest * 1_000_003 + int(v)) % (1 << 61)


def _check_view(v: BatchViews, i: int, hs: HandState, where: str) -> None:
    """Row ``i`` of ``v`` against what the engine says the seat to act may see."""
    s = int(hs.actor)  # type: ignore[arg-type]
    board = hs.board
    pot, cb, button, _actor, stacks, bets = hs.public_table()
    history = [(e.seat, int(e.street), ("fold", "check", "call", "bet", "raise").index(e.kind.value), e.to)
               for e in hs.events if type(e) is ActionEvent]
    la = hs.legal_actions()
    want = {
        "seat": s, "button": button, "street": int(hs.street), "hole": list(hs.hole_cards_of(s) or ()),
        "board": list(board) + [-1] * (5 - len(board)), "board_len": len(board), "pot": pot, "current_bet": cb,
        "stacks": list(stacks), "street_bets": list(bets), "folded": [int(x) for x in hs.folded],
        "all_in": [int(x) for x in hs.is_all_in], "dealt_in": [int(x) for x in hs.dealt_in],
        "legal_fold": int(la.fold), "legal_check": int(la.check), "call": la.call,
        "min_raise_to": la.min_raise_to or 0, "max_raise_to": la.max_raise_to or 0, "hist_len": len(history),
    }
    for name, value in want.items():
        got = getattr(v, name)[i]
        if (got.tolist() if isinstance(got, np.ndarray) else int(got)) != value:
            raise MismatchError(f"{where}: view {name}: batched {got}, engine {value}")
    h = len(history)
    got_hist = list(zip(v.hist_seat[i, :h].tolist(), v.hist_street[i, :h].tolist(), v.hist_kind[i, :h].tolist(),
                        v.hist_to[i, :h].tolist(), strict=True))
    if got_hist != history:
        raise MismatchError(f"{where}: view history: batched {got_hist}, engine {history}")


def _check_hand_end(bt: BatchedTables, hs: HandState, t: int, where: str) -> None:
    got = bt.rewards[t].tolist()
    if list(hs.payoffs or ()) != got:
        raise MismatchError(f"{where}: payoffs differ: engine {hs.payoffs}, batched {got} (deck {hs.deck}, button {hs.button})")


def play_differential(
    bt: BatchedTables, hands: int, seed: int = 0, *, ante: int = 0, shove: bool = True
) -> DiffStats:
    """Play at least ``hands`` hands on ``bt`` (without random opponents) with varied random legal actions
    drawn from its legal arrays, replaying each on a ``HandState``; raise :class:`MismatchError` at the first
    difference."""
    if bt.random_opponents:
        raise ValueError("play_differential steps every seat itself: build the tables with random_opponents=False")
    cfg = TableConfig(
        num_players=bt.num_players, small_blind=bt.small_blind, big_blind=bt.big_blind, ante=ante,
        buy_in=int(bt.starting.max()),
    )
    rng = np.random.default_rng(seed)
    states = [_state(bt, cfg, t) for t in range(bt.num_tables)]
    stats = DiffStats()
    step = 0
    views = BatchViews.empty(bt.num_tables, bt.num_players, bt.small_blind, bt.big_blind)
    while stats.hands < hands:
        acts = np.empty(bt.num_tables, dtype=np.int64)
        bt.fill_views(None, views)
        for t, hs in enumerate(states):
            _check_view(views, t, hs, f"step {step} table {t}")
            mine, theirs = _legal_of(bt, t), _engine_legal(hs)
            if mine != theirs:
                raise MismatchError(f"step {step} table {t}: (actor, fold, call, min, max) batched {mine} != engine {theirs}")
            pot = int(bt.contrib[t].sum())
            if pot != hs.pot:
                raise MismatchError(f"step {step} table {t}: pot batched {pot} != engine {hs.pot}")
            a = _draw(rng, mine[1], mine[3] or 0, mine[4] or 0, shove)
            acts[t] = a
            _apply(hs, a)
            kind = ("fold", "check/call", "raise")[min(a, 2)]
            stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
        bt.step(acts)
        stats.decisions += bt.num_tables
        for t, hs in enumerate(states):
            if hs.is_over != bool(bt.terminated[t]):
                raise MismatchError(f"step {step} table {t}: hand over: engine {hs.is_over}, batched {bool(bt.terminated[t])}")
            if hs.is_over:
                _check_hand_end(bt, hs, t, f"step {step} table {t}")
                _account(stats, hs)
                states[t] = _state(bt, cfg, t)
        step += 1
    return stats


def replay_opponents(bt: BatchedTables, steps: int, seed: int = 0, *, ante: int = 0) -> DiffStats:
    """Step ``bt`` (built with random opponents and ``record``, not stepped yet) ``steps`` times with varied
    random learner actions, replaying its trace (every deal and decision since construction) on
    ``HandState``s: the same seats act, every action is legal for the engine, each step's rewards and
    terminations are the payoffs and count of the hands each table finished, and after each step the
    engine's actor is the learner with the same legal set."""
    if not (bt.random_opponents and bt.record):
        raise ValueError("replay_opponents needs BatchedTables(..., random_opponents=True, record=True)")
    cfg = TableConfig(
        num_players=bt.num_players, small_blind=bt.small_blind, big_blind=bt.big_blind, ante=ante,
        buy_in=int(bt.starting.max()),
    )
    stats = DiffStats()
    nt, n = bt.num_tables, bt.num_players
    rng = np.random.default_rng(seed)
    states: list[HandState | None] = [None] * nt
    for step in range(-1, steps):  # step -1: what the constructor played
        if step >= 0:
            acts = np.array([_draw(rng, bool(bt.legal_fold[t]), int(bt.min_raise_to[t]), int(bt.max_raise_to[t]))
                             for t in range(nt)], dtype=np.int64)
            bt.step(acts)
        totals = [[0] * n for _ in range(nt)]
        ended = [0] * nt
        for t, seat, what in bt.trace:
            if seat == -2:  # a finished hand's payoffs: (table, -2, payoffs)
                done = states[t]
                if done is None or not done.is_over or tuple(done.payoffs or ()) != what:
                    raise MismatchError(f"step {step} table {t}: batched hand payoffs {what}, engine at {done!r}")
                continue
            if seat < 0:  # a deal: (table, -1, (button, deck, learner seat))
                button, deck, _learner = what
                states[t] = HandState(cfg, button=button, stacks=bt.starting[t].tolist(), deck=list(deck))
                continue
            hs = states[t]
            assert hs is not None
            if hs.actor != seat:
                raise MismatchError(f"step {step} table {t}: batched seat {seat} acted, engine actor is {hs.actor}")
            la = hs.legal_actions()
            a = int(what)
            lo, hi = la.min_raise_to, la.max_raise_to
            ok = a == 1 or (a == 0 and la.fold) or (lo is not None and hi is not None and lo + 1 <= a <= hi + 1)
            if not ok:
                raise MismatchError(f"step {step} table {t}: action {a} of seat {seat} is illegal for the engine ({la})")
            _apply(hs, a)
            stats.decisions += 1
            if hs.is_over:
                ended[t] += 1
                for i, v in enumerate(hs.payoffs or ()):
                    totals[t][i] += v
                _account(stats, hs)
        bt.trace.clear()
        for t in range(nt):
            if step >= 0 and (totals[t] != bt.rewards[t].tolist() or ended[t] != int(bt.terminated[t])):
                raise MismatchError(f"step {step} table {t}: engine payoffs {totals[t]} over {ended[t]} hands, "
                               f"batched rewards {bt.rewards[t].tolist()} over {int(bt.terminated[t])}")
            hs = states[t]
            assert hs is not None
            if hs.is_over or hs.actor != bt.learner_seat or _engine_legal(hs) != _legal_of(bt, t):
                raise MismatchError(f"step {step} table {t}: after the step the engine is at {hs!r}, batched legal {_legal_of(bt, t)}")
    return stats

"""The hand state: one mutable object that runs a hand of hold'em from the forced bets to the payoffs.

Every rule of ``docs/RULES.md`` is decided here and nowhere else. Each action comes as a trio:
``verify_x()`` raises :class:`~holdem_env.engine.errors.IllegalActionError` with a message that names
the attempt and the legal set, ``can_x()`` is that check as a bool, and ``x()`` verifies,
mutates and returns the :class:`~holdem_env.engine.record.ActionEvent`. Illegal actions change nothing.

>>> from holdem_env.engine.config import TableConfig
>>> from holdem_env.engine.cards import new_deck
>>> s = HandState(TableConfig(num_players=3), button=0, deck=new_deck())
>>> s.actor, s.current_bet, s.legal_actions().min_raise_to
(0, 10, 20)
>>> s.raise_to(15)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
holdem_env.engine.errors.IllegalActionError: raise to 15 is below the minimum 20 (legal: fold, call 10, ...)
>>> s.fold().kind.value, s.actor
('fold', 1)

Interpretations where the rule book leaves room (documented here, tested in ``tests/``):

- The bet to call before the flop is always the full big blind, whatever was posted.
- Raising is offered only when some other player could still respond (is neither folded
  nor all-in); with nobody left to bet against, a player may only call or fold.
- A player who has acted may raise again only if the bet they face grew by at least the
  last full raise increment since they last acted (several short all-ins can add up).
- Fixed-limit: a bet/raise is exactly ``current bet + unit``; an all-in for less is a
  short raise that neither counts toward the cap nor reopens the betting.
- Antes are part of the layered contributions when every dealt-in seat owes the same ante;
  otherwise (big-blind ante, per-seat overrides) they are dead money added to the main pot.
"""

from __future__ import annotations

import importlib.machinery
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar, overload

import numpy as np

from holdem_env.engine import record as _record_module
from holdem_env.engine.actions import Action, ActionKind, LegalActions, Street
from holdem_env.engine.cards import validate_deck
from holdem_env.engine.config import BettingStructure, TableConfig
from holdem_env.engine.errors import ConfigError, HandOverError, HoldemError, IllegalActionError, short_repr
from holdem_env.engine.evaluator import _CARD_KEY_LIST, _FLUSH_ADD, _FLUSH_TEST, _PLAIN_DICTS, _RANK_MASK, hand_strength
from holdem_env.engine.pots import build_pots, split_pot, uncalled_bet
from holdem_env.engine.record import (
    ActionEvent,
    DealEvent,
    HandRecord,
    PotResult,
    ShowEvent,
    _deal_event,
    _muck_event,
    _pot_result,
    _show_event,
    _uncalled_event,
)
from holdem_env.engine.record import _action_event as _record_action_event
from holdem_env.engine.validate import check_int, check_seed, is_int

__all__ = ["HandState"]

_PREFLOP, _FLOP, _TURN, _RIVER, _SHOWDOWN = 0, 1, 2, 3, 4
_STREETS = tuple(Street)
_FOLD, _CHECK, _CALL, _BET, _RAISE = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)
_FIXED_LIMIT, _POT_LIMIT = BettingStructure.FIXED_LIMIT, BettingStructure.POT_LIMIT
_ORDERED_DECK = tuple(range(52))
_V = TypeVar("_V")
_new_tuple = tuple.__new__  # a NamedTuple from a plain tuple without the constructor's frame
_new_object = object.__new__
try:  # compiled build only: the C API's attribute setter, which passes a frozen dataclass's __setattr__
    from cython.cimports.cpython.object import PyObject_GenericSetAttr as _c_set
except (ImportError, AttributeError):  # pure Python, with or without Cython installed
    pass
#: Whether this module runs compiled (``state.pxd``): then the event constructors use ``_c_set``.
_COMPILED = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _action_event(
    seat: int, street: Street, kind: ActionKind, amount: int, to: int, all_in: bool, timeout: bool
) -> ActionEvent:
    """``record._action_event``; compiled, a C function (no Python frame per action) that sets
    the fields through the C API's generic setter (no Python-level call per field)."""
    if not _COMPILED:
        return _record_action_event(seat, street, kind, amount, to, all_in, timeout)
    ev = _new_object(ActionEvent)
    _c_set(ev, "seat", seat)
    _c_set(ev, "street", street)
    _c_set(ev, "kind", kind)
    _c_set(ev, "amount", amount)
    _c_set(ev, "to", to)
    _c_set(ev, "all_in", all_in)
    _c_set(ev, "timeout", timeout)
    return ev


def _deal(street: Street, cards: tuple[int, ...], burn: int | None) -> DealEvent:
    """``record._deal_event``; compiled, the fields set as in :func:`_action_event`."""
    if not _COMPILED:
        return _deal_event(street, cards, burn)
    ev = _new_object(DealEvent)
    _c_set(ev, "street", street)
    _c_set(ev, "cards", cards)
    _c_set(ev, "burn", burn)
    return ev


def _pot(amount: int, eligible: tuple[int, ...], winners: tuple[int, ...], shares: tuple[int, ...]) -> PotResult:
    """``record._pot_result``; compiled, the fields set as in :func:`_action_event`."""
    if not _COMPILED:
        return _pot_result(amount, eligible, winners, shares)
    p = _new_object(PotResult)
    _c_set(p, "amount", amount)
    _c_set(p, "eligible", eligible)
    _c_set(p, "winners", winners)
    _c_set(p, "shares", shares)
    return p


def _show(seat: int, cards: tuple[int, ...]) -> ShowEvent:
    """``record._show_event``; compiled, the fields set as in :func:`_action_event`."""
    if not _COMPILED:
        return _show_event(seat, cards)
    ev = _new_object(ShowEvent)
    _c_set(ev, "seat", seat)
    _c_set(ev, "cards", cards)
    return ev


#: The engine's legal set is the public one (cached per decision; ``env._core`` reads it by this name).
_Legal = LegalActions


def _int_list(name: str, values: Sequence[int], n: int, lo: int = 0) -> list[int]:
    if isinstance(values, (str, bytes)) or len(values) != n:
        raise ConfigError(name, values, f"must be a sequence of {n} integers (one per seat)")
    out = []
    for v in values:
        if not is_int(v) or v < lo:
            raise ConfigError(name, values, f"every entry must be an integer >= {lo} (got {v!r})")
        out.append(int(v))
    return out


def _showdown_strength(hole: tuple[int, ...], board: list[int]) -> int:
    """:func:`~holdem_env.engine.evaluator.hand_strength` of ``hole`` with ``board`` (5 cards): the
    evaluator's rank-key sum and table lookup, as C arithmetic in the compiled build (typed in
    ``state.pxd``); a flush goes to the evaluator itself. Equal to ``hand_strength`` on every
    hand (tests/test_state.py)."""
    keys = _CARD_KEY_LIST
    key = keys[hole[0]] + keys[hole[1]]
    for c in board:
        key += keys[c]
    if (key + _FLUSH_ADD) & _FLUSH_TEST:
        return hand_strength([hole[0], hole[1], *board])
    return _PLAIN_DICTS[2 + len(board)][key & _RANK_MASK]


def _accepts(verify: Callable[..., None], *args: object) -> bool:
    """Whether ``verify(*args)`` passes: a ``can_x`` answered by its ``verify_x``."""
    try:
        verify(*args)
    except IllegalActionError:
        return False
    return True


def _check_seed(seed: object) -> None:
    """Raise :class:`ConfigError` unless ``seed`` is ``None`` or a non-negative integer (numpy's rule)."""
    check_seed("seed", seed, allowed="must be a non-negative integer or None")


class _Read:
    """A read-only attribute of :class:`HandState` that reads one of its fields.

    ``HandState.button``, ``stacks`` and the other plain read-only attributes are this one getter
    over a different field; with ``copy`` the field is a list handed out as a tuple. Compiled
    (``state.pxd``), it is a C-level descriptor slot.
    """

    def __init__(self, field: str, copy: bool) -> None:
        #: The name of the :class:`HandState` field this attribute reads.
        self.field = field
        #: Whether the field is a list handed out as a tuple (a copy the caller may keep).
        self.copy = copy

    def __get__(self, state: object, owner: object) -> object:
        if state is None:  # read on the class (help(), the API docs)
            return self
        value = getattr(state, self.field)
        return tuple(value) if self.copy else value


if TYPE_CHECKING:  # what the type checker sees: the same descriptor, typed by what it returns

    class _Attr(Generic[_V]):
        @overload
        def __get__(self, state: None, owner: object) -> _Attr[_V]: ...

        @overload
        def __get__(self, state: HandState, owner: object) -> _V: ...

        def __get__(self, state: HandState | None, owner: object) -> object: ...

    def _int_field(field: str) -> _Attr[int]: ...

    def _int_tuple(field: str) -> _Attr[tuple[int, ...]]: ...

    def _bool_tuple(field: str) -> _Attr[tuple[bool, ...]]: ...

else:

    def _int_field(field):
        return _Read(field, False)

    def _int_tuple(field):
        return _Read(field, True)

    _bool_tuple = _int_tuple


class HandState:
    """One hand of Texas Hold'em, from the forced bets to the payoffs.

    Args:
        config: the table's rules.
        button: the button seat (must be dealt in).
        stacks: chips per seat at the start (default: everyone at ``config.buy_in``).
        deck: a full 52-card order to deal from (stacked deck); otherwise shuffled.
        rng: generator used to shuffle when no deck is given.
        seed: seed for ``numpy.random.default_rng`` when neither deck nor rng is given
            (recorded either way).
        antes: per-seat antes overriding ``config.ante``/``config.big_blind_ante``.
        dealt_in: which seats play this hand (default: every seat with chips).

    Antes, blinds and the hole cards are posted and dealt here, in docs/RULES.md order.

    Attributes:
        button: the button seat.
        small_blind_seat: the seat that posted the small blind (the button heads-up).
        big_blind_seat: the seat that posted the big blind.
        num_seats: the number of seats at the table (dealt in or not).
        current_bet: the street total a player must reach to call.
        last_full_raise: the last full bet/raise increment this round (the minimum raise increment).
        starting_stacks: chips per seat before antes and blinds.
        stacks: chips behind per seat (not counting chips in the middle); the final stacks once over.
        street_bets: each seat's total bet in the current betting round (antes excluded).
        contributions: each seat's chips put in during the whole hand (antes included).
        antes: antes actually posted per seat.
        blinds: blinds actually posted per seat.
        board: the community cards dealt so far.
        deck: the full 52-card order this hand is dealt from.
        is_all_in: per seat, all-in (no chips behind, still in the hand); ``all_in()`` is the action.
        dealt_in: per seat, playing this hand.

    The per-seat and card attributes are tuples, copies the caller may keep.
    """

    __slots__ = (
        "config",
        "_n",
        "_button",
        "_dealt_in",
        "_starting",
        "_stacks",
        "_bets",
        "_contrib",
        "_antes",
        "_ante_owed",
        "_blinds",
        "_dead_antes",
        "_folded",
        "_all_in",
        "_active",
        "_acted",
        "_faced",
        "_n_live",
        "_n_active",
        "_deck",
        "_pos",
        "_seed",
        "_hole",
        "_board",
        "_street",
        "_actor",
        "_current_bet",
        "_lfr",
        "_num_bets",
        "_river_aggressor",
        "_sb_seat",
        "_bb_seat",
        "_events",
        "_pots",
        "_shown",
        "_mucked",
        "_final",
        "_payoffs",
        "_betting",
        "_bb",
        "_legal_cache",
        "_why_no_raise",
    )

    def __init__(
        self,
        config: TableConfig,
        *,
        button: int = 0,
        stacks: Sequence[int] | None = None,
        deck: Sequence[int | str] | None = None,
        rng: np.random.Generator | None = None,
        seed: int | None = None,
        antes: Sequence[int] | None = None,
        dealt_in: Sequence[bool] | None = None,
    ) -> None:
        if not isinstance(config, TableConfig):
            raise ConfigError("config", config, "must be a TableConfig")
        n = config.num_players
        self.config = config
        self._n = n
        bb = config.big_blind
        self._bb = bb
        self._betting = config.betting
        if stacks is None:
            st = [config.buy_in] * n  # buy_in >= 1 (TableConfig checks it)
        else:
            st = _int_list("stacks", stacks, n)
        if dealt_in is None:
            din = [True] * n if stacks is None else [c > 0 for c in st]
        else:
            if len(dealt_in) != n or not all(isinstance(d, (bool, np.bool_)) for d in dealt_in):
                raise ConfigError("dealt_in", dealt_in, f"must be {n} booleans (one per seat)")
            din = [bool(d) for d in dealt_in]
            for i in range(n):
                if din[i] and st[i] <= 0:
                    raise ConfigError("dealt_in", dealt_in, f"seat {i} is dealt in but has no chips")
        if sum(din) < 2:
            raise ConfigError("dealt_in", din, "at least two seats with chips must be dealt in")
        button = check_int("button", button, 0, n - 1, allowed=f"must be a seat number in 0..{n - 1}")
        if not din[button]:
            raise ConfigError("button", button, "the button must be on a seat that is dealt in")
        _check_seed(seed)
        if deck is None:
            if rng is None:
                rng = np.random.default_rng(seed)
            elif not isinstance(rng, np.random.Generator):
                raise ConfigError("rng", rng, "must be a numpy.random.Generator")
            # The same order as ``rng.permutation(52).tolist()`` (numpy shuffles a list with the
            # same Fisher-Yates draws as an array; tests/test_state.py checks it), in half the time.
            dk = list(_ORDERED_DECK)
            rng.shuffle(dk)
        else:
            dk = list(validate_deck(deck))

        self._button = button
        self._dealt_in = din
        self._starting = st
        self._stacks = list(st)
        self._bets = [0] * n
        self._contrib = [0] * n
        n_live = sum(din)
        self._folded = [False] * n if n_live == n else [not d for d in din]
        self._all_in = [False] * n
        self._active = list(din)
        self._acted = [False] * n
        self._faced = [0] * n
        self._n_live = n_live
        self._n_active = self._n_live
        self._deck = dk
        self._seed = None if seed is None else int(seed)
        self._board: list[int] = []
        self._street = _PREFLOP
        self._actor: int | None = None
        self._current_bet = bb
        self._lfr = bb
        self._num_bets = 1
        self._river_aggressor: int | None = None
        self._events: list = []
        self._pots: tuple[PotResult, ...] = ()
        self._shown: dict[int, tuple[int, ...]] = {}
        self._mucked: tuple[int, ...] = ()
        self._final: list[int] | None = None
        self._payoffs: tuple[int, ...] | None = None  # set with _final: read once per view at the end
        self._legal_cache: LegalActions | None = None
        self._why_no_raise = ""  # with _legal_cache: "" when a raise is allowed, else why not (error messages)

        # Seats in deal order: first seat left of the button ... the button.
        order = [*range(button + 1, n), *range(button + 1)]
        if n_live < n:
            order = [s for s in order if din[s]]
        if len(order) == 2:
            sb_seat, bb_seat = button, order[0]
        else:
            sb_seat, bb_seat = order[0], order[1]
        self._sb_seat = sb_seat
        self._bb_seat = bb_seat

        # Antes first (dead: they never count toward the current bet).
        stacks_ = self._stacks
        if antes is None and config.ante == 0:
            self._dead_antes = False
            self._antes = self._ante_owed = [0] * n
        else:
            if antes is None:
                a = config.ante
                if config.big_blind_ante:
                    nominal = [0] * n
                    nominal[bb_seat] = a
                else:
                    nominal = [a if d else 0 for d in din]
            else:
                nominal = _int_list("antes", antes, n)
                nominal = [x if din[i] else 0 for i, x in enumerate(nominal)]
            owed = {x for i, x in enumerate(nominal) if din[i]}
            self._dead_antes = len(owed) > 1
            posted_antes = [0] * n
            for i in range(n):
                x = nominal[i]
                if x:
                    x = x if x < stacks_[i] else stacks_[i]
                    stacks_[i] -= x
                    self._contrib[i] += x
                    posted_antes[i] = x
                    if stacks_[i] == 0:
                        self._mark_all_in(i)
            self._antes = posted_antes
            self._ante_owed = nominal

        # Blinds: a short stack posts what it has and is all-in.
        blinds = [0] * n
        for seat, amount in ((sb_seat, config.small_blind), (bb_seat, bb)):
            x = amount if amount < stacks_[seat] else stacks_[seat]
            if x:
                stacks_[seat] -= x
                self._bets[seat] += x
                self._contrib[seat] += x
                blinds[seat] += x
                if stacks_[seat] == 0:
                    self._mark_all_in(seat)
        self._blinds = blinds

        # Hole cards: one at a time from the first seat left of the button.
        hole: list[tuple[int, ...] | None] = [None] * n
        k = len(order)
        for j, s in enumerate(order):
            hole[s] = (dk[j], dk[j + k])
        self._hole = hole
        self._pos = 2 * k

        self._next_actor_from(bb_seat)

    # ------------------------------------------------------------------ internals

    def _mark_all_in(self, seat: int) -> None:
        if self._active[seat]:
            self._all_in[seat] = True
            self._active[seat] = False
            self._n_active -= 1

    def _next_actor_from(self, seat: int) -> None:
        """Hand the turn to the next seat after ``seat`` that must act, or close the round."""
        n = self._n
        active = self._active
        bets = self._bets
        cb = self._current_bet
        if self._n_active <= 1:
            # Nobody to bet against: only a player who still owes chips acts.
            for k in range(1, n + 1):
                s = (seat + k) % n
                if active[s] and bets[s] < cb:
                    self._actor = s
                    return
        else:
            acted = self._acted
            for k in range(1, n + 1):
                s = (seat + k) % n
                if active[s] and (bets[s] < cb or not acted[s]):
                    self._actor = s
                    return
        self._actor = None
        self._end_street()

    def _end_street(self) -> None:
        if self._street == _RIVER:
            self._showdown()
            return
        run_out = self._n_active <= 1
        if run_out:
            self._return_uncalled()  # before the rest of the board is dealt
        n = self._n
        self._bets = [0] * n
        self._acted = [False] * n
        self._faced = [0] * n
        self._current_bet = 0
        fixed_big_bet = self._street >= _FLOP and self._betting is BettingStructure.FIXED_LIMIT
        self._lfr = 2 * self._bb if fixed_big_bet else self._bb
        self._num_bets = 0
        if run_out:
            while self._street < _RIVER:
                self._deal_next_street()
            self._showdown()
            return
        self._deal_next_street()
        self._next_actor_from(self._button)

    def _deal_next_street(self) -> None:
        street = self._street + 1
        self._street = street
        dk = self._deck
        p = self._pos
        burn = dk[p]
        k = 3 if street == _FLOP else 1
        cards = tuple(dk[p + 1 : p + 1 + k])
        self._pos = p + 1 + k
        self._board.extend(cards)
        self._events.append(_deal(_STREETS[street], cards, burn))

    def _return_uncalled(self) -> None:
        # Same basis as the pot layers: dead antes never count as matched chips.
        contrib = self._contrib
        if self._dead_antes:
            basis = [c - a for c, a in zip(contrib, self._antes, strict=True)]
        else:
            basis = contrib
        found = uncalled_bet(basis)
        if found is not None:
            self._give_back(*found)
            if basis is not contrib:
                basis[found[0]] -= found[1]
        # Chips above every remaining player's contribution (possible when players fold to a
        # big blind nobody could post in full) cannot be won by anyone: they go back too.
        folded = self._folded
        reach = -1  # the largest contribution of a player still in (loops, not generators: compiled build)
        for seat in range(self._n):
            if not folded[seat] and basis[seat] > reach:
                reach = basis[seat]
        for seat in range(self._n):
            b = basis[seat]
            if b > reach:
                self._give_back(seat, b - reach)

    def _give_back(self, seat: int, amount: int) -> None:
        self._contrib[seat] -= amount
        self._stacks[seat] += amount
        b = self._bets[seat]
        self._bets[seat] = b - amount if b > amount else 0
        self._events.append(_uncalled_event(seat, amount))

    def _layers(self) -> list[tuple[int, tuple[int, ...]]]:
        """The pot layers of :func:`~holdem_env.engine.pots.build_pots` for this hand's chips.

        Most hands have one layer (no player still in the hand is all-in for less than the
        most anyone put in): that one is computed here directly, the same ``(amount, eligible)``
        build_pots gives it; side pots and dead antes go through build_pots.
        """
        folded = self._folded
        contrib = self._contrib
        all_in = self._all_in
        if self._dead_antes:
            in_hand = [not f for f in folded]
            chips = [c - a for c, a in zip(contrib, self._antes, strict=True)]
            return build_pots(chips, in_hand, all_in, sum(self._antes))
        n = self._n
        top = 0
        amount = 0
        for s in range(n):
            c = contrib[s]
            amount += c
            if c > top:
                top = c
        for s in range(n):
            if all_in[s] and not folded[s] and contrib[s] < top:  # a side pot
                return build_pots(contrib, [not f for f in folded], all_in)
        if not amount:
            return []
        eligible = tuple([s for s in range(n) if not folded[s] and contrib[s] >= top])
        assert eligible, "a pot layer nobody in the hand reached"
        return [(amount, eligible)]

    def _finish(self, pots: list[PotResult]) -> None:
        final = list(self._stacks)
        for p in pots:
            for w, sh in zip(p.winners, p.shares, strict=True):
                final[w] += sh
        self._pots = tuple(pots)
        self._final = final
        starting = self._starting
        self._payoffs = tuple([final[i] - starting[i] for i in range(self._n)])  # a list: no generator
        self._stacks = list(final)
        self._street = _SHOWDOWN
        self._actor = None
        assert sum(final) == sum(self._starting), "chips were created or destroyed"

    def _win_by_fold(self) -> None:
        self._actor = None
        self._return_uncalled()
        winner = self._folded.index(False)
        pots = [_pot(amount, elig, (winner,), (amount,)) for amount, elig in self._layers()]
        self._finish(pots)

    def _showdown(self) -> None:
        self._return_uncalled()
        n = self._n
        button = self._button
        board = self._board
        folded = self._folded
        hole = self._hole
        strength = [-1] * n
        for s in range(n):
            if not folded[s]:
                strength[s] = _showdown_strength(hole[s], board)  # type: ignore[arg-type]
        pots = []
        won = [False] * n
        for amount, elig in self._layers():
            best = -1
            for s in elig:
                if strength[s] > best:
                    best = strength[s]
            winners = tuple([s for s in elig if strength[s] == best])
            shares = tuple(split_pot(amount, winners, button, n)) if len(winners) > 1 else (amount,)
            for w in winners:
                won[w] = True
            pots.append(_pot(amount, elig, winners, shares))
        # Showing order: last river aggressor, else first remaining seat left of the button.
        first = self._river_aggressor
        if first is None or folded[first]:
            first = button
            for k in range(1, n + 1):
                if not folded[(button + k) % n]:
                    first = (button + k) % n
                    break
        shown: dict[int, tuple[int, ...]] = {}
        mucked = []
        best_shown = -1
        show_all = self.config.show_all_hands
        for k in range(n):
            s = (first + k) % n
            if folded[s]:
                continue
            if show_all or won[s] or strength[s] >= best_shown:
                shown[s] = hole[s]  # type: ignore[assignment]
                if strength[s] > best_shown:
                    best_shown = strength[s]
                self._events.append(_show(s, hole[s]))  # type: ignore[arg-type]
            else:
                mucked.append(s)
                self._events.append(_muck_event(s))
        self._shown = shown
        self._mucked = tuple(mucked)
        self._finish(pots)

    def _legal(self) -> LegalActions:
        """The actor's legal set, computed once per decision (raises :class:`HandOverError` when the hand is over)."""
        cached = self._legal_cache
        if cached is not None:
            return cached
        s = self._actor
        if s is None:
            raise HandOverError(self._over_message())
        bet = self._bets[s]
        stack = self._stacks[s]
        cb = self._current_bet
        owed = cb - bet
        if owed > 0:
            call = owed if owed < stack else stack
            fold = True
            check = False
        else:
            call = 0
            fold = self.config.allow_free_fold
            check = True
        lo: int | None = None
        hi: int | None = None
        why = ""
        if stack <= owed:
            why = "the stack only covers a call"
        elif self._n_active <= 1:
            why = "every other player is all-in"
        elif self._acted[s] and cb - self._faced[s] < self._lfr:
            why = "the betting was not reopened (only a short all-in raise since this player acted)"
        else:
            betting = self._betting
            allin_to = bet + stack
            if betting is _FIXED_LIMIT:
                cap = self.config.raise_cap
                if (
                    cap is not None
                    and self._num_bets >= cap
                    and not (self.config.uncapped_heads_up and self._n_live == 2)
                ):
                    why = f"the cap of {cap} bets this round is reached"
                else:
                    unit = self._bb if self._street < _TURN else 2 * self._bb
                    lo = cb + unit
                    if allin_to < lo:
                        lo = allin_to
                    hi = lo
            else:
                lo = cb + self._lfr
                if allin_to <= lo:
                    lo = hi = allin_to
                else:
                    hi = allin_to
                    if betting is _POT_LIMIT:
                        pot_max = cb + sum(self._contrib) + owed
                        if pot_max < hi:
                            hi = pot_max if pot_max > lo else lo
        cached = _new_tuple(LegalActions, (s, fold, check, call, lo, hi))
        self._legal_cache = cached
        self._why_no_raise = why
        return cached

    def _over_message(self) -> str:
        return f"the hand is over; no more actions are possible (final stacks {self._final})"

    def _illegal(self, what: str, legal: LegalActions) -> IllegalActionError:
        return IllegalActionError(f"{what} (legal: {legal})")

    def _after(self, s: int) -> None:
        self._legal_cache = None
        if self._n_live == 1:
            self._win_by_fold()
        else:
            self._next_actor_from(s)

    # ------------------------------------------------------------------ views

    @property
    def actor(self) -> int | None:
        """The seat on turn, or ``None`` once the hand is over."""
        return self._actor

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended (payoffs are final)."""
        return self._final is not None

    @property
    def street(self) -> Street:
        """The current betting round (``SHOWDOWN`` once the hand is over)."""
        return _STREETS[self._street]

    @property
    def hole_cards(self) -> tuple[tuple[int, ...] | None, ...]:
        """Each seat's two hole cards (``None`` for seats not dealt in). Private information."""
        return tuple(self._hole)

    def hole_cards_of(self, seat: int) -> tuple[int, ...] | None:
        """``seat``'s two hole cards (``None`` if not dealt in). Private information.

        >>> from holdem_env.engine.config import TableConfig
        >>> HandState(TableConfig(num_players=2), deck=list(range(52))).hole_cards_of(1)
        (0, 2)
        """
        return self._hole[seat]

    def stack_of(self, seat: int) -> int:
        """Chips behind of one seat (:attr:`stacks` without building the whole tuple)."""
        return self._stacks[seat]

    def street_bet_of(self, seat: int) -> int:
        """One seat's bet in the current betting round (:attr:`street_bets` for one seat)."""
        return self._bets[seat]

    @property
    def seed(self) -> int | None:
        """The seed the deck was shuffled with, if one was given."""
        return self._seed

    # The plain read-only attributes (documented under "Attributes" above): one getter each.
    button, small_blind_seat, big_blind_seat, num_seats, current_bet, last_full_raise = map(
        _int_field, ("_button", "_sb_seat", "_bb_seat", "_n", "_current_bet", "_lfr")
    )
    starting_stacks, stacks, street_bets, contributions, antes, blinds, board, deck = map(
        _int_tuple, ("_starting", "_stacks", "_bets", "_contrib", "_antes", "_blinds", "_board", "_deck")
    )
    is_all_in, dealt_in = map(_bool_tuple, ("_all_in", "_dealt_in"))

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per seat: folded this hand (seats not dealt in are ``False``; see :attr:`dealt_in`)."""
        return tuple([f and d for f, d in zip(self._folded, self._dealt_in, strict=True)])

    @property
    def pot(self) -> int:
        """All chips in the middle (pots and current bets); 0 once the hand is settled."""
        return 0 if self._final is not None else sum(self._contrib)

    def public_table(self) -> tuple[int, int, int, int | None, tuple[int, ...], tuple[int, ...]]:
        """``(pot, current_bet, button, actor, stacks, street_bets)`` in one call: what every seat
        sees of the table now (the properties of those names; the env reads them once per view).

        >>> from holdem_env.engine.config import TableConfig
        >>> HandState(TableConfig(num_players=3), deck=list(range(52)), button=0).public_table()
        (15, 10, 0, 0, (1000, 995, 990), (0, 5, 10))
        """
        return (
            0 if self._final is not None else sum(self._contrib),
            self._current_bet,
            self._button,
            self._actor,
            tuple(self._stacks),
            tuple(self._bets),
        )

    @property
    def amount_to_call(self) -> int:
        """Chips the actor owes to call (before capping at the stack); 0 when the hand is over."""
        s = self._actor
        return 0 if s is None else max(self._current_bet - self._bets[s], 0)

    @property
    def events(self) -> tuple:
        """Every event so far, in order (a copy; see :meth:`events_since`)."""
        return tuple(self._events)

    def events_since(self, index: int) -> list:
        """Events from position ``index`` on (cheap way to follow a hand)."""
        return self._events[index:]

    @property
    def num_events(self) -> int:
        """How many events have happened."""
        return len(self._events)

    @property
    def payoffs(self) -> tuple[int, ...] | None:
        """Net chips won per seat once the hand is over (sums to 0), else ``None``."""
        return self._payoffs

    @property
    def final_stacks(self) -> tuple[int, ...] | None:
        """Stacks after the pots were awarded, else ``None``."""
        return None if self._final is None else tuple(self._final)

    @property
    def pots(self) -> tuple[PotResult, ...]:
        """The awarded pots (main pot first); empty while the hand runs."""
        return self._pots

    @property
    def shown(self) -> dict[int, tuple[int, ...]]:
        """Seat -> cards for every hand shown at showdown."""
        return dict(self._shown)

    @property
    def mucked(self) -> tuple[int, ...]:
        """Seats that mucked unseen at showdown."""
        return self._mucked

    # ------------------------------------------------------------------ legality

    def legal_actions(self) -> LegalActions:
        """The legal actions of the player on turn (raises :class:`HandOverError` when over)."""
        return self._legal()

    def verify_fold(self) -> None:
        """Raise :class:`IllegalActionError` unless the actor may fold."""
        legal = self._legal()
        if not legal.fold:
            raise self._illegal(
                "fold is not offered when checking is free (TableConfig.allow_free_fold enables it)", legal
            )

    def verify_check(self) -> None:
        """Raise :class:`IllegalActionError` unless the actor may check."""
        legal = self._legal()
        if not legal.check:
            raise self._illegal(f"check is not allowed: {legal.call} is owed to call", legal)

    def verify_call(self) -> None:
        """Raise :class:`IllegalActionError` unless the actor may call."""
        legal = self._legal()
        if legal.call <= 0:
            raise self._illegal("call is not allowed: nothing is owed (check instead)", legal)

    def verify_raise_to(self, amount: int) -> None:
        """Raise :class:`IllegalActionError` unless a bet/raise to ``amount`` (street total) is legal."""
        if not is_int(amount):
            raise IllegalActionError(
                f"raise-to amount must be an integer number of chips, got {type(amount).__name__} {short_repr(amount)}"
            )
        legal = self._legal()
        lo = legal.min_raise_to
        word = "raise" if self._current_bet else "bet"
        if lo is None:
            raise self._illegal(f"{word} to {short_repr(amount)} is not allowed: {self._why_no_raise}", legal)
        if amount < lo:
            raise self._illegal(f"{word} to {short_repr(amount)} is below the minimum {lo}", legal)
        hi: int = legal.max_raise_to  # type: ignore[assignment]  # set whenever min_raise_to is
        if amount > hi:
            raise self._illegal(f"{word} to {short_repr(amount)} is above the maximum {hi}", legal)

    def verify_all_in(self) -> None:
        """Raise :class:`IllegalActionError` unless the actor may put in every chip."""
        s = self._legal().seat
        stack = self._stacks[s]
        if stack <= self._current_bet - self._bets[s]:
            return
        self.verify_raise_to(self._bets[s] + stack)

    def verify_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"expected an Action, got {type(action).__name__} {short_repr(action)}")
        kind = action.kind
        if kind is _FOLD:
            self.verify_fold()
        elif kind is _CHECK:
            self.verify_check()
        elif kind is _CALL:
            self.verify_call()
        else:
            self.verify_raise_to(action.amount)

    def can_fold(self) -> bool:
        """Whether the actor may fold."""
        return self._final is None and self._legal().fold

    def can_check(self) -> bool:
        """Whether the actor may check."""
        return self._final is None and self._legal().check

    def can_call(self) -> bool:
        """Whether the actor may call (something is owed)."""
        return self._final is None and self._legal().call > 0

    def can_raise_to(self, amount: int | None = None) -> bool:
        """Whether a bet/raise to ``amount`` is legal (any amount when ``None``)."""
        if self._final is not None:
            return False
        if amount is None:
            return self._legal().min_raise_to is not None
        return _accepts(self.verify_raise_to, amount)

    def can_all_in(self) -> bool:
        """Whether the actor may put in every chip."""
        return _accepts(self.verify_all_in)

    def can_act(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return _accepts(self.verify_action, action)

    # ------------------------------------------------------------------ actions

    def fold(self) -> ActionEvent:
        """Fold; returns the event."""
        self.verify_fold()
        return self._fold(self._actor, False)  # type: ignore[arg-type]

    def _fold(self, s: int, timeout: bool) -> ActionEvent:
        self._folded[s] = True
        self._active[s] = False
        self._n_live -= 1
        self._n_active -= 1
        return self._record_action(s, _FOLD, 0, self._bets[s], False, timeout)

    def check(self) -> ActionEvent:
        """Check; returns the event."""
        self.verify_check()
        return self._check(self._actor, False)  # type: ignore[arg-type]

    def _check(self, s: int, timeout: bool) -> ActionEvent:
        self._acted[s] = True
        self._faced[s] = self._current_bet
        return self._record_action(s, _CHECK, 0, self._bets[s], False, timeout)

    def call(self) -> ActionEvent:
        """Call (all-in for less when short); returns the event."""
        self.verify_call()
        s: int = self._actor  # type: ignore[assignment]
        cb = self._current_bet
        stack = self._stacks[s]
        put = self._legal().call  # min(owed, stack); cached by verify_call
        stack -= put
        self._stacks[s] = stack
        to = self._bets[s] + put
        self._bets[s] = to
        self._contrib[s] += put
        self._acted[s] = True
        self._faced[s] = cb
        allin = stack == 0
        if allin:
            self._mark_all_in(s)
        return self._record_action(s, _CALL, put, to, allin, False)

    def raise_to(self, amount: int) -> ActionEvent:
        """Bet or raise to ``amount`` (this street's total for the actor); returns the event."""
        self.verify_raise_to(amount)
        amount = int(amount)
        s: int = self._actor  # type: ignore[assignment]
        cb = self._current_bet
        kind = _RAISE if cb or self._street == _PREFLOP else _BET
        put = amount - self._bets[s]
        stack = self._stacks[s] - put
        self._stacks[s] = stack
        self._bets[s] = amount
        self._contrib[s] += put
        increment = amount - cb
        if increment >= self._lfr:
            self._lfr = increment
            self._num_bets += 1
        self._current_bet = amount
        self._acted[s] = True
        self._faced[s] = amount
        if self._street == _RIVER:
            self._river_aggressor = s
        allin = stack == 0
        if allin:
            self._mark_all_in(s)
        return self._record_action(s, kind, put, amount, allin, False)

    def _record_action(self, s: int, kind: ActionKind, put: int, to: int, allin: bool, timeout: bool) -> ActionEvent:
        """Every action ends here: its event is recorded, then the turn moves on (:meth:`_after`)."""
        ev = _action_event(s, _STREETS[self._street], kind, put, to, allin, timeout)
        self._events.append(ev)
        self._after(s)
        return ev

    def all_in(self) -> ActionEvent:
        """Put in every chip: a call when the stack does not cover more, else a raise-to."""
        self.verify_all_in()
        s: int = self._actor  # type: ignore[assignment]
        if self._stacks[s] <= self._current_bet - self._bets[s]:
            return self.call()
        return self.raise_to(self._bets[s] + self._stacks[s])

    def act(self, action: Action) -> ActionEvent:
        """Apply an :class:`Action` (BET and RAISE both mean raise-to ``amount``)."""
        self.verify_action(action)
        kind = action.kind
        if kind is _FOLD:
            return self.fold()
        if kind is _CHECK:
            return self.check()
        if kind is _CALL:
            return self.call()
        return self.raise_to(action.amount)

    def timeout(self) -> ActionEvent:
        """The clock ran out: check if free, otherwise fold (recorded with ``timeout=True``)."""
        s = self._actor
        if s is None:
            raise HandOverError(self._over_message())
        if self._bets[s] >= self._current_bet:
            return self._check(s, True)
        return self._fold(s, True)

    # ------------------------------------------------------------------ whole-hand

    def copy(self) -> HandState:
        """An independent copy (lists copied, immutable parts shared)."""
        new = HandState.__new__(HandState)
        for name in HandState.__slots__:
            v = getattr(self, name)
            if type(v) is list:
                v = list(v)
            elif type(v) is dict:
                v = dict(v)
            setattr(new, name, v)
        return new

    @classmethod
    def from_record(cls, record: HandRecord) -> HandState:
        """Rebuild a recorded hand: a fresh state from the recorded deck, then every action re-applied.

        A record whose actions do not replay (edited by hand) raises :class:`HoldemError`.
        """
        if not isinstance(record, HandRecord):
            raise HoldemError(f"HandState.from_record needs a HandRecord, got {short_repr(record)}")
        state = cls(
            record.config,
            button=record.button,
            stacks=record.starting_stacks,
            deck=record.deck,
            seed=record.seed,
            antes=record.antes,
            dealt_in=record.dealt_in,
        )
        for ev in record.events:
            if not isinstance(ev, ActionEvent):
                continue
            if ev.seat != state.actor:
                turn = "the hand is already over" if state.actor is None else f"seat {state.actor} is on turn"
                raise HoldemError(f"replay diverged: event for seat {ev.seat} but {turn}")
            if ev.timeout:
                state.timeout()
            elif ev.kind is ActionKind.FOLD:
                state.fold()
            elif ev.kind is ActionKind.CHECK:
                state.check()
            elif ev.kind is ActionKind.CALL:
                state.call()
            else:
                state.raise_to(ev.to)
        return state

    def record(self) -> HandRecord:
        """The :class:`~holdem_env.engine.record.HandRecord` of this hand so far."""
        return HandRecord(
            config=self.config,
            button=self._button,
            dealt_in=tuple(self._dealt_in),
            starting_stacks=tuple(self._starting),
            antes=tuple(self._ante_owed),
            blinds=tuple(self._blinds),
            deck=tuple(self._deck),
            seed=self._seed,
            hole_cards=tuple(self._hole),
            board=tuple(self._board),
            events=tuple(self._events),
            pots=self._pots,
            shown=dict(self._shown),
            mucked=self._mucked,
            final_stacks=self.final_stacks,
            payoffs=self.payoffs,
        )

    def __repr__(self) -> str:
        return (
            f"HandState(street={self.street.name.lower()}, actor={self._actor}, board={self._board}, "
            f"stacks={self._stacks}, bets={self._bets}, pot={self.pot})"
        )


# HandRecord.replay() (deprecated) rebuilds through this class; record.py cannot import it (no cycle).
_record_module._replay_hook = HandState.from_record

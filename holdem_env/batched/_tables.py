# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Many no-limit hold'em tables held as arrays (one row per table) and stepped together in one compiled call.

The rules are the engine's (``docs/RULES.md``, :class:`~holdem_env.engine.state.HandState`), for tables
where every seat plays every hand from the same starting stacks (the default "every hand is its own
buy-in" table; optional equal antes): forced bets, dealing order and burns, the minimum raise and the
short all-in that does not reopen the betting, the uncalled bet, side pots, split pots with odd chips
from the first seat left of the button, and the run-out when nobody can bet any more. Hands are dealt
from decks drawn in batches from a seeded numpy generator (``deck`` holds each table's current one, so
any hand can be replayed by a ``HandState`` given the same deck and button), or, with ``table_seeds``,
each table's buttons and decks are those of ``Table(config, seed=s)`` (and so of
``nlhe_v1.env(...).reset(seed=s)`` followed by plain resets), at some cost in speed. Compiled (``_tables.pxd``)
the whole step is C; the ``.py`` runs the same rules slowly. Actions are nlhe_v1's exact ids: 0 fold,
1 check or call (an all-in call when short), ``k + 1`` bet or raise to ``k`` chips (the street total).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from holdem_env.batched import _checks, _external
from holdem_env.batched._checks import fill_rows, positive_int, starting_stacks
from holdem_env.batched._checks import table_seeds as seed_list
from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.engine.evaluator import _CARD_KEYS, _FLUSH_TABLE, _dense_table

__all__ = ["BatchedTables"]

_RIVER, _SHOWDOWN = 3, 4
_RANK_MASK = (1 << 32) - 1
_FLUSH_ADD = 0x3333 << 32
_FLUSH_TEST = 0x8888 << 32
_POOL = 4096  # decks, uniforms and learner seats drawn per numpy call
_FOLD_K, _CHECK_K, _CALL_K, _BET_K, _RAISE_K = 0, 1, 2, 3, 4  # views.HISTORY_KINDS codes
_HIST0 = 64  # history room per table at first (doubled whenever a hand needs more)


class BatchedTables:
    """``num_tables`` tables of ``num_players`` seats, stepped together.

    Every array has one row per table; after construction and after every :meth:`step`, every
    table has a seat to act (``actor``) and its legal set written: ``legal_fold`` (0/1),
    ``legal_call`` (chips a call puts in; 0 means check), ``min_raise_to``/``max_raise_to`` (0 when no
    bet or raise is allowed). A finished hand adds each seat's payoff to ``rewards`` and 1 to
    ``terminated`` (both cleared at the start of each step), and the table deals its next hand with the
    button one seat on. With ``random_opponents``, every seat but ``learner_seat`` plays a uniform
    legal policy (a uniform legal kind among fold, check/call, bet/raise, then a uniform size) inside
    :meth:`step`, until the learner is to act again at every table. With ``opponents`` (a mapping
    ``{seat or "others": bot}``, or :class:`~holdem_env.batched._external.Members` drawn per hand: ``member``),
    bots with ``decide(views, uniforms)`` play those seats instead (:mod:`holdem_env.batched._external`).
    ``random_learner_seat`` draws the learner's seat (``learner``, one per table) at every new hand.

    Every table keeps its hand's action history (``hist_len`` actions in ``hist``, one int64 each:
    ``seat | street << 4 | kind << 8 | to << 12``, kinds coded as ``views.HISTORY_KINDS``;
    :meth:`history` unpacks it); :meth:`fill_views` writes the view of the seat to act at any tables
    into a :class:`~holdem_env.batched.views.BatchViews`. A finished hand in which the learner decided also
    writes the learner's payoff (``learner_reward``, chips), ``learner_done`` (1), its seat (``final_seat``)
    and the hand's member (``final_member``), cleared at the start of each step;
    hands it never acted in (everyone folds to its big blind) add their count to ``learner_walks`` and
    the learner's payoffs in them to ``walk_reward`` (chips; both cleared at the start of each step).
    """

    def __init__(
        self,
        num_tables: int,
        num_players: int = 6,
        small_blind: int = 5, big_blind: int = 10, buy_in: int = 1000,  # chips
        seed: int = 0,
        *,
        ante: int = 0,
        stacks: object = None,
        random_opponents: bool = False,
        learner_seat: int = 0,
        record: bool = False,
        table_seeds: object = None,
        opponents: object = None,
        random_learner_seat: bool = False,
    ) -> None:
        nt = positive_int("num_tables", num_tables, 1)
        n = positive_int("num_players", num_players, 2, 10)
        bb = positive_int("big_blind", big_blind, 1)
        sb = positive_int("small_blind", small_blind, 0, bb)
        positive_int("buy_in", buy_in, 1)
        an = positive_int("ante", ante, 0)
        positive_int("seed", seed, 0)
        seat = positive_int("learner_seat", learner_seat, 0, n - 1)
        start = starting_stacks(stacks, buy_in, nt, n, an + bb)
        self.num_tables, self.num_players = nt, n
        self.small_blind, self.big_blind, self.ante = sb, bb, an
        self.random_opponents, self.learner_seat = bool(random_opponents), seat
        self.random_seat = bool(random_learner_seat)
        self._external, self._seat_bot_arr, self._stalled = False, np.full(n, -1, dtype=np.int64), ""
        self._lazy, self._members, self.hand_log = False, None, list[tuple[int, int, bool]]()  # members per hand: _external
        self.fresh, self.member, self.deal_at, self.final_member, self.last_payoff, self.last_decided = _checks.member_arrays(nt)
        self._fresh, self._member, self._deal_at, self._fmember, self._lpay, self._ldec = (
            self.fresh, self.member, self.deal_at, self.final_member, self.last_payoff, self.last_decided)
        _external.install(self, opponents, first=True)
        self.record = bool(record)
        # ``record``: (t, seat, action id) per decision, (t, -1, (button, deck, learner seat)) per deal, (t, -2, payoffs)
        self.trace: list[tuple[int, int, Any]] = []
        self.decisions = 0
        deck_seq, opp_seq, seat_seq = np.random.SeedSequence(int(seed)).spawn(3)
        self._deck_rng, self._opp_rng, self._seat_rng = (np.random.default_rng(q) for q in (deck_seq, opp_seq, seat_seq))
        z = _checks.zeros
        self.starting = start
        self.stacks, self.bets, self.contrib, self.faced, self.rewards = z(nt, n), z(nt, n), z(nt, n), z(nt, n), z(nt, n)
        self.folded, self.all_in, self.acted = z(nt, n, dtype=np.int8), z(nt, n, dtype=np.int8), z(nt, n, dtype=np.int8)
        self.hole, self.board, self.deck = z(nt, 2 * n), z(nt, 5), z(nt, 52)
        self.street, self.actor, self.current_bet, self.last_full_raise = z(nt), z(nt), z(nt), z(nt)
        self.n_live, self.n_active, self.board_len, self.pos = z(nt), z(nt), z(nt), z(nt)
        self.legal_fold = z(nt, dtype=np.int8)
        self.legal_call, self.min_raise_to, self.max_raise_to = z(nt), z(nt), z(nt)
        self.terminated, self.hands_played = z(nt), z(nt)
        self.learner = np.full(nt, seat, dtype=np.int64)
        self.decided = z(nt, dtype=np.int8)
        self.learner_reward, self.learner_done, self.final_seat = z(nt), z(nt), np.full(nt, -1, dtype=np.int64)
        self.learner_walks, self.walk_reward = z(nt), z(nt)
        self._hist_cap = _HIST0
        self.hist_len, self.hist = z(nt), z(nt, _HIST0)
        self._all_rows = np.arange(nt, dtype=np.int64)
        self._pend_rows, self._pend_bots = z(nt), z(nt)
        self._engine_deal = table_seeds is not None
        self._table_rngs, self.button = _checks.first_buttons(None if table_seeds is None else seed_list(table_seeds, nt),
                                                              nt, n, self._deck_rng)
        self._starting, self._stacks, self._bets, self._contrib = self.starting, self.stacks, self.bets, self.contrib
        self._faced, self._rewards = self.faced, self.rewards
        self._folded, self._all_in, self._acted = self.folded, self.all_in, self.acted
        self._hole, self._board, self._deck = self.hole, self.board, self.deck
        self._street, self._actor, self._button = self.street, self.actor, self.button
        self._cb, self._lfr, self._n_live, self._n_active = self.current_bet, self.last_full_raise, self.n_live, self.n_active
        self._board_len, self._pos = self.board_len, self.pos
        self._fold, self._call, self._lo, self._hi = self.legal_fold, self.legal_call, self.min_raise_to, self.max_raise_to
        self._terminated, self._hands = self.terminated, self.hands_played
        self._learner, self._decided = self.learner, self.decided
        self._lrew, self._ldone, self._fseat = self.learner_reward, self.learner_done, self.final_seat
        self._lwalks, self._wrew = self.learner_walks, self.walk_reward
        self._hlen, self._hist = self.hist_len, self.hist
        self._card_keys = _CARD_KEYS
        self._plain7 = _dense_table(7)
        self._flush_table = _FLUSH_TABLE
        self._scratch = z(n)
        self._pool_next = self._uni_next = self._seat_next = _POOL  # every pool drawn when first needed
        self._n_decisions = 0
        self._deck_pool = self._pool = z(1, 52)
        self._uniforms = self._uni = np.zeros(1)
        self._seat_pool = self._seatq = z(1)
        for t in range(nt):
            self._new_hand(t)
        self._settle_all()

    def _refill_decks(self) -> None:
        """The next ``_POOL`` shuffled decks (one numpy call)."""
        base = np.broadcast_to(np.arange(52, dtype=np.int64), (_POOL, 52))
        self._deck_pool = self._pool = np.ascontiguousarray(self._deck_rng.permuted(base, axis=1))
        self._pool_next = 0

    def _engine_deck(self, t: int) -> None:  # table t's next deck shuffled as HandState shuffles it (table_seeds)
        self.deck[t] = _checks.engine_deck(self._table_rngs[t])

    def _refill_uniforms(self) -> None:  # the next _POOL uniforms in [0, 1) for the opponents (one numpy call)
        self._uniforms = self._uni = self._opp_rng.random(_POOL)
        self._uni_next = 0

    def _refill_seats(self) -> None:  # the next _POOL learner seats, uniform over the seats (one numpy call)
        self._seat_pool = self._seatq = self._seat_rng.integers(self.num_players, size=_POOL, dtype=np.int64)
        self._seat_next = 0

    def _grow_history(self) -> None:  # double every table's history room (a hand outgrew it), keeping it
        self.hist = self._hist = np.concatenate([self.hist, np.zeros_like(self.hist)], axis=1)
        self._hist_cap = 2 * self._hist_cap

    def history(self, t: int) -> list[tuple[int, int, int, int]]:
        """Table ``t``'s hand so far: ``(seat, street code, kind code, to)`` per action (``hist`` unpacked)."""
        return _checks.unpack_history(self.hist[t, : self.hist_len[t]])

    def _settle_all(self) -> None:
        """Run the opponents (if any) and write every table's legal set."""
        for t in range(self.num_tables):
            if self.random_opponents:
                self._run_opponents(t)
            self._legal(t)
        if self._external:
            self._play_external()
        self.decisions = self._n_decisions

    def set_opponents(self, opponents: object) -> None:
        """Replace the external bots (a mapping as the constructor's ``opponents``) from the next step on."""
        _external.install(self, opponents, first=False)

    def _bind_seat_bots(self) -> None:  # the typed view of each seat's bot index (set by _external.install)
        self._seat_bot = self._seat_bot_arr

    def _play_external(self) -> None:
        """The external bots' rounds (``_external.play``); a failure stalls the tables for good."""
        try:
            _external.play(self)
        except BaseException as e:
            self._stalled = f"{type(e).__name__}: {e}"
            raise

    def step(self, actions: object) -> None:
        """Apply one exact action id per table for the seat to act (then the opponents' actions).

        ``actions``: integers, one per table (-1: that table does not move). Every action is checked first: an
        illegal one raises :class:`~holdem_env.engine.errors.IllegalActionError` naming the table and its legal
        set, and nothing changes.
        """
        if self._stalled:
            raise IllegalActionError(f"these tables stopped in the middle of a step ({self._stalled}); build new ones")
        self._step_checked(_checks.action_ids(self, actions))

    def _step_checked(self, acts: Any) -> None:
        """:meth:`step` without checking ``acts``, for a caller that checked them itself (the vector env's
        backend, against the masks it wrote): one legal exact id (or -1) per table, int64, C order."""
        if self._stalled:
            raise IllegalActionError(f"these tables stopped in the middle of a step ({self._stalled}); build new ones")
        self._step_all(acts)
        if self._external:
            self._play_external()
        self.decisions = self._n_decisions

    def _step_all(self, acts: np.ndarray) -> int:
        n = self.num_players
        for t in range(self.num_tables):
            for s in range(n):  # this step's results, cleared (a table's step writes only its own row)
                self._rewards[t, s] = 0
            self._terminated[t] = 0
            self._lrew[t] = 0
            self._ldone[t] = 0
            self._fseat[t] = -1
            self._lwalks[t] = 0
            self._wrew[t] = 0
            self._fmember[t] = -1
            if acts[t] >= 0:  # -1: the table does not move this step (the vector env's NEXT_STEP rows)
                self._apply(t, acts[t])
            if self.random_opponents:
                self._run_opponents(t)
            self._legal(t)
        return 0

    def fill_views(self, rows: object, out: BatchViews) -> int:
        """Write the view of the seat to act at each table of ``rows`` (``None``: all, in order) into rows
        ``0..len(rows)-1`` of ``out`` (a BatchViews with room, for this table size and blinds; its history
        arrays are replaced by wider ones when a table's outgrow them) and return how many: what nlhe_v1's
        ``info["view"]`` and ``info["legal"]`` say to that seat now. Entries past a row's ``hist_len`` are 0."""
        return self._fill_checked(fill_rows(self, rows, out), out)

    def _fill_checked(self, r: np.ndarray, out: BatchViews) -> int:
        """fill_views for checked rows ``r`` (int64, C order) and a BatchViews with room for them."""
        if out.hist_seat.shape[1] < self._hist_cap:  # room for the longest history a table can hold now
            _checks.widen_history(out, self._hist_cap)
        try:
            self._fill_views(r, out.seat, out.button, out.street, out.hole, out.board, out.board_len, out.pot,
                             out.current_bet, out.stacks, out.street_bets, out.folded, out.all_in, out.dealt_in,
                             out.legal_fold, out.legal_check, out.call, out.min_raise_to, out.max_raise_to,
                             out.hist_len, out.hist_seat, out.hist_street, out.hist_kind, out.hist_to)
        except (ValueError, TypeError) as e:  # an array of the wrong dtype, shape or layout
            raise ConfigError("out", type(out).__name__, f"must hold BatchViews.empty's arrays (dtypes, shapes, C order): {e}") from e
        return len(r)

    def _fill_views(self, rows: Any, seat: Any, button: Any, street: Any, hole: Any, board: Any, board_len: Any,
                    pot: Any, cbet: Any, stacks: Any, bets: Any, folded: Any, all_in: Any, dealt: Any, lfold: Any,
                    lcheck: Any, call: Any, lo: Any, hi: Any, hlen: Any, hseat: Any, hstreet: Any, hkind: Any,
                    hto: Any) -> int:
        n = self.num_players
        for i in range(rows.shape[0]):
            t = rows[i]
            self._legal(t)
            seat[i] = self._actor[t]
            s = seat[i]
            button[i] = self._button[t]
            street[i] = self._street[t]
            hole[i, 0] = self._hole[t, 2 * s]
            hole[i, 1] = self._hole[t, 2 * s + 1]
            bl = self._board_len[t]
            board_len[i] = bl
            for j in range(5):
                board[i, j] = self._board[t, j] if j < bl else -1
            total = 0
            for j in range(n):
                total += self._contrib[t, j]
                stacks[i, j] = self._stacks[t, j]
                bets[i, j] = self._bets[t, j]
                folded[i, j] = self._folded[t, j]
                all_in[i, j] = self._all_in[t, j]
                dealt[i, j] = 1
            pot[i] = total
            cbet[i] = self._cb[t]
            lfold[i] = self._fold[t]
            lcheck[i] = 0 if self._fold[t] else 1
            call[i] = self._call[t]
            lo[i] = self._lo[t]
            hi[i] = self._hi[t]
            h = self._hlen[t]
            prev = hlen[i] if hlen[i] < hseat.shape[1] else hseat.shape[1]
            for j in range(h):
                x = self._hist[t, j]
                hseat[i, j] = x & 15
                hstreet[i, j] = (x >> 4) & 15
                hkind[i, j] = (x >> 8) & 15
                hto[i, j] = x >> 12
            for j in range(h, prev):  # zero what the row held past the new length
                hseat[i, j] = hstreet[i, j] = hkind[i, j] = hto[i, j] = 0
            hlen[i] = h
        return 0

    def _collect(self, rows: Any, n_rows: int, bots: Any) -> int:
        """Of the tables ``rows[:n_rows]``, keep (in place, in order) those where an opponent is to act,
        with its bot in ``bots``; write each one's legal set."""
        k = 0
        for i in range(n_rows):
            t = rows[i]
            self._legal(t)
            s = self._actor[t]
            if s != self._learner[t]:
                rows[k] = t
                bots[k] = self._member[t] if self._lazy else self._seat_bot[s]
                k += 1
        return k

    def _first_illegal_rows(self, rows: Any, acts: Any) -> int:
        for i in range(rows.shape[0]):
            if not self._is_legal(rows[i], acts[i]):
                return i
        return -1

    def _apply_rows(self, rows: Any, acts: Any) -> int:
        for i in range(rows.shape[0]):
            self._apply(rows[i], acts[i])
        return 0

    def describe_legal(self, t: int) -> str:  # table t's legal exact ids in words
        return _checks.describe_legal(self, t)

    def legal_mask(self, width: int) -> np.ndarray:  # every table's exact-id legal mask, (num_tables, width) int8
        return _checks.legal_mask(self, width)

    def random_actions(self) -> np.ndarray:
        """One action id per table from the random opponents' policy (the same generator)."""
        out = np.empty(self.num_tables, dtype=np.int64)
        self._fill_random(out)
        return out

    def _fill_random(self, out: np.ndarray) -> int:
        for t in range(self.num_tables):
            out[t] = self._random_action(t)
        return 0

    # ------------------------------------------------------------------ the rules (C methods compiled)

    def _new_hand(self, t: int) -> int:
        n = self.num_players
        if self._engine_deal:
            self._engine_deck(t)
        else:
            if self._pool_next >= _POOL:
                self._refill_decks()
            p = self._pool_next
            self._pool_next = p + 1
            for j in range(52):
                self._deck[t, j] = self._pool[p, j]
        for s in range(n):
            self._stacks[t, s] = self._starting[t, s]
            self._bets[t, s] = 0
            self._contrib[t, s] = 0
            self._folded[t, s] = 0
            self._all_in[t, s] = 0
            self._acted[t, s] = 0
            self._faced[t, s] = 0
        self._n_live[t] = n
        self._n_active[t] = n
        self._hlen[t] = 0
        self._decided[t] = 0
        if self._lazy:  # _external seats the learner and the member before anyone acts
            self._fresh[t] = 1
        elif self.random_seat:
            if self._seat_next >= _POOL:
                self._refill_seats()
            self._learner[t] = self._seatq[self._seat_next]
            self._seat_next += 1
        self._street[t] = 0
        self._board_len[t] = 0
        self._cb[t] = self.big_blind
        self._lfr[t] = self.big_blind
        b = self._button[t]
        if n == 2:
            sb = b
            bb = (b + 1) % n
        else:
            sb = (b + 1) % n
            bb = (b + 2) % n
        if self.ante:
            for s in range(n):
                x = self.ante if self.ante < self._stacks[t, s] else self._stacks[t, s]
                self._stacks[t, s] -= x
                self._contrib[t, s] += x
                if self._stacks[t, s] == 0:
                    self._mark_all_in(t, s)
        for j in range(2):
            s = sb if j == 0 else bb
            x = self.small_blind if j == 0 else self.big_blind
            if x > self._stacks[t, s]:
                x = self._stacks[t, s]
            if x:
                self._stacks[t, s] -= x
                self._bets[t, s] += x
                self._contrib[t, s] += x
                if self._stacks[t, s] == 0:
                    self._mark_all_in(t, s)
        for j in range(n):  # one card at a time from the first seat left of the button
            s = (b + 1 + j) % n
            self._hole[t, 2 * s] = self._deck[t, j]
            self._hole[t, 2 * s + 1] = self._deck[t, j + n]
        self._pos[t] = 2 * n
        if self.record:
            self._deal_at[t] = len(self.trace)
            self.trace.append((t, -1, (int(b), tuple(self.deck[t].tolist()), int(self._learner[t]))))
        self._next_actor_from(t, bb)
        return 0

    def _mark_all_in(self, t: int, s: int) -> None:
        if not self._folded[t, s] and not self._all_in[t, s]:
            self._all_in[t, s] = 1
            self._n_active[t] -= 1

    def _next_actor_from(self, t: int, seat: int) -> int:
        """Hand the turn to the next seat after ``seat`` that must act, or close the betting round."""
        n = self.num_players
        cb = self._cb[t]
        for k in range(1, n + 1):
            s = (seat + k) % n
            if self._folded[t, s] or self._all_in[t, s]:
                continue
            if self._bets[t, s] < cb or (self._n_active[t] > 1 and not self._acted[t, s]):
                self._actor[t] = s
                return 0
        self._actor[t] = -1
        self._end_street(t)
        return 0

    def _end_street(self, t: int) -> int:
        if self._street[t] == _RIVER:
            self._finish(t, True)
            return 0
        n = self.num_players
        run_out = self._n_active[t] <= 1
        if run_out:
            self._return_uncalled(t)
        for s in range(n):
            self._bets[t, s] = 0
            self._acted[t, s] = 0
            self._faced[t, s] = 0
        self._cb[t] = 0
        self._lfr[t] = self.big_blind
        if run_out:
            while self._street[t] < _RIVER:
                self._deal_street(t)
            self._finish(t, True)
            return 0
        self._deal_street(t)
        self._next_actor_from(t, self._button[t])
        return 0

    def _deal_street(self, t: int) -> None:
        self._street[t] += 1
        p = self._pos[t] + 1  # one burnt card
        k = 3 if self._street[t] == 1 else 1
        bl = self._board_len[t]
        for i in range(k):
            self._board[t, bl + i] = self._deck[t, p + i]
        self._board_len[t] = bl + k
        self._pos[t] = p + k

    def _give_back(self, t: int, s: int, amount: int) -> None:
        self._contrib[t, s] -= amount
        self._stacks[t, s] += amount
        self._bets[t, s] = self._bets[t, s] - amount if self._bets[t, s] > amount else 0

    def _return_uncalled(self, t: int) -> None:
        """The unmatched part of the largest contribution goes back, then anything above what every player
        still in the hand put in (engine ``_return_uncalled``)."""
        n = self.num_players
        top = -1
        second = -1
        seat = -1
        for s in range(n):
            c = self._contrib[t, s]
            if c > top:
                second = top
                top = c
                seat = s
            elif c > second:
                second = c
        if second < 0:
            second = 0
        if seat >= 0 and top > second:
            self._give_back(t, seat, top - second)
        reach = -1
        for s in range(n):
            if not self._folded[t, s] and self._contrib[t, s] > reach:
                reach = self._contrib[t, s]
        for s in range(n):
            c = self._contrib[t, s]
            if c > reach:
                self._give_back(t, s, c - reach)

    def _strength(self, t: int, s: int) -> int:
        """The evaluator's value (1..7462) of seat ``s``'s two cards with the five-card board."""
        key = self._card_keys[self._hole[t, 2 * s]] + self._card_keys[self._hole[t, 2 * s + 1]]
        for i in range(5):
            key += self._card_keys[self._board[t, i]]
        flush = (key + _FLUSH_ADD) & _FLUSH_TEST
        if not flush:
            return self._plain7[key & _RANK_MASK]
        suit = 0
        while not (flush >> (35 + 4 * suit)) & 1:
            suit += 1
        mask = 0
        for i in range(7):
            c = self._hole[t, 2 * s + i] if i < 2 else self._board[t, i - 2]
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        return self._flush_table[mask]

    def _award(self, t: int, showdown: bool) -> None:
        """Split the pot layers (main pot, then each side pot) among the best eligible hands."""
        n = self.num_players
        top = 0
        for s in range(n):
            if self._folded[t, s]:
                self._scratch[s] = -1
            else:
                self._scratch[s] = self._strength(t, s) if showdown else 0
            if self._contrib[t, s] > top:
                top = self._contrib[t, s]
        prev = 0
        while prev < top:
            level = top  # the next layer boundary: the smallest all-in contribution above prev
            for s in range(n):
                c = self._contrib[t, s]
                if self._all_in[t, s] and not self._folded[t, s] and prev < c < level:
                    level = c
            amount = 0
            best = -1
            for s in range(n):
                c = self._contrib[t, s]
                if c > prev:
                    amount += (c if c < level else level) - prev
                if not self._folded[t, s] and c >= level and self._scratch[s] > best:
                    best = self._scratch[s]
            nwin = 0
            for s in range(n):
                if not self._folded[t, s] and self._contrib[t, s] >= level and self._scratch[s] == best:
                    nwin += 1
            if nwin == 0:  # unreachable after _return_uncalled (kept: no division by zero in C)
                break
            share = amount // nwin
            odd = amount - share * nwin
            for k in range(1, n + 1):  # odd chips one at a time from the first seat left of the button
                w = (self._button[t] + k) % n
                if not self._folded[t, w] and self._contrib[t, w] >= level and self._scratch[w] == best:
                    self._stacks[t, w] += share + (1 if odd > 0 else 0)
                    odd -= 1
            prev = level

    def _finish(self, t: int, showdown: bool) -> int:
        """Settle the hand, write the payoffs, and deal the next hand with the button moved on."""
        n = self.num_players
        self._return_uncalled(t)
        self._award(t, showdown)
        for s in range(n):
            self._rewards[t, s] += self._stacks[t, s] - self._starting[t, s]
        s = self._learner[t]
        if self._decided[t]:
            self._lrew[t] += self._stacks[t, s] - self._starting[t, s]
            self._ldone[t] = 1
            self._fseat[t] = s
            self._fmember[t] = self._member[t]
        else:
            self._lwalks[t] += 1
            self._wrew[t] += self._stacks[t, s] - self._starting[t, s]
        self._lpay[t] = self._stacks[t, s] - self._starting[t, s]  # (members drawn per hand: _external logs it)
        self._ldec[t] = self._decided[t]
        if self.record:
            self.trace.append((t, -2, tuple([int(x) for x in self.stacks[t] - self.starting[t]])))
        self._terminated[t] += 1
        self._hands[t] += 1
        self._street[t] = _SHOWDOWN
        self._button[t] = (self._button[t] + 1) % n
        self._new_hand(t)
        return 0

    def _legal(self, t: int) -> None:
        """Write table ``t``'s legal set (engine ``HandState._legal``, no-limit)."""
        s = self._actor[t]
        bet = self._bets[t, s]
        stack = self._stacks[t, s]
        cb = self._cb[t]
        owed = cb - bet
        if owed > 0:
            self._call[t] = owed if owed < stack else stack
            self._fold[t] = 1
        else:
            self._call[t] = 0
            self._fold[t] = 0
        self._lo[t] = 0
        self._hi[t] = 0
        if stack <= owed or self._n_active[t] <= 1 or (self._acted[t, s] and cb - self._faced[t, s] < self._lfr[t]):
            return
        allin_to = bet + stack
        lo = cb + self._lfr[t]
        self._lo[t] = lo if lo < allin_to else allin_to
        self._hi[t] = allin_to

    def _is_legal(self, t: int, a: int) -> bool:
        if a == 1:
            return True
        if a == 0:
            return self._fold[t] != 0
        lo = self._lo[t]
        return lo > 0 and lo + 1 <= a <= self._hi[t] + 1

    def _apply(self, t: int, a: int) -> int:
        """Apply the legal action id ``a`` for the seat to act."""
        s = self._actor[t]
        cb = self._cb[t]
        self._n_decisions += 1
        if s == self._learner[t]:
            self._decided[t] = 1
        if self.record:
            self.trace.append((t, s, a))
        if a == 0:
            kind = _FOLD_K
            to = self._bets[t, s]
            self._folded[t, s] = 1
            self._n_live[t] -= 1
            self._n_active[t] -= 1
        elif a == 1:
            put = self._call[t]
            kind = _CALL_K if put else _CHECK_K
            to = self._bets[t, s] + put
            if put:
                stack = self._stacks[t, s] - put
                self._stacks[t, s] = stack
                self._bets[t, s] += put
                self._contrib[t, s] += put
                if stack == 0:
                    self._mark_all_in(t, s)
            self._acted[t, s] = 1
            self._faced[t, s] = cb
        else:
            amount = a - 1
            kind = _RAISE_K if cb or self._street[t] == 0 else _BET_K
            to = amount
            put = amount - self._bets[t, s]
            stack = self._stacks[t, s] - put
            self._stacks[t, s] = stack
            self._bets[t, s] = amount
            self._contrib[t, s] += put
            increment = amount - cb
            if increment >= self._lfr[t]:
                self._lfr[t] = increment
            self._cb[t] = amount
            self._acted[t, s] = 1
            self._faced[t, s] = amount
            if stack == 0:
                self._mark_all_in(t, s)
        h = self._hlen[t]  # the history, one int64 per action: seat | street << 4 | kind << 8 | to << 12
        if h >= self._hist_cap:
            self._grow_history()
        self._hist[t, h] = s | (self._street[t] << 4) | (kind << 8) | (to << 12)
        self._hlen[t] = h + 1
        if self._n_live[t] == 1:
            self._finish(t, False)
        else:
            self._next_actor_from(t, s)
        return 0

    def _random_action(self, t: int) -> int:
        """A uniform legal kind (fold, check/call, bet/raise), then a uniform legal size."""
        self._legal(t)
        if self._uni_next + 2 > _POOL:
            self._refill_uniforms()
        u = self._uni[self._uni_next]
        v = self._uni[self._uni_next + 1]
        self._uni_next += 2
        fold = self._fold[t] != 0
        raises = self._hi[t] - self._lo[t] + 1 if self._lo[t] else 0
        k = fold + 1 + (raises > 0)
        r = int(u * k)
        if fold:
            if r == 0:
                return 0
            r -= 1
        if r == 0:
            return 1
        return self._lo[t] + 1 + int(v * raises)

    def _run_opponents(self, t: int) -> int:
        """Play the random opponents at table ``t`` until the learner is to act."""
        while self._actor[t] != self._learner[t]:
            a = self._random_action(t)
            self._apply(t, a)
        return 0

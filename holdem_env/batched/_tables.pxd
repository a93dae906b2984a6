# Cython declarations for the compiled build of _tables.py (holdem_env/_build.py CANDIDATES); the .py
# stays the source. BatchedTables becomes an extension type whose per-table state is typed memoryviews
# over its numpy arrays, and whose rule steps are C methods.
cimport cython

cdef long long _RIVER, _SHOWDOWN, _RANK_MASK, _FLUSH_ADD, _FLUSH_TEST
cdef Py_ssize_t _POOL, _HIST0
cdef long long _FOLD_K, _CHECK_K, _CALL_K, _BET_K, _RAISE_K

cdef class BatchedTables:
    cdef public Py_ssize_t num_tables
    cdef public Py_ssize_t num_players
    cdef public long long small_blind
    cdef public long long big_blind
    cdef public long long ante
    cdef public bint random_opponents
    cdef public Py_ssize_t learner_seat
    cdef public bint record
    cdef public list trace
    cdef public object decisions
    # the numpy arrays (public) ...
    cdef public object starting, stacks, bets, contrib, folded, all_in, acted, faced
    cdef public object hole, board, deck, street, actor, button, current_bet, last_full_raise
    cdef public object n_live, n_active, board_len, pos, legal_fold, legal_call, min_raise_to, max_raise_to
    cdef public object rewards, terminated, hands_played
    cdef public object _deck_rng, _opp_rng, _deck_pool, _uniforms, _table_rngs
    cdef public bint random_seat
    cdef public object learner, decided, learner_reward, learner_done, final_seat, learner_walks, walk_reward
    cdef public object hist_len, hist
    cdef public object opponents, _seat_bot_arr, _uniforms_per, _bot_views, _all_rows, _pend_rows, _pend_bots
    cdef public object _seat_rng, _seat_pool, _stalled
    cdef public bint _external
    cdef public bint _lazy
    cdef public object fresh, member, final_member, last_payoff, last_decided, deal_at, hand_log, _members
    cdef long long[::1] _fresh, _member, _fmember, _lpay, _ldec, _deal_at
    cdef public Py_ssize_t _hist_cap
    cdef bint _engine_deal
    cdef Py_ssize_t _pool_next, _uni_next, _n_decisions, _seat_next
    # ... and typed views of the same memory
    cdef long long[:, ::1] _starting, _stacks, _bets, _contrib, _faced, _rewards
    cdef signed char[:, ::1] _folded, _all_in, _acted
    cdef long long[:, ::1] _hole, _board, _deck, _pool
    cdef long long[::1] _street, _actor, _button, _cb, _lfr, _n_live, _n_active, _board_len, _pos
    cdef long long[::1] _call, _lo, _hi, _terminated, _hands
    cdef long long[::1] _learner, _lrew, _ldone, _fseat, _lwalks, _wrew, _hlen, _seatq, _seat_bot
    cdef signed char[::1] _decided
    cdef long long[:, ::1] _hist
    cdef signed char[::1] _fold
    cdef double[::1] _uni
    cdef long long[::1] _scratch
    cdef const long long[::1] _card_keys
    cdef const short[::1] _plain7, _flush_table

    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, j=Py_ssize_t, b=Py_ssize_t, sb=Py_ssize_t, bb=Py_ssize_t, x=cython.longlong, p=Py_ssize_t)
    cdef int _new_hand(self, Py_ssize_t t) except -1
    cdef void _mark_all_in(self, Py_ssize_t t, Py_ssize_t s) noexcept
    @cython.locals(n=Py_ssize_t, k=Py_ssize_t, s=Py_ssize_t, cb=cython.longlong)
    cdef int _next_actor_from(self, Py_ssize_t t, Py_ssize_t seat) except -1
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, run_out=bint)
    cdef int _end_street(self, Py_ssize_t t) except -1
    @cython.locals(p=Py_ssize_t, k=Py_ssize_t, i=Py_ssize_t, bl=Py_ssize_t)
    cdef void _deal_street(self, Py_ssize_t t) noexcept
    cdef void _give_back(self, Py_ssize_t t, Py_ssize_t s, long long amount) noexcept
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, top=cython.longlong, second=cython.longlong, seat=Py_ssize_t, c=cython.longlong, reach=cython.longlong)
    cdef void _return_uncalled(self, Py_ssize_t t) noexcept
    @cython.locals(i=Py_ssize_t, key=cython.longlong, flush=cython.longlong, suit=cython.longlong, mask=cython.longlong, c=cython.longlong)
    cdef long long _strength(self, Py_ssize_t t, Py_ssize_t s) noexcept
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, k=Py_ssize_t, w=Py_ssize_t, top=cython.longlong, prev=cython.longlong, level=cython.longlong, amount=cython.longlong, c=cython.longlong, best=cython.longlong, nwin=cython.longlong, share=cython.longlong, odd=cython.longlong, total=cython.longlong)
    cdef void _award(self, Py_ssize_t t, bint showdown) noexcept
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t)
    cdef int _finish(self, Py_ssize_t t, bint showdown) except -1
    @cython.locals(s=Py_ssize_t, bet=cython.longlong, stack=cython.longlong, cb=cython.longlong, owed=cython.longlong, allin_to=cython.longlong, lo=cython.longlong)
    cdef void _legal(self, Py_ssize_t t) noexcept
    @cython.locals(lo=cython.longlong)
    cdef bint _is_legal(self, Py_ssize_t t, long long a) noexcept
    @cython.locals(s=Py_ssize_t, cb=cython.longlong, put=cython.longlong, stack=cython.longlong, amount=cython.longlong, increment=cython.longlong, h=Py_ssize_t, kind=cython.longlong, to=cython.longlong)
    cdef int _apply(self, Py_ssize_t t, long long a) except -1
    @cython.locals(u=cython.double, v=cython.double, k=cython.longlong, r=cython.longlong, fold=bint, raises=cython.longlong)
    cdef long long _random_action(self, Py_ssize_t t) except -1
    @cython.locals(t=Py_ssize_t, s=Py_ssize_t, n=Py_ssize_t)
    cdef int _step_all(self, long long[::1] acts) except -1
    @cython.locals(t=Py_ssize_t)
    cdef int _fill_random(self, long long[::1] out) except -1
    @cython.locals(a=cython.longlong)
    cdef int _run_opponents(self, Py_ssize_t t) except -1
    @cython.locals(n=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, t=Py_ssize_t, s=Py_ssize_t, bl=Py_ssize_t, h=Py_ssize_t, prev=Py_ssize_t, total=cython.longlong, x=cython.longlong)
    cdef int _fill_views(self, long long[::1] rows, long long[::1] seat, long long[::1] button, long long[::1] street,
                         long long[:, ::1] hole, long long[:, ::1] board, long long[::1] board_len, long long[::1] pot,
                         long long[::1] cbet, long long[:, ::1] stacks, long long[:, ::1] bets, signed char[:, ::1] folded,
                         signed char[:, ::1] all_in, signed char[:, ::1] dealt, signed char[::1] lfold, signed char[::1] lcheck,
                         long long[::1] call, long long[::1] lo, long long[::1] hi, long long[::1] hlen,
                         long long[:, ::1] hseat, long long[:, ::1] hstreet, long long[:, ::1] hkind, long long[:, ::1] hto) except -1
    @cython.locals(k=Py_ssize_t, i=Py_ssize_t, t=Py_ssize_t, s=Py_ssize_t)
    cpdef Py_ssize_t _collect(self, long long[::1] rows, Py_ssize_t n_rows, long long[::1] bots) except -1
    @cython.locals(i=Py_ssize_t)
    cpdef Py_ssize_t _first_illegal_rows(self, long long[::1] rows, long long[::1] acts) except -2
    @cython.locals(i=Py_ssize_t)
    cpdef int _apply_rows(self, long long[::1] rows, long long[::1] acts) except -1

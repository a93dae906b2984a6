# Cython declarations for the compiled build of state.py (setup.py COMPILED); the .py stays the source.
# HandState becomes an extension type: typed fields (the names of its __slots__) and C-level calls
# between its internal methods. Public methods and properties stay Python-visible and unchanged.
cimport cython

# the plain read-only attributes' getter (HandState.button, stacks, ...): a C descriptor slot
cdef class _Read:
    cdef readonly str field
    cdef readonly bint copy

cdef class HandState:
    cdef public object config
    cdef public Py_ssize_t _n
    cdef public Py_ssize_t _button
    cdef public list _dealt_in
    cdef public list _starting
    cdef public list _stacks
    cdef public list _bets
    cdef public list _contrib
    cdef public list _antes
    cdef public list _ante_owed
    cdef public list _blinds
    cdef public bint _dead_antes
    cdef public list _folded
    cdef public list _all_in
    cdef public list _active
    cdef public list _acted
    cdef public list _faced
    cdef public Py_ssize_t _n_live
    cdef public Py_ssize_t _n_active
    cdef public list _deck
    cdef public Py_ssize_t _pos
    cdef public object _seed
    cdef public list _hole
    cdef public list _board
    cdef public Py_ssize_t _street
    cdef public object _actor
    cdef public object _current_bet
    cdef public object _lfr
    cdef public Py_ssize_t _num_bets
    cdef public object _river_aggressor
    cdef public Py_ssize_t _sb_seat
    cdef public Py_ssize_t _bb_seat
    cdef public list _events
    cdef public tuple _pots
    cdef public dict _shown
    cdef public tuple _mucked
    cdef public object _final
    cdef public object _payoffs
    cdef public object _betting
    cdef public object _bb
    cdef public object _legal_cache
    cdef public str _why_no_raise

    cpdef _mark_all_in(self, Py_ssize_t seat)
    @cython.locals(n=Py_ssize_t, k=Py_ssize_t, s=Py_ssize_t, active=list, bets=list, acted=list)
    cpdef _next_actor_from(self, Py_ssize_t seat)
    @cython.locals(n=Py_ssize_t, run_out=bint)
    cpdef _end_street(self)
    @cython.locals(street=Py_ssize_t, p=Py_ssize_t, k=Py_ssize_t, dk=list)
    cpdef _deal_next_street(self)
    @cython.locals(seat=Py_ssize_t)
    cpdef _return_uncalled(self)
    cpdef _showdown(self)
    cpdef _give_back(self, Py_ssize_t seat, amount)
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, folded=list, contrib=list, all_in=list)
    cpdef list _layers(self)
    cpdef _finish(self, list pots)
    cpdef _win_by_fold(self)
    cpdef _legal(self)
    cpdef _after(self, Py_ssize_t s)
    cpdef _fold(self, Py_ssize_t s, bint timeout)
    cpdef _check(self, Py_ssize_t s, bint timeout)
    cpdef _record_action(self, Py_ssize_t s, kind, put, to, bint allin, bint timeout)
    # the public checks the actions call first (C-level calls from fold/check/call/raise_to; still overridable)
    cpdef verify_fold(self)
    cpdef verify_check(self)
    cpdef verify_call(self)
    cpdef verify_raise_to(self, amount)
    # what the compiled env (env/nlhe_v1.pxd types its _state as this class) calls per decision:
    # C-level calls from there, still Python methods for everyone else
    cpdef tuple public_table(self)
    cpdef legal_actions(self)
    cpdef list events_since(self, index)
    cpdef stack_of(self, seat)
    cpdef street_bet_of(self, seat)
    cpdef fold(self)
    cpdef check(self)
    cpdef call(self)
    cpdef raise_to(self, amount)
    cpdef timeout(self)

# module level: the showdown's hand strength with C arithmetic on the evaluator's rank keys
@cython.locals(key="long long", c=Py_ssize_t, keys=tuple)
cpdef object _showdown_strength(tuple hole, list board)
# module level: the per-action event constructor as a C function (no Python frame per action)
cdef object _action_event(object seat, object street, object kind, object amount, object to, object all_in, object timeout)
# and the other events and pots built per hand (fields set through the C API: state.py)
cdef object _deal(object street, object cards, object burn)
cdef object _pot(object amount, object eligible, object winners, object shares)
cdef object _show(object seat, object cards)

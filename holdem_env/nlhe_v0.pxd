# Cython declarations for the compiled build of nlhe_v0.py (see setup.py); the .py stays the source.
# Every attribute raw_env.__init__ (a Python-level subclass) sets must be `public` here.
cimport cython
from holdem_env.state cimport HandState

cdef class _HandContext:
    cdef public object state
    cdef public object dealt
    cdef public list history
    cdef public object folded
    cdef public object all_in
    cdef public object small_blind
    cdef public object big_blind


cdef class _EnvCore:
    cdef public dict rewards
    cdef public dict _cumulative_rewards
    cdef public dict terminations
    cdef public dict truncations
    cdef public dict infos
    cdef public list agents
    cdef public object agent_selection
    cdef public list possible_agents
    cdef public dict agent_name_mapping
    cdef public HandState _state
    cdef public object _legal
    cdef public object _actor
    cdef public object _amounts
    cdef public object _dyn
    cdef public list _gather
    cdef public object _builder
    cdef public Py_ssize_t _n
    cdef public Py_ssize_t _hist_off
    cdef public Py_ssize_t _dyn_pot
    cdef public Py_ssize_t _street
    cdef public Py_ssize_t _n_events
    cdef public Py_ssize_t num_actions
    cdef public double _inv_bb
    cdef public double _reward_scale
    cdef public list _history
    cdef public list _all_in
    cdef public list _folded
    cdef public list _idle_infos
    cdef public bint _exact
    cdef public bint _rewards_to_clear
    cdef public object illegal_action
    cdef public object _agent_selector
    cdef float[::1] _dynv
    cdef public Py_ssize_t _off_hole
    cdef public Py_ssize_t _off_board
    cdef public Py_ssize_t _off_street
    cdef public double _inv_bb32
    cdef public tuple bet_sizes
    cdef public dict _zero_per_agent
    cdef public dict _false_per_agent
    cdef public object _hands
    cdef public object _skip_agent_selection
    cdef public object _dealt
    cdef public _HandContext _ctx
    cdef public object config

    cpdef _bind_buffer(self, dyn)
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, inv=double, dynv="float[::1]", stacks=list, bets=list)
    cdef _refresh_money(self)
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, off_hole=Py_ssize_t, inv=double, dynv="float[::1]", all_in=list)
    cpdef _start(self, HandState state)
    @cython.locals(refresh=bint)
    cdef bint _consume_events(self) except -1
    @cython.locals(n=Py_ssize_t, street=Py_ssize_t, seat=Py_ssize_t, col=Py_ssize_t, at=Py_ssize_t, dynv="float[::1]")
    cdef _record_action(self, ev)
    @cython.locals(street=Py_ssize_t, refresh=bint, off=Py_ssize_t, k=Py_ssize_t, inv=double, dynv="float[::1]")
    cdef _advance(self)
    cdef _next_turn(self)
    @cython.locals(n_events=Py_ssize_t, seat=Py_ssize_t, pot=Py_ssize_t, inv=double, dynv="float[::1]")
    cdef _after_action(self, ev)
    cdef _finish(self)
    cpdef _raise_amount(self, Py_ssize_t a)
    cpdef list _discrete_amounts(self)
    cdef _was_dead_step(self, action)
    @cython.locals(seat=Py_ssize_t, inv=double)
    cpdef dict observe(self, agent)

# Cython declarations for the compiled build of _core.py (setup.py COMPILED); the .py stays the source.
# _EnvCore, the env's per-step path, becomes one extension type: typed fields (read as C struct
# members, not dict lookups), C-level calls between its internal methods, and element writes
# through a typed view of the state buffer. raw_env stays a Python subclass (its other
# attributes live in its __dict__). Public API and anything a test patches stay Python-visible.
cimport cython

# the engine's HandState as a C type: the env's calls into it (public_table, legal_actions, the
# actions) are C calls. So this module runs compiled only with the compiled engine (holdem_env/_build.py).
from holdem_env.engine.state cimport HandState
# the seat views as a C type too (env/_view.pxd): one C call per view
from holdem_env.env._view cimport SeatView, view_from_parts

# Where the per-decision scalars sit in an observation (holdem_env.env._obs; set by the .py).
cdef Py_ssize_t _AT_TO_CALL, _AT_MIN_RAISE_TO, _AT_MAX_RAISE_TO
# The history columns the action writes name (holdem_env.env._obs; set by the .py).
cdef Py_ssize_t _HIST_CHECKS, _HIST_AMOUNT
# The fold and check/call action ids (FOLD, CHECK_CALL) for the mask writer.
cdef Py_ssize_t _FOLD_ID, _CHECK_CALL_ID
# The idle seats' legal set, copied into each of their infos (PyDict_Copy).
cdef dict _IDLE_LEGAL


cdef class _EnvCore:
    # PettingZoo's bookkeeping (read by wrappers and users; untyped so any value they set is kept)
    cdef public object rewards
    cdef public object _cumulative_rewards
    cdef public object terminations
    cdef public object truncations
    cdef public object infos
    cdef public object agents
    cdef public object agent_selection
    cdef public object possible_agents
    cdef public object agent_name_mapping
    cdef public object _skip_agent_selection
    cdef public object illegal_action
    cdef public object bet_sizes
    cdef public Py_ssize_t num_actions
    # per hand
    cdef public HandState _state
    cdef public object _legal
    cdef public object _actor
    cdef public object _amounts
    cdef public object _dealt
    cdef public object _views
    cdef public tuple _board_strs
    cdef public tuple _public_now
    cdef public list _history
    cdef public list _all_in
    cdef public list _folded
    cdef public list _own
    cdef public Py_ssize_t _street
    cdef public Py_ssize_t _n_events
    cdef public object _hands
    cdef public bint _rewards_to_clear
    # per env (set once by raw_env.__init__)
    cdef public object _layout
    cdef public object _builder
    cdef public object _dyn
    cdef public object _gather
    # bound by _bind_buffers (_core._REBOUND_FIELDS): never pickled, rebuilt on load
    cdef float[::1] _dynv
    cdef Py_ssize_t[:, :, ::1] _runsv
    cdef object _obs_stage
    cdef float[::1] _obs_stagev
    cdef object _mask_stage
    cdef signed char[::1] _mask_stagev
    cdef Py_ssize_t _stage_lo
    cdef Py_ssize_t _stage_hi
    cdef public bint _full_infos
    cdef public bint _exact
    cdef public double _inv_bb
    cdef public double _inv_bb32
    cdef public double _reward_scale
    cdef public object _bb
    cdef public object _small_blind
    cdef public tuple _no_shown
    cdef public tuple _no_payoffs
    cdef public dict _zero_per_agent
    cdef public dict _false_per_agent
    cdef public Py_ssize_t _at_stacks
    cdef public Py_ssize_t _at_street_bets
    cdef public Py_ssize_t _at_folded
    cdef public Py_ssize_t _at_all_in
    cdef public Py_ssize_t _at_pot
    cdef public Py_ssize_t _at_current_bet
    cdef public list _hole_at
    cdef public list _history_at

    cpdef _bind_buffers(self, dyn, gather)
    @cython.locals(s=Py_ssize_t, inv=double, at_stacks=Py_ssize_t, at_bets=Py_ssize_t, dynv="float[::1]")
    cdef _refresh_money(self)
    @cython.locals(n=Py_ssize_t, s=Py_ssize_t, at=Py_ssize_t, inv=double, dynv="float[::1]")
    cpdef _start(self, HandState state)
    @cython.locals(refresh=bint, state=HandState)
    cdef bint _consume_events(self) except -1
    @cython.locals(street=Py_ssize_t, seat=Py_ssize_t, col=Py_ssize_t, at=Py_ssize_t, dynv="float[::1]")
    cdef _record_action(self, ev)
    @cython.locals(street=Py_ssize_t, refresh=bint, at=Py_ssize_t, k=Py_ssize_t, inv=double, dynv="float[::1]", state=HandState)
    cdef _advance(self)
    @cython.locals(state=HandState)
    cdef _next_turn(self)
    cdef dict _idle_info(self, Py_ssize_t seat)
    cpdef _seat_view(self, seat)
    cdef list _all_views(self)
    @cython.locals(state=HandState)
    cdef tuple _public_values(self)
    @cython.locals(n_events=Py_ssize_t, seat=Py_ssize_t, inv=double, dynv="float[::1]", state=HandState)
    cdef _after_action(self, ev)
    @cython.locals(state=HandState)
    cdef _finish(self)
    cpdef Py_ssize_t _action_id(self, action) except -1
    cpdef _raise_amount(self, Py_ssize_t a)
    @cython.locals(state=HandState)
    cpdef list _discrete_amounts(self)
    cdef _was_dead_step(self, action)
    # C calls from _order._WrapperCore (still overridable, like any cpdef method)
    cpdef step(self, action)
    @cython.locals(agent=object)
    cpdef tuple last(self, observe=*)
    @cython.locals(check_call=bint, inv=double, state=HandState)
    cpdef dict _observe_seat(self, Py_ssize_t seat)
    cdef dict _observation(
        self, Py_ssize_t seat, int scalars, double to_call=*, double min_to=*, double max_to=*, bint fold=*,
        bint check_call=*, Py_ssize_t raise_lo=*, Py_ssize_t raise_hi=*, list ids=*
    )
    @cython.locals(i=Py_ssize_t, r=Py_ssize_t, at=Py_ssize_t, to=Py_ssize_t, src="float[::1]", runs="Py_ssize_t[:, :, ::1]", out="float[::1]")
    cdef _typed_vector(self, Py_ssize_t seat, int scalars, double to_call, double min_to, double max_to)
    @cython.locals(i=Py_ssize_t, n=Py_ssize_t, lo=Py_ssize_t, hi=Py_ssize_t, fold_id=Py_ssize_t, call_id=Py_ssize_t, m="signed char[::1]")
    cdef _typed_mask(self, bint fold, bint check_call, Py_ssize_t raise_lo, Py_ssize_t raise_hi, list ids)

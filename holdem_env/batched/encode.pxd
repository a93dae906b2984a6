# Cython declarations for the compiled build of encode.py (holdem_env/_build.py CANDIDATES); the .py stays
# the source. Each pass over the rows becomes a C function over typed views of the BatchViews arrays.
cimport cython

cdef Py_ssize_t _NUM_HIST, _HIST_CHECKS, _HIST_AMOUNT

@cython.locals(room=Py_ssize_t, i=Py_ssize_t, k=Py_ssize_t, c=Py_ssize_t)
cdef Py_ssize_t _check_rows(
    const long long[::1] seat, const long long[::1] button, const long long[::1] street, const long long[:, ::1] hole,
    const long long[:, ::1] board, const long long[::1] board_len, const long long[::1] lo, const long long[::1] hi,
    const long long[::1] hist_len, const long long[:, ::1] hist_seat, const long long[:, ::1] hist_street,
    const long long[:, ::1] hist_kind, Py_ssize_t n, Py_ssize_t kinds, long long[::1] code) except -2

@cython.locals(n=Py_ssize_t, width=Py_ssize_t, o_hole=Py_ssize_t, o_board=Py_ssize_t, o_street=Py_ssize_t, o_sc=Py_ssize_t,
               o_stacks=Py_ssize_t, o_bets=Py_ssize_t, o_folded=Py_ssize_t, o_all_in=Py_ssize_t, o_dealt=Py_ssize_t,
               o_button=Py_ssize_t, o_hist=Py_ssize_t, seats=Py_ssize_t, sc_pot=Py_ssize_t, sc_call=Py_ssize_t,
               sc_lo=Py_ssize_t, sc_hi=Py_ssize_t, sc_own=Py_ssize_t, sc_cb=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t,
               k=Py_ssize_t, d=Py_ssize_t, o=Py_ssize_t, r=Py_ssize_t, s=Py_ssize_t, t=Py_ssize_t, col=Py_ssize_t,
               at=Py_ssize_t)
cdef int _write_observations(
    const long long[::1] seat, const long long[::1] button, const long long[::1] street, const long long[:, ::1] hole,
    const long long[:, ::1] board, const long long[::1] board_len, const long long[::1] pot,
    const long long[::1] current_bet, const long long[:, ::1] stacks, const long long[:, ::1] street_bets,
    const signed char[:, ::1] folded, const signed char[:, ::1] all_in, const signed char[:, ::1] dealt_in,
    const long long[::1] call, const long long[::1] lo, const long long[::1] hi, const long long[::1] hist_len,
    const long long[:, ::1] hist_seat, const long long[:, ::1] hist_street, const long long[:, ::1] hist_kind,
    const long long[:, ::1] hist_to, const long long[::1] kind_col, const long long[::1] off, float[:, ::1] out,
    const Py_ssize_t[::1] dest, double inv, double inv32) except -1

@cython.locals(m=Py_ssize_t, last=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, f=Py_ssize_t, s=Py_ssize_t,
               low=cython.longlong, high=cython.longlong, all_in_to=cython.longlong, base=cython.longlong,
               x=cython.double, amount=cython.longlong, taken=cython.bint)
cdef int _write_amounts(
    const long long[::1] seat, const long long[::1] pot, const long long[::1] current_bet,
    const long long[:, ::1] stacks, const long long[:, ::1] street_bets, const long long[::1] call,
    const long long[::1] lo, const long long[::1] hi, const double[::1] fractions, long long[:, ::1] amounts) except -1

@cython.locals(width=Py_ssize_t, m=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, d=Py_ssize_t)
cdef int _write_masks(
    const signed char[::1] fold, const signed char[::1] check, const long long[::1] call, const long long[::1] lo,
    const long long[::1] hi, const long long[:, ::1] amounts, bint exact, signed char[:, ::1] out,
    const Py_ssize_t[::1] dest) except -1

@cython.locals(m=Py_ssize_t, i=Py_ssize_t, a=cython.longlong)
cdef Py_ssize_t _to_exact(
    const long long[::1] acts, const signed char[::1] fold, const long long[::1] lo, const long long[::1] hi,
    const long long[:, ::1] amounts, bint exact, long long[::1] out) except -2

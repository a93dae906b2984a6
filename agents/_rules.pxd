# Cython declarations for the compiled build of _rules.py (holdem_env/_build.py CANDIDATES); the .py
# stays the source. Module tables and scratch become typed memoryviews, the generator a C integer, and
# the per-row loops C loops.
cimport cython
# the hand values and the generator's mixer (one implementation: holdem_env/engine/_kernels.py)
from holdem_env.engine._kernels cimport _mix64, _pair, _row5, _value

cdef unsigned long long _M64, _GOLDEN, _ONE, _STATE
cdef long long _FOLD, _CALL, NO_RAISE
cdef long long[::1] _PAIR_A, _PAIR_B, _PAIR_OF, _LEFT, _SUITS, _SBITS, _FULL, _DECK, _PICK, _ORDER, _WINS
cdef short[::1] _PV, _FLUSH
cdef int[::1] _ROW_OF

cdef unsigned long long _rand() noexcept
cdef void _mix_in(unsigned long long x) noexcept
cdef long long _below(long long n) noexcept
@cython.locals(dt=cython.longlong)
cdef long long _recount(long long true, long long plain, long long mine) noexcept
@cython.locals(left="long long[::1]", suits="long long[::1]", sb="long long[::1]", full="long long[::1]",
               known=cython.ulonglong, own=cython.ulonglong, r=Py_ssize_t, s=Py_ssize_t, j=Py_ssize_t, p=Py_ssize_t,
               x=cython.longlong, base=cython.longlong, most=cython.longlong, st=cython.longlong, mine=cython.longlong,
               wins=cython.longlong, ties=cython.longlong, valid=cython.longlong, a=cython.longlong, b=cython.longlong,
               cnt=cython.longlong, v=cython.longlong, o1=cython.longlong, o2=cython.longlong, r2=cython.longlong,
               r1=cython.longlong, sbits=cython.longlong)
cdef double _board_share(long long f0, long long f1, long long f2, long long f3, long long f4, long long c1, long long c2) noexcept
@cython.locals(rest="long long[::1]", pick="long long[::1]", o="long long[:, ::1]", k=Py_ssize_t, c=cython.longlong,
               i=Py_ssize_t, j=cython.longlong, a=cython.longlong, b=cython.longlong, t=cython.longlong, idx=cython.longlong,
               lo=cython.longlong, mid=cython.longlong, hi=cython.longlong)
cpdef object flop_sample(long long f0, long long f1, long long f2, long long m, long long seed)
@cython.locals(b="const long long[:]", ro="const long long[:, :]", total=cython.double, used=cython.longlong, c=cython.longlong,
               i=Py_ssize_t, t=cython.longlong, r=cython.longlong)
cpdef double hu_equity(const long long[:] board, long long nboard, long long c1, long long c2, const long long[:, :] runouts) except? -2.0
@cython.locals(deck="long long[::1]", full="long long[::1]", suits="long long[::1]", sb="long long[::1]",
               known=cython.ulonglong, i=Py_ssize_t, n=cython.longlong, c=cython.longlong, k=cython.longlong,
               need=cython.longlong, wins=cython.longlong, tied=cython.double, j=cython.longlong, r=cython.longlong,
               t=cython.longlong, s=Py_ssize_t, most=cython.longlong, st=cython.longlong, base=cython.longlong,
               hero=cython.longlong, best=cython.longlong, at_best=cython.longlong, o=cython.longlong, v=cython.longlong, q=Py_ssize_t)
cpdef double mc_equity(const long long[:] board, long long nboard, long long c1, long long c2, long long opponents, long long samples, long long seed) except? -2.0
@cython.locals(q=Py_ssize_t, i=cython.longlong, c1=cython.longlong, c2=cython.longlong, nb=cython.longlong)
cpdef row_equities(const long long[:, :] board, const long long[:] board_len, const long long[:, :] hole, const long long[:] opponents,
                   const long long[:] rows, long long flop_runouts, long long samples, long long seed, double[:] out)
@cython.locals(s=Py_ssize_t, others=cython.longlong)
cdef long long _opponents_in(const signed char[:, :] dealt, const signed char[:, :] folded, Py_ssize_t i, long long seat, long long n) noexcept
@cython.locals(f=cython.longlong)
cdef long long _closest(long long lo, long long hi, double target) noexcept
@cython.locals(seat_a="const long long[:]", button_a="const long long[:]", street_a="const long long[:]", pot_a="const long long[:]", cur_a="const long long[:]",
               stacks="const long long[:, :]", sbets="const long long[:, :]", folded="const signed char[:, :]", dealt="const signed char[:, :]",
               lfold="const signed char[:]", lcheck="const signed char[:]", call_a="const long long[:]", lo_a="const long long[:]", hi_a="const long long[:]",
               hlen="const long long[:]", hseat="const long long[:, :]", hstreet="const long long[:, :]", hkind="const long long[:, :]",
               n=Py_ssize_t, bb=cython.longlong, t=cython.double, a=cython.double, order="long long[::1]",
               i=Py_ssize_t, s=Py_ssize_t, k=Py_ssize_t, kk=Py_ssize_t, seat=cython.longlong, pot=cython.longlong,
               current=cython.longlong, to_call=cython.longlong, lo=cython.longlong, hi=cython.longlong, passive=cython.longlong,
               raises=cython.longlong, callers=cython.longlong, raiser=cython.longlong, stack_total=cython.longlong,
               target=cython.double, act=cython.longlong, p=cython.double, nd=cython.longlong, heads_up=bint, m=cython.longlong,
               pos=cython.longlong, behind=cython.longlong, is_big_blind=bint, price=cython.double, cheap=cython.double,
               frac=cython.double, three_bet=cython.double, call=cython.double, others=cython.longlong, opponents=cython.longlong,
               street=cython.longlong, value=cython.double, e=cython.double, uu=cython.double, pot_odds=cython.double,
               first=bint, value_bet=bint, c_bet=bint, stab=bint, rid=cython.longlong)
cpdef tag_rows(object v, const double[:] params, const double[:] opens, const double[:] pct, const double[:] eq, const double[:] u, long long[:] ids, double[:] targets)
@cython.locals(seat_a="const long long[:]", street_a="const long long[:]", pot_a="const long long[:]", cur_a="const long long[:]",
               stacks="const long long[:, :]", sbets="const long long[:, :]", folded="const signed char[:, :]", dealt="const signed char[:, :]",
               lfold="const signed char[:]", lcheck="const signed char[:]", call_a="const long long[:]", lo_a="const long long[:]", hi_a="const long long[:]",
               hlen="const long long[:]", hstreet="const long long[:, :]", hkind="const long long[:, :]",
               n=Py_ssize_t, bb=cython.longlong, play0=cython.double, raise_share=cython.double, aggression=cython.double,
               stickiness=cython.double, bluff=cython.double, i=Py_ssize_t, s=Py_ssize_t, k=Py_ssize_t,
               seat=cython.longlong, pot=cython.longlong, current=cython.longlong, to_call=cython.longlong, lo=cython.longlong,
               hi=cython.longlong, passive=cython.longlong, stack_total=cython.longlong, target=cython.double, act=cython.longlong,
               rid=cython.longlong, p=cython.double, raises=cython.longlong, play=cython.double, others=cython.longlong,
               opponents=cython.longlong, strong=cython.double, e=cython.double, uu=cython.double, pot_odds=cython.double)
cpdef style_rows(object v, const double[:] params, const double[:] pct, const double[:] eq, const double[:] u, long long[:] ids, double[:] targets)

# Cython declarations for the compiled build of _features.py (holdem_env/_build.py CANDIDATES); the .py
# stays the source. Module tables and scratch become typed memoryviews and the per-row loops C loops.
cimport cython
# the hand values (one implementation: holdem_env/engine/_kernels.py)
from holdem_env.engine._kernels cimport _row5, _value

cdef long long _ONE
cdef Py_ssize_t _N
cdef long long[::1] _FULL, _DRAWN, _SCNT, _SBIT, _BASE, _ST, _MOST, _SB, _MINE
cdef double[::1] _SHARE, _ACC

@cython.locals(acc="double[::1]", i=Py_ssize_t, j=Py_ssize_t, res=cython.double)
cdef double _block_sum(double[::1] share, Py_ssize_t start, Py_ssize_t n) noexcept
@cython.locals(full="long long[::1]", cnt="long long[::1]", bits="long long[::1]", s=Py_ssize_t, j=Py_ssize_t,
               c=cython.longlong, most=cython.longlong, st=cython.longlong)
cdef void _board_info(Py_ssize_t slot) noexcept
@cython.locals(full="long long[::1]", drawn="long long[::1]", share="double[::1]", known=cython.ulonglong,
               need=cython.longlong, k=Py_ssize_t, t=cython.longlong, j=Py_ssize_t, c=cython.longlong,
               slot=Py_ssize_t, most=cython.longlong, st=cython.longlong, sbits=cython.longlong,
               base=cython.longlong, mine=cython.longlong, best=cython.longlong, ties=cython.longlong,
               o=cython.longlong, v=cython.longlong)
cdef double _one_row(long long c1, long long c2, const long long[:, ::1] board, Py_ssize_t i, long long m,
                     long long opponents, const Py_ssize_t[:, ::1] perms) noexcept

@cython.locals(i=Py_ssize_t, o=cython.longlong, c1=cython.longlong, c2=cython.longlong, m=cython.longlong, v=cython.float)
cpdef equity_rows(const long long[:, ::1] holes, const long long[:, ::1] boards, const long long[::1] board_len,
                  const long long[::1] opponents, const Py_ssize_t[:, ::1] perms, float[:, ::1] preflop, float[::1] out)

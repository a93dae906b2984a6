# Cython declarations for the compiled build of _kernels.py (holdem_env/_build.py CANDIDATES); the .py
# stays the source. Its functions are cpdef: C calls for the compiled modules that cimport them
# (agents/_rules.pxd, agents/_features.pxd, training/cfr_search/_core.pxd), Python calls for the rest.
cimport cython

cdef unsigned long long _M64, _GOLDEN, _MIX1, _MIX2, _ONE
cdef long long[::1] _PAIR_A, _PAIR_B, _PAIR_OF, _RANKS
cdef short[::1] _PV, _FLUSH
cdef int[::1] _ROW_OF

cpdef unsigned long long _mix64(unsigned long long z) noexcept
@cython.locals(r="long long[::1]", i=Py_ssize_t, j=Py_ssize_t, x=cython.longlong)
cpdef long long _row5(long long f0, long long f1, long long f2, long long f3, long long f4) noexcept
@cython.locals(a=cython.longlong, b=cython.longlong)
cpdef long long _pair(long long c1, long long c2) noexcept
@cython.locals(own=cython.ulonglong, k=cython.longlong)
cpdef long long _value(long long base, long long st, long long most, long long sbits, long long c1, long long c2) noexcept

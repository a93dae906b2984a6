# Cython declarations for the compiled build of _core.py (holdem_env/_build.py CANDIDATES); the .py
# stays the source. The tree and the tables become typed memoryviews bound once per call of
# run_iterations, the generator a C integer, and the traversal a recursive C function.
cimport cython
# splitmix64's mixer (one implementation: holdem_env/engine/_kernels.py)
from holdem_env.engine._kernels cimport _mix64

cdef unsigned long long _M64, _GOLDEN, _STATE
cdef long long _FOLD_END, _SHOWDOWN
cdef double _RESULT, _THRESHOLD, _FLOOR
cdef bint _PRUNE
cdef Py_ssize_t _WIDTH, _NUM_STREETS
cdef long long[::1] _ACTOR, _STREET, _FIRST, _NCH, _CELL, _BUCKET, _DONE
cdef double[::1] _VALUE, _REGRET, _SUM, _SIGMA, _VALS

cdef double _uniform() noexcept
@cython.locals(total=cython.double, r=cython.double, a=Py_ssize_t)
cdef void _match(Py_ssize_t base, Py_ssize_t k, Py_ssize_t s) noexcept
@cython.locals(actor=cython.longlong, k=Py_ssize_t, first=Py_ssize_t, base=Py_ssize_t, s=Py_ssize_t, v=cython.double,
               a=Py_ssize_t, child=Py_ssize_t, r=cython.double, u=cython.double, choice=Py_ssize_t, acc=cython.double)
cdef double _traverse(Py_ssize_t n, long long p, Py_ssize_t depth, double wr, double wa) noexcept
@cython.locals(total=cython.double, count=Py_ssize_t, i=Py_ssize_t, t=cython.longlong, wr=cython.double, wa=cython.double)
cpdef double run_iterations(long long[::1] actor, long long[::1] street, long long[::1] first, long long[::1] num_children,
                            long long[::1] cell, double[::1] value, double[::1] regret, double[::1] strategy_sum,
                            long long[:, ::1] buckets, double[::1] results, long long start, bint linear_regret,
                            bint linear_average, long long prune_after, double prune_prob, double threshold,
                            double floor, unsigned long long seed, Py_ssize_t max_depth) except? -1e300

# Cython declarations for the compiled build of _kernels.py (holdem_env/_build.py CANDIDATES); the .py
# stays the source (uncompiled, the trainer uses the numpy code instead).
cimport cython

cdef float _TINY, _CAP, _F1, _F0

@cython.locals(c=Py_ssize_t, n=Py_ssize_t)
cdef Py_ssize_t _cards(const float[:, ::1] obs, Py_ssize_t i, Py_ssize_t start, long long[:, ::1] dst,
                       Py_ssize_t cap) noexcept

@cython.locals(tiny=cython.float, cap=cython.float, one=cython.float, zero=cython.float, b=Py_ssize_t, width=Py_ssize_t,
               o_sc=Py_ssize_t, o_hole=Py_ssize_t, o_board=Py_ssize_t, o_dealt=Py_ssize_t, o_fold=Py_ssize_t,
               o_button=Py_ssize_t, seats=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, c=Py_ssize_t, s=Py_ssize_t,
               nh=Py_ssize_t, nb=Py_ssize_t, acc=cython.float, n_live=cython.longlong, pot=cython.float,
               to_call=cython.float, stack=cython.float, denom=cython.float, m=cython.float, spr=cython.float,
               rel=Py_ssize_t, best=cython.float, distance=Py_ssize_t, risk=cython.float)
cpdef Py_ssize_t features_rows(const float[:, ::1] obs, const float[::1] scale, const long long[::1] off, float[:, ::1] out,
                               long long[:, ::1] holes, long long[:, ::1] boards, long long[::1] lengths,
                               long long[::1] live) except -2

@cython.locals(b=Py_ssize_t, a=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, acc=cython.double, count=cython.longlong,
               total=cython.double, k=cython.longlong, below=cython.longlong, rank=cython.longlong)
cpdef Py_ssize_t draw_rows(const double[:, ::1] probs, const signed char[:, ::1] masks, const double[::1] u,
                           double[:, ::1] cdf, long long[::1] out) except -2

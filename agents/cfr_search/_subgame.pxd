# Cython declarations for the compiled build of _subgame.py (holdem_env/_build.py CANDIDATES); the .py
# stays the source. The solver's arrays become typed memoryviews and its tree walk C loops and C calls.
cimport cython

cdef class SubgameCore:
    cdef public long long[::1] kind, player, amount, first_child, n_children, children, dealt, row
    cdef public long long[::1] c1, c2, board, card_count, n_valid, opp_row, own_row, slot, matched
    cdef public long long[:, ::1] strength, order, ranked, ordered_c1, ordered_c2, card_holdings, deal
    cdef public double[:, ::1] ranges, regret, avg, current, opp_reach, own_reach, values, gadget_regret
    cdef public double[:, :, ::1] strat
    cdef public double[::1] card_sum, card_sum2, scratch, gadget_values, gadget_weight, gadget_follow
    cdef public Py_ssize_t n_nodes, n_hold, width, n_rows
    cdef public long long gadget_player
    cdef public double pos_disc, neg_disc, avg_disc

    @cython.locals(h=Py_ssize_t, n=Py_ssize_t, g=cython.longlong, t=cython.double, f=cython.double,
                   vf=cython.double, vt=cython.double, v=cython.double)
    cpdef void _root(self, long long trav, long long mode)
    cdef double _discount(self, double r) noexcept
    @cython.locals(k=cython.longlong)
    cdef void _walk(self, Py_ssize_t node, long long trav, Py_ssize_t d, long long mode)
    @cython.locals(n=Py_ssize_t, h=Py_ssize_t, c=Py_ssize_t, total=cython.double, r=cython.double, pay=cython.double,
                   opp="double[::1]", val="double[::1]", cs="double[::1]", c1="long long[::1]", c2="long long[::1]")
    cdef void _fold(self, Py_ssize_t node, long long trav, Py_ssize_t d) noexcept
    @cython.locals(n=Py_ssize_t, h=Py_ssize_t, c=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, m=Py_ssize_t,
                   b=Py_ssize_t, nv=Py_ssize_t, s=cython.longlong,
                   total=cython.double, r=cython.double, pay=cython.double, opp="double[::1]", val="double[::1]",
                   c1="long long[::1]", c2="long long[::1]", order="long long[::1]",
                   ranked="long long[::1]", reach="double[::1]", win="double[::1]",
                   lose="double[::1]", up="double[::1]", down="double[::1]", above=cython.double)
    cdef void _showdown(self, Py_ssize_t node, Py_ssize_t d) noexcept
    @cython.locals(n=Py_ssize_t, h=Py_ssize_t, a=Py_ssize_t, first=Py_ssize_t, child=Py_ssize_t, nc=Py_ssize_t,
                   level=Py_ssize_t, walked=cython.double, scale=cython.double, card=cython.longlong, live=cython.double, own0="double[::1]", own1="double[::1]",
                   opp0="double[::1]", opp1="double[::1]", val0="double[::1]", val1="double[::1]",
                   w=cython.double, blocked="long long[::1]", nb=Py_ssize_t, k=Py_ssize_t)
    cdef void _chance(self, Py_ssize_t node, long long trav, Py_ssize_t d, long long mode)
    @cython.locals(n=Py_ssize_t, h=Py_ssize_t, a=Py_ssize_t, zeros=Py_ssize_t,
                   total=cython.double, x=cython.double, u=cython.double, tot="double[::1]")
    cdef void _match(self, double[:, ::1] src, Py_ssize_t r0, Py_ssize_t na, double[:, ::1] st, Py_ssize_t s0) noexcept
    @cython.locals(n=Py_ssize_t, h=Py_ssize_t, a=Py_ssize_t, na=Py_ssize_t, r0=Py_ssize_t, first=Py_ssize_t,
                   base=Py_ssize_t, q=cython.longlong, live=cython.double, v=cython.double, x=cython.double, pos=cython.double,
                   neg=cython.double, keep=cython.double, own0="double[::1]", own1="double[::1]", opp0="double[::1]",
                   val0="double[::1]", val1="double[::1]", st="double[::1]", cv="double[::1]",
                   reg="double[::1]", av="double[::1]", opp1="double[::1]",
                   sts="double[:, ::1]", s0=Py_ssize_t, child=Py_ssize_t)
    cdef void _decision(self, Py_ssize_t node, long long trav, Py_ssize_t d, long long mode)
    @cython.locals(n=Py_ssize_t, h=Py_ssize_t, st0="double[::1]", st1="double[::1]", cv0="double[::1]",
                   cv1="double[::1]", val0="double[::1]", reg0="double[::1]", reg1="double[::1]", av0="double[::1]",
                   av1="double[::1]", pos=cython.double, neg=cython.double, keep=cython.double, p0=cython.double,
                   p1=cython.double, v=cython.double, x=cython.double, y=cython.double, w=cython.double, t=cython.double)
    cdef void _update2(self, Py_ssize_t r0, Py_ssize_t base, Py_ssize_t d, double[::1] own0) noexcept

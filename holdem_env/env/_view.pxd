# Cython declarations for the compiled build of _view.py (setup.py COMPILED); the .py stays the source.
# SeatView becomes an extension type with its values in two typed fields (the seat's own part and the
# public part the env shares between the seats' views of one moment): the compiled env (nlhe_v1.pxd
# cimports it) builds a view with one C call, no Python-level object.__new__ and slot setters.
cimport cython

cdef class SeatView:
    cdef readonly tuple _own
    cdef readonly tuple _public

cpdef SeatView view_from_values(tuple values)
@cython.locals(view=SeatView)
cpdef SeatView view_from_parts(tuple own, tuple public)

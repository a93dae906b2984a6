# Cython declarations for the compiled build of _view.py (setup.py COMPILED); the .py stays the source.
# SeatView becomes an extension type with its values in one typed field: the compiled env
# (nlhe_v1.pxd cimports it) builds a view with one C call, no Python-level object.__new__ and slot setter.
cimport cython

cdef class SeatView:
    cdef readonly tuple _values

@cython.locals(view=SeatView)
cpdef SeatView view_from_values(tuple values)

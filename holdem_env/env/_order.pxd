# Cython declarations for the compiled build of _order.py (setup.py COMPILED); the .py stays the source.
# The env's core as a C type (env/_core.pxd): the wrapper's step/last are C calls into it.
from holdem_env.env._core cimport _EnvCore


# The order-enforcing wrapper's and its iterator's per-step halves (Python subclasses add PettingZoo's
# classes): the flags and the envs as typed fields, so step/last/__next__ read C struct members.
cdef class _WrapperCore:
    cdef public _EnvCore env
    cdef public bint _has_reset
    cdef public bint _has_updated


cdef class _IteratorCore:
    cdef public _WrapperCore env
    cdef public object iters_til_term
    cdef public _EnvCore _raw

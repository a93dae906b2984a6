# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Observation dicts of ``nlhe_v0``: :class:`holdem_env._obsbuild.ObservationBuilder` in Cython.

Same interface and the same bytes as the pure-Python builder (``tests/test_compiled_build.py``
compares them); it writes the new arrays through their buffers instead of numpy indexing.
Built by ``setup.py`` with the rest of the compiled modules; without it the env uses
``_obsbuild.py``.
"""

import numpy as np

from holdem_env._obsbuild import check_arguments

from cpython.buffer cimport PyBUF_SIMPLE, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer

__all__ = ["ObservationBuilder"]

cdef object _empty = np.empty
cdef object _zeros = np.zeros
cdef object _FLOAT32 = np.dtype(np.float32)
cdef object _INT8 = np.dtype(np.int8)


cdef class ObservationBuilder:
    """Builds observation dicts from ``buffer`` (float32, 1-D) with ``gather`` (intp, observers x length)."""

    cdef object _buffer, _gather
    cdef const float[::1] _buf
    cdef const Py_ssize_t[:, ::1] _idx
    cdef Py_ssize_t _length, _observers, _num_actions, _off

    def __init__(self, buffer, gather, Py_ssize_t num_actions, Py_ssize_t off_to_call):
        check_arguments(buffer, gather, off_to_call)
        gather = np.ascontiguousarray(gather)
        self._buffer = buffer  # keep the arrays alive with their views
        self._gather = gather
        self._buf = buffer
        self._idx = gather
        self._observers = gather.shape[0]
        self._length = gather.shape[1]
        self._num_actions = num_actions
        self._off = off_to_call

    cdef object _observation(self, Py_ssize_t seat, float to_call, float min_to, float max_to, int scalars):
        """Observer ``seat``'s vector with the first ``scalars`` (0, 1 or 3) per-call scalars written."""
        if not 0 <= seat < self._observers:
            raise IndexError(f"seat {seat} is out of range 0..{self._observers - 1}")
        obs = _empty(self._length, _FLOAT32)
        cdef Py_buffer view
        PyObject_GetBuffer(obs, &view, PyBUF_SIMPLE | PyBUF_WRITABLE)
        cdef float* out = <float*> view.buf
        cdef const float* src = &self._buf[0]
        cdef const Py_ssize_t* idx = &self._idx[seat, 0]
        cdef Py_ssize_t i
        for i in range(self._length):
            out[i] = src[idx[i]]
        if scalars >= 1:
            out[self._off] = to_call
        if scalars == 3:
            out[self._off + 1] = min_to
            out[self._off + 2] = max_to
        PyBuffer_Release(&view)
        return obs

    def idle(self, Py_ssize_t seat):
        """The observation of a seat that is not to act and owes nothing (all-zero mask)."""
        obs = self._observation(seat, 0.0, 0.0, 0.0, 0)
        return {"observation": obs, "action_mask": _zeros(self._num_actions, _INT8)}

    def waiting(self, Py_ssize_t seat, double to_call):
        """A seat not to act that would owe ``to_call`` (big blinds) now (all-zero mask)."""
        obs = self._observation(seat, <float> to_call, 0.0, 0.0, 1)
        return {"observation": obs, "action_mask": _zeros(self._num_actions, _INT8)}

    def actor(
        self,
        Py_ssize_t seat,
        double to_call,
        double min_to,
        double max_to,
        bint fold,
        bint check_call,
        Py_ssize_t raise_lo,
        Py_ssize_t raise_hi,
        ids,
    ):
        """The seat to act: its scalars, and a mask with fold (id 0), check/call (id 1), every
        id in ``range(raise_lo, raise_hi)`` and every id in ``ids``."""
        obs = self._observation(seat, <float> to_call, <float> min_to, <float> max_to, 3)
        cdef Py_ssize_t n = self._num_actions, i
        cdef signed char* m
        if raise_lo < 0 or raise_hi > n:
            raise IndexError(f"raise ids {raise_lo}..{raise_hi - 1} are outside 0..{n - 1}")
        mask = _zeros(n, _INT8)
        cdef Py_buffer view
        cdef bint bad = False
        cdef Py_ssize_t bad_id = 0
        PyObject_GetBuffer(mask, &view, PyBUF_SIMPLE | PyBUF_WRITABLE)
        try:
            m = <signed char*> view.buf
            if fold:
                m[0] = 1
            if check_call:
                m[1] = 1
            for i in range(raise_lo, raise_hi):
                m[i] = 1
            if ids is not None:
                for i in ids:
                    if 0 <= i < n:
                        m[i] = 1
                    else:
                        bad, bad_id = True, i
                        break
        finally:
            PyBuffer_Release(&view)
        if bad:
            raise IndexError(f"action id {bad_id} is outside 0..{n - 1}")
        return {"observation": obs, "action_mask": mask}

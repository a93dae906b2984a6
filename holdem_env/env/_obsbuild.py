"""Observation dicts of ``nlhe_v1`` from its buffer: the numpy builder of the pure-Python build.

:class:`ObservationBuilder` turns the env's flat float32 buffer (kept up to date event by
event, in absolute seat order) into one observer's ``{"observation", "action_mask"}`` dict:
a gather of that observer's indices, then the scalars only the observer's own decision has
(amount to call, min and max raise-to) and the action mask. The compiled build writes the same
bytes with C loops in the env's typed core (``nlhe_v1._EnvCore._typed_vector`` and
``_typed_mask``; ``tests/test_env_fastpaths.py`` compares the two for every seat); its gather
indices are still checked here (:func:`check_arguments`) when the env builds its builder.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["ObservationBuilder", "check_arguments", "gather_runs"]

_INT8 = np.dtype(np.int8)


def check_arguments(buffer: np.ndarray, gather: np.ndarray, off_to_call: int) -> None:
    """Raise ValueError unless the arguments fit a builder."""
    if buffer.dtype != np.float32 or buffer.ndim != 1 or not buffer.flags.c_contiguous:
        raise ValueError("buffer must be a contiguous 1-D float32 array")
    if gather.dtype != np.intp or gather.ndim != 2:
        raise ValueError("gather must be a 2-D intp array (observers x length)")
    if gather.size and (gather.min() < 0 or gather.max() >= buffer.shape[0]):
        raise ValueError("gather indices must lie inside the buffer")
    if not 0 <= off_to_call <= gather.shape[1] - 3:
        raise ValueError("off_to_call must leave room for three scalars")


class ObservationBuilder:
    """Builds observation dicts from ``buffer`` (float32, 1-D) with ``gather`` (intp, observers x length).

    ``gather[o]`` lists the buffer index of every entry of observer ``o``'s vector; entries
    ``off_to_call``, ``off_to_call + 1`` and ``off_to_call + 2`` (amount to call, min and max
    raise-to) are written per call. Masks have ``num_actions`` int8 entries.
    """

    __slots__ = ("_buffer", "_gather", "_num_actions", "_off")

    def __init__(self, buffer: np.ndarray, gather: np.ndarray, num_actions: int, off_to_call: int) -> None:
        check_arguments(buffer, gather, off_to_call)
        self._buffer = buffer
        self._gather = np.ascontiguousarray(gather)
        self._num_actions = int(num_actions)
        self._off = int(off_to_call)

    def _observation(self, seat: int) -> np.ndarray:
        if not 0 <= seat < self._gather.shape[0]:
            raise IndexError(f"seat {seat} is out of range 0..{self._gather.shape[0] - 1}")
        return self._buffer[self._gather[seat]]  # a copy (fancy indexing)

    def idle(self, seat: int) -> dict[str, np.ndarray]:
        """The observation of a seat that is not to act and owes nothing (all-zero mask)."""
        return {"observation": self._observation(seat), "action_mask": np.zeros(self._num_actions, _INT8)}

    def waiting(self, seat: int, to_call: float) -> dict[str, np.ndarray]:
        """A seat not to act that would owe ``to_call`` (big blinds) now (all-zero mask)."""
        obs = self._observation(seat)
        obs[self._off] = to_call
        return {"observation": obs, "action_mask": np.zeros(self._num_actions, _INT8)}

    def actor(
        self,
        seat: int,
        to_call: float,
        min_to: float,
        max_to: float,
        fold: bool,
        check_call: bool,
        raise_lo: int,
        raise_hi: int,
        ids: Sequence[int] | None,
    ) -> dict[str, np.ndarray]:
        """The seat to act: its scalars, and a mask with fold (id 0), check/call (id 1), every
        id in ``range(raise_lo, raise_hi)`` and every id in ``ids``."""
        obs = self._observation(seat)
        off = self._off
        obs[off] = to_call
        obs[off + 1] = min_to
        obs[off + 2] = max_to
        n = self._num_actions
        if raise_lo < 0 or raise_hi > n:
            raise IndexError(f"raise ids {raise_lo}..{raise_hi - 1} are outside 0..{n - 1}")
        mask = np.zeros(n, _INT8)
        if fold:
            mask[0] = 1
        if check_call:
            mask[1] = 1
        if raise_lo < raise_hi:
            mask[raise_lo:raise_hi] = 1
        if ids is not None:
            for i in ids:
                if not 0 <= i < n:
                    raise IndexError(f"action id {i} is outside 0..{n - 1}")
                mask[i] = 1
        return {"observation": obs, "action_mask": mask}


def gather_runs(gather: np.ndarray) -> np.ndarray:
    """The observers' gather indices (``(observers, size)``) as runs of consecutive buffer indices:
    ``out[s, 0, 0]`` is observer ``s``'s number of runs ``k``, and ``out[s, 1 + r]`` is run ``r``'s
    ``(first buffer index, first observation index, length)`` for ``r < k`` (unused rows are zero).
    The compiled observation writer copies run by run; the result is the same gather.

    >>> gather_runs(np.array([[4, 5, 6, 0, 1]])).tolist()
    [[[2, 0, 0], [4, 0, 3], [0, 3, 2]]]
    """
    observers, size = gather.shape
    rows = []
    for s in range(observers):
        idx = gather[s].astype(np.int64)
        starts = [0, *(np.flatnonzero(np.diff(idx) != 1) + 1).tolist()] if size else []
        ends = [*starts[1:], size]
        rows.append([(int(idx[a]), a, b - a) for a, b in zip(starts, ends, strict=True)])
    most = max((len(r) for r in rows), default=0)
    out = np.zeros((observers, most + 1, 3), dtype=np.intp)
    for s, row in enumerate(rows):
        out[s, 0, 0] = len(row)
        if row:
            out[s, 1 : len(row) + 1] = row
    return out

"""The learner's network input for a step of the trainer's sampling, written in place: the same float32 bytes as ``PpoPolicy.encode``.

:class:`StepEncoder` writes ``observation * scale`` and the engineered features
(:func:`holdem_env.agents.features.features_batch`) of every row into a row block of the rollout's
input array, with the features' operations in the same order and dtypes as ``features_batch`` and
the equity from the same compiled kernel (``agents/_features``), called once without the per-call
argument checks of ``_equity_compiled``. Rows it does not take (a seat without hole cards, a board
of 1 or 2 cards, more than 9 live opponents, or no compiled kernel) go through ``features_batch``
itself, so the answer is the same for any input (``tests/test_sampling_glue.py`` compares them).
"""

from __future__ import annotations

import numpy as np

from holdem_env.agents import features as feat
from holdem_env.agents.ppo import PpoPolicy

from . import _kernels

__all__ = ["StepEncoder"]


class StepEncoder:
    """``encoder.encode(obs)`` of a :class:`PpoPolicy` with features, into ``out`` (``(B, input_size)`` float32)."""

    def __init__(self, encoder: PpoPolicy) -> None:
        cfg = encoder.config
        self.scale = encoder.scale
        self.features = bool(cfg.features)
        self.size = cfg.obs_size
        self.seats = feat.seats_of(self.size) if self.features else 0
        self.encoder = encoder
        if self.features:
            off = feat._offsets(self.seats)
            self.sc = off["scalars"][0]
            self.hole = slice(*off["hole"])
            self.board = slice(*off["board"])
            self.dealt = slice(off["dealt_in"][0] + 1, off["dealt_in"][1])
            self.folded = slice(off["folded"][0] + 1, off["folded"][1])
            self.button = slice(*off["button"])
            self.off = np.array([off["scalars"][0], off["hole"][0], off["board"][0], off["dealt_in"][0], off["folded"][0],
                                 off["button"][0], self.seats], dtype=np.int64)
        #: whether the compiled kernels write the input (else numpy, the reference, does)
        self.compiled = _kernels.COMPILED and feat.COMPILED_EQUITY and self.scale.dtype == np.float32
        self._rows = -1

    def encode(self, observations: np.ndarray, out: np.ndarray) -> None:
        """Write the network input of the ``(B, obs_size)`` float32 ``observations`` into ``out``."""
        obs = observations
        if obs.dtype != np.float32 or obs.ndim != 2 or obs.shape[1] != self.size:
            out[...] = self.encoder.encode(obs)  # (the checked path says what is wrong)
            return
        if self.features and self.compiled and obs.flags.c_contiguous and out.flags.c_contiguous and self._compiled(obs, out):
            return
        np.multiply(obs, self.scale, out=out[:, : self.size])
        if self.features:
            out[:, self.size :] = self._features(obs)

    def _compiled(self, obs: np.ndarray, out: np.ndarray) -> bool:
        """The input by :func:`._kernels.features_rows` and one compiled equity call; False (nothing to
        keep) for a batch with a row it does not take."""
        b = obs.shape[0]
        if self._rows != b:
            self._rows = b
            self._holes = np.zeros((b, 2), dtype=np.int64)
            self._boards = np.zeros((b, 5), dtype=np.int64)
            self._lengths = np.zeros(b, dtype=np.int64)
            self._live = np.zeros(b, dtype=np.int64)
            self._eq = np.zeros(b, dtype=np.float32)
        if _kernels.features_rows(obs, self.scale, self.off, out, self._holes, self._boards, self._lengths, self._live) >= 0:
            return False
        feat._features.equity_rows(self._holes, self._boards, self._lengths, self._live, feat._PERMS, feat._PREFLOP_TABLE,
                                   self._eq)
        out[:, self.size] = self._eq
        return True

    def _features(self, obs: np.ndarray) -> np.ndarray:
        """:func:`features_batch` of ``obs`` (its operations, in its order)."""
        b = obs.shape[0]
        seats = self.seats
        if b == 0 or not feat.COMPILED_EQUITY:
            return feat.features_batch(obs)
        hole_hot = obs[:, self.hole] > 0.5
        board_hot = obs[:, self.board] > 0.5
        if not (hole_hot.sum(axis=1) == 2).all():  # a row without two hole cards (equity 0 there)
            return feat.features_batch(obs)
        holes = np.ascontiguousarray(np.nonzero(hole_hot)[1]).reshape(b, 2)  # each row's two cards, ascending
        lengths = board_hot.sum(axis=1)
        if np.bincount(lengths, minlength=6)[1:3].any() or lengths.max() > 5:
            return feat.features_batch(obs)
        live = np.clip((obs[:, self.dealt] * (np.float32(1.0) - obs[:, self.folded])).sum(axis=1), 0, seats - 1).astype(np.int64)
        if live.max() > 9:
            return feat.features_batch(obs)
        out = np.zeros((b, feat.NUM_FEATURES), dtype=np.float32)
        board_cols = np.argsort(~board_hot, axis=1, kind="stable")[:, :5]
        eq = np.empty(b, dtype=np.float32)
        feat._features.equity_rows(holes, np.ascontiguousarray(board_cols, dtype=np.int64), lengths.astype(np.int64),
                                live, feat._PERMS, feat._PREFLOP_TABLE, eq)
        out[:, 0] = eq
        sc = obs[:, self.sc : self.sc + 5]
        pot, to_call, stack = sc[:, 0], sc[:, 1], sc[:, 4]
        denom = pot + to_call
        out[:, 1] = np.where(to_call > 0, to_call / np.maximum(denom, 1e-9), 0.0)
        out[:, 2] = np.minimum(np.where(pot > 0, stack / np.maximum(pot, 1e-9), feat.SPR_CAP), feat.SPR_CAP) / feat.SPR_CAP
        rel_button = np.argmax(obs[:, self.button], axis=1)
        distance = (seats - rel_button) % seats
        out[:, 3] = ((distance - 1) % seats) / (seats - 1)
        out[:, 4] = live / (seats - 1)
        at_risk = np.minimum(to_call / np.maximum(stack, 1e-9), 1.0)
        out[:, 5] = np.where(stack > 0, at_risk, np.where(to_call > 0, 1.0, 0.0))
        return out


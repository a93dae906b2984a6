"""The compiled equity feature (agents/_features.py) equals the numpy reference (agents/features.py) bit for bit."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents import _features
from holdem_env.agents import features as feat
from holdem_env.env import nlhe_v1
from holdem_env.env.loop import decisions

compiled_only = pytest.mark.skipif(not _features.COMPILED, reason="agents/_features.py is not compiled here (make build)")


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty caches and preflop table, so every value below is computed in the test."""
    monkeypatch.setattr(feat, "_PREFLOP_CACHE", {})
    monkeypatch.setattr(feat, "_POSTFLOP_CACHE", {})
    monkeypatch.setattr(feat, "_PREFLOP_TABLE", np.full((52 * 52, 10), np.nan, dtype=np.float32))


def _reference(holes: np.ndarray, boards: np.ndarray, lengths: np.ndarray, opponents: np.ndarray) -> np.ndarray:
    """features._equity_group row by row (the numpy reference, no cache)."""
    out = np.ones(len(holes), dtype=np.float32)
    for i in range(len(holes)):
        if opponents[i] > 0:
            m = int(lengths[i])
            out[i] = feat._equity_group(np.sort(holes[i : i + 1], axis=1).astype(np.intp), boards[i : i + 1, :m].astype(np.intp), int(opponents[i]))[0]
    return out


rows = st.lists(
    st.tuples(st.permutations(range(52)), st.sampled_from([0, 3, 4, 5]), st.integers(0, 9)), min_size=1, max_size=12
)


def _arrays(drawn: list[tuple[list[int], int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    holes = np.array([p[:2] for p, _, _ in drawn], dtype=np.int64)
    boards = np.array([p[2:7] for p, _, _ in drawn], dtype=np.int64)  # only the first m are the board
    lengths = np.array([m for _, m, _ in drawn], dtype=np.int64)
    opponents = np.array([o for _, _, o in drawn], dtype=np.int64)
    return holes, boards, lengths, opponents


@compiled_only
@settings(max_examples=60, deadline=None)
@given(rows)
def test_compiled_equity_equals_the_numpy_reference(drawn: list[tuple[list[int], int, int]]) -> None:
    holes, boards, lengths, opponents = _arrays(drawn)
    table = np.full((52 * 52, 10), np.nan, dtype=np.float32)
    out = np.full(len(holes), -1.0, dtype=np.float32)
    _features.equity_rows(holes, boards, lengths, opponents, feat._PERMS, table, out)
    np.testing.assert_array_equal(out, _reference(holes, boards, lengths, opponents))
    # a second call reads the preflop values it wrote and gives the same again
    again = np.full(len(holes), -1.0, dtype=np.float32)
    _features.equity_rows(holes, boards, lengths, opponents, feat._PERMS, table, again)
    np.testing.assert_array_equal(again, out)


def _observations(seats: int, hands: int, seed: int) -> np.ndarray:
    """Every observation the acting seats receive in ``hands`` hands of random legal play."""
    rng = np.random.default_rng(seed)
    env = nlhe_v1.raw_env(num_players=seats)
    rows = []
    for seen, _info in decisions(env, hands, seed=seed):
        rows.append(seen["observation"])
        env.step(int(rng.choice(np.flatnonzero(seen["action_mask"]))))
    return np.array(rows, dtype=np.float32)


@compiled_only
@pytest.mark.parametrize(("seats", "hands"), [(2, 700), (6, 300)])
def test_compiled_features_equal_features_batch_on_real_observations(
    seats: int, hands: int, fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    obs = _observations(seats, hands, seed=seats)
    assert len(obs) >= 2000
    monkeypatch.setattr(feat, "COMPILED_EQUITY", True)
    fast = feat.features_batch(obs)
    monkeypatch.setattr(feat, "COMPILED_EQUITY", False)
    slow = feat.features_batch(obs)
    assert (slow[:, 0] > 0).mean() > 0.9 and len(np.unique(slow[:, 0])) > 100  # real equities, not a constant
    np.testing.assert_array_equal(fast, slow)
    # one row at a time (the per-decision path) too
    monkeypatch.setattr(feat, "COMPILED_EQUITY", True)
    for i in range(0, len(obs), 97):
        np.testing.assert_array_equal(feat.features_row(obs[i]), slow[i])


@compiled_only
def test_equity_batch_dispatches_and_falls_back(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    holes = np.array([[51, 50], [0, 5], [12, 30], [7, 8]])
    boards = [np.array([], dtype=int), np.array([1, 2, 3]), np.array([4, 9, 22, 40, 41]), np.array([10, 11, 13, 14])]
    monkeypatch.setattr(feat, "COMPILED_EQUITY", True)
    for opponents in ([1, 3, 0, 9], [10, 2, 2, 2]):  # 10 opponents: the numpy path decides
        fast = feat.equity_batch(holes, boards, np.array(opponents))
        monkeypatch.setattr(feat, "COMPILED_EQUITY", False)
        slow = feat.equity_batch(holes, boards, np.array(opponents))
        monkeypatch.setattr(feat, "COMPILED_EQUITY", True)
        np.testing.assert_array_equal(fast, slow)
    assert feat._equity_compiled(holes, np.zeros((4, 5), dtype=np.int64), np.array([0, 3, 5, 4]), np.array([1, 1, 1, 10])) is None
    assert feat._equity_compiled(np.array([[0, 52]]), np.zeros((1, 5), dtype=np.int64), np.array([0]), np.array([1])) is None
    assert feat._equity_compiled(np.array([[0, 1]]), np.zeros((1, 5), dtype=np.int64), np.array([2]), np.array([1])) is None


def test_the_python_source_gives_the_same_values() -> None:
    """The .py of the compiled module (what runs without a C build) computes the same numbers, slowly."""
    path = Path(_features.__file__).with_name("_features.py")
    spec = importlib.util.spec_from_file_location("holdem_env.agents._features_source", path)
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    source.__package__ = "holdem_env.agents"
    spec.loader.exec_module(source)
    assert not source.COMPILED
    holes = np.array([[51, 47], [0, 5], [12, 30], [7, 8], [31, 27]], dtype=np.int64)
    boards = np.array([[0, 0, 0, 0, 0], [1, 2, 3, 0, 0], [4, 9, 22, 40, 41], [10, 11, 13, 14, 0], [35, 39, 43, 1, 2]])
    lengths = np.array([0, 3, 5, 4, 5], dtype=np.int64)
    opponents = np.array([1, 3, 2, 0, 1], dtype=np.int64)
    out = np.zeros(5, dtype=np.float32)
    source.equity_rows(holes, boards, lengths, opponents, feat._PERMS, np.full((52 * 52, 10), np.nan, dtype=np.float32), out)
    np.testing.assert_array_equal(out, _reference(holes, boards, lengths, opponents))

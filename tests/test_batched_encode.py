"""The batched encoder writes, row for row, the bytes nlhe_v1 hands the seat to act.

Decisions are played on the single-table env (random stacks, antes, blinds whose inverse is not a
float32 number, both action modes, padded and unpadded seats); their views become a BatchViews
(:meth:`BatchViews.from_seat_views`), and the encoder's observations, masks and exact ids are compared
with what the env returned and applied. The compiled module is also compared with its ``.py`` source.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.batched import encode
from holdem_env.batched.views import BatchViews
from holdem_env.engine.actions import LegalActions
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.env import nlhe_v1
from holdem_env.env.actions import DEFAULT_BET_SIZES, discrete_raise_amounts
from holdem_env.env.loop import decisions

COMPILED = encode.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
MAX_STACK = 2500


def _play(players: int, mode: str, pad: bool, count: int, seed: int, **kwargs: Any) -> tuple[Any, ...]:
    """``count``-odd decisions of nlhe_v1: (views, legals, observations, masks, action ids, exact ids applied)."""
    env = nlhe_v1.env(num_players=players, action_mode=mode, pad_seats=pad, max_stack=MAX_STACK, **kwargs)
    rng = np.random.default_rng(seed)
    views: list[Any] = []
    legals: list[Any] = []
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    acts: list[int] = []
    exact: list[int] = []

    def stacks_of(_hand: int) -> dict[str, Any] | None:
        # half the hands start from random stacks (at least two seats with chips)
        stacks = rng.integers(0, MAX_STACK + 1, size=players) if rng.random() < 0.5 else None
        return None if stacks is None or (stacks > 0).sum() < 2 else {"stacks": stacks.tolist()}

    for o, info in decisions(env, seed=seed * 1000, options=stacks_of):
        if len(views) >= count:
            break
        views.append(info["view"])
        legals.append(info["legal"])
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        ids = np.flatnonzero(o["action_mask"])
        a = 1 if rng.random() < 0.45 else int(rng.choice(ids))  # many calls: hands reach the river
        amount = env.unwrapped.action_amount(a)
        acts.append(a)
        exact.append(a if amount is None else amount + 1)
        env.step(a)
    return views, legals, np.array(obs), np.array(masks), np.array(acts), np.array(exact)


CASES = [
    # players, mode, pad, blinds and ante
    (2, "exact", False, {"small_blind": 5, "big_blind": 10}),
    (2, "discrete", True, {"small_blind": 1, "big_blind": 3}),
    (2, "discrete", False, {"small_blind": 5, "big_blind": 10, "bet_sizes": (0.25, 0.5, 1.0, 3.0)}),
    (6, "exact", True, {"small_blind": 2, "big_blind": 7, "ante": 1}),
    (6, "discrete", False, {"small_blind": 5, "big_blind": 10}),
    (6, "exact", False, {"small_blind": 25, "big_blind": 50}),
    (6, "discrete", True, {"small_blind": 3, "big_blind": 6, "ante": 2}),
    (3, "discrete", False, {"small_blind": 4, "big_blind": 8}),
]


@pytest.mark.parametrize(("players", "mode", "pad", "kwargs"), CASES)
def test_rows_are_the_envs_observations_masks_and_ids(players, mode, pad, kwargs):
    views, legals, obs, masks, acts, exact = _play(players, mode, pad, 1500, seed=players + 10 * len(kwargs), **kwargs)
    b = BatchViews.from_seat_views(views, legals)
    assert (b.street == 3).any() and (b.all_in == 1).any() and (b.min_raise_to == 0).any()
    out = np.full_like(obs, np.nan)
    assert encode.encode_observations(b, out, pad_seats=pad) is out
    assert out.shape == (len(views), encode.observation_size(players, pad))
    # bit for bit (-0.0 and NaN included)
    diff = np.flatnonzero((out.view(np.int32) != obs.view(np.int32)).any(axis=1))
    assert diff.size == 0, f"row {diff[0]}: entries {np.flatnonzero(out[diff[0]] != obs[diff[0]]).tolist()}"
    m = np.full_like(masks, 7)
    bet_sizes = kwargs.get("bet_sizes", DEFAULT_BET_SIZES)
    encode.legal_masks(b, mode, m, bet_sizes=bet_sizes)
    if mode == "discrete":  # the amounts made once and handed in: the same masks
        again = np.full_like(masks, 7)
        encode.legal_masks(b, mode, again, bet_sizes=bet_sizes, amounts=encode.discrete_amounts(b, bet_sizes))
        np.testing.assert_array_equal(again, masks)
    assert m.shape[1] == encode.num_actions(mode, bet_sizes=bet_sizes, max_stack=MAX_STACK)
    np.testing.assert_array_equal(m, masks)
    np.testing.assert_array_equal(encode.exact_actions(b, acts, mode, bet_sizes=bet_sizes), exact)


def test_discrete_amounts_are_the_envs_per_row():
    views, legals, *_ = _play(6, "discrete", False, 600, seed=4)
    b = BatchViews.from_seat_views(views, legals)
    got = encode.discrete_amounts(b)
    for i, (v, lg) in enumerate(zip(views, legals, strict=True)):
        legal = LegalActions(v["seat"], lg["fold"], lg["check"], lg["call"], lg["min_raise_to"] or None, lg["max_raise_to"] or None)
        want = discrete_raise_amounts(
            legal, pot=v["pot"], current_bet=v["current_bet"], all_in_to=v["stacks"][v["seat"]] + v["street_bets"][v["seat"]],
            bet_sizes=DEFAULT_BET_SIZES,
        )
        assert got[i].tolist() == [a or 0 for a in want], i


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 10**6), st.integers(0, 10**6), st.integers(0, 10**5), st.integers(0, 10**6),
    st.integers(0, 10**6), st.integers(0, 10**6),
    st.lists(st.floats(1e-3, 1000.0, allow_nan=False), min_size=0, max_size=8),
)
def test_discrete_amounts_match_the_reference_on_any_legal_set(lo, span, call, pot, cb, stack, sizes):
    # any raise interval, pot, bet and stack, not only those play reaches
    b = BatchViews.empty(1, 2, 1, 2)
    b.min_raise_to[0], b.max_raise_to[0] = lo, lo + span
    b.call[0], b.pot[0], b.current_bet[0] = call, pot, cb
    b.stacks[0, 0], b.street_bets[0, 0] = stack, cb
    b.hole[0] = (0, 1)
    legal = LegalActions(0, True, call == 0, call, lo, lo + span)
    want = discrete_raise_amounts(legal, pot=pot, current_bet=cb, all_in_to=cb + stack, bet_sizes=sizes)
    assert encode.discrete_amounts(b, sizes)[0].tolist() == [a or 0 for a in want]


def test_rows_scatter_into_the_rows_named():
    views, legals, obs, masks, *_ = _play(2, "discrete", False, 40, seed=9)
    b = BatchViews.from_seat_views(views[:5], legals[:5])
    out = np.full((9, obs.shape[1]), -1.0, dtype=np.float32)
    m = np.full((9, masks.shape[1]), 9, dtype=np.int8)
    where = np.array([8, 0, 3, 5, 1])
    encode.encode_observations(b, out, rows=where)
    encode.legal_masks(b, "discrete", m, rows=where)
    np.testing.assert_array_equal(out[where], obs[:5])
    np.testing.assert_array_equal(m[where], masks[:5])
    untouched = [2, 4, 6, 7]
    assert (out[untouched] == -1.0).all() and (m[untouched] == 9).all()


def test_bad_input_is_refused_and_changes_nothing():
    views, legals, obs, masks, acts, _ = _play(6, "discrete", False, 30, seed=2)
    b = BatchViews.from_seat_views(views, legals)
    out = np.zeros_like(obs)
    m = np.zeros_like(masks)
    row = int(np.flatnonzero(b.hist_len > 0)[3])
    b.hist_kind[row, 0] = 9  # one bad row: nothing is written, the error names it
    with pytest.raises(ConfigError, match=f"row {row}.*hist_kind"):
        encode.encode_observations(b, out)
    with pytest.raises(ConfigError, match=f"row {row}.*hist_kind"):
        encode.legal_masks(b, "discrete", m)
    assert not out.any() and not m.any()
    b = BatchViews.from_seat_views(views, legals)
    b.seat[3] = 6
    with pytest.raises(ConfigError, match="row 3.*seat must"):
        encode.encode_observations(b, out)
    b = BatchViews.from_seat_views(views, legals)
    with pytest.raises(ConfigError, match="out"):
        encode.encode_observations(b, out.astype(np.float64))
    with pytest.raises(ConfigError, match="out"):
        encode.encode_observations(b, out[:, :-1].copy())
    with pytest.raises(ConfigError, match="out"):
        encode.encode_observations(b, out, pad_seats=True)
    with pytest.raises(ConfigError, match="rows"):
        encode.encode_observations(b, out, rows=np.arange(len(views)) + 1)
    with pytest.raises(ConfigError, match="action_mode"):
        encode.legal_masks(b, "pot", m)
    with pytest.raises(ConfigError, match="columns"):
        encode.legal_masks(b, "exact", np.zeros((len(views), 20), dtype=np.int8))
    with pytest.raises(ConfigError, match="amounts"):
        encode.legal_masks(b, "discrete", m, amounts=np.zeros((len(views), 3), dtype=np.int64))
    with pytest.raises(ConfigError, match="bet_sizes"):
        encode.legal_masks(b, "discrete", m, bet_sizes=(0.5, -1.0))
    with pytest.raises(ConfigError, match="views"):
        encode.encode_observations({"seat": 1}, out)  # type: ignore[arg-type]
    assert not out.any() and not m.any()
    folds = np.where(b.legal_fold == 0)[0]
    bad = acts.copy()
    bad[folds[0]] = 0  # fold where it is not allowed
    with pytest.raises(IllegalActionError, match=f"row {folds[0]}: action 0 is not legal"):
        encode.exact_actions(b, bad, "discrete")
    closed = np.where(b.min_raise_to == 0)[0]
    bad = acts.copy()
    bad[closed[0]] = 2
    with pytest.raises(IllegalActionError, match=f"row {closed[0]}"):
        encode.exact_actions(b, bad, "discrete")
    with pytest.raises(IllegalActionError, match="integer action ids"):
        encode.exact_actions(b, acts[:-1], "discrete")


def _source_twin():
    source = Path(encode.__file__).with_name("encode.py")
    spec = importlib.util.spec_from_file_location("_encode_source_twin", source)
    twin = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = twin  # type: ignore[union-attr]
    spec.loader.exec_module(twin)  # type: ignore[union-attr]
    return twin


@pytest.mark.skipif(not COMPILED, reason="encode runs from its .py here (make build compiles it)")
def test_the_compiled_passes_equal_the_source():
    twin = _source_twin()
    views, legals, obs, masks, acts, _ = _play(6, "discrete", True, 300, seed=5, small_blind=3, big_blind=9)
    b = BatchViews.from_seat_views(views, legals)
    a, c = np.zeros_like(obs), np.zeros_like(obs)
    encode.encode_observations(b, a, pad_seats=True)
    twin.encode_observations(b, c, pad_seats=True)
    assert (a.view(np.int32) == c.view(np.int32)).all()
    sizes = (0.1, 0.33, 0.5, 0.5, 2.5, 40.0)
    np.testing.assert_array_equal(encode.discrete_amounts(b, sizes), twin.discrete_amounts(b, sizes))
    m1 = np.zeros((len(views), 4 + len(sizes)), dtype=np.int8)
    m2 = m1.copy()
    np.testing.assert_array_equal(encode.legal_masks(b, "discrete", m1, bet_sizes=sizes), twin.legal_masks(b, "discrete", m2, bet_sizes=sizes))
    np.testing.assert_array_equal(encode.exact_actions(b, acts, "discrete"), twin.exact_actions(b, acts, "discrete"))

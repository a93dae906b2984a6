"""Batched rule bots: ``decide`` on many tables equals ``act`` at each; their equity equals the engine's."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents import _rules
from holdem_env.agents.base import make_agent
from holdem_env.agents.tag import _OPENS, TagAgent, rule_equities
from holdem_env.batched.views import BatchViews
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import (
    HOLDINGS,
    blocked_by,
    equity_against_random,
    flop_runouts,
    holding_index,
    holdings_equity_against_random,
)
from holdem_env.env import nlhe_v1
from holdem_env.env.loop import decisions

_SIX = ("tag", "lag", "calling-station", "tight-passive", "style", "tag(tightness=1.3, aggression=0.8)")


class _Recorder:
    """A generator that remembers every batch of uniforms it hands out."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.drawn: list[np.ndarray] = []

    def random(self, size: Any = None) -> Any:
        out = self.rng.random(size)
        self.drawn.append(np.atleast_1d(out).copy())
        return out


def _play(specs: tuple[str, ...], hands: int, seed: int) -> tuple[list[Any], list[list[tuple[dict, dict, np.ndarray, int]]]]:
    """Play ``hands`` exact-mode hands with one bot per seat; every decision's (view, legal, the
    uniforms act drew, act's id), by seat."""
    env = nlhe_v1.env(num_players=len(specs), action_mode="exact")
    agents = [make_agent(s) for s in specs]
    recorders = [_Recorder(seed + i) for i in range(len(specs))]
    for a, r in zip(agents, recorders, strict=True):
        a.rng = r
    seen: list[list[tuple[dict, dict, np.ndarray, int]]] = [[] for _ in specs]
    for obs, info in decisions(env, hands=hands, seed=seed * 100_000):
        seat = info["view"]["seat"]
        before = len(recorders[seat].drawn)
        action = agents[seat].act(obs, info)
        assert len(recorders[seat].drawn) == before + 1  # one draw of uniforms_per_decision a decision
        seen[seat].append((info["view"], info["legal"], recorders[seat].drawn[-1], action))
        env.step(action)
    return agents, seen


@pytest.mark.parametrize(("specs", "hands"), [(("tag", "calling-station"), 1200), (("lag", "tight-passive"), 800), (_SIX, 2000)])
def test_decide_equals_act_row_for_row(specs: tuple[str, ...], hands: int) -> None:
    _decide_equals_act(specs, hands)


def test_decide_equals_act_with_read_ranges() -> None:
    # equity against ranges read from the preflop actions: the engine's Monte Carlo, seeded by the cards
    _decide_equals_act(("tag(read_ranges=True, samples=40)", "tag(read_ranges=True, samples=40, tightness=0.6)", "lag"), 150)


def _decide_equals_act(specs: tuple[str, ...], hands: int) -> None:
    agents, seen = _play(specs, hands, seed=len(specs))
    streets: set[str] = set()
    raises = 0
    for agent, rows in zip(agents, seen, strict=True):
        views = BatchViews.from_seat_views([r[0] for r in rows], [r[1] for r in rows])
        uniforms = np.stack([r[2] for r in rows])
        assert uniforms.shape == (len(rows), agent.uniforms_per_decision)
        ids = agent.decide(views, uniforms)
        assert ids.dtype == np.int64
        assert ids.tolist() == [r[3] for r in rows]
        # the rows in another order (the batch is no sequence): the same answers
        order = np.random.default_rng(1).permutation(len(rows))
        again = agent.decide(BatchViews.from_seat_views([rows[i][0] for i in order], [rows[i][1] for i in order]), uniforms[order])
        assert again.tolist() == ids[order].tolist()
        streets |= {r[0]["street"] for r in rows}
        raises += int((ids >= 2).sum())
    assert streets == {"preflop", "flop", "turn", "river"} and raises > 50


def test_decide_refuses_bad_input() -> None:
    agent = TagAgent()
    _, seen = _play(("tag", "tag"), 2, seed=9)
    rows = seen[0]
    views = BatchViews.from_seat_views([r[0] for r in rows], [r[1] for r in rows])
    with pytest.raises(ConfigError, match="uniforms"):
        agent.decide(views, np.zeros((len(rows), 2)))
    with pytest.raises(ConfigError, match="uniforms"):
        agent.decide(views, np.ones((len(rows), 1)))
    assert agent.decide(BatchViews.empty(0, 2, 5, 10), np.zeros((0, 1))).shape == (0,)
    with pytest.raises(ConfigError, match="views"):
        agent.decide([r[0] for r in rows], np.zeros((len(rows), 1)))


def _board_and_hole(seed: int, size: int) -> tuple[np.ndarray, tuple[int, int]]:
    cards = np.random.default_rng(seed).permutation(52)
    return cards[:size].astype(np.int64), (int(cards[size]), int(cards[size + 1]))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([3, 4, 5]), runouts=st.integers(1, 80))
def test_heads_up_equity_is_the_engines_bit_for_bit(seed: int, size: int, runouts: int) -> None:
    board, (c1, c2) = _board_and_hole(seed, size)
    padded = np.full(5, -1, dtype=np.int64)
    padded[:size] = board
    tails = _rules.flop_sample(*board[:3].tolist(), runouts, seed) if size == 3 else np.zeros((1, 2), dtype=np.int64)
    mine = _rules.hu_equity(padded, size, c1, c2, tails)
    engine = holdings_equity_against_random(board.tolist(), np.array([[c1, c2]]), tails if size == 3 else None)[0]
    assert mine == engine or (np.isnan(engine) and mine == 0.5)  # every run-out met the holding: even


def test_heads_up_equity_on_hand_picked_boards() -> None:
    # a flush board, a paired board, a straight board; the whole flop exactly (every run-out)
    for text, hole in (("Ah Kh Qh Jh 2c", "3h 4d"), ("2c 2d 2h 3s 3c", "As Ad"), ("9s Tc Jd", "Qh 8h"), ("Kd Qc 7h 3s", "Ks Kh")):
        board, (c1, c2) = np.array(parse_cards(text), dtype=np.int64), parse_cards(hole)
        padded = np.full(5, -1, dtype=np.int64)
        padded[: len(board)] = board
        tails = _rules.flop_sample(*board[:3].tolist(), 1176, 0)
        assert len(tails) == 1176 and (len(board) != 3 or np.array_equal(tails, flop_runouts(board.tolist())))
        table = equity_against_random(board.tolist())  # exact on every street without run-outs given
        assert _rules.hu_equity(padded, len(board), c1, c2, tails) == pytest.approx(table[holding_index(c1, c2)], abs=1e-12)
    # the straight flush on board plays for everyone: a split
    board = np.array(parse_cards("Ah Kh Qh Jh Th"), dtype=np.int64)
    assert _rules.hu_equity(board, 5, *parse_cards("2c 3d"), np.zeros((1, 2), dtype=np.int64)) == 0.5


def test_flop_sample_draws_distinct_run_outs_off_the_flop() -> None:
    flop = [5, 17, 40]
    every = {tuple(r) for r in flop_runouts(flop).tolist()}
    sample = _rules.flop_sample(*flop, 64, 3)
    assert len({tuple(r) for r in sample.tolist()}) == 64 and {tuple(r) for r in sample.tolist()} <= every
    assert np.array_equal(sample, _rules.flop_sample(40, 5, 17, 64, 3))  # the flop's order does not matter
    assert not np.array_equal(sample, _rules.flop_sample(*flop, 64, 4))  # the seed does


def test_multiway_equity_is_deterministic_and_near_the_exact_heads_up_value() -> None:
    board, (c1, c2) = _board_and_hole(21, 5)
    exact = equity_against_random(board.tolist())[holding_index(c1, c2)]
    estimate = _rules.mc_equity(board, 5, c1, c2, 1, 4000, 0)
    assert estimate == _rules.mc_equity(board[::-1].copy(), 5, c1, c2, 1, 4000, 0)
    assert abs(estimate - exact) < 4 * np.sqrt(0.25 / 4000)
    # more opponents: less equity for a hand that is not the nuts
    flop, (h1, h2) = _board_and_hole(22, 3)
    padded = np.full(5, -1, dtype=np.int64)
    padded[:3] = flop
    shares = [_rules.mc_equity(padded, 3, h1, h2, k, 2000, 0) for k in (1, 3, 6)]
    assert shares[0] > shares[1] > shares[2]


def test_the_sources_give_the_compiled_numbers() -> None:
    """The ``.py`` (what runs without a C build) and the loaded module (compiled where built) agree."""
    source = Path(_rules.__file__).with_name("_rules.py")
    spec = importlib.util.spec_from_file_location("_rules_source_twin", source)
    twin = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(twin)  # type: ignore[union-attr]
    agents, seen = _play(("tag", "calling-station", "tag"), 25, seed=4)
    rows = [r for per_seat in seen for r in per_seat]
    views = BatchViews.from_seat_views([r[0] for r in rows], [r[1] for r in rows])
    post = np.flatnonzero(views.street > 0)
    assert len(post) > 10
    compiled, pure = np.full(views.rows, np.nan), np.full(views.rows, np.nan)
    rule_equities(views, post, 64, 60, 0, compiled)
    original = _rules.row_equities
    try:
        _rules.row_equities = twin.row_equities
        rule_equities(views, post, 64, 60, 0, pure)
    finally:
        _rules.row_equities = original
    assert np.array_equal(compiled, pure, equal_nan=True)
    u = np.random.default_rng(0).random(views.rows)
    pct = np.linspace(0.0, 1.0, views.rows)
    for kernel, head in (("tag_rows", (agents[0]._params, _OPENS)), ("style_rows", (agents[1]._params,))):
        out = []
        for module in (_rules, twin):
            ids, targets = np.empty(views.rows, dtype=np.int64), np.empty(views.rows)
            getattr(module, kernel)(views, *head, pct, compiled, u, ids, targets)
            out.append((ids, targets))
        assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1], equal_nan=True)


def test_tag_range_answers_use_the_board_blocked_rule() -> None:
    _, seen = _play(("tag", "tag"), 30, seed=6)
    view = next(r[0] for r in seen[0] if r[0]["street"] == "turn")
    eqs = TagAgent()._equities(HOLDINGS, view)
    blocked = blocked_by(parse_cards(view["board"]))
    assert np.isnan(eqs[blocked]).all() and not np.isnan(eqs[~blocked]).any()

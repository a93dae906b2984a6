"""The env's internals are named: one buffer layout, public engine accessors, one legality path.

STYLE.md rules 9 and 10: the observation buffer's offsets come from one documented table
(:mod:`holdem_env.env._obs`), and code outside the engine reads ``HandState`` only through its
public accessors. The engine decides legality for fold/check/call through the same
``verify_*`` path as raises.
"""

from __future__ import annotations

import ast
import pathlib

import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import HandOverError, HoldemError, IllegalActionError
from holdem_env.engine.state import HandState
from holdem_env.env import _obs, loop

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _play(env, rng: np.random.Generator, hands: int):  # type: ignore[no-untyped-def]
    """Yield ``(obs, info, raw_env)`` at every decision of ``hands`` random hands."""
    raw = env.unwrapped
    for obs, info in loop.decisions(env, hands):
        yield obs, info, raw
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("num_players,pad", [(2, False), (5, False), (4, True)])
def test_every_named_slice_matches_the_engine_at_every_decision(num_players: int, pad: bool) -> None:
    env = nlhe_v1.env(num_players=num_players, action_mode="exact", pad_seats=pad, ante=1)
    env.reset(seed=3)
    seats = 10 if pad else num_players
    rng = np.random.default_rng(3)
    decisions = 0
    for obs, _info, raw in _play(env, rng, 30):
        st = raw.state_object
        me = st.actor
        view = _obs.observation_view(obs["observation"], seats)
        rel = [(me + r) % num_players for r in range(num_players)]
        bb = 0.1  # chips -> big blinds; the env rounds to float32 (compared to 1e-6 relative)
        assert np.flatnonzero(view["hole"]).tolist() == sorted(st.hole_cards_of(me))
        assert np.flatnonzero(view["board"]).tolist() == sorted(st.board)
        assert view["street"].tolist() == [float(k == int(st.street)) for k in range(4)]
        scalars = dict(zip(_obs.SCALARS, view["scalars"].tolist(), strict=True))
        legal = st.legal_actions()
        assert scalars["pot"] == pytest.approx(st.pot * bb, rel=1e-6)
        assert scalars["amount_to_call"] == pytest.approx(legal.call * bb, rel=1e-6)
        assert scalars["min_raise_to"] == pytest.approx((legal.min_raise_to or 0) * bb, rel=1e-6)
        assert scalars["max_raise_to"] == pytest.approx((legal.max_raise_to or 0) * bb, rel=1e-6)
        assert scalars["own_stack"] == pytest.approx(st.stack_of(me) * bb, rel=1e-6)
        assert scalars["current_bet"] == pytest.approx(st.current_bet * bb, rel=1e-6)
        np.testing.assert_allclose(view["stacks"][:num_players], [st.stacks[s] * bb for s in rel], rtol=1e-6)
        np.testing.assert_allclose(view["street_bets"][:num_players], [st.street_bets[s] * bb for s in rel], rtol=1e-6)
        assert view["folded"][:num_players].tolist() == [float(st.folded[s]) for s in rel]
        assert view["all_in"][:num_players].tolist() == [float(st.is_all_in[s]) for s in rel]
        assert view["dealt_in"][:num_players].tolist() == [float(st.dealt_in[s]) for s in rel]
        assert view["button"][:num_players].tolist() == [float(s == st.button) for s in rel]
        assert not view["stacks"][num_players:].any() and not view["history"][:, num_players:].any()
        decisions += 1
    assert decisions > 40


def test_history_rows_count_each_seats_actions_by_street() -> None:
    env = nlhe_v1.env(num_players=3, action_mode="exact")
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    checked = 0
    for obs, _info, raw in _play(env, rng, 25):
        st = raw.state_object
        me = st.actor
        hist = _obs.observation_view(obs["observation"], 3)["history"]
        expected = np.zeros((4, 3, 4), dtype=np.float32)
        for ev in st.events:
            if getattr(ev, "kind", None) is None or not hasattr(ev, "to"):
                continue
            r = (ev.seat - me) % 3
            col = {"check": _obs.HIST_CHECKS, "call": _obs.HIST_CALLS}.get(ev.kind.value, _obs.HIST_RAISES)
            if ev.kind.value == "fold":
                continue
            expected[int(ev.street), r, col] += 1
            if col != _obs.HIST_CHECKS:
                expected[int(ev.street), r, _obs.HIST_AMOUNT] = ev.to * 0.1
        np.testing.assert_allclose(hist, expected, rtol=1e-6)
        checked += 1
    assert checked > 20


def test_buffer_layout_rows_do_not_overlap_and_fill_the_buffer() -> None:
    layout = _obs.BufferLayout(6)
    cells: list[int] = []
    for name in _obs.SEAT_FEATURES:
        cells += range(getattr(layout, name), getattr(layout, name) + 6)
    for t in range(_obs.STREETS):
        for s in range(6):
            cells += range(layout.history_at(t, s), layout.history_at(t, s) + len(_obs.HISTORY_FEATURES))
    for s in range(6):
        cells += range(layout.hole_at(s), layout.hole_at(s) + 52)
    cells += range(layout.board, layout.board + 52)
    cells += range(layout.street, layout.street + _obs.STREETS)
    cells += [layout.pot, layout.current_bet, layout.zero]
    assert sorted(cells) == list(range(layout.size))
    gather = layout.gather(10)
    assert gather.shape == (6, _obs.obs_size(10))
    # the per-decision scalars and the padded seats read the zero cell
    for name in ("amount_to_call", "min_raise_to", "max_raise_to"):
        assert (gather[:, _obs.OFF_SCALARS + _obs.SCALARS.index(name)] == layout.zero).all()
    with pytest.raises(HoldemError, match="seat axis"):
        layout.gather(5)


def test_hand_state_per_seat_accessors_agree_with_the_tuples() -> None:
    st = HandState(TableConfig(num_players=4), button=1, seed=12)
    st.raise_to(40)
    st.call()
    for s in range(4):
        assert st.stack_of(s) == st.stacks[s]
        assert st.street_bet_of(s) == st.street_bets[s]
        assert st.hole_cards_of(s) == st.hole_cards[s]
    assert st.stack_of(0) == 1000 - 40 and st.street_bet_of(1) == 40 and st.stack_of(2) == 1000 - 5


def test_fold_check_and_call_are_refused_by_their_verify_methods() -> None:
    st = HandState(TableConfig(num_players=3), button=0, seed=1)
    with pytest.raises(IllegalActionError, match=r"check is not allowed: 10 is owed to call \(legal: fold, call 10"):
        st.check()
    st.call()
    st.call()  # the small blind completes
    assert st.can_check() and not st.can_fold() and not st.can_call()
    before = st.events
    with pytest.raises(IllegalActionError, match="fold is not offered when checking is free"):
        st.fold()
    with pytest.raises(IllegalActionError, match="call is not allowed: nothing is owed"):
        st.call()
    assert st.events == before  # refused actions change nothing
    st.check()
    while not st.is_over:
        st.fold() if st.can_fold() else st.check()
    for action in (st.fold, st.check, st.call):
        with pytest.raises(HandOverError):
            action()


def _private_hand_state_reads(path: pathlib.Path, private: set[str]) -> list[str]:
    """``x._field`` reads of HandState's private slots in ``path`` (any receiver but ``self``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # names the module's own classes assign (``self._folded = ...``) are their own fields
    own = {
        t.attr
        for node in ast.walk(tree)
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private - own:
            if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    return found


def test_no_module_outside_the_engine_reads_hand_state_private_fields() -> None:
    private = {n for n in HandState.__slots__ if n.startswith("_")}
    files = [
        p
        for folder in ("holdem_env", "agents", "training", "benchmarks")
        for p in (ROOT / folder).rglob("*.py")
        if "engine" not in p.relative_to(ROOT).parts
    ]
    assert len(files) > 20
    bad = [hit for p in files for hit in _private_hand_state_reads(p, private)]
    assert bad == []

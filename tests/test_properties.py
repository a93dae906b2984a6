"""Property tests: random tables and random legal play keep every invariant of the engine."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import IllegalActionError
from holdem_env.engine.record import HandRecord
from holdem_env.engine.state import HandState


@st.composite
def tables(draw: st.DrawFn) -> tuple[HandState, np.random.Generator]:
    n = draw(st.integers(2, 10))
    bb = draw(st.integers(1, 40))
    sb = draw(st.integers(0, bb))
    ante = draw(st.sampled_from([0, 0, 1, 3, bb]))
    betting = draw(st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]))
    cfg = TableConfig(
        num_players=n,
        small_blind=sb,
        big_blind=bb,
        ante=ante,
        big_blind_ante=draw(st.booleans()),
        betting=betting,
        buy_in=100 * bb,
        raise_cap=draw(st.sampled_from([4, 4, 2, None])),
        uncapped_heads_up=draw(st.booleans()),
        allow_free_fold=draw(st.booleans()),
    )
    # Unequal stacks, some below the blinds, some seats sitting out.
    stacks = draw(st.lists(st.integers(0, 300 * bb), min_size=n, max_size=n))
    for i in draw(st.lists(st.integers(0, n - 1), max_size=3)):
        stacks[i] = draw(st.integers(1, 2 * bb))
    dealt = [c > 0 for c in stacks]
    if sum(dealt) < 2:
        stacks[0], stacks[1] = max(stacks[0], 1), max(stacks[1], 1)
        dealt = [c > 0 for c in stacks]
    players = [i for i in range(n) if dealt[i]]
    button = players[draw(st.integers(0, len(players) - 1))]
    seed = draw(st.integers(0, 2**32 - 1))
    state = HandState(cfg, button=button, stacks=stacks, seed=seed)
    return state, np.random.default_rng(seed)


def _random_action(s: HandState, rng: np.random.Generator) -> None:
    la = s.legal_actions()
    r = rng.random()
    if la.min_raise_to is not None:
        assert la.min_raise_to <= la.max_raise_to
        assert s.can_raise_to(la.min_raise_to) and s.can_raise_to(la.max_raise_to)
        assert not s.can_raise_to(la.max_raise_to + 1) and not s.can_raise_to(la.min_raise_to - 1)
    if r < 0.2 and la.fold:
        s.fold()
    elif r < 0.45 and la.min_raise_to is not None:
        s.raise_to(int(rng.integers(la.min_raise_to, la.max_raise_to + 1)))
    elif r < 0.5:
        s.timeout()
    elif la.check:
        s.check()
    else:
        assert 0 < la.call <= s.stacks[la.seat]
        s.call()


@given(tables())
def test_random_legal_play_keeps_every_invariant(case: tuple[HandState, np.random.Generator]) -> None:
    s, rng = case
    total = sum(s.starting_stacks)
    steps = 0
    while not s.is_over:
        actor = s.actor
        assert actor is not None
        assert s.dealt_in[actor] and not s.folded[actor] and not s.is_all_in[actor]
        _random_action(s, rng)
        steps += 1
        assert steps < 500
        assert min(s.stacks) >= 0
        assert sum(s.stacks) + s.pot == total
        assert (s.actor is None) == s.is_over
    # Settled hand.
    assert s.payoffs is not None and sum(s.payoffs) == 0
    assert sum(s.final_stacks) == total and min(s.final_stacks) >= 0
    assert sum(p.amount for p in s.pots) == sum(s.contributions)
    for p in s.pots:
        assert set(p.winners) <= set(p.eligible) and sum(p.shares) == p.amount
        assert not any(s.folded[w] for w in p.eligible)
    assert len(s.board) == 5 or len([f for f, d in zip(s.folded, s.dealt_in, strict=True) if d and not f]) == 1
    for action in (s.fold, s.check, s.call):
        try:
            action()
        except IllegalActionError:
            pass
        else:  # pragma: no cover
            raise AssertionError("acted after the hand ended")
    rec = s.record()
    again = HandState.from_record(rec)
    assert again.events == s.events and again.final_stacks == s.final_stacks
    assert again.pots == s.pots and again.shown == s.shown and again.mucked == s.mucked
    assert HandRecord.from_json(rec.to_json()) == rec


@given(tables())
def test_copy_mid_hand_evolves_identically(case: tuple[HandState, np.random.Generator]) -> None:
    s, rng = case
    if not s.is_over:
        _random_action(s, rng)
    c = s.copy()
    seed = int(rng.integers(2**31))
    for st_ in (s, c):
        r = np.random.default_rng(seed)
        while not st_.is_over:
            _random_action(st_, r)
    assert c.events == s.events and c.final_stacks == s.final_stacks

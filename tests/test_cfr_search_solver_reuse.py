"""The subgame solver's reused memory and the turn re-solve's glue give the numbers they gave before (issue 26, h-solve)."""

from __future__ import annotations

import gc
import hashlib

import numpy as np
import pytest

from holdem_env._build import build_info
from holdem_env.agents.cfr_search import _subgame
from holdem_env.agents.cfr_search._subgame import zeroed_tables
from holdem_env.agents.cfr_search.agent import CfrSearchAgent
from holdem_env.agents.cfr_search.follow import public_state, walk
from holdem_env.agents.cfr_search.resolve import Subgame
from holdem_env.agents.cfr_search.search import resolve_street
from holdem_env.agents.cfr_search.tree import SubgameError, SubgameSpec
from holdem_env.engine.ranges import NUM_HOLDINGS, blocked_by, uniform_range
from holdem_env.env import nlhe_v1

BOARD = (3, 17, 29, 44)
TREE = {"sizes": (1.0, "allin"), "max_raises": 1, "river_sizes": (0.5, "allin"), "river_max_raises": 2}
#: sha256 (first 16 hex digits) of the average strategy sums of cfr-search's turn re-solve in
#: :func:`test_a_turn_resolve_gives_the_numbers_of_main`, as main gave them before this branch (49d3226).
MAIN_TURN = "c85de8d725cee35b"


def small_subgame() -> Subgame:
    rng = np.random.default_rng(11)
    holdings = np.flatnonzero(~blocked_by(list(BOARD)))[rng.choice(1128, 40, replace=False)]
    ranges = np.vstack([uniform_range(BOARD) * rng.random(NUM_HOLDINGS), uniform_range(BOARD) * rng.random(NUM_HOLDINGS)])
    spec = SubgameSpec(board=BOARD, contrib=(1000, 1000), stacks=(9000, 9000))
    return Subgame(spec, ranges, holdings=holdings, **TREE)  # type: ignore[arg-type]


def test_a_freed_buffer_is_zeroed_and_reused_and_a_live_one_never_is() -> None:
    a, b = zeroed_tables(7, 5, 2)
    a[:] = 3.0
    b[:] = -1.0
    buffer = a.base
    (c,) = zeroed_tables(7, 5, 1)  # a and b live: their buffer is not handed out
    assert not np.shares_memory(c, buffer) and not c.any()
    del a
    gc.collect()
    (d,) = zeroed_tables(7, 5, 1)  # b still lives
    assert not np.shares_memory(d, buffer)
    del b
    gc.collect()
    e, f = zeroed_tables(7, 5, 2)
    assert np.shares_memory(e, buffer) and np.shares_memory(f, buffer)
    assert e.shape == f.shape == (7, 5) and not e.any() and not f.any()


def test_a_solve_on_a_reused_dirty_buffer_gives_the_same_numbers() -> None:
    def solve() -> tuple[np.ndarray, np.ndarray, float]:
        sub = small_subgame()
        sub.solve(3)
        sub.solve(2, rivers=12, rng=np.random.default_rng(5))
        return np.array(sub.core.avg), np.array(sub.core.regret), sub.exploitability()

    first = solve()
    gc.collect()
    held = [e[0] for e in _subgame._buffers]  # the first solve's buffers, free now
    second = solve()
    assert any(np.shares_memory(np.asarray(e[0]), h) for e in _subgame._buffers for h in held)
    assert np.array_equal(first[0], second[0]) and np.array_equal(first[1], second[1]) and first[2] == second[2]
    assert first[0].any() and first[1].any()


def test_a_finished_subgame_keeps_its_answers_and_refuses_to_solve() -> None:
    sub = small_subgame()
    sub.solve(4)
    strategy, values, expl = sub.strategy(0), sub.values(1, best_response=True), sub.exploitability()
    sub.finish()
    assert np.asarray(sub.core.regret).shape[0] == 0
    assert np.array_equal(sub.strategy(0), strategy) and np.array_equal(sub.values(1, best_response=True), values)
    assert sub.exploitability() == expl
    with pytest.raises(SubgameError, match="finished"):
        sub.solve(1)


def test_an_evaluation_only_subgame_makes_no_regret_tables() -> None:
    sub = small_subgame()
    sub.values(0, best_response=True)
    assert np.asarray(sub.core.regret).shape[0] == 0
    sub.solve(1)
    assert np.asarray(sub.core.regret).shape == np.asarray(sub.core.avg).shape


@pytest.mark.skipif(
    "holdem_env.agents.cfr_search._subgame" not in build_info()["compiled"],
    reason="the solver core is not compiled here: a full turn re-solve in Python takes minutes",
)
def test_a_turn_resolve_gives_the_numbers_of_main() -> None:
    """The shipped blueprint's turn re-solve (blueprint ranges and mapping, gadget values, 40 DCFR
    iterations over 12 sampled rivers) on the one-bet turn tree (``turn_max_raises=1``, the default
    until the turn tree took a raise), bit for bit as before the solver's and the mapping's speed-ups."""
    env = nlhe_v1.env(num_players=2, action_mode="discrete", reward_unit="chips", small_blind=50, big_blind=100, buy_in=20000)
    env.reset(seed=3, options={"button": 0})
    env.step(5)  # the button raises half a pot; everything after is checked or called
    while True:
        obs, _, _, _, info = env.last()
        if info["view"]["street"] == "turn" and env.agent_selection == "player_0":
            break
        env.step(1)
    agent = CfrSearchAgent(seed=0)
    public = public_state(info["view"], (50, 100))
    sub, path = resolve_street(
        agent.blueprint, public, walk(agent.blueprint, public, agent._key), agent.tables, sizes=agent.turn_sizes,
        max_raises=1, iterations=agent.turn_iterations, river_sizes=agent.turn_river_sizes,
        river_max_raises=1, rivers=agent.turn_rivers,
    )
    assert path == ("k",) and len(sub.tree) == 1407
    assert hashlib.sha256(np.ascontiguousarray(sub.core.avg).tobytes()).hexdigest()[:16] == MAIN_TURN

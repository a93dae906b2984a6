"""cfr-search's choice of blueprint by the table's depth: nearest shipped stack on a log scale, an explicit file wins, clear errors, the shipped files' depths."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from enginekit import seat0_decisions
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem_env.agents import make_agent
from holdem_env.agents.base import AgentSpecError
from holdem_env.agents.cfr_search import agent as agent_module
from holdem_env.agents.cfr_search.abstraction import AbstractionConfig
from holdem_env.agents.cfr_search.agent import SHIPPED_BLUEPRINTS, CfrSearchAgent, nearest_shipped
from holdem_env.engine.cards import parse_cards
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.ranges import HOLDINGS
from holdem_env.env import nlhe_v1
from holdem_env.training.cfr_search.build import build_blueprint
from holdem_env.training.cfr_search.nolimit import NoLimitConfig
from holdem_env.training.cfr_search.solver import Pruning


def _tiny(out: Path, stack_bb: int) -> str:
    """A tiny blueprint at ``stack_bb`` big blinds (blinds 50/100; 4 buckets a street): seconds to build."""
    build_blueprint(
        str(out),
        game=NoLimitConfig(stack=stack_bb * 100),
        abstraction=AbstractionConfig(flop_buckets=4, turn_buckets=4, river_buckets=4, bins=5, flops=2),
        iterations=20_000,
        pool_flops=2,
        seed=stack_bb,
        pruning=Pruning(after=10**9),
        quiet=True,
    )
    return str(out)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[int, str]:
    """Tiny 100 bb and 200 bb blueprints, standing in for the shipped files."""
    folder = tmp_path_factory.mktemp("depth")
    return {depth: _tiny(folder / f"tiny{depth}.npz", depth) for depth in (100, 200)}


@pytest.fixture
def shipped_tiny(tiny: dict[int, str], monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """The bare spec's shipped files replaced by the tiny ones."""
    monkeypatch.setattr(agent_module, "SHIPPED_BLUEPRINTS", {d: Path(p) for d, p in tiny.items()})
    monkeypatch.setattr(agent_module, "SHIPPED_BLUEPRINT", Path(tiny[200]))
    return tiny


def _env(small_blind: int, big_blind: int, stack_bb: int) -> Any:
    return nlhe_v1.env(
        num_players=2, action_mode="discrete", reward_unit="chips",
        small_blind=small_blind, big_blind=big_blind, buy_in=stack_bb * big_blind,
    )


def _decisions(agent: CfrSearchAgent, env: Any, hands: int = 6) -> list[tuple[Any, Any, int]]:
    opponent = make_agent("random", rng=np.random.default_rng(4))
    return [(obs, info, a) for _, obs, info, a in seat0_decisions(env, agent, opponent, hands, alternate_button=True)]


# ------------------------------------------------------------------------------ the rule
def test_nearest_shipped_depth_on_a_log_scale() -> None:
    assert [nearest_shipped(x) for x in (20, 100, 120, 141.4, 141.5, 200, 400, 5000)] == [100, 100, 100, 100, 200, 200, 200, 200]
    for bad in (0, -5, float("nan")):
        with pytest.raises(ConfigError, match="effective stack=.* must be above 0 big blinds"):
            nearest_shipped(bad)


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1.0, max_value=10_000.0))
def test_the_chosen_depth_is_never_farther_than_another(stack_bb: float) -> None:
    chosen = nearest_shipped(stack_bb)
    assert all(abs(math.log(stack_bb / chosen)) <= abs(math.log(stack_bb / d)) for d in SHIPPED_BLUEPRINTS)


# ------------------------------------------------------------------------------ the bare spec picks by depth
@pytest.mark.parametrize(("blinds", "stack_bb", "depth"), [((50, 100), 100, 100), ((5, 10), 100, 100), ((50, 100), 200, 200), ((5, 10), 250, 200)])
def test_each_table_plays_on_the_blueprint_of_its_depth(shipped_tiny: dict[int, str], blinds: tuple[int, int], stack_bb: int, depth: int) -> None:
    bare = CfrSearchAgent(seed=7)
    forced = CfrSearchAgent(blueprint=shipped_tiny[depth], seed=7)
    other = CfrSearchAgent(blueprint=shipped_tiny[300 - depth], seed=7)
    played = _decisions(bare, _env(*blinds, stack_bb))
    assert bare.blueprint.path == shipped_tiny[depth] and bare.blueprint.game["stack"] == depth * 100
    # the same decisions, holding by holding, as the agent forced onto that file; not those of the other file
    differs = False
    for obs, info, _ in played:
        mine = bare.action_probabilities(obs, info, HOLDINGS)
        assert np.array_equal(mine, forced.action_probabilities(obs, info, HOLDINGS))
        differs |= not np.allclose(mine, other.action_probabilities(obs, info, HOLDINGS))
    assert differs
    # and the same actions for the same seed
    assert [a for _, _, a in played] == [a for _, _, a in _decisions(CfrSearchAgent(blueprint=shipped_tiny[depth], seed=7), _env(*blinds, stack_bb))]


def test_one_agent_switches_with_the_hand_s_depth(shipped_tiny: dict[int, str]) -> None:
    agent = CfrSearchAgent(seed=1)
    seen = []
    for stack_bb in (200, 100, 200):
        _decisions(agent, _env(50, 100, stack_bb), hands=1)
        seen.append(agent.blueprint.path)
    assert seen == [shipped_tiny[200], shipped_tiny[100], shipped_tiny[200]]


def test_the_effective_stack_is_the_shorter_one(shipped_tiny: dict[int, str]) -> None:
    env = nlhe_v1.env(num_players=2, action_mode="discrete", small_blind=50, big_blind=100, buy_in=20_000, max_stack=40_000)
    for stacks, depth in (([20_000, 10_000], 100), ([10_000, 20_000], 100), ([20_000, 40_000], 200)):
        env.reset(seed=0, options={"stacks": stacks, "button": 0})
        agent = CfrSearchAgent(seed=0)
        obs, _, _, _, info = env.last()
        agent.act(obs, info)
        assert agent.blueprint.path == shipped_tiny[depth], stacks


def test_an_explicit_blueprint_wins_at_every_depth(shipped_tiny: dict[int, str]) -> None:
    agent = make_agent(f"cfr-search(blueprint={shipped_tiny[200]!r})", rng=np.random.default_rng(0))
    assert isinstance(agent, CfrSearchAgent)
    for stack_bb in (100, 200, 40):
        _decisions(agent, _env(5, 10, stack_bb), hands=2)
        assert agent.blueprint.path == shipped_tiny[200]


def test_range_answers_are_what_act_samples_on_the_chosen_blueprint(shipped_tiny: dict[int, str]) -> None:
    agent = CfrSearchAgent(seed=0)
    checked = 0
    for obs, info, _ in _decisions(agent, _env(5, 10, 100), hands=4):
        hole = parse_cards(info["view"]["hole_cards"])
        for s in range(5):
            agent.set_rng(np.random.default_rng(s))
            row = agent.action_probabilities(obs, info, np.array([hole]))[0]
            twin = np.random.default_rng(s)
            twin.integers(2**62)  # set_rng draws the translation key first
            expected = np.flatnonzero(np.cumsum(row) / row.sum() > twin.random())[0]
            assert agent.act(obs, info) == expected
        checked += 1
    assert checked >= 4 and agent.blueprint.path == shipped_tiny[100]


# ------------------------------------------------------------------------------ errors
def test_a_missing_shipped_file_is_named_with_its_build_command(shipped_tiny: dict[int, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "cfr_search_hu100.npz"
    monkeypatch.setattr(agent_module, "SHIPPED_BLUEPRINTS", {100: missing, 200: Path(shipped_tiny[200])})
    with pytest.raises(ConfigError, match=r"cfr_search_hu100.npz.* does not exist: build it with `python -m holdem_env.training.cfr_search build .*--stack-bb 100"):
        CfrSearchAgent(seed=0)
    with pytest.raises(AgentSpecError, match="does not exist: build it with"):
        make_agent("cfr-search")


def test_a_shipped_file_of_the_wrong_depth_is_refused(shipped_tiny: dict[int, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agent_module, "SHIPPED_BLUEPRINTS", {100: Path(shipped_tiny[200]), 200: Path(shipped_tiny[200])})
    agent = CfrSearchAgent(seed=0)
    env = _env(50, 100, 100)
    env.reset(seed=0)
    obs, _, _, _, info = env.last()
    with pytest.raises(ConfigError, match="must be a 100 bb blueprint at blinds 50/100: rebuild it with"):
        agent.act(obs, info)


# ------------------------------------------------------------------------------ the real shipped files
def test_the_shipped_files_hold_their_depths_at_blinds_50_100() -> None:
    for depth, path in SHIPPED_BLUEPRINTS.items():
        with np.load(path) as data:
            game = json.loads(bytes(data["meta"]).decode())["game"]
        assert (game["small_blind"], game["big_blind"], game["stack"]) == (50, 100, depth * 100), path
        assert path.stat().st_size <= 20 * 2**20


def test_the_bare_spec_plays_holdem_eval_s_table_on_the_100_bb_file() -> None:
    agent = make_agent("cfr-search", rng=np.random.default_rng(0))
    assert isinstance(agent, CfrSearchAgent)
    env = _env(5, 10, 100)  # holdem eval's default table
    env.reset(seed=3)
    obs, _, _, _, info = env.last()
    assert obs["action_mask"][agent.act(obs, info)]
    assert Path(agent.blueprint.path).name == "cfr_search_hu100.npz"

"""The bare spec ``ppo-6max``: the shipped 6-max policy, the config that trained it, legal and seeded play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from holdem_env import nlhe_v1
from holdem_env.agents.base import make_agent
from holdem_env.agents.ppo import SHIPPED_6MAX_POLICY, Ppo6MaxAgent, PpoAgent
from holdem_env.engine.errors import HoldemError
from holdem_env.env.nlhe_v1 import DEFAULT_BET_SIZES
from holdem_env.training.arena import ArenaConfig, run_match

ROOT = Path(__file__).resolve().parent.parent


def test_the_spec_plays_the_shipped_6max_policy_trained_by_its_config() -> None:
    agent = make_agent("ppo-6max")
    assert isinstance(agent, Ppo6MaxAgent) and isinstance(agent, PpoAgent)
    meta, config = agent.policy.metadata, agent.policy.config
    run = yaml.safe_load((ROOT / "configs" / "ppo_6max.yaml").read_text())
    assert meta["run"] == run["name"] and meta["round"] == run["rounds"] and meta["seed"] == run["seed"]
    assert meta["iteration"] == run["rounds"] * run["iterations_per_round"]
    # the weight average of the rounds the config names (training/ppo/averaging.py)
    assert meta["averaged_rounds"] == list(range(run["average_from"], run["rounds"] + 1, run["average_every"]))
    assert config.num_players == run["table"]["num_players"] == 6
    assert list(config.hidden) == run["ppo"]["hidden"] and config.features == run["ppo"]["features"]
    assert config.bet_sizes == DEFAULT_BET_SIZES
    assert config.stack_bb == run["table"]["buy_in"] / run["table"]["big_blind"]
    assert SHIPPED_6MAX_POLICY.stat().st_size < 1_000_000  # small enough to ship
    # the heads-up spec is another policy
    assert make_agent("ppo").policy.config.num_players == 2


def test_it_plays_only_legal_actions_at_six_seats() -> None:
    env = nlhe_v1.raw_env(num_players=6, action_mode="discrete")
    agent = make_agent("ppo-6max", rng=np.random.default_rng(5))
    seen: set[int] = set()
    for hand in range(30):
        env.reset(seed=hand)
        while env.agents and not all(env.terminations.values()):
            name = env.agent_selection
            obs = env.observe(name)
            action = agent.act(obs, env.infos[name])
            assert obs["action_mask"][action] == 1, (hand, action, obs["action_mask"])
            seen.add(action)
            env.step(action)
    assert len(seen) >= 3  # it folds, calls and raises: not a constant policy


def test_batched_rows_match_act() -> None:
    # the vector env's path (decide_rows) plays what act plays for the same draws
    env = nlhe_v1.raw_env(num_players=6, action_mode="discrete")
    agent = make_agent("ppo-6max")
    rows, masks = [], []
    for hand in range(6):
        env.reset(seed=100 + hand)
        while env.agents and not all(env.terminations.values()):
            name = env.agent_selection
            obs = env.observe(name)
            rows.append(obs["observation"])
            masks.append(obs["action_mask"])
            env.step(int(np.flatnonzero(obs["action_mask"])[-1 if hand % 2 else 1]))
    u = np.random.default_rng(3).random(len(rows))
    batch = agent.decide_rows(np.stack(rows), np.stack(masks), u)
    one = []
    for row, mask, x in zip(rows, masks, u, strict=True):
        agent.set_rng(_FixedDraw(x))  # type: ignore[arg-type]
        one.append(agent.act({"observation": row, "action_mask": mask}, {}))
    assert batch.tolist() == one


class _FixedDraw:
    """A stand-in generator whose next uniform draw is fixed."""

    def __init__(self, x: float) -> None:
        self.x = x

    def random(self, *args: object) -> float:
        return self.x


def test_a_match_at_six_seats_is_deterministic_for_a_seed() -> None:
    cfg = ArenaConfig(agents=("ppo-6max", "tag"), players=6, hands=36, seed=8)
    first = run_match(cfg)
    again = run_match(cfg)
    rows = {r["agent"]: r for r in first.rows}
    assert rows["ppo-6max"]["hands"] == 36
    assert rows["ppo-6max"]["mbb_per_hand"] == pytest.approx(-rows["tag"]["mbb_per_hand"])  # 3 seats each: zero sum
    assert [r["mbb_per_hand"] for r in again.rows] == [r["mbb_per_hand"] for r in first.rows]
    other = run_match(ArenaConfig(agents=("ppo-6max", "tag"), players=6, hands=36, seed=9))
    assert [r["mbb_per_hand"] for r in other.rows] != [r["mbb_per_hand"] for r in first.rows]


def test_it_refuses_a_heads_up_table_with_a_clear_error() -> None:
    env = nlhe_v1.raw_env(num_players=2, action_mode="discrete")
    env.reset(seed=0)
    name = env.agent_selection
    with pytest.raises(HoldemError, match="trained for 6 seats"):
        make_agent("ppo-6max").act(env.observe(name), env.infos[name])


def _bench_exploiters():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_exploiters", ROOT / "benchmarks" / "bench_exploiters.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_the_exploiter_gate_at_six_seats_seats_either_side_once() -> None:
    gate = _bench_exploiters()
    assert gate.lineup("b", "x", 6, "one-exploiter") == ("x", "b", "b", "b", "b", "b")
    assert gate.lineup("b", "x", 6, "one-bot") == ("b", "x", "x", "x", "x", "x")
    assert gate.lineup("b", "x", 2, "one-bot") == ("b", "x")
    with pytest.raises(ValueError, match="one-exploiter, one-bot"):
        gate.lineup("b", "x", 6, "everyone")
    # always-fold alone against five min-raisers pays its blinds: the gate must call it beaten
    rows = gate.gate("always-fold", ["min-raiser"], players=6, hands=120, seed=1, workers=1, seating="one-bot")
    assert rows[0]["seating"] == "one-bot" and rows[0]["beaten"]
    # hand-computed: it posts the small blind in 1 hand of 6 and the big blind in 1 of 6 and never wins
    assert rows[0]["mbb_per_hand"] == pytest.approx(-(5 + 10) / 6 / 10 * 1000)

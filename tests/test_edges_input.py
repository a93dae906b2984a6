"""Bad input at the engine, env and agent boundaries: clear errors, nothing changed (issue 14)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.agents.base import (
    AgentSpecError,
    make_agent,
    parse_spec,
    register_agent,
    resolve_spec,
)
from holdem_env.engine.actions import Action
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError, IllegalActionError, short_repr
from holdem_env.engine.table import Table

HUGE = 10**5000


# -- messages never fail to format ---------------------------------------------------------------
def test_short_repr_bounds_huge_and_deep_values() -> None:
    assert short_repr(HUGE) == "<integer of 5001 digits>"
    assert short_repr(-(10**60)) == "<-integer of 61 digits>"
    assert short_repr(12345) == "12345"
    nested: list = []
    for _ in range(50_000):
        nested = [nested]
    assert len(short_repr(nested)) < 40
    assert len(short_repr(list(range(10**6)))) < 200


def test_config_error_with_a_huge_value_formats() -> None:
    with pytest.raises(ConfigError, match=r"small_blind=<integer of 5001 digits> is invalid") as exc:
        TableConfig(small_blind=HUGE)
    assert len(str(exc.value)) < 300


def test_raise_to_a_huge_amount_is_an_illegal_action_and_changes_nothing() -> None:
    state = Table(TableConfig(num_players=2), rng=np.random.default_rng(1)).start_hand()
    before = (state.stacks, state.street_bets, state.actor)
    with pytest.raises(IllegalActionError, match=r"raise to <integer of 5001 digits> is above the maximum 1000"):
        state.raise_to(HUGE)
    with pytest.raises(IllegalActionError, match="below the minimum"):
        state.raise_to(-HUGE)
    assert (state.stacks, state.street_bets, state.actor) == before
    with pytest.raises(IllegalActionError, match="raise to <-integer of 5001 digits> is not a positive"):
        Action.raise_to(-HUGE)


@pytest.mark.parametrize("mode", ["discrete", "exact"])
def test_env_step_with_a_huge_action_id_is_an_illegal_action(mode: str) -> None:
    env = nlhe_v1.raw_env(num_players=2, action_mode=mode)
    env.reset(seed=1)
    actor, events = env.agent_selection, len(env.hand_record().events)
    with pytest.raises(IllegalActionError, match=r"action <integer of 5001 digits> is out of range"):
        env.step(HUGE)
    assert env.agent_selection == actor and len(env.hand_record().events) == events


# -- silent acceptance is gone --------------------------------------------------------------------
def test_reset_stacks_from_an_iterator_of_floats_is_refused() -> None:
    env = nlhe_v1.raw_env(num_players=3)
    with pytest.raises(ConfigError, match=r"stacks=\[150.7, 250.2, 99.99\] is invalid: must be 3 integer stacks"):
        env.reset(seed=1, options={"stacks": iter([150.7, 250.2, 99.99])})
    env.reset(seed=1, options={"stacks": iter([150, 250, 99])})  # integers from an iterator are fine
    assert env.hand_record().starting_stacks == (150, 250, 99)


@pytest.mark.parametrize("clock", [float("nan"), float("inf"), -1.0, 0])
def test_clock_seconds_must_be_finite_and_positive(clock: float) -> None:
    with pytest.raises(ConfigError, match="clock_seconds=.* positive number of seconds"):
        TableConfig(clock_seconds=clock)


@pytest.mark.parametrize("sizes", [[True], [0.5, False], "0.5", [float("nan")], [np.bool_(True)], 3])
def test_env_bet_sizes_refuse_booleans_and_non_numbers(sizes: object) -> None:
    with pytest.raises(ConfigError, match="bet_sizes=.* positive, finite pot fractions"):
        nlhe_v1.raw_env(num_players=2, bet_sizes=sizes)


def test_unknown_env_keyword_is_a_config_error_naming_it() -> None:
    with pytest.raises(ConfigError, match=r"foo=1 is invalid: unknown environment setting; allowed: .*clock_seconds"):
        nlhe_v1.raw_env(num_players=2, foo=1)
    env = nlhe_v1.raw_env(num_players=2, clock_seconds=12.5)  # a TableConfig field still passes through
    assert env.config.clock_seconds == 12.5


def test_exact_mode_max_stack_is_bounded() -> None:
    with pytest.raises(ConfigError, match=r"max_stack=1000000000000 is invalid: must be at most 1000000 in exact mode"):
        nlhe_v1.raw_env(num_players=2, action_mode="exact", max_stack=10**12)
    assert nlhe_v1.raw_env(num_players=2, max_stack=10**12).max_stack == 10**12  # discrete: no per-chip ids


@pytest.mark.parametrize(
    "spec", ["tag(tightness=-1)", "tag(tightness=1e999)", "tag(aggression=101)", "tag(tightness=100000)"]
)
def test_tag_factors_must_be_finite_and_bounded(spec: str) -> None:
    with pytest.raises(AgentSpecError):
        make_agent(spec)


# -- spec strings call nothing that is not an agent ------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("os:system(command='touch x')", "'os:system' is a builtin_function_or_method, not an agent class"),
        ("shutil:rmtree(path='x')", "'shutil:rmtree' is a function, not an agent class"),
        ("zipfile:ZipFile(file='/nonexistent')", "ZipFile has no act"),
        ("tag(x={[1]: 2})", "must be a literal"),
        ("tag(nosuch=1)", "bad arguments for TagAgent: got an unexpected keyword argument 'nosuch'"),
        ("tag(x=" + "[" * 1500 + "]" * 1500 + ")", "cannot parse|must be a literal"),
        ("tag(x='" + "a" * 5000 + "')", "too long"),
    ],
)
def test_spec_targets_are_checked_before_anything_is_called(spec: str, message: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)
    assert list(tmp_path.iterdir()) == []  # nothing ran


def test_a_registered_factory_builds_agents(monkeypatch) -> None:
    from holdem_env.agents import base

    monkeypatch.setattr(base, "REGISTRY", dict(base.REGISTRY))
    monkeypatch.setattr(base, "_FACTORIES", set())
    register_agent("tag-factory", "holdem_env.agents.tag:TagAgent")
    register_agent("tag-fn", _tag_factory, factory=True)
    agent = make_agent("tag-fn(tightness=2.0)")
    assert agent.tightness == 2.0
    assert parse_spec("tag-fn").target == f"{__name__}:_tag_factory"
    with pytest.raises(AgentSpecError, match="not an agent class"):
        resolve_spec(f"{__name__}:_not_registered")


def _tag_factory(tightness: float = 1.0):
    from holdem_env.agents.tag import TagAgent

    return TagAgent(tightness=tightness)


def test_table_config_fields_reach_the_env() -> None:
    names = {f.name for f in dataclasses.fields(TableConfig)}
    assert "clock_seconds" in names  # the allowed list in the error above is built from these


def _not_registered() -> None:  # a plain function: never a spec target
    raise AssertionError("a spec called a function that is not an agent class")

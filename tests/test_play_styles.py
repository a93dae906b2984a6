"""The bot styles of ``holdem play`` (agents/styles.py): parameters, spec names, and that they play differently."""

from __future__ import annotations

import pytest

from holdem_env.agents.base import AgentSpecError, make_agent
from holdem_env.agents.styles import CallingStationAgent, LooseAggressiveAgent, StyleAgent, TightPassiveAgent
from holdem_env.engine.errors import ConfigError
from holdem_env.training.arena import ArenaConfig, run_match


@pytest.mark.parametrize(
    ("spec", "cls", "play"),
    [("lag", LooseAggressiveAgent, 0.45), ("calling-station", CallingStationAgent, 0.7),
     ("tight-passive", TightPassiveAgent, 0.15), ("style", StyleAgent, 0.25)],
)
def test_style_spec_names_build_their_presets(spec: str, cls: type, play: float) -> None:
    agent = make_agent(spec)
    assert type(agent) is cls and agent.play == play


def test_style_parameters_override_the_preset() -> None:
    agent = make_agent("calling-station(play=0.9, bluff=0.2)")
    assert (agent.play, agent.bluff, agent.stickiness) == (0.9, 0.2, 0.85)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"play": 0}, "play"), ({"raise_share": 1.5}, "raise_share"), ({"aggression": "high"}, "aggression"),
     ({"stickiness": True}, "stickiness"), ({"samples": 5}, "samples")],
)
def test_style_bad_parameters_name_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(ConfigError, match=f"^{field}="):
        StyleAgent(**kwargs)
    with pytest.raises(AgentSpecError, match=field):
        make_agent("style(" + ", ".join(f"{k}={v!r}" for k, v in kwargs.items()) + ")")


def test_the_default_opponents_play_visibly_differently() -> None:
    # A fixed-seed duplicate match: the HUD numbers follow the parameters.
    result = run_match(ArenaConfig(agents=("tag", "lag", "calling-station", "tight-passive"), hands=120, seed=3))
    hud = {row["agent"]: row["stats"] for row in result.rows}
    vpip = {a: hud[a]["vpip"] for a in hud}
    pfr = {a: hud[a]["pfr"] for a in hud}
    assert vpip["calling-station"] > vpip["lag"] > vpip["tag"] > vpip["tight-passive"]
    assert pfr["lag"] > 3 * pfr["calling-station"] and pfr["lag"] > 3 * pfr["tight-passive"]
    assert hud["calling-station"]["af"] < 1.0 < hud["lag"]["af"]

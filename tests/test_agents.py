"""Agents: the policy interface, spec strings, the registry, random and tag bots, hidden information."""

from __future__ import annotations

import numpy as np
import pytest

from holdem_env import nlhe_v1
from holdem_env.agents.base import (
    REGISTRY,
    AgentSpecError,
    make_agent,
    parse_spec,
    register_agent,
)
from holdem_env.agents.preflop import (
    CLASSES,
    COMBOS,
    class_percentile,
    hand_class,
    top_range,
)
from holdem_env.agents.random_agent import RandomAgent, RandomTypeAgent
from holdem_env.agents.tag import TagAgent, raise_options
from holdem_env.engine.cards import card_str, parse_cards
from holdem_env.engine.errors import CardError, ConfigError
from holdem_env.training.arena import ArenaConfig, run_match


class CallAgent:
    """A researcher's own policy: a plain class with one method (always check/call)."""

    def __init__(self, note: str = "") -> None:
        self.note = note

    def act(self, observation, info) -> int:
        return 1


class Spy:
    """Wraps an agent and records everything it is shown."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.seen: list[tuple[np.ndarray, np.ndarray, dict]] = []

    def act(self, observation, info) -> int:
        # Views may be live (read the hand as it is now): keep a snapshot of this moment.
        snapshot = {"legal": dict(info["legal"]), "view": dict(info["view"])}
        self.seen.append((observation["observation"].copy(), observation["action_mask"].copy(), snapshot))
        return self.inner.act(observation, info)


# ---------------------------------------------------------------- specs and registry
def test_parse_spec_registered_name_with_keyword_arguments() -> None:
    spec = parse_spec("tag(tightness=1.5, aggression=0.5)")
    assert spec.target == "holdem_env.agents.tag:TagAgent"
    assert spec.kwargs == {"tightness": 1.5, "aggression": 0.5}


def test_parse_spec_unknown_name_lists_the_registered_ones() -> None:
    with pytest.raises(AgentSpecError, match=r"unknown agent 'nosuchbot'.*random.*tag"):
        parse_spec("nosuchbot")


@pytest.mark.parametrize(
    "spec, message",
    [
        ("tag(1.5)", "only keyword arguments"),
        ("tag(tightness=open('x'))", "must be a literal"),
        ("tag(tightness=", "arguments must be written"),
        ("", "invalid"),
    ],
)
def test_parse_spec_rejects_malformed_arguments(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        parse_spec(spec)


def test_make_agent_reports_missing_module_class_and_bad_kwargs() -> None:
    with pytest.raises(AgentSpecError, match="cannot import module 'no_such_module_xyz'"):
        make_agent("no_such_module_xyz:Bot")
    with pytest.raises(AgentSpecError, match="has no class 'Nope'"):
        make_agent("holdem_env.agents.random_agent:Nope")
    with pytest.raises(AgentSpecError, match="bad arguments for TagAgent"):
        make_agent("tag(colour='red')")
    with pytest.raises(AgentSpecError, match="tightness"):
        make_agent("tag(tightness=-1)")


class PicksyAgent:
    """A user class whose constructor raises a plain ValueError on a bad argument."""

    def __init__(self, level: int = 1) -> None:
        if level < 0:
            raise ValueError("level must be >= 0")

    def act(self, observation, info) -> int:
        return 1


@pytest.mark.parametrize(
    "spec, message",
    [
        ("tag(bet_sizes='abc')", "bet_sizes='abc' is invalid: must be a sequence of positive, finite pot fractions"),
        ("tag(bet_sizes=[0.5, -1])", r"bet_sizes=\[0.5, -1\] is invalid"),
        ("tag(bet_sizes=[0.5, True])", "bet_sizes"),
        ("cfr-lite(bet_sizes=['x'])", "bet_sizes"),
        ("cfr-lite(bet_sizes=5)", "bet_sizes=5 is invalid"),
        ("tag(seed=-1)", "seed=-1 is invalid: must be an integer >= 0 or None"),
        ("random(seed='x')", "seed='x' is invalid"),
        ("random(rng=5)", "rng='int' is invalid: must be a numpy.random.Generator"),
        (f"{__name__}:PicksyAgent(level=-1)", "bad arguments for PicksyAgent: level must be >= 0"),
    ],
)
def test_bad_agent_arguments_are_spec_errors_naming_the_argument(spec: str, message: str) -> None:
    import holdem_env.agents.cfr_lite  # noqa: F401  (registers cfr-lite)

    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


def test_agent_seed_and_bet_sizes_are_kept() -> None:
    a, b = RandomAgent(seed=7), RandomAgent(seed=7)
    assert a.rng.integers(1 << 30) == b.rng.integers(1 << 30)
    assert TagAgent(bet_sizes=[1, 0.5]).bet_sizes == (1.0, 0.5)
    with pytest.raises(ConfigError, match="bet_sizes"):
        TagAgent(bet_sizes=[0.0])


def test_user_defined_agent_class_loaded_from_spec_string_plays_a_match() -> None:
    spec = f"{__name__}:CallAgent(note='mine')"
    agent = make_agent(spec)
    assert isinstance(agent, CallAgent) and agent.note == "mine"
    result = run_match(ArenaConfig(agents=(spec, "random"), hands=30, seed=3))
    rows = {r["agent"]: r for r in result.rows}
    assert rows[spec]["hands"] == 30
    # A pure caller never raises; heads-up results are zero-sum.
    assert rows[spec]["stats"]["pfr"] == 0.0
    assert rows[spec]["mbb_per_hand"] == pytest.approx(-rows["random"]["mbb_per_hand"])


def test_register_agent_adds_a_name_and_refuses_silent_replacement() -> None:
    register_agent("caller-test", CallAgent)
    try:
        assert isinstance(make_agent("caller-test"), CallAgent)
        with pytest.raises(AgentSpecError, match="already registered"):
            register_agent("caller-test", "holdem_env.agents.random_agent:RandomAgent")
    finally:
        del REGISTRY["caller-test"]


# ---------------------------------------------------------------- preflop classes
def test_169_classes_cover_1326_combinations_in_strength_order() -> None:
    assert len(CLASSES) == 169 and len(set(CLASSES)) == 169
    assert sum(COMBOS.values()) == 1326
    assert CLASSES[:4] == ("AA", "KK", "QQ", "JJ")
    assert class_percentile(CLASSES[-1]) == pytest.approx(1.0)
    assert class_percentile("AA") == pytest.approx(6 / 1326)
    assert CLASSES.index("AKs") < CLASSES.index("AKo") < CLASSES.index("72o")


def test_hand_class_names_pairs_suited_and_offsuit() -> None:
    assert hand_class(parse_cards("AsKs")) == "AKs"
    assert hand_class(parse_cards("Kd As")) == "AKo"
    assert hand_class(parse_cards("7h7c")) == "77"
    with pytest.raises(CardError, match="2 cards"):
        hand_class(parse_cards("AsKsQs"))


def test_top_range_holds_at_most_the_fraction_and_grows() -> None:
    small, big = top_range(0.05), top_range(0.25)
    assert small < big
    assert sum(COMBOS[c] for c in big) <= 0.25 * 1326
    assert "AA" in small and "72o" not in big
    with pytest.raises(ConfigError, match="fraction"):
        top_range(-0.1)


# ---------------------------------------------------------------- random agents
def _decisions(env, agents, hands: int, seed: int):
    """Play ``hands`` hands, yielding (seat, observation, info, action)."""
    env.reset(seed=seed)
    for _ in range(hands):
        while not all(env.terminations.values()):
            name = env.agent_selection
            seat = env.agent_name_mapping[name]
            obs, info = env.observe(name), env.infos[name]
            action = agents[seat].act(obs, info)
            yield seat, obs, info, action
            env.step(action)
        env.reset()


@pytest.mark.parametrize("mode", ["discrete", "exact"])
def test_random_and_tag_agents_choose_only_masked_in_actions(mode: str) -> None:
    env = nlhe_v1.raw_env(num_players=3, action_mode=mode)
    rng = np.random.default_rng(0)
    agents = [RandomAgent(rng=rng), TagAgent(rng=rng, samples=50, read_ranges=True), TagAgent(rng=rng, samples=50)]
    count = 0
    for _, obs, _, action in _decisions(env, agents, 60, seed=5):
        assert obs["action_mask"][action] == 1
        count += 1
    assert count > 100


def test_random_type_agent_picks_types_uniformly_then_sizes() -> None:
    mask = np.zeros(9, dtype=np.int8)
    mask[[0, 1, 2, 3, 4, 5, 6, 7, 8]] = 1
    agent = RandomTypeAgent(rng=np.random.default_rng(1))
    picks = np.array([agent.act({"action_mask": mask}, {}) for _ in range(6000)])
    # fold, check/call and "some raise" each about a third; raise sizes share their third.
    assert abs((picks == 0).mean() - 1 / 3) < 0.03
    assert abs((picks == 1).mean() - 1 / 3) < 0.03
    assert abs((picks == 8).mean() - 1 / 21) < 0.015
    assert make_agent("random(by_type=True)").by_type is True
    uniform = RandomAgent(rng=np.random.default_rng(1))
    picks = np.array([uniform.act({"action_mask": mask}, {}) for _ in range(6000)])
    assert abs((picks == 0).mean() - 1 / 9) < 0.02


def test_raise_options_map_ids_to_chip_amounts_in_both_modes() -> None:
    for mode in ("discrete", "exact"):
        env = nlhe_v1.raw_env(num_players=2, action_mode=mode)
        env.reset(seed=1)
        name = env.agent_selection
        opts = raise_options(env.observe(name), env.infos[name])
        assert opts, mode
        for action_id, amount in opts:
            assert env.action_amount(action_id) == amount
        legal = env.infos[name]["legal"]
        assert min(a for _, a in opts) == legal["min_raise_to"]
        assert max(a for _, a in opts) == legal["max_raise_to"]


# ---------------------------------------------------------------- hidden information
def _play_with_deck(deck: list[str], seed: int) -> Spy:
    env = nlhe_v1.raw_env(num_players=2, action_mode="exact")
    env.reset(seed=0, options={"deck": deck, "button": 0})
    spy = Spy(TagAgent(rng=np.random.default_rng(seed), samples=50))
    agents = [spy, CallAgent()]
    while not all(env.terminations.values()):
        name = env.agent_selection
        seat = env.agent_name_mapping[name]
        env.step(agents[seat].act(env.observe(name), env.infos[name]))
    return spy


def test_agents_see_only_legal_options_and_their_own_cards() -> None:
    # Heads-up, button 0: seat 1 gets deck[0] and deck[2], seat 0 deck[1] and deck[3].
    # Deck B swaps seat 1's cards with two cards never dealt (positions 40, 41).
    base = [card_str(c) for c in np.random.default_rng(11).permutation(52)]
    other = list(base)
    other[0], other[40] = base[40], base[0]
    other[2], other[41] = base[41], base[2]
    spy_a, spy_b = _play_with_deck(base, 4), _play_with_deck(other, 4)
    assert len(spy_a.seen) == len(spy_b.seen) > 0
    hidden = {base[0], base[2], other[0], other[2]}
    for (obs_a, mask_a, info_a), (obs_b, mask_b, info_b) in zip(spy_a.seen, spy_b.seen, strict=True):
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(mask_a, mask_b)
        assert info_a == info_b
        assert info_a["view"]["hole_cards"] == (base[1], base[3])
        assert not hidden & set(repr(info_a).replace("'", " ").split())
        assert sorted(np.flatnonzero(obs_a[:52]).tolist()) == sorted(parse_cards(base[1] + base[3]))


@pytest.mark.parametrize("spec", ["tag(samples=50)", "random", "cfr-lite"])
def test_decisions_do_not_depend_on_the_opponents_hidden_cards(spec: str) -> None:
    """Same seed, same public cards, opponent's hole cards swapped with undealt ones: same actions."""
    import holdem_env.agents.cfr_lite  # noqa: F401  (registers cfr-lite)

    def actions_with(deck: list[str], seed: int) -> list[int]:
        env = nlhe_v1.raw_env(num_players=2, action_mode="discrete")
        env.reset(seed=0, options={"deck": deck, "button": 0})
        agent = make_agent(spec, rng=np.random.default_rng(seed))
        agent.set_rng(np.random.default_rng(seed))
        chosen: list[int] = []
        while not all(env.terminations.values()):
            name = env.agent_selection
            seat = env.agent_name_mapping[name]
            if seat == 0:
                chosen.append(agent.act(env.observe(name), env.infos[name]))
                env.step(chosen[-1])
            else:
                env.step(1)  # the opponent checks or calls: the hand goes on
        return chosen

    played = 0
    for deal in range(6):
        base = [card_str(c) for c in np.random.default_rng(100 + deal).permutation(52)]
        other = list(base)
        other[0], other[40] = base[40], base[0]  # seat 1's cards (deck[0], deck[2]) ...
        other[2], other[41] = base[41], base[2]  # ... swapped with two cards never dealt
        a, b = actions_with(base, deal), actions_with(other, deal)
        assert a == b
        played += len(a)
    assert played >= 6


# ---------------------------------------------------------------- tag behaviour
@pytest.mark.parametrize("betting", ["no-limit", "pot-limit", "fixed-limit"])
@pytest.mark.parametrize("players", [2, 10])
def test_tag_plays_every_table_size_and_betting_structure_legally(betting: str, players: int) -> None:
    # on_illegal="raise": any masked-out choice would stop the match with an AgentError.
    cfg = ArenaConfig(agents=("tag", "random"), players=players, hands=2 * players, seed=4, betting=betting)
    result = run_match(cfg)
    assert result.group_net.sum() == 0
    assert all(r["stats"]["timeouts"] == 0 for r in result.rows)


def test_tag_profile_is_tight_and_aggressive_in_six_max_self_play() -> None:
    result = run_match(ArenaConfig(agents=("tag",), players=6, hands=600, seed=9))
    st = result.rows[0]["stats"]
    assert 0.10 <= st["vpip"] <= 0.30  # tight: plays well under a third of its hands
    assert st["pfr"] >= 0.6 * st["vpip"]  # aggressive: most hands it plays, it raises
    assert st["af"] > 1.0


def test_tightness_parameter_narrows_the_preflop_ranges() -> None:
    loose = run_match(ArenaConfig(agents=("tag(tightness=0.7)",), players=6, hands=300, seed=9)).rows[0]["stats"]
    tight = run_match(ArenaConfig(agents=("tag(tightness=1.6)",), players=6, hands=300, seed=9)).rows[0]["stats"]
    assert tight["vpip"] < loose["vpip"]


def test_tag_beats_random_heads_up_on_a_fixed_sample() -> None:
    row = run_match(ArenaConfig(agents=("tag", "random"), hands=400, seed=12)).rows[0]
    assert row["agent"] == "tag" and row["mbb_per_hand"] > 0

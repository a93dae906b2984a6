"""PettingZoo conformance of ``nlhe_v1`` (api_test, seed_test, render_test) and its public surface."""

from __future__ import annotations

import itertools

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from holdem_env import nlhe_v1
from holdem_env.engine.cards import card_str, parse_cards
from holdem_env.engine.errors import (
    CardError,
    ConfigError,
    HandOverError,
    IllegalActionError,
)

SIZES = (2, 3, 6, 10)
MODES = ("exact", "discrete")
BETTINGS = ("no-limit", "pot-limit", "fixed-limit")


@pytest.mark.parametrize(
    ("num_players", "action_mode", "betting"), list(itertools.product(SIZES, MODES, BETTINGS))
)
def test_pettingzoo_api_test(num_players: int, action_mode: str, betting: str) -> None:
    env = nlhe_v1.env(num_players=num_players, action_mode=action_mode, betting=betting)
    api_test(env, num_cycles=1000)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"pad_seats": True, "num_players": 4},
        {"ante": 2, "reward_unit": "chips"},
        {"illegal_action": "timeout", "action_mode": "exact", "max_stack": 3000},
        {"bet_sizes": (0.25, 3.0), "num_players": 3},
    ],
)
def test_pettingzoo_api_test_with_other_options(kwargs: dict) -> None:
    api_test(nlhe_v1.env(**kwargs), num_cycles=1000)


@pytest.mark.parametrize(
    ("num_players", "action_mode", "betting"), list(itertools.product(SIZES, MODES, BETTINGS))
)
def test_pettingzoo_seed_test(num_players: int, action_mode: str, betting: str) -> None:
    seed_test(lambda: nlhe_v1.env(num_players=num_players, action_mode=action_mode, betting=betting), num_cycles=500)


@pytest.mark.parametrize("action_mode", MODES)
def test_pettingzoo_render_test(action_mode: str) -> None:
    render_test(lambda render_mode=None: nlhe_v1.env(render_mode=render_mode, action_mode=action_mode))


def test_registered_with_pettingzoo_make() -> None:
    env = pettingzoo.make("aec", "holdem_env/nlhe_v1", num_players=4, action_mode="exact")
    env.reset(seed=3)
    assert env.unwrapped.config.num_players == 4
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.action_space("player_2").n == 2 + 1000


def test_metadata_and_identical_spaces() -> None:
    env = nlhe_v1.env(num_players=6)
    assert env.metadata["name"] == "nlhe_v1"
    assert env.metadata["is_parallelizable"] is False
    assert set(env.metadata["render_modes"]) == {"human", "ansi"}
    spaces_ = {id(env.action_space(a)) for a in env.possible_agents}
    assert len(spaces_) == 1
    assert {id(env.observation_space(a)) for a in env.possible_agents} == {id(env.observation_space("player_0"))}
    # discrete: fold, check/call, min-raise, 6 pot fractions, all-in
    assert env.action_space("player_0").n == 10
    assert env.observation_space("player_0")["observation"].shape == (114 + 22 * 6,)


def test_pad_seats_gives_one_shape_for_every_table_size() -> None:
    shapes = {
        nlhe_v1.env(num_players=n, pad_seats=True).observation_space("player_0")["observation"].shape for n in SIZES
    }
    assert shapes == {(114 + 22 * 10,)}


def test_exact_space_sized_from_max_stack_and_larger_stack_is_an_error() -> None:
    env = nlhe_v1.env(num_players=3, action_mode="exact", max_stack=2500)
    assert env.action_space("player_0").n == 2502
    numpy_sized = nlhe_v1.raw_env(num_players=3, action_mode="exact", max_stack=np.int64(2500))
    assert type(numpy_sized.max_stack) is int and numpy_sized.action_space("player_0").n == 2502
    env.reset(seed=0, options={"stacks": [2500, 100, 700]})
    with pytest.raises(ConfigError, match=r"stacks=.*0\.\.2500"):
        env.reset(seed=0, options={"stacks": [2501, 100, 700]})


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"num_players": 11}, "num_players"),
        ({"action_mode": "continuous"}, "action_mode"),
        ({"betting": "spread-limit"}, "betting"),
        ({"reward_unit": "dollars"}, "reward_unit"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"bet_sizes": (0.5, -1.0)}, "bet_sizes"),
        ({"max_stack": 10}, "max_stack"),
        ({"max_stack": 1500.0}, "max_stack"),
        ({"render_viewer": 9, "num_players": 3}, "render_viewer"),
    ],
)
def test_bad_keyword_is_a_config_error_naming_it(kwargs: dict, field: str) -> None:
    with pytest.raises(ConfigError) as info:
        nlhe_v1.raw_env(**kwargs)
    assert info.value.field == field


def test_bad_reset_options_raise_and_leave_the_hand_alone() -> None:
    env = nlhe_v1.raw_env(num_players=3)
    env.reset(seed=1)
    before = (env.agent_selection, env.state_object.num_events)
    with pytest.raises(ConfigError, match="button"):
        env.reset(options={"button": 3})
    with pytest.raises(ConfigError, match="stacks"):
        env.reset(options={"stacks": [100, 0, 0]})
    with pytest.raises(ConfigError, match="stacks"):
        env.reset(options={"stacks": [100, 100]})
    with pytest.raises(CardError):
        env.reset(options={"deck": ["As"] * 52})
    assert (env.agent_selection, env.state_object.num_events) == before


def test_reset_moves_button_one_seat_and_first_button_comes_from_seed() -> None:
    env = nlhe_v1.raw_env(num_players=6)
    env.reset(seed=11)
    first = env.state_object.button
    buttons = [first]
    for _ in range(7):
        env.reset()
        buttons.append(env.state_object.button)
    assert buttons == [(first + k) % 6 for k in range(8)]
    firsts = set()
    for seed in range(12):
        env.reset(seed=seed)
        firsts.add(env.state_object.button)
    assert len(firsts) > 1  # the first button is drawn, not fixed


def test_button_option_and_stacks_option_and_sitting_out() -> None:
    env = nlhe_v1.raw_env(num_players=4)
    env.reset(seed=0, options={"button": 2, "stacks": [500, 0, 800, 1000]})
    st = env.state_object
    assert st.button == 2
    assert st.dealt_in == (True, False, True, True)
    assert st.starting_stacks == (500, 0, 800, 1000)
    env.reset()
    assert env.state_object.button == 3  # next seat; every seat back at the buy-in
    assert env.state_object.starting_stacks == (1000,) * 4


def _random_hand(env, rng) -> None:
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def test_same_seed_and_options_give_identical_hand_records() -> None:
    records = []
    for _ in range(2):
        env = nlhe_v1.env(num_players=6, action_mode="exact")
        rng = np.random.default_rng(5)
        env.reset(seed=123)
        out = []
        for _ in range(5):
            _random_hand(env, rng)
            out.append(env.unwrapped.hand_record().to_json())
            env.reset()
        records.append(out)
    assert records[0] == records[1]
    assert len(set(records[0])) == 5


def test_supplied_deck_is_recorded_and_dealt() -> None:
    deck = [card_str(c) for c in reversed(range(52))]
    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=0, options={"deck": deck, "button": 0})
    rec = env.hand_record()
    assert list(rec.deck) == list(parse_cards(deck))
    # heads-up: seat 1 (left of the button) gets deck[0] and deck[2], the button deck[1] and deck[3]
    assert tuple(env.state_object.hole_cards[1]) == parse_cards([deck[0], deck[2]])
    assert tuple(env.state_object.hole_cards[0]) == parse_cards([deck[1], deck[3]])
    assert env.infos["player_1"]["view"]["hole_cards"] == (deck[0], deck[2])


def test_unknown_option_keys_are_ignored_for_pettingzoo_api_test() -> None:
    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=0, options={"options": 1})
    assert env.agents == ["player_0", "player_1"]


def test_rewards_sum_to_zero_in_bb_and_chips() -> None:
    rng = np.random.default_rng(0)
    for unit, scale in (("bb", 0.1), ("chips", 1.0)):
        env = nlhe_v1.env(num_players=6, reward_unit=unit, action_mode="exact")
        env.reset(seed=4)
        for _ in range(30):
            totals = {}
            for agent in env.agent_iter():
                obs, reward, term, trunc, _ = env.last()
                if term or trunc:
                    totals[agent] = reward
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            payoffs = env.unwrapped.state_object.payoffs
            assert sum(payoffs) == 0
            assert totals == pytest.approx({f"player_{s}": p * scale for s, p in enumerate(payoffs)})
            assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)
            env.reset()


def test_illegal_action_raise_mode_names_the_legal_set_and_changes_nothing() -> None:
    env = nlhe_v1.env(num_players=3, action_mode="exact")
    env.reset(seed=2, options={"button": 0})
    agent = env.agent_selection
    n_events = env.unwrapped.state_object.num_events
    obs_before = env.observe(agent)["observation"].copy()
    with pytest.raises(IllegalActionError, match=r"action 15 \(raise to 14\).*masked out.*raise to 20\.\.1000"):
        env.step(15)
    with pytest.raises(IllegalActionError, match=r"out of range: action ids are 0\.\.1001"):
        env.step(1002)
    with pytest.raises(IllegalActionError, match="not an action id"):
        env.step("call")
    assert env.agent_selection == agent
    assert env.unwrapped.state_object.num_events == n_events
    np.testing.assert_array_equal(env.observe(agent)["observation"], obs_before)
    env.step(1)  # the hand goes on normally


def test_illegal_action_timeout_mode_checks_or_folds_and_is_recorded() -> None:
    env = nlhe_v1.env(num_players=3, action_mode="exact", illegal_action="timeout")
    env.reset(seed=2, options={"button": 0})
    env.step(5)  # UTG (the button, 3-handed) faces the big blind: timeout = fold
    env.step(1)  # small blind calls
    env.step(7)  # big blind: checking is free, so the timeout checks
    ev = env.unwrapped.state_object.events
    assert [(e.seat, e.kind.value, e.timeout) for e in ev[:3]] == [
        (0, "fold", True),
        (1, "call", False),
        (2, "check", True),
    ]


def test_step_after_hand_over_on_raw_env_and_record_when_over() -> None:
    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=0, options={"button": 0})
    env.step(0)  # small blind folds
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -0.5, "player_1": 0.5}
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(1)
    assert env.legal_actions is None
    with pytest.raises(IllegalActionError):
        env.action_for_raise_to(20)
    rec = env.hand_record()
    assert rec.payoffs == (-5, 5)


def test_phh_export_of_the_last_hand(tmp_path) -> None:
    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=0, options={"button": 0})
    env.step(1)
    env.step(1)
    while env.agents and not env.terminations[env.agent_selection]:
        env.step(1)
    text = env.to_phh()
    assert "variant = \"NT\"" in text
    path = tmp_path / "hand.phh"
    env.write_phh(path)
    assert path.read_text() == text


def test_action_id_helpers() -> None:
    assert nlhe_v1.exact_action_id(1) == 2
    assert nlhe_v1.exact_raise_to(2) == 1
    assert nlhe_v1.exact_raise_to(0) is None
    with pytest.raises(IllegalActionError):
        nlhe_v1.exact_action_id(-5)
    assert nlhe_v1.exact_raise_to(np.int64(21)) == 20
    for bad in (21.9, "21", -1, True):  # a float used to be truncated silently
        with pytest.raises(IllegalActionError, match="is not a non-negative integer"):
            nlhe_v1.exact_raise_to(bad)
    env = nlhe_v1.raw_env(num_players=3, action_mode="exact")
    env.reset(seed=0, options={"button": 0})
    assert env.action_for_raise_to(20) == 21
    assert env.action_amount(21) == 20
    assert env.action_amount(20) is None  # raise to 19: below the minimum
    assert env.describe_action(21) == "raise to 20"
    with pytest.raises(IllegalActionError, match="no legal action raises to 19"):
        env.action_for_raise_to(19)
    d = nlhe_v1.raw_env(num_players=3)
    d.reset(seed=0, options={"button": 0})
    assert [d.describe_action(a) for a in (0, 1, 2, 3, 9)] == ["fold", "check/call", "min-raise", "raise 0.33 pot", "all-in"]
    assert d.action_amount(2) == 20
    assert d.action_amount(9) == 1000
    assert d.action_for_raise_to(1000) == 9


def test_render_ansi_shows_table_and_only_viewers_cards() -> None:
    deck = list(parse_cards("AsKs" "QdJd" "2c3c" "7h8h"))
    deck += [c for c in range(52) if c not in deck]
    env = nlhe_v1.env(num_players=2, render_mode="ansi", render_viewer=1)
    env.reset(seed=0, options={"button": 0, "deck": [card_str(c) for c in deck]})
    text = env.render()
    assert "blinds 5/10" in text and "pot: 15" in text and "to act: player_0" in text
    hole1 = " ".join(env.unwrapped.infos["player_1"]["view"]["hole_cards"])
    hole0 = " ".join(env.unwrapped.infos["player_0"]["view"]["hole_cards"])
    assert hole1 in text and hole0 not in text
    assert "BTN/SB" in text and "BB" in text
    public = nlhe_v1.env(num_players=2, render_mode="ansi")
    public.reset(seed=0, options={"button": 0, "deck": [card_str(c) for c in deck]})
    assert hole0 not in public.render() and hole1 not in public.render()
    assert nlhe_v1.env(num_players=2).unwrapped.render() is None


def test_state_object_before_reset_is_an_error() -> None:
    with pytest.raises(HandOverError, match="reset"):
        _ = nlhe_v1.raw_env().state_object


def test_render_human_prints_and_returns_none(capsys) -> None:
    env = nlhe_v1.env(num_players=3, render_mode="human")
    env.reset(seed=0, options={"button": 0})
    assert env.render() is None
    out = capsys.readouterr().out
    assert "to act: player_0" in out and "seat 2" in out


def test_seat_view_is_a_frozen_snapshot_taken_when_the_seat_is_to_act() -> None:
    env = nlhe_v1.raw_env(num_players=3)
    env.reset(seed=0, options={"button": 0})
    view = env.infos["player_1"]["view"]
    assert set(view) >= {"seat", "hole_cards", "board", "pot", "stacks", "street_bets", "history", "shown"}
    assert view["pot"] == 15 and view["actor"] == 0 and view["history"] == ()
    env.step(1)  # the button calls; the small blind (seat 1) is to act
    assert view["pot"] == 15  # the old snapshot kept its moment
    now = env.infos["player_1"]["view"]
    assert now["pot"] == 25 and now["actor"] == 1 and now["history"] == ((0, "preflop", "call", 10),)
    assert env.infos["player_0"]["view"]["history"] == ()  # seat 0's view is from its own turn
    with pytest.raises(KeyError, match="not in a seat view"):
        view["opponent_cards"]
    with pytest.raises(AttributeError, match="read-only"):
        view.pot = 0  # type: ignore[misc]
    env.step(0)  # the small blind folds
    env.step(1)  # the big blind checks: the flop
    while not env.terminations[env.agent_selection]:
        env.step(0 if env.infos[env.agent_selection]["legal"]["fold"] else 1)
    final = env.infos["player_1"]["view"]
    assert final["is_over"] and final["actor"] == -1 and final["street"] == "showdown"
    assert final["payoffs"] == env.state_object.payoffs and sum(final["payoffs"]) == 0


@pytest.mark.parametrize(("num_players", "ante", "seed"), [(2, 0, 1), (6, 0, 2), (10, 3, 3)])
def test_every_view_handed_out_is_the_engine_at_that_moment(num_players: int, ante: int, seed: int) -> None:
    # the env keeps its own copy of what a view shows (history, fold and all-in flags, board)
    # event by event: each view handed out must be the engine at that moment, the history and the
    # flags read back from the engine's events
    from holdem_env.engine.actions import ActionKind
    from holdem_env.engine.record import ActionEvent

    streets = ("preflop", "flop", "turn", "river")
    env = nlhe_v1.env(num_players=num_players, ante=ante)
    env.reset(seed=seed)
    raw, rng, checked = env.unwrapped, np.random.default_rng(seed), 0
    for _ in range(30):  # short and uneven stacks: all-ins from the blinds and antes on, side pots
        env.reset(options={"stacks": [int(x) for x in rng.integers(2, 300, num_players)]})
        dealt = [raw.infos[a]["view"] for a in raw.possible_agents]
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            state, seat = raw.state_object, raw.agent_name_mapping[agent]
            view = info["view"]
            pot, current_bet, button, actor, stacks, bets = state.public_table()
            actions = [e for e in state.events if type(e) is ActionEvent]
            assert (view["seat"], view["pot"], view["current_bet"], view["button"]) == (seat, pot, current_bet, button)
            assert view["history"] == tuple((e.seat, streets[e.street], e.kind.value, e.to) for e in actions)
            assert view["folded"] == tuple(any(e.seat == s and e.kind is ActionKind.FOLD for e in actions)
                                           for s in range(num_players))
            assert view["all_in"] == state.is_all_in and view["board"] == tuple(map(card_str, state.board))
            if term or trunc:
                assert view["is_over"] and view["payoffs"] == state.payoffs
                env.step(None)
                continue
            assert (view["actor"], view["stacks"], view["street_bets"]) == (seat, stacks, bets) and seat == actor
            if not actions:  # nothing happened since the deal: the dealt view shows the same moment
                assert view == dealt[seat]
            checked += 1
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked >= 2 * 30  # decisions checked (30 hands)


def test_an_agent_changing_its_info_changes_no_other_info() -> None:
    # every info, and the legal dict in it, is a dict of its own (the idle seats' legal sets are
    # copies of one template): an agent that writes into its own changes nothing anyone else gets
    idle = {"fold": False, "check": False, "call": 0, "min_raise_to": 0, "max_raise_to": 0}
    env = nlhe_v1.env(num_players=4)
    env.reset(seed=3)
    raw = env.unwrapped
    for _hand in range(3):
        seen = []
        for agent in env.agent_iter():
            _, _, term, trunc, info = env.last()
            others = [raw.infos[a] for a in raw.agents if a != agent]
            assert all(o["legal"] == idle for o in others)  # nobody else is to act
            seen += [id(o["legal"]) for o in others] + [id(info["legal"])]
            info["legal"]["fold"] = info["legal"]["call"] = "changed"
            info["legal"]["extra"] = 1
            assert all(o["legal"] == idle for o in others)
            env.step(None if term or trunc else 1)
        assert len(set(seen)) > 4  # new dicts handed out along the hand
        env.reset()
        assert all(raw.infos[a]["legal"] == idle for a in raw.agents if a != raw.agent_selection)


def test_seat_view_is_a_read_only_mapping_in_either_build() -> None:
    # a registered Mapping (the compiled build makes SeatView an extension type): the mixin
    # methods, equality with dicts, hashing, pickling and the read-only field
    import pickle
    from collections.abc import Mapping

    from holdem_env.env._view import VIEW_KEYS, SeatView

    env = nlhe_v1.raw_env(num_players=3)
    env.reset(seed=4, options={"button": 0})
    view = env.infos["player_2"]["view"]
    assert isinstance(view, Mapping) and isinstance(view, SeatView)
    assert list(view.keys()) == list(VIEW_KEYS) and len(view) == len(VIEW_KEYS)
    plain = dict(view.items())
    assert list(view.values()) == [plain[k] for k in VIEW_KEYS]
    assert view == plain and not (view != plain) and plain == dict(view)
    assert "pot" in view and "deck" not in view and 3 not in view
    assert view.get("seat") == 2 and view.get("deck", "none") == "none"
    assert view != {**plain, "pot": -1} and view != 7
    again = pickle.loads(pickle.dumps(view))
    assert again == view and hash(again) == hash(view) and type(again) is SeatView
    assert SeatView(**plain) == view
    with pytest.raises(AttributeError):
        view._values = ()  # type: ignore[misc]
    assert view["seat"] == 2


def test_antes_are_posted_and_rewards_still_sum_to_zero() -> None:
    env = nlhe_v1.raw_env(num_players=4, ante=2, reward_unit="chips")
    env.reset(seed=5, options={"button": 0})
    assert env.infos["player_0"]["view"]["pot"] == 4 * 2 + 5 + 10
    while not env.terminations[env.agent_selection]:
        env.step(0 if env.infos[env.agent_selection]["legal"]["fold"] else 1)
    assert sum(env.rewards.values()) == 0
    assert env.rewards["player_2"] == 3 * 2 + 5  # all fold to the big blind: 3 other antes + the small blind


@pytest.mark.parametrize("seed", ["abc", 1.5, -2])
def test_reset_with_bad_seed_raises_config_error_and_keeps_the_hand(seed) -> None:  # type: ignore[no-untyped-def]
    env = nlhe_v1.env(num_players=3)
    env.reset(seed=5)
    before = env.unwrapped.hand_record()
    with pytest.raises(ConfigError, match="seed"):
        env.reset(seed=seed)
    assert env.unwrapped.hand_record() == before


def test_render_blind_tags_are_the_engines_blind_seats_with_a_seat_sitting_out() -> None:
    env = nlhe_v1.env(num_players=4, render_mode="ansi")
    env.reset(seed=0, options={"button": 3, "stacks": [1000, 0, 1000, 1000]})
    state = env.unwrapped.state_object
    assert (state.small_blind_seat, state.big_blind_seat) == (0, 2)
    rows = {int(line[7:9]): line for line in env.render().splitlines() if line[2:7] == "seat "}
    assert " BTN " in rows[3] and " SB " in rows[0] and " BB " in rows[2] and " out" in rows[1]


@pytest.mark.parametrize(
    "name",
    ["holdem_env.env.nlhe_v1", "holdem_env.env.actions", "holdem_env.env._obs", "holdem_env.env._obsbuild",
     "holdem_env.env.gym_wrapper"],
)
def test_env_module_doctests(name: str) -> None:
    # The engine's doctests run in test_layering; the env modules' examples are checked here.
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_wrapped_step_keeps_pettingzoo_order_checks() -> None:
    """``env()``'s ``step`` calls the raw env directly only after ``reset`` with agents left;
    otherwise PettingZoo's own error (before ``reset``) and warning (every agent done)."""
    from pettingzoo.utils.env_logger import EnvLogger

    env = nlhe_v1.env(num_players=2)
    with pytest.raises(AssertionError, match="reset"):
        env.step(1)
    env.reset(seed=0)
    env.step(0)  # heads-up: the button folds, the hand is over
    assert env.terminations == {"player_0": True, "player_1": True}
    for _ in range(2):
        env.step(None)
    assert env.agents == []
    EnvLogger.flush()
    env.step(None)
    assert any("after all agents are terminated" in str(m) for m in EnvLogger.mqueue)
    EnvLogger.flush()


def test_last_after_every_dead_step_is_a_clear_error() -> None:
    from holdem_env.engine.errors import HandOverError

    env = nlhe_v1.env(num_players=2)
    env.reset(seed=1)
    env.step(0)  # the button folds: the hand is over
    for _ in range(2):
        env.step(None)  # both dead steps
    assert env.unwrapped.agents == []
    with pytest.raises(HandOverError, match="call reset"):
        env.last()


def test_unknown_reset_options_warn_and_name_the_allowed_ones() -> None:
    env = nlhe_v1.env(num_players=2)
    with pytest.warns(UserWarning, match=r"ignores colour, stack: the options nlhe_v1 reads are deck, button, stacks"):
        env.reset(seed=1, options={"stack": [5, 5], "colour": "red", "button": 1})
    assert env.unwrapped.state_object.button == 1  # the known option still applies
